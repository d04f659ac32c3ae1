import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import type { Principal } from '../auth/principal.ts';
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

const config = new IdempotencyConfig({
  eventKeyJmesPath: 'key',
  payloadValidationJmesPath: 'body',
  expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
  throwOnNoIdempotencyKey: true,
  responseHook: (response) => {
    const result = response as HttpResult;
    return { ...result, headers: { ...result.headers, 'Idempotent-Replayed': 'true' } };
  },
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
  const idempotent = makeIdempotent(async (_record: { key: string; body: string }) => execute(), {
    persistenceStore: idempotencyStore(principal.tenant),
    config,
  });
  try {
    return await idempotent({
      key: `${owner(principal)}|${routeKey}|${header}`,
      body: createHash('sha256').update(rawBody(event)).digest('hex'),
    });
  } catch (error) {
    if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
    if (error instanceof IdempotencyAlreadyInProgressError) throw new IdempotencyKeyInFlightError();
    throw error;
  }
}
