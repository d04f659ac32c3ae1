/**
 * `npm run bench`: starts a throwaway local stack, runs every benchmark against it, prints one
 * table and writes it to bench-results/latest.json. Figures are ratios against baselines measured
 * in the same run, so they compare across machines; absolute req/s do not.
 * BENCH_COUNT and BENCH_CONCURRENCY tune the run (defaults 2000 and 8); BENCH_ITEM_ROWS the items file (100,000);
 * BENCH_REGISTRATIONS the batteries registered through the registry outbox (500).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startLocalStack } from '../../infra/local/stack.ts';
import { benchBackup } from './backup.ts';
import { benchBundles } from './bundles.ts';
import { benchElabel } from './elabel.ts';
import { benchEvents } from './events.ts';
import { printTable, type Row } from './measure.ts';
import { benchImports } from './imports.ts';
import { benchIngest } from './ingest.ts';
import { benchItems } from './items.ts';
import { benchLifecycle } from './lifecycle.ts';
import { benchPipeline } from './pipeline.ts';
import { benchProducts } from './products.ts';
import { benchResolver, benchResolverFunction } from './resolver.ts';
import { benchRegistryOutbox } from './registry-outbox.ts';
import { benchScanSpill } from './scan-spill.ts';
import { benchWebhooksOutbound } from './webhooks-outbound.ts';

const count = Number(process.env.BENCH_COUNT ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
const dataDir = mkdtempSync(join(tmpdir(), 'passport-bench-'));
// A 500 ms batching window (Lambda's default here is 5 s) keeps the end-to-end figure about throughput.
// Every scan reads its GTIN (no hot cache), so that the scan's figures stay those of an ordinary product;
// the hot product's are the resolver function's (test/bench/resolver.ts).
const stack = await startLocalStack({ port: 0, memory: true, dataDir, scanBatchWindowMs: 500, resolverViewCacheMs: 0, backupPublicPages: true });
try {
  const rows: Row[] = [...(await benchProducts(stack.info, count, concurrency))];
  const resolverRows = await benchResolver(stack.info, count, concurrency);
  rows.push(...resolverRows);
  rows.push(...(await benchElabel(stack.info)));
  const baselineScans = resolverRows.find((r) => r.figure.startsWith('baseline'))?.value ?? 1;
  rows.push(...(await benchPipeline(stack.info, count, concurrency, baselineScans)));
  // Kills the stack's SQS endpoint and starts it again (test/bench/scan-spill.ts).
  rows.push(...(await benchScanSpill(stack, count, concurrency)));
  rows.push(...(await benchIngest(stack.info, count, concurrency)));
  rows.push(...(await benchImports(stack.info, count)));
  rows.push(...(await benchItems(stack.info, concurrency)));
  rows.push(...(await benchLifecycle(count, concurrency)));
  rows.push(...(await benchWebhooksOutbound(stack.info, count, concurrency)));
  rows.push(...(await benchBackup(stack.info)));
  rows.push(...(await benchRegistryOutbox(stack.info, Number(process.env.BENCH_REGISTRATIONS ?? 500))));
  rows.push(...(await benchEvents(stack.info))); // after every bench that needs the table stream (test/bench/events.ts)
  // Last, so that their Node processes do not disturb the request benchmarks.
  rows.push(...(await benchResolverFunction()));
  rows.push(...(await benchBundles()));
  console.log(`\nProduct Passport benchmarks (${count} requests per figure, ${concurrency} in flight, Node ${process.version})\n`);
  printTable(rows);
  const outDir = join(REPO_ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'latest.json'),
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, count, concurrency, rows }, null, 2)}\n`,
  );
  console.log(`\nWritten to bench-results/latest.json`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
