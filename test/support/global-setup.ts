import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack, type StackInfo } from '../../infra/local/stack.ts';
import { buildOpenApi, type OpenApiDocument } from '../../lib/api/openapi.ts';
import { TEST_ACCOUNTS } from './accounts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    dataDir: string;
    /** The OpenAPI document, built once here: the contract check of every worker reads it (test/support/contract.ts). */
    openapi: OpenApiDocument;
  }
}

interface Started {
  stack: LocalStack;
  dataDir: string;
  openapi: OpenApiDocument;
}

interface SharedStack {
  started: Promise<Started>;
  users: number;
}

/**
 * Vitest runs a project's global setup once per project, each in its own module instance, so the
 * stack the integration, e2e and fuzz projects share is kept on the main process's globalThis.
 */
const shared = globalThis as typeof globalThis & { __passportTestStack?: SharedStack };

async function start(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'passport-test-'));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  // A short visibility timeout and batching window keep the queue tests quick.
  // The dashboard is built into the run's own directory, beside a developer's dashboard/dist.
  const stack = await startLocalStack({
    port: 0,
    memory: true,
    dataDir,
    queueVisibilitySeconds: 1,
    scanBatchWindowMs: 200,
    dashboardDir: join(dataDir, 'dashboard'),
    devAccounts: TEST_ACCOUNTS,
    // Outbound webhook retries after 1 s instead of 5 s, 5 min, … (test/integration/event-subscriptions.test.ts).
    eventRetryScheduleSeconds: [1, 1, 1, 1, 1, 1, 1],
    // Every test reaches the gateway from 127.0.0.1: one address for the whole suite's anonymous reads.
    // The per-address limit has its own tests (test/unit/anonymous-rate-limit.test.ts).
    anonymousRateLimitPerMinute: 1_000_000,
    // Tests change a product and scan it at once: the resolver reads every scan. The hot cache has its
    // own tests (test/unit/hot-cache.test.ts; test/integration/faults.test.ts runs a stack with it).
    resolverViewCacheMs: 0,
  });
  // Built once for every project's workers, whose contract check reads it (test/support/contract.ts).
  return { stack, dataDir, openapi: buildOpenApi() };
}

/**
 * Starts the real local stack (DynamoDB Local, fauxqs, gateway) on free ports in memory, so the
 * suite runs beside a developer's `npm start`; one stack for every project that asks for it,
 * stopped when the last of them is done. Tests reach it over HTTP.
 */
export default async function setup(project: TestProject) {
  const entry = (shared.__passportTestStack ??= { started: start(), users: 0 });
  entry.users++;
  const { stack, dataDir, openapi } = await entry.started;
  project.provide('stack', stack.info);
  project.provide('dataDir', dataDir);
  project.provide('openapi', openapi);
  return async () => {
    if (--entry.users > 0) return;
    delete shared.__passportTestStack;
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
