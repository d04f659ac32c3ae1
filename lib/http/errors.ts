import { ERROR_TYPES, type ErrorType, type StatusOf } from './error-types.ts';

export type { ErrorType } from './error-types.ts';

/**
 * Every error the API can answer with, in one place.
 *
 * docs/decisions.md#errors-one-object-one-type-per-status gives the body shape `{ error: { type, code, message, param?, suggestion? } }`
 * with `code === type`; error-types.ts is the table of types and the statuses each answers with.
 * Handlers throw these; the pipeline (lib/api/handler.ts) turns them into responses.
 */
export interface ErrorBody {
  error: {
    type: ErrorType;
    code: ErrorType;
    message: string;
    param?: string;
    suggestion?: string;
    documentationUrl?: string;
  };
}

export interface ApiErrorOptions {
  param?: string;
  suggestion?: string;
  headers?: Record<string, string>;
}

export class ApiError<T extends ErrorType = ErrorType> extends Error {
  readonly status: number;
  readonly param?: string;
  readonly suggestion?: string;
  readonly headers: Record<string, string>;

  /** `status` must be one the table (error-types.ts) gives `type`. */
  constructor(
    status: StatusOf<T>,
    readonly type: T,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    if (!Object.hasOwn(ERROR_TYPES[type].statuses, status)) throw new Error(`${type} does not answer ${status} (lib/http/error-types.ts)`);
    this.status = status;
    this.name = 'ApiError';
    this.param = options.param;
    this.suggestion = options.suggestion;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return {
      error: {
        type: this.type,
        code: this.type,
        message: this.message,
        ...(this.param === undefined ? {} : { param: this.param }),
        ...(this.suggestion === undefined ? {} : { suggestion: this.suggestion }),
      },
    };
  }
}

/** 400: the request itself is malformed (bad JSON, wrong content type, unknown query parameter). */
export class InvalidRequestError extends ApiError<'invalid_request_error'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(400, 'invalid_request_error', message, options);
  }
}

/** 401: missing, malformed, unknown or revoked credentials; bad webhook signature. */
export class AuthenticationError extends ApiError<'authentication_error'> {
  constructor(message = 'Missing or invalid API key.', options?: ApiErrorOptions) {
    super(401, 'authentication_error', message, {
      suggestion: 'Send a valid key as "Authorization: Bearer sk_live_…" or "Bearer sk_test_…".',
      ...options,
      headers: { 'WWW-Authenticate': 'Bearer', ...options?.headers },
    });
  }
}

/** 403: authenticated, but the credentials do not allow this operation. */
export class PermissionError extends ApiError<'permission_error'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(403, 'permission_error', message, options);
  }
}

/** 404: no such resource for this tenant (another tenant's resource is a 404 too). */
export class NotFoundError extends ApiError<'not_found'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(404, 'not_found', message, options);
  }
}

/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends ApiError<'invalid_request_error'> {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'invalid_request_error', `Method ${method} is not allowed on this path.`, {
      suggestion: `Use one of: ${allowed.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
    });
  }
}

/** 409: a unique value is taken. */
export class DuplicateError extends ApiError<'duplicate_error'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(409, 'duplicate_error', message, options);
  }
}

/**
 * 409: the write lost its race to concurrent writes of the same resource as many times as it tried
 * (each write is conditional on the version it read); nothing was changed, and sending it again may win.
 */
export class ConflictError extends ApiError<'conflict'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(409, 'conflict', message, options);
  }
}

/** 410: the product behind a Digital Link was withdrawn by its producer (docs/lifecycle.md#withdrawal). */
export class GoneError extends ApiError<'not_found'> {
  constructor(message: string, options?: ApiErrorOptions) {
    super(410, 'not_found', message, options);
  }
}

/** 413: the body is larger than the service accepts. */
export class PayloadTooLargeError extends ApiError<'invalid_request_error'> {
  constructor(limitBytes: number) {
    super(413, 'invalid_request_error', `The request body exceeds ${limitBytes} bytes.`, {
      suggestion: 'Send a smaller body.',
    });
  }
}

/** 415: a body (a file upload, a merge patch) in a media type the route does not take. */
export class UnsupportedMediaTypeError extends ApiError<'invalid_request_error'> {
  constructor(message: string, accepted: readonly string[]) {
    super(415, 'invalid_request_error', message, { param: 'Content-Type', suggestion: `Send one of: ${accepted.join(', ')}.` });
  }
}

/** 422: the request is well-formed but a field is invalid; `param` names it. */
export class ValidationError extends ApiError<'validation_error'> {
  constructor(message: string, param: string, suggestion?: string) {
    super(422, 'validation_error', message, { param, ...(suggestion ? { suggestion } : {}) });
  }
}

/** 429: too many requests for this API key. */
export class RateLimitError extends ApiError<'rate_limit_error'> {
  constructor(retryAfterSeconds: number, headers: Record<string, string> = {}, message = 'Too many requests for this API key.', advice = 'with exponential backoff') {
    super(429, 'rate_limit_error', message, {
      suggestion: `Retry after ${retryAfterSeconds} seconds, ${advice}.`,
      headers: { 'Retry-After': String(retryAfterSeconds), ...headers },
    });
  }
}

/**
 * 503: a service the request depends on (DynamoDB, SQS, KMS, Secrets Manager) refused, dropped or
 * timed out, or throttled beyond the retries (lib/http/availability.ts). The message names no
 * service and no detail; Retry-After says when to come back (docs/api.md#when-a-dependency-is-down).
 */
export class ServiceUnavailableError extends ApiError<'service_unavailable'> {
  constructor(retryAfterSeconds: number, message = 'The service is unavailable for a moment; nothing was changed.', options: ApiErrorOptions = {}) {
    super(503, 'service_unavailable', message, {
      suggestion: `Retry after ${retryAfterSeconds} seconds, with the same Idempotency-Key for a POST that takes one.`,
      ...options,
      headers: { 'Retry-After': String(retryAfterSeconds), ...options.headers },
    });
  }
}

/** 500: a bug. The message is fixed so that nothing internal leaks. */
export class InternalError extends ApiError<'api_error'> {
  constructor(requestId: string) {
    super(500, 'api_error', `An internal error occurred. Quote request id ${requestId} when contacting support.`);
  }
}
