/**
 * The one table of error types: each type's title and the statuses it answers with, each with
 * what it means there (docs/decisions.md#errors-one-object-one-type-per-status). The error classes (errors.ts), the OpenAPI document's
 * error enum and status texts (lib/api), the API fuzz suite and the dashboard read it. It imports
 * nothing, so the dashboard may import it by value.
 */
export const ERROR_TYPES = {
  invalid_request_error: {
    title: 'Invalid request',
    statuses: {
      400: 'Malformed request: invalid JSON, not JSON, an unknown query parameter',
      405: 'Method not allowed',
      413: 'Body over its limit: 256 KiB; a bulk import file over 5 MB (XLSX 4 MB) or 10,000 rows',
      415: 'A body in a media type the route does not accept: a file upload, a merge patch',
    },
  },
  authentication_error: { title: 'Not authenticated', statuses: { 401: 'Missing or invalid authentication' } },
  permission_error: { title: 'Not allowed', statuses: { 403: 'Not allowed: a missing scope, or a session required' } },
  not_found: {
    title: 'Not found',
    statuses: { 404: 'Not found, also for another organization’s resources', 410: 'Gone: the producer withdrew the product (docs/lifecycle.md#withdrawal)' },
  },
  duplicate_error: { title: 'Duplicate', statuses: { 409: 'Conflict: a duplicate' } },
  conflict: { title: 'Conflict', statuses: { 409: 'the request conflicts with the state of the resource: a concurrent change kept winning (read it again and retry), or the resource is in a state the change cannot leave (a battery status moves by operations only); nothing was changed' } },
  validation_error: { title: 'Invalid field', statuses: { 422: 'A field is invalid; param names it' } },
  rate_limit_error: { title: 'Too many requests', statuses: { 429: 'Rate limit exceeded; see Retry-After' } },
  idempotency_error: {
    title: 'Idempotency-Key conflict',
    statuses: {
      400: 'an Idempotency-Key reused with another body',
      409: 'the same Idempotency-Key in flight',
    },
  },
  api_error: { title: 'Internal error', statuses: { 500: 'Internal error; quote the Request-Id' } },
  service_unavailable: {
    title: 'Service unavailable',
    statuses: { 503: 'A service it depends on (the database, a queue, the key service) did not answer; nothing was changed; retry after Retry-After seconds' },
  },
} as const satisfies Record<string, { title: string; statuses: Readonly<Record<number, string>> }>;

export type ErrorType = keyof typeof ERROR_TYPES;

/** The statuses `T` answers with. */
export type StatusOf<T extends ErrorType> = T extends ErrorType ? keyof (typeof ERROR_TYPES)[T]['statuses'] & number : never;

/** Every error type, in the table's order (for enums). */
export const ERROR_TYPE_NAMES = Object.keys(ERROR_TYPES) as [ErrorType, ...ErrorType[]];

/** The statuses an error type answers with. */
export const statusesOf = (type: ErrorType): number[] => Object.keys(ERROR_TYPES[type].statuses).map(Number);

/** The error types that answer with `status` (usually one; 400 and 409 also idempotency_error). */
export const typesOfStatus = (status: number): ErrorType[] => ERROR_TYPE_NAMES.filter((type) => statusesOf(type).includes(status));

/** The title of an error type, or undefined for a string that is not one. */
export const titleOf = (type: string): string | undefined => (Object.hasOwn(ERROR_TYPES, type) ? ERROR_TYPES[type as ErrorType].title : undefined);
