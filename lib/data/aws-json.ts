import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * A small client for the AWS JSON 1.0 protocol that DynamoDB and SQS both speak: one signed POST
 * per operation, the operation named in `X-Amz-Target`. Only the scan path uses it (GetItem and
 * SendMessage): the AWS SDK's clients cost the resolver more cold-start time than all its own code
 * (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk). Requests are signed by the SDK's
 * own SigV4 signer; connections are kept alive; throttling, 5xx answers, time-outs and dropped
 * connections are retried as the SDK's standard mode does (3 attempts, jittered exponential back-off),
 * within the scan path's budget: an attempt is cut off after ATTEMPT_TIMEOUT_MS, and no attempt
 * starts (or waits) past the call's budget (CALL_BUDGET_MS unless the caller gives another), so a
 * scan's calls end well inside the resolver's 5 s Lambda timeout (docs/resolver.md#when-a-dependency-is-down).
 */

/** An error answer of an AWS service, named as the SDK names it (`ResourceNotFoundException`, …). */
export class AwsServiceError extends Error {
  constructor(
    name: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = name;
  }
}

export interface AwsJsonService {
  /** The signing name: `dynamodb` or `sqs`. */
  signingName: string;
  /** The prefix of `X-Amz-Target`: `DynamoDB_20120810` or `AmazonSQS`. */
  targetPrefix: string;
  region: string;
  /** Where requests go: `https://dynamodb.{region}.amazonaws.com`, or a local endpoint. */
  endpoint: string;
}

/** No answer: the connection failed, dropped or timed out. Worth another attempt. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

const MAX_ATTEMPTS = 3;
const BASE_DELAY_MS = 100;
/** An attempt without an answer after this long is cut off (DynamoDB answers a GetItem in single-digit milliseconds). */
export const ATTEMPT_TIMEOUT_MS = 1000;
/** What one call may spend, attempts and back-off together, unless its caller says otherwise: one and a half attempts' time. */
export const CALL_BUDGET_MS = 1500;

/** A client's timing: the cut-off of an attempt, and a call's budget (defaults above; the local stack's are longer, lib/config.ts). */
export interface ClientTiming {
  attemptTimeoutMs: number;
  callBudgetMs: number;
}

/** The scan path's timing for a configured attempt cut-off (SCAN_ATTEMPT_TIMEOUT_MS, lib/config.ts). */
export const scanTiming = (attemptTimeoutMs: number): ClientTiming => ({ attemptTimeoutMs, callBudgetMs: attemptTimeoutMs * 1.5 });
const THROTTLING = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException', 'TooManyRequestsException']);

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 and HMAC-SHA-256 over node:crypto, in the shape the signer takes. */
class Sha256 {
  readonly #hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.#hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
}

/**
 * The function's credentials. Lambda hands every function its role's credentials in the
 * environment; a local endpoint (DynamoDB Local, fauxqs) takes any.
 */
function credentials(local: boolean): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (accessKeyId && secretAccessKey) return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  if (local) return { accessKeyId: 'local', secretAccessKey: 'local' };
  throw new Error('AWS credentials are not in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
}

// node:http and node:https through getBuiltinModule, not `import`: Node 22's ES module facade of
// node:http reads all its exports, and one of them loads Node's bundled undici, which costs the
// resolver's cold start more than the rest of its bundle (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk).
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

interface Answer {
  statusCode: number;
  body: string;
}

function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Answer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https.request : http.request)(
      url,
      { method: 'POST', headers, agent: secure ? agents.https : agents.http },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => reject(new NetworkError(error.message, { cause: error })));
      },
    );
    // The whole attempt, connecting included (a socket's idle timeout would restart with every byte).
    const timer = setTimeout(() => req.destroy(new NetworkError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error) => reject(error instanceof NetworkError ? error : new NetworkError(error.message, { cause: error })));
    req.end(body);
  });
}

/** The error an answer carries: `__type` is `namespace#Name`, the message `message` or `Message`. */
function serviceError(answer: Answer): AwsServiceError {
  let parsed: { __type?: unknown; message?: unknown; Message?: unknown } = {};
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    // not JSON: a proxy's or load balancer's answer
  }
  const name = typeof parsed.__type === 'string' ? (parsed.__type.split('#').pop() ?? parsed.__type) : `Http${answer.statusCode}`;
  const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.Message === 'string' ? parsed.Message : `HTTP ${answer.statusCode}`;
  return new AwsServiceError(name, message, answer.statusCode);
}

const retryable = (error: unknown): boolean =>
  error instanceof NetworkError || (error instanceof AwsServiceError && (error.statusCode >= 500 || error.statusCode === 429 || THROTTLING.has(error.name)));

export interface CallOptions {
  /** Milliseconds the call may take, attempts and back-off together (default: the client's callBudgetMs). */
  budgetMs?: number;
}

export interface AwsJsonClient {
  /** Calls `operation` with `input` and answers the service's JSON answer. */
  call<T>(operation: string, input: unknown, options?: CallOptions): Promise<T>;
}

/** A client of one service; `local` when the endpoint is a local stand-in that takes any credentials. */
export function awsJsonClient(
  service: AwsJsonService,
  local: boolean,
  timing: ClientTiming = { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, callBudgetMs: CALL_BUDGET_MS },
): AwsJsonClient {
  const url = new URL(service.endpoint);
  const signer = new SignatureV4({
    service: service.signingName,
    region: service.region,
    sha256: Sha256,
    credentials: () => Promise.resolve(credentials(local)),
    applyChecksum: false,
  });
  return {
    async call<T>(operation: string, input: unknown, options: CallOptions = {}): Promise<T> {
      const body = JSON.stringify(input);
      const deadline = Date.now() + (options.budgetMs ?? timing.callBudgetMs);
      for (let attempt = 1; ; attempt++) {
        try {
          const signed = await signer.sign({
            method: 'POST',
            protocol: url.protocol,
            hostname: url.hostname,
            ...(url.port ? { port: Number(url.port) } : {}),
            path: url.pathname,
            query: {},
            headers: {
              host: url.host,
              'content-type': 'application/x-amz-json-1.0',
              'x-amz-target': `${service.targetPrefix}.${operation}`,
              'content-length': String(Buffer.byteLength(body)),
            },
            body,
          });
          const answer = await post(url, signed.headers, body, Math.max(1, Math.min(timing.attemptTimeoutMs, deadline - Date.now())));
          if (answer.statusCode >= 300) throw serviceError(answer);
          return JSON.parse(answer.body || '{}') as T;
        } catch (error) {
          const delay = Math.random() * BASE_DELAY_MS * 2 ** attempt;
          if (attempt >= MAX_ATTEMPTS || !retryable(error) || Date.now() + delay >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    },
  };
}
