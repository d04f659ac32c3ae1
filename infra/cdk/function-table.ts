import type { Route } from '../../lib/api/routes.ts';
import type { FunctionSpec, LogLevel } from '../functions.ts';

/** A function table and a route table in the shape of infra/functions.ts and lib/api/routes.ts (tests pass their own). */
export type FunctionTable = Readonly<Record<string, FunctionSpec>>;
export type StackRoute = Pick<Route, 'method' | 'path' | 'auth'> & { function: string };

/** A function's application log level unless infra/functions.ts gives it one: warnings and errors only (docs/configuration.md#logs). */
export const DEFAULT_LOG_LEVEL: LogLevel = 'WARN';

/** The routes API Gateway serves: every route but those of the functions served by their function URL. */
export function apiGatewayRoutes<R extends StackRoute>(functions: FunctionTable, routes: readonly R[]): R[] {
  return routes.filter((route) => !functions[route.function]?.functionUrl);
}

/** The actions an SQS event source mapping needs on the queue it polls (on the function's role). */
export const CONSUMER_ACTIONS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'] as const;

/** Functions that always read the session key. */
const SESSION_FUNCTIONS = new Set(['auth']);

/** Whether a function gets `secretsmanager:GetSecretValue` on the session key. */
export function readsSessionSecret(name: string, spec: FunctionSpec): boolean {
  return SESSION_FUNCTIONS.has(name) || spec.grants.sessionSecret === true;
}

/**
 * The SQS actions a function's role gets on the scan queue: its grants, plus what the event
 * source mapping needs to poll the queue for it when it has a trigger.
 */
export function scanQueueActions(spec: FunctionSpec): string[] {
  return [...new Set([...(spec.grants.scanQueue ?? []), ...(spec.trigger?.queue === 'scan' ? CONSUMER_ACTIONS : [])])].sort();
}

/** The same for the import queue (bulk import chunks, docs/imports.md). */
export function importQueueActions(spec: FunctionSpec): string[] {
  return [...new Set([...(spec.grants.importQueue ?? []), ...(spec.trigger?.queue === 'import' ? CONSUMER_ACTIONS : [])])].sort();
}

/** The same for the event delivery queue (outbound webhooks, docs/webhooks-outbound.md). */
export function deliveryQueueActions(spec: FunctionSpec): string[] {
  return [...new Set([...(spec.grants.deliveryQueue ?? []), ...(spec.trigger?.queue === 'delivery' ? CONSUMER_ACTIONS : [])])].sort();
}

/** The same for the registry outbox queue (docs/registry.md#the-outbox). */
export function registryOutboxQueueActions(spec: FunctionSpec): string[] {
  return [...new Set([...(spec.grants.registryOutboxQueue ?? []), ...(spec.trigger?.queue === 'registryOutbox' ? CONSUMER_ACTIONS : [])])].sort();
}

/**
 * What a stream consumer's role needs on its pipeline's stream failure queue when its mapping sets
 * records aside (`retryAttempts`, infra/functions.ts): Lambda sends the failure record with the
 * function's execution role (docs/webhooks-outbound.md#a-record-that-keeps-failing).
 */
export function streamFailureQueueActions(trigger: FunctionSpec['trigger']): string[] {
  return trigger?.kind === 'tableStream' && trigger.retryAttempts !== undefined ? ['sqs:SendMessage'] : [];
}

/** What a DynamoDB Streams event source mapping needs on the table's stream (on the function's role). */
export const STREAM_CONSUMER_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'] as const;

/**
 * At least six times the consuming function's timeout (AWS's advice for SQS event sources), plus
 * its batching window; 30 s (SQS's default) when nothing consumes the queue yet.
 */
export function queueVisibilityTimeoutSeconds(consumers: readonly FunctionSpec[]): number {
  return Math.max(30, ...consumers.map((spec) => 6 * spec.timeoutSeconds + (spec.trigger?.maxBatchingWindowSeconds ?? 0)));
}

/** Mistakes in the route table that would only show up as a failed deployment or a 500. */
export function validateTables(functions: FunctionTable, routes: readonly StackRoute[]): void {
  for (const [name, spec] of Object.entries(functions)) {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`Function name ${name} must be lower-case letters, digits and hyphens.`);
    const trigger = spec.trigger;
    if (trigger) {
      if (!Number.isInteger(trigger.batchSize) || trigger.batchSize < 1 || trigger.batchSize > 10_000) {
        throw new Error(`Function ${name}: trigger.batchSize must be 1..10000.`);
      }
      if (trigger.maxBatchingWindowSeconds < 0 || trigger.maxBatchingWindowSeconds > 300) {
        throw new Error(`Function ${name}: trigger.maxBatchingWindowSeconds must be 0..300.`);
      }
      if (trigger.kind === 'sqs' && trigger.batchSize > 10 && trigger.maxBatchingWindowSeconds < 1) {
        throw new Error(`Function ${name}: an SQS batch over 10 messages needs maxBatchingWindowSeconds of at least 1.`);
      }
    }
    const served = routes.filter((route) => route.function === name);
    if (served.some((route) => route.auth === 'session') && !readsSessionSecret(name, spec)) {
      throw new Error(`Function ${name} serves session-authenticated routes, so it needs grants.sessionSecret: true.`);
    }
  }
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route ${key} appears twice.`);
    seen.add(key);
    if (!functions[route.function]) throw new Error(`Route ${key} names unknown function ${route.function}.`);
  }
}

/** `scan-events` → `ScanEvents`: the construct id prefix of a function. */
export const pascal = (name: string): string => name.split(/[^A-Za-z0-9]+/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
