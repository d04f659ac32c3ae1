import { defineApiHandler, publicOperation } from '../../lib/api/handler.ts';
import { RETRY_AFTER_SECONDS } from '../../lib/data/aws-budget.ts';
import { checkDependencies, readyTimeoutMs, type DependencyCheck, type DependencyName } from '../../lib/data/readiness.ts';
import { ServiceUnavailableError } from '../../lib/http/errors.ts';
import { logger } from '../../lib/http/logger.ts';
import { json } from '../../lib/http/response.ts';

/**
 * Readiness, `GET /ready` (docs/api.md#when-a-dependency-is-down): 200 when the table and the
 * queues each answer within a second (3 s against the local emulators), else 503 `service_unavailable` naming those that did not,
 * with Retry-After. A warm instance checks at most once a second, so a flood of probes costs the
 * dependencies no more than one check a second. (`GET /health`, the local gateway's liveness answer,
 * reads nothing.)
 */
const NAMES: Readonly<Record<DependencyName, string>> = {
  table: 'the table (DynamoDB)',
  scanQueue: 'the scan queue (SQS)',
  importQueue: 'the import queue (SQS)',
  deliveryQueue: 'the event delivery queue (SQS)',
};
const CHECK_EVERY_MS = 1000;
let last: { at: number; checks: Promise<DependencyCheck[]> } | undefined;

function currentChecks(): Promise<DependencyCheck[]> {
  const now = Date.now();
  if (!last || now - last.at >= CHECK_EVERY_MS) last = { at: now, checks: checkDependencies() };
  return last.checks;
}

export const handler = defineApiHandler('health', {
  'GET /ready': publicOperation(async () => {
    const checks = await currentChecks();
    const failed = checks.filter((check) => !check.ok);
    if (failed.length) {
      logger().warn('Not ready', { errorType: 'service_unavailable', status: 503, failed: failed.map(({ name, reason }) => ({ name, reason })) });
      const list = failed.map(({ name, reason }) => `${NAMES[name]} (${reason ?? 'no answer'})`).join(', ');
      throw new ServiceUnavailableError(RETRY_AFTER_SECONDS, `Not ready: no answer within ${readyTimeoutMs() / 1000} s from ${list}.`, {
        suggestion: `Retry after ${RETRY_AFTER_SECONDS} seconds.`,
      });
    }
    return json(200, { status: 'ready', dependencies: Object.fromEntries(checks.map(({ name }) => [name, 'ok'])) }, { 'Cache-Control': 'no-store' });
  }),
});
