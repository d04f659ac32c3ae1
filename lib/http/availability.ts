import { RETRY_AFTER_SECONDS } from '../data/aws-budget.ts';
import { ServiceUnavailableError } from './errors.ts';
import { logger } from './logger.ts';

/**
 * A dependency that is down or throttling beyond the retries (lib/data/unavailable.ts) is a 503
 * with Retry-After, never a 500 (docs/api.md#when-a-dependency-is-down); anything else unexpected
 * stays a 500, a bug.
 */
export { isDependencyUnavailable } from '../data/unavailable.ts';

/** The name and code of the first error in the chain, for the log (never its message: it may name a table or a key). */
function summary(error: unknown): { name: string; code?: string } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; code?: unknown; cause?: unknown };
  const inner = e.cause !== undefined && typeof e.cause === 'object' ? summary(e.cause) : undefined;
  const own = { name: typeof e.name === 'string' ? e.name : typeof error, ...(typeof e.code === 'string' ? { code: e.code } : {}) };
  return inner && (own.name === 'Error' || own.name.startsWith('Idempotency')) ? inner : own;
}

/**
 * The 503 for a dependency failure, logged once as a warning with `errorType: service_unavailable`
 * (the CloudWatch metric filter of each HTTP function counts these lines: infra/cdk/constructs/alarms.ts).
 */
export function unavailable(error: unknown, context: { requestId: string; routeKey?: string }): ServiceUnavailableError {
  logger().warn('A dependency is unavailable: answered 503', { ...context, errorType: 'service_unavailable', status: 503, cause: summary(error) });
  return new ServiceUnavailableError(RETRY_AFTER_SECONDS);
}
