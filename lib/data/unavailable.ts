/**
 * Whether a failure is a dependency's, not ours: DynamoDB, SQS, KMS or Secrets Manager could not
 * be reached, dropped the connection, did not answer within the budget (lib/data/aws-budget.ts),
 * answered 5xx, or throttled beyond the retries. The API answers such a failure with 503 and
 * Retry-After (lib/http/availability.ts); the resolver spills a scan the queue did not take
 * (lib/data/scan-queue.ts). The error is looked at with its causes: Powertools idempotency wraps
 * the store's error in its own (`IdempotencyPersistenceLayerError`, the DynamoDB error as `cause`).
 */

/** Error names AWS services and their clients give an unavailable or throttled service. */
const UNAVAILABLE_NAMES = new Set([
  // Throttling beyond the retries.
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
  // The service's own failures.
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
  'InternalServerException',
  'InternalErrorException',
  'KMSInternalException',
  'DependencyTimeoutException',
  'RequestTimeout',
  'RequestTimeoutException',
  // No answer: the SDK's HTTP handler (an attempt cut off), the scan path's client (lib/data/aws-json.ts).
  'TimeoutError',
  'NetworkError',
]);

/** Node's codes for a connection that could not be made, was dropped, or timed out. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET']);

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  /** The scan path's client's service errors (lib/data/aws-json.ts, AwsServiceError), read by shape: importing it would bring its signer into every bundle. */
  statusCode?: unknown;
  CancellationReasons?: unknown;
}

function isUnavailable(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as ErrorShape;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  // An SDK error with the service's 5xx (`$fault: 'server'`).
  const status = e.$metadata?.httpStatusCode ?? e.statusCode;
  if (typeof status === 'number' && (status >= 500 || status === 429)) return true;
  // A transaction refused because one of its items was throttled.
  if (e.name === 'TransactionCanceledException' && Array.isArray(e.CancellationReasons)) {
    if ((e.CancellationReasons as { Code?: unknown }[]).some((reason) => reason?.Code === 'ThrottlingError')) return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return isUnavailable(e.cause, depth + 1);
}

/** Whether `error` (or its cause) is a dependency that is unavailable for now. */
export const isDependencyUnavailable = (error: unknown): boolean => isUnavailable(error, 0);
