import httpErrorHandler from '@middy/http-error-handler';
import { isDependencyUnavailable, unavailable } from './availability.ts';
import { ApiError, InternalError, InvalidRequestError, ValidationError } from './errors.ts';
import { logger } from './logger.ts';
import { requestIdOf } from './request-id.ts';
import type { HttpEvent, HttpMiddleware } from './types.ts';
import { rawBody } from './raw-body.ts';
import { formatPath } from './validation.ts';

const BODY_PARSER = '@middy/http-json-body-parser';

/** What @middy/http-error-handler renders: our error object as the body, with its status and headers. */
class RenderedError extends Error {
  readonly expose = true;
  constructor(
    readonly statusCode: number,
    body: unknown,
    readonly headers: Record<string, string>,
    cause: unknown,
  ) {
    super(JSON.stringify(body), { cause });
    this.name = 'RenderedError';
  }
}

interface ParserError {
  statusCode: number;
  message: string;
  cause: { package: string; data?: unknown };
}

const isParserError = (error: unknown): error is ParserError =>
  typeof error === 'object' && error !== null && 'statusCode' in error && (error as { cause?: { package?: unknown } }).cause?.package === BODY_PARSER;

/** The keys @middy/http-json-body-parser refuses (`__proto__`, and `constructor` holding a `prototype`). */
const isForbiddenKey = (key: string, value: unknown): boolean =>
  key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'));

/** The full path of the first refused key of a JSON text (plain JSON.parse keeps `__proto__` as an own key). */
function forbiddenKeyPath(text: string, fallback: string): string {
  const queue: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: JSON.parse(text) as unknown, path: [] }];
  while (queue.length) {
    const { value, path } = queue.shift()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, Array.isArray(value) ? Number(key) : key];
      if (!Array.isArray(value) && isForbiddenKey(key, child)) return formatPath(childPath);
      queue.push({ value: child, path: childPath });
    }
  }
  return fallback;
}

/**
 * The body parser's refusals with the statuses of docs/api.md ("Identifiers, GTINs and errors"):
 * a non-JSON content type and malformed or missing JSON are 400 `invalid_request_error` (the
 * package says 415 and 422), a refused key (`__proto__`) a 422 naming it, like any unknown field.
 */
function fromParser(error: ParserError, event: HttpEvent): ApiError {
  if (error.statusCode === 415) {
    return new InvalidRequestError('The request body must be JSON.', { suggestion: 'Send the header "Content-Type: application/json".' });
  }
  const { data } = error.cause;
  if (error.message === 'Forbidden key in JSON body' && typeof data === 'string') {
    const param = forbiddenKeyPath(rawBody(event).toString('utf8'), data);
    return new ValidationError(`Unknown field '${param}'.`, param, 'Remove the field, or check its spelling and letter case against the API reference.');
  }
  if (data === undefined || data === '') return new InvalidRequestError('The request body is empty.', { suggestion: 'Send a JSON object.' });
  return new InvalidRequestError('The request body is not valid JSON.', { suggestion: 'Check the JSON syntax: quotes, commas and brackets.' });
}

/**
 * Any error as the API error it answers with: a dependency that is down or throttling beyond the
 * retries is a 503 with Retry-After (lib/http/availability.ts); anything else unexpected is a bug,
 * logged, and a 500 that reveals nothing.
 */
export function toApiError(error: unknown, event: HttpEvent): ApiError {
  if (error instanceof ApiError) return error;
  if (isParserError(error)) return fromParser(error, event);
  const requestId = requestIdOf(event);
  if (isDependencyUnavailable(error)) return unavailable(error, { requestId, routeKey: event.routeKey });
  logger().error('Unhandled error', { requestId, routeKey: event.routeKey, error: error instanceof Error ? error : String(error) });
  return new InternalError(requestId);
}

/**
 * Every failure as the error object of docs/api.md ("Identifiers, GTINs and errors"), with
 * @middy/http-error-handler writing the response: the middleware registered after it (so its
 * `onError` runs first) turns the request's error into one the package renders as is, with the
 * error object as the message, the status, and the headers (Retry-After, Allow, WWW-Authenticate).
 * Register the pair after requestIdHeader(), so that error responses carry Request-Id too.
 */
export function errorResponses(): HttpMiddleware[] {
  const translate: HttpMiddleware = {
    onError: (request) => {
      if (request.response !== undefined) return;
      const error = toApiError(request.error, request.event);
      request.error = new RenderedError(error.status, error.toBody(), { 'Content-Type': 'application/json; charset=utf-8', ...error.headers }, request.error);
    },
  };
  return [httpErrorHandler({ logger: false }) as HttpMiddleware, translate];
}
