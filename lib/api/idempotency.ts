import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import type { Principal } from '../auth/principal.ts';
import { sessionKey } from '../auth/session-key.ts';
import { idempotencyStore } from '../data/idempotency.ts';
import { ApiError, InvalidRequestError } from '../http/errors.ts';
import { rawBody } from '../http/raw-body.ts';
import type { HttpEvent, HttpResult } from '../http/types.ts';

/** How long an answer is replayed for its key. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The same key with another body: the client reused a key for a different request. */
export class IdempotencyKeyReusedError extends ApiError<'idempotency_error'> {
  constructor() {
    super(400, 'idempotency_error', 'This Idempotency-Key was already used with a different request body.', {
      param: 'Idempotency-Key',
      suggestion: 'Use a new key for a new request; retry a request with exactly the same body.',
    });
  }
}

/** The same key while its first request is still running. */
export class IdempotencyKeyInFlightError extends ApiError<'idempotency_error'> {
  constructor() {
    super(409, 'idempotency_error', 'A request with this Idempotency-Key is still in progress.', {
      param: 'Idempotency-Key',
      suggestion: 'Retry after a moment: the first request’s answer will then be replayed.',
    });
  }
}

/** A stored answer this service can no longer open (its session key changed since). */
export class IdempotencyRecordUnreadableError extends ApiError {
  constructor() {
    super(409, 'idempotency_error', 'The answer stored for this Idempotency-Key can no longer be replayed.', {
      param: 'Idempotency-Key',
      suggestion: 'Check whether the first request took effect (list the resources), then use a new key.',
    });
  }
}

/**
 * What the table keeps for a key: the answer sealed with AES-256-GCM, never in plaintext, since
 * some answers carry a secret shown once (`sk_…` API keys, `whsec_…` webhook secrets;
 * docs/security.md, finding 3). The key is derived by HKDF from the session key, which every
 * function with idempotent routes holds; the record's idempotency key is the authenticated data,
 * so a sealed answer opens for that key only. A replay returns the original answer, secret
 * included, to the same caller.
 */
interface StoredAnswer {
  sealed: string;
}
const REPLAYED = Symbol('replayed');

let answerKey: Promise<Buffer> | undefined;
function idempotencyAnswerKey(): Promise<Buffer> {
  answerKey ??= sessionKey().then((key) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'product-passport idempotency answers', 32)));
  answerKey.catch(() => (answerKey = undefined));
  return answerKey;
}

async function sealAnswer(result: HttpResult, aad: string): Promise<StoredAnswer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await idempotencyAnswerKey(), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(result), 'utf8'), cipher.final()]);
  return { sealed: ['v1', iv, ciphertext, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.') };
}

async function openAnswer(sealed: string, aad: string): Promise<HttpResult> {
  const [version, iv = '', ciphertext = '', tag = ''] = sealed.split('.');
  try {
    if (version !== 'v1') throw new Error(`Unknown sealed answer version ${version}.`);
    const decipher = createDecipheriv('aes-256-gcm', await idempotencyAnswerKey(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')) as HttpResult;
  } catch {
    throw new IdempotencyRecordUnreadableError();
  }
}

const config = new IdempotencyConfig({
  eventKeyJmesPath: 'key',
  payloadValidationJmesPath: 'body',
  expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
  throwOnNoIdempotencyKey: true,
  responseHook: (response) => ({ ...(response as object), [REPLAYED]: true }),
});

const owner = (principal: Principal): string =>
  principal.kind === 'apiKey' ? `key:${principal.keyId}` : `user:${principal.userId}`;

/**
 * Runs `execute` under the request's `Idempotency-Key`, if it has one (Powertools idempotency with
 * the single table): the same key with the same body replays the first answer (status and body)
 * for 24 hours; the same key with another body is a 400 `idempotency_error`; a copy arriving
 * while the first runs is a 409. Keys belong to the API key or user that sent them, and to the
 * route. A failed request (any error) leaves no record, so it can be retried with the same key.
 */
export async function withIdempotencyKey(
  event: HttpEvent,
  context: Context,
  principal: Principal,
  routeKey: string,
  execute: () => Promise<HttpResult>,
): Promise<HttpResult> {
  const header = event.headers?.['idempotency-key'];
  if (header === undefined) return execute();
  if (!KEY.test(header)) {
    throw new InvalidRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      param: 'Idempotency-Key',
      suggestion: 'Send a UUID, for example.',
    });
  }
  config.registerLambdaContext(context);
  const key = `${owner(principal)}|${routeKey}|${header}`;
  const aad = `${principal.tenant.orgId}|${principal.tenant.environment}|${key}`;
  const idempotent = makeIdempotent(async (_record: { key: string; body: string }) => sealAnswer(await execute(), aad), {
    persistenceStore: idempotencyStore(principal.tenant),
    config,
  });
  let stored: (StoredAnswer | HttpResult) & { [REPLAYED]?: true };
  try {
    stored = await idempotent({ key, body: createHash('sha256').update(rawBody(event)).digest('hex') });
  } catch (error) {
    if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
    if (error instanceof IdempotencyAlreadyInProgressError) throw new IdempotencyKeyInFlightError();
    throw error;
  }
  // A record stored before answers were sealed holds the answer itself; it expires within 24 hours.
  const { [REPLAYED]: replayed, ...answer } = stored;
  const result = 'sealed' in answer && typeof answer.sealed === 'string' ? await openAnswer(answer.sealed, aad) : (answer as HttpResult);
  return replayed ? { ...result, headers: { ...result.headers, 'Idempotent-Replayed': 'true' } } : result;
}
