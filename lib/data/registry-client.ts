import { config, type RegistryEndpoint } from '../config.ts';
import type { RegistryAnswer, RegistryEntry } from '../domain/registry/entry.ts';
import type { Environment } from '../domain/tenant.ts';
import { sdkClientBudget } from './aws-budget.ts';
import type { Signer } from './signers.ts';

/**
 * The EU registry of Digital Product Passports as the service reaches it
 * (docs/registry.md#the-client-and-the-emulator): one interface, so that the Commission's API,
 * once its specification is published, is one more adapter; and the adapter for the contract of the
 * CIRPASS-2 project's mock registry, the one registry API published so far.
 */
export interface RegistryClient {
  /**
   * Registers `entry`, sealed by the organization's key (`seal`). Idempotent by `upi`: the same
   * entry sent again answers the same registry id, so a retry never registers twice.
   */
  register(entry: RegistryEntry, seal: Signer): Promise<RegistryAnswer>;
  /** What the registry says now of an entry it accepted (pending, registered, rejected with its reasons). */
  status(registryId: string): Promise<RegistryAnswer>;
  /** Deactivates (true: withdrawn, recycled) or reactivates (false: reinstated) an ITEM entry. */
  setDeactivated(entry: RegistryEntry, deactivated: boolean, seal: Signer): Promise<RegistryAnswer>;
}

/**
 * What one exchange with a registry may cost (docs/security.md#parser-budgets): an answer's body is
 * read up to `maxBodyBytes` and no further, each request (the token's too) has `timeoutMs` in all,
 * an answer keeps at most `maxReasons` reasons of `maxReasonChars` each, a registry id is at most
 * `maxRegistryIdChars`, and a Retry-After is believed up to a day.
 */
export const REGISTRY_BUDGETS = {
  timeoutMs: 10_000,
  maxBodyBytes: 64 * 1024,
  maxReasons: 20,
  maxReasonChars: 1_000,
  maxRegistryIdChars: 200,
  maxTokenChars: 8_192,
  maxRetryAfterSeconds: 86_400,
} as const;

/** The header of the detached JWS over a request's body (the mock's `registry.jws.header-name` as its tests set it). */
export const JWS_HEADER = 'x-jws-signature';

/** The path of a registration under the registry's base URL (the mock's `POST /metadata/v1/registerDPP`). */
export const REGISTER_PATH = '/metadata/v1/registerDPP';

/** The path of an entry's status: the emulator's; the mock itself has only `…/{registryId}/proof`. */
export const statusPath = (registryId: string): string => `/metadata/v1/${encodeURIComponent(registryId)}`;

/**
 * The detached JWS of `body` (RFC 7515 Appendix F): the compact serialization of a JWS over the
 * body's bytes, its payload part left empty (`header..signature`), as the mock verifies it (it puts
 * the base64url of the body it received back in). ES256 by the organization's key, its key id in `kid`.
 */
export async function detachedJws(body: string, seal: Signer): Promise<string> {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: seal.keyId })).toString('base64url');
  const payload = Buffer.from(body, 'utf8').toString('base64url');
  const signature = await seal.sign(Buffer.from(`${header}.${payload}`, 'ascii'));
  return `${header}..${Buffer.from(signature).toString('base64url')}`;
}

/**
 * Retry-After (RFC 9110 §10.2.3) in seconds from `nowMs`: delay-seconds or an HTTP date, at most a
 * day; undefined when absent or not understood.
 */
export function retryAfterSeconds(value: string | null | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d{1,12}$/.test(text)) return Math.min(Number(text), REGISTRY_BUDGETS.maxRetryAfterSeconds);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - nowMs) / 1000)), REGISTRY_BUDGETS.maxRetryAfterSeconds);
}

const clip = (text: string): string => (text.length > REGISTRY_BUDGETS.maxReasonChars ? `${text.slice(0, REGISTRY_BUDGETS.maxReasonChars - 1)}…` : text);

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The reasons an answer gives: `reasons` (strings; the emulator's), else the mock's validation
 * report (`invalidProperties`, each its string fields joined), else `message` or OAuth's
 * `error_description`/`error`; at most `maxReasons`, each clipped.
 */
export function reasonsOf(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const found: string[] = [];
  if (Array.isArray(body.reasons)) for (const reason of body.reasons) if (typeof reason === 'string' && reason.trim()) found.push(reason.trim());
  if (!found.length && Array.isArray(body.invalidProperties)) {
    for (const property of body.invalidProperties) {
      if (!isRecord(property)) continue;
      const text = Object.values(property).filter((v): v is string => typeof v === 'string' && v.trim() !== '').join(': ');
      if (text) found.push(text);
    }
  }
  if (!found.length) {
    for (const key of ['message', 'error_description', 'error'] as const) {
      const value = body[key];
      if (typeof value === 'string' && value.trim()) {
        found.push(value.trim());
        break;
      }
    }
  }
  return found.slice(0, REGISTRY_BUDGETS.maxReasons).map(clip);
}

const ENTRY_STATUSES = ['pending', 'registered', 'rejected'] as const;
type EntryStatus = (typeof ENTRY_STATUSES)[number];

/**
 * A registry's answer to a registration or a status read, as the service acts on it:
 * - 2xx with a registry id: accepted, with the entry's status (pending, registered, or rejected with
 *   its reasons; an answer without a status is the mock's, which stores the entry at once:
 *   registered);
 * - 408, 425, 429 and 5xx: retry, after Retry-After when given;
 * - 401 and 403: retry too, since our credentials or the organization's seal were refused, not the
 *   entry: nothing is marked rejected for a key an operator must fix;
 * - any other 4xx: refused, with the registry's reasons (or the status when it gives none);
 * - anything else (a 2xx without a registry id, a 1xx or 3xx): retry; a register is idempotent.
 */
export function mapRegistryAnswer(status: number, retryAfter: string | null, bodyText: string, nowMs: number): RegistryAnswer {
  const body = parseJson(bodyText);
  const retry = (reason: string): RegistryAnswer => {
    const after = retryAfterSeconds(retryAfter, nowMs);
    return { outcome: 'retry', reason: clip(reason), ...(after === undefined ? {} : { retryAfterSeconds: after }) };
  };
  if (status >= 200 && status < 300) {
    const registryId = isRecord(body) ? body.registryId : undefined;
    if (typeof registryId !== 'string' || !registryId || registryId.length > REGISTRY_BUDGETS.maxRegistryIdChars) {
      return retry(`The registry answered ${status} without a registry id.`);
    }
    const record = body as Record<string, unknown>;
    const said = typeof record.status === 'string' ? record.status.toLowerCase() : undefined;
    if (said !== undefined && !(ENTRY_STATUSES as readonly string[]).includes(said)) return retry(`The registry answered an unknown status '${clip(String(record.status))}'.`);
    const entryStatus: EntryStatus = (said as EntryStatus | undefined) ?? 'registered';
    const registryUri = typeof record.registryUri === 'string' && record.registryUri.length <= 2_048 ? record.registryUri : undefined;
    const reasons = reasonsOf({ reasons: record.reasons });
    return {
      outcome: 'accepted',
      registryId,
      status: entryStatus,
      ...(registryUri ? { registryUri } : {}),
      ...(entryStatus === 'rejected' ? { reasons: reasons.length ? reasons : ['The registry rejected the entry and gave no reason.'] } : {}),
    };
  }
  const reasons = reasonsOf(body);
  const said = reasons.length ? `: ${reasons.join('; ')}` : '.';
  if (status === 401 || status === 403) return retry(`The registry refused our credentials or the organization's seal (HTTP ${status})${said}`);
  if (status === 408 || status === 425 || status === 429 || status >= 500) return retry(`The registry did not take the request now (HTTP ${status})${said}`);
  if (status >= 400) return { outcome: 'refused', reasons: reasons.length ? reasons : [`The registry refused the entry (HTTP ${status}) and gave no reason.`] };
  return retry(`The registry answered HTTP ${status}.`);
}

/** A failure before any answer: a timeout or a network error, in one sentence. */
function failureReason(error: unknown, what: string, timeoutMs: number): string {
  const e = error as { name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `${what} gave no answer within ${timeoutMs / 1000} s.`;
  const detail = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return `${what} could not be reached (${String(detail)}).`;
}

/** Not now: an answer the caller should try again (from the token endpoint, or a body over budget). */
class RetryLater extends Error {
  constructor(readonly answer: RegistryAnswer & { outcome: 'retry' }) {
    super(answer.reason);
  }
}

/** Reads `response`'s body up to `max` bytes; undefined when it is longer (then the rest is not read). */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface CirpassMockRegistryOptions {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  /** The client secret, or how to get it (from Secrets Manager in AWS), asked once per token. */
  clientSecret: string | (() => Promise<string>);
  /** For tests: the fetch to use, the clock, and smaller budgets. */
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
  maxBodyBytes?: number;
}

/**
 * The CIRPASS-2 mock registry's contract: `POST {base}/metadata/v1/registerDPP` with the entry as
 * JSON, an OAuth 2.0 bearer token from the client-credentials grant (RFC 6749 §4.4; the client
 * authenticated with HTTP Basic, §2.3.1), kept until shortly before it expires, and the detached JWS
 * over the body in `x-jws-signature`. A 401 challenging the token drops it and tries once more with a new one.
 */
export class CirpassMockRegistryClient implements RegistryClient {
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private token: { value: string; renewAt: number } | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(private readonly options: CirpassMockRegistryOptions) {
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? REGISTRY_BUDGETS.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? REGISTRY_BUDGETS.maxBodyBytes;
  }

  register(entry: RegistryEntry, seal: Signer): Promise<RegistryAnswer> {
    return this.send('POST', REGISTER_PATH, JSON.stringify(entry), seal);
  }

  status(registryId: string): Promise<RegistryAnswer> {
    return this.send('GET', statusPath(registryId));
  }

  setDeactivated(entry: RegistryEntry, deactivated: boolean, seal: Signer): Promise<RegistryAnswer> {
    // The mock's rule: `deactivated` belongs to ITEM entries only; a model or batch is not deactivated.
    if (entry.granularityLevel !== 'ITEM') throw new Error(`Only an ITEM entry is deactivated or reactivated, not a ${entry.granularityLevel}.`);
    return this.register({ ...entry, deactivated }, seal);
  }

  /** A bearer token: the one held until shortly before it expires, else a new one (one request for concurrent callers). */
  private accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.tokenRequest ??= this.requestToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const what = 'The registry’s token endpoint';
    const secret = typeof this.options.clientSecret === 'string' ? this.options.clientSecret : await this.options.clientSecret();
    // RFC 6749 §2.3.1: the id and secret form-urlencoded before they are joined for Basic.
    const basic = Buffer.from(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(secret)}`).toString('base64');
    let response: Response;
    let text: string | undefined;
    try {
      response = await this.fetch(this.options.tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: 'grant_type=client_credentials',
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await readCapped(response, this.maxBodyBytes);
    } catch (error) {
      throw new RetryLater({ outcome: 'retry', reason: failureReason(error, what, this.timeoutMs) });
    }
    if (text === undefined) throw new RetryLater({ outcome: 'retry', reason: `${what} answered more than ${this.maxBodyBytes} bytes.` });
    const body = parseJson(text);
    if (response.status !== 200) {
      const reasons = reasonsOf(body);
      const after = retryAfterSeconds(response.headers.get('retry-after'), this.now());
      // A refused client is our configuration, never the entry's fault: the registration waits (docs/registry.md).
      throw new RetryLater({
        outcome: 'retry',
        reason: clip(`${what} answered HTTP ${response.status}${reasons.length ? `: ${reasons.join('; ')}` : '.'}`),
        ...(after === undefined ? {} : { retryAfterSeconds: after }),
      });
    }
    const token = isRecord(body) ? body.access_token : undefined;
    const type = isRecord(body) ? body.token_type : undefined;
    if (typeof token !== 'string' || !token || token.length > REGISTRY_BUDGETS.maxTokenChars || typeof type !== 'string' || type.toLowerCase() !== 'bearer') {
      throw new RetryLater({ outcome: 'retry', reason: `${what} answered no bearer token.` });
    }
    // Kept until shortly before it expires: a minute early, or half its life when it lives under two (60 s when it says nothing).
    const expiresIn = isRecord(body) && typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 60_000;
    this.token = { value: token, renewAt: this.now() + expiresIn - Math.min(60_000, expiresIn / 2) };
    return token;
  }

  private async send(method: 'GET' | 'POST', path: string, body?: string, seal?: Signer): Promise<RegistryAnswer> {
    const what = 'The registry';
    // Signed once: a KMS call per request, and the body is the same on the second try.
    const signature = body !== undefined && seal ? await detachedJws(body, seal) : undefined;
    for (let attempt = 0; ; attempt++) {
      let token: string;
      try {
        token = await this.accessToken();
      } catch (error) {
        if (error instanceof RetryLater) return error.answer;
        throw error;
      }
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (signature) headers[JWS_HEADER] = signature;
      let response: Response;
      let text: string | undefined;
      try {
        response = await this.fetch(`${this.options.baseUrl}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          redirect: 'error',
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        text = await readCapped(response, this.maxBodyBytes);
      } catch (error) {
        return { outcome: 'retry', reason: failureReason(error, what, this.timeoutMs) };
      }
      if (text === undefined) {
        // Not read past the budget; a register is idempotent by upi, so asking again is safe.
        return { outcome: 'retry', reason: `${what} answered HTTP ${response.status} with more than ${this.maxBodyBytes} bytes, past the budget; not read.` };
      }
      // A 401 that challenges the bearer token (RFC 6750 §3) drops it and tries once more with a new
      // one; a 401 without that challenge refused the seal (the mock's JWS check), which a new token does not mend.
      if (response.status === 401 && attempt === 0 && /^\s*Bearer\b/i.test(response.headers.get('www-authenticate') ?? '')) {
        this.token = undefined;
        continue;
      }
      return mapRegistryAnswer(response.status, response.headers.get('retry-after'), text, this.now());
    }
  }
}

/** A client secret from Secrets Manager, read once per instance (as the session key is: lib/auth/session-key.ts). */
const secrets = new Map<string, Promise<string>>();
function secretFrom(arn: string): Promise<string> {
  let loading = secrets.get(arn);
  if (!loading) {
    loading = (async () => {
      const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
      const client = new SecretsManagerClient({ region: config().region, ...sdkClientBudget() });
      try {
        const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
        if (!SecretString) throw new Error('The registry client secret in Secrets Manager has no string value.');
        return SecretString.trim();
      } finally {
        client.destroy();
      }
    })();
    loading.catch(() => secrets.delete(arn));
    secrets.set(arn, loading);
  }
  return loading;
}

const clientOf = (endpoint: RegistryEndpoint): RegistryClient =>
  new CirpassMockRegistryClient({
    baseUrl: endpoint.baseUrl,
    tokenUrl: endpoint.tokenUrl,
    clientId: endpoint.clientId,
    clientSecret: endpoint.clientSecret ?? (() => secretFrom(endpoint.clientSecretArn as string)),
  });

const clients = new Map<Environment, RegistryClient>();

/**
 * The registry an organization's environment registers with: live with the production registry,
 * test with the acceptance registry (configuration); undefined when that one is not configured.
 * One client per environment and instance, so its token is shared by every registration.
 */
export function registryClientFor(environment: Environment): RegistryClient | undefined {
  const known = clients.get(environment);
  if (known) return known;
  const endpoint = config().registry[environment];
  if (!endpoint) return undefined;
  const client = clientOf(endpoint);
  clients.set(environment, client);
  return client;
}
