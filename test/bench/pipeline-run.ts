/**
 * `npx tsx test/bench/pipeline-run.ts`: the pipeline part of `npm run bench` alone (with the
 * resolver part, whose raw GetItem + SendMessage rate is the pipeline's baseline), on a throwaway
 * local stack. Prints the table; writes nothing. BENCH_COUNT and BENCH_CONCURRENCY as in run.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../../infra/local/stack.ts';
import { printTable } from './measure.ts';
import { benchPipeline } from './pipeline.ts';
import { benchResolver } from './resolver.ts';

const count = Number(process.env.BENCH_COUNT ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
const dataDir = mkdtempSync(join(tmpdir(), 'passport-bench-'));
const stack = await startLocalStack({ port: 0, memory: true, dataDir, scanBatchWindowMs: 500 });
try {
  const resolverRows = await benchResolver(stack.info, count, concurrency);
  const baseline = resolverRows.find((r) => r.figure.startsWith('baseline'))?.value ?? 1;
  const rows = [...resolverRows.filter((r) => r.figure.startsWith('baseline')), ...(await benchPipeline(stack.info, count, concurrency, baseline))];
  console.log(`\nScan pipeline benchmark (${count} requests, ${concurrency} in flight, Node ${process.version})\n`);
  printTable(rows);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
