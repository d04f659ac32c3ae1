import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack, type StackInfo } from '../../infra/local/stack.ts';
import { TEST_ACCOUNTS } from './accounts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    dataDir: string;
  }
}

/**
 * Starts the real local stack (DynamoDB Local, fauxqs, gateway) on free ports in memory, so the
 * suite runs beside a developer's `npm start`. Tests reach it over HTTP.
 */
export default async function setup(project: TestProject) {
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
  });
  project.provide('stack', stack.info);
  project.provide('dataDir', dataDir);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
