import type { ApiErrorBody, ErrorType } from './types.ts';

/**
 * An error answer of the API, typed: the house error object's `type`, `code`, `param`, `params`,
 * `message` and `suggestion` (docs/api.md#identifiers-gtins-and-errors), the HTTP status and the
 * `Request-Id` to quote. Thrown by every SDK method for a non-2xx answer (after retries).
 */
export class PassportError extends Error {
  override readonly name = 'PassportError';
  readonly status: number;
  /** The error type; a type newer than this SDK's document arrives as its plain string. */
  readonly type: ErrorType | (string & {});
  readonly code: string;
  /** The offending request field, when there is one (`gtin`, `data.nutrition.fatG`, `Idempotency-Key`). */
  readonly param: string | undefined;
  /** Every offending field, when a refusal names several. */
  readonly params: readonly string[] | undefined;
  readonly suggestion: string | undefined;
  /** The `Request-Id` header of the answer: quote it when asking about a request. */
  readonly requestId: string | undefined;
  readonly headers: Headers;

  constructor(status: number, error: Partial<ApiErrorBody> & { message: string }, headers: Headers = new Headers()) {
    super(error.message);
    this.status = status;
    this.type = error.type ?? 'api_error';
    this.code = error.code ?? this.type;
    this.param = error.param;
    this.params = error.params;
    this.suggestion = error.suggestion;
    this.headers = headers;
    this.requestId = headers.get('request-id') ?? undefined;
  }

  /** `Retry-After` of the answer in seconds (a 429 or 503 that outlasted the retries), if it has one. */
  get retryAfterSeconds(): number | undefined {
    const value = this.headers.get('retry-after');
    return value === null || !/^\d+$/.test(value.trim()) ? undefined : Number(value);
  }
}

const isErrorBody = (body: unknown): body is { error: ApiErrorBody } =>
  typeof body === 'object' && body !== null && typeof (body as { error?: { message?: unknown } }).error?.message === 'string';

/**
 * The PassportError of an answer whose body was read as `body` (the error object, or text when the
 * answer was not JSON: a proxy's page, say).
 */
export function errorOf(response: Response, body: unknown): PassportError {
  if (isErrorBody(body)) return new PassportError(response.status, body.error, response.headers);
  const text = typeof body === 'string' && body.trim() ? `: ${body.trim().slice(0, 200)}` : '';
  return new PassportError(response.status, { message: `HTTP ${response.status}${text}` }, response.headers);
}
