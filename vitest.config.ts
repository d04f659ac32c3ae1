import { defineConfig } from 'vitest/config';

/**
 * The test tiers (docs/testing.md), one vitest project each. Only the tiers that go through the
 * local stack (DynamoDB Local on Java, fauxqs, the gateway) get its global setup, and they share
 * one stack: test/support/global-setup.ts starts it for the first of them and stops it after the last.
 */
const localStack = {
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/stack-env.ts'],
};

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      // Node only: no Java, no stack, no browser.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...localStack } },
      // Chromium against the local stack (or a page the test serves itself).
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], ...localStack } },
      // The synthesized CloudFormation template and the bundles; no stack.
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'] } },
      { extends: true, test: { name: 'fuzz', include: ['test/fuzz/**/*.test.ts'], ...localStack } },
      // The SDK workspace's tests (docs/sdk.md#tests): its client, CLI and examples against the local stack.
      { extends: true, test: { name: 'sdk', include: ['sdk/test/**/*.test.ts'], ...localStack } },
    ],
  },
});
