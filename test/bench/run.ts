/**
 * `npm run bench`: starts a throwaway local stack, runs every benchmark against it, prints one
 * table and writes it to bench-results/latest.json. Figures are ratios against baselines measured
 * in the same run, so they compare across machines; absolute req/s do not.
 * BENCH_COUNT and BENCH_CONCURRENCY tune the run (defaults 2000 and 8); BENCH_ITEM_ROWS the items file (100,000);
 * BENCH_REGISTRATIONS the batteries registered through the registry outbox (500).
 *
 * Each part prints its rows as soon as it is measured and bench-results/latest.json is rewritten
 * after every part; a part that fails is reported (its error in the file) and the next goes on.
 * `npm run bench -- scan products backup` runs only the parts named (PARTS below; `--list` names them).
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

type Stack = Awaited<ReturnType<typeof startLocalStack>>;
interface Context {
  stack: Stack;
  /** The resolver's baseline scans per second, when the resolver part ran before the pipeline. */
  baselineScans: number;
}

/** The parts in the order they run (some disturb the stack: the scan spill kills its SQS endpoint; the Node processes of the last two disturb request figures). */
const PARTS: readonly { name: string; run: (c: Context) => Promise<Row[]> }[] = [
  { name: 'products', run: (c) => benchProducts(c.stack.info, count, concurrency) },
  {
    name: 'scan',
    run: async (c) => {
      const rows = await benchResolver(c.stack.info, count, concurrency);
      c.baselineScans = rows.find((r) => r.figure.startsWith('baseline'))?.value ?? 1;
      return rows;
    },
  },
  { name: 'elabel', run: (c) => benchElabel(c.stack.info) },
  { name: 'pipeline', run: (c) => benchPipeline(c.stack.info, count, concurrency, c.baselineScans) },
  { name: 'scan-spill', run: (c) => benchScanSpill(c.stack, count, concurrency) },
  { name: 'ingest', run: (c) => benchIngest(c.stack.info, count, concurrency) },
  { name: 'imports', run: () => benchImports(stackInfo(), count) },
  { name: 'items', run: (c) => benchItems(c.stack.info, concurrency) },
  { name: 'lifecycle', run: () => benchLifecycle(count, concurrency) },
  { name: 'webhooks', run: (c) => benchWebhooksOutbound(c.stack.info, count, concurrency) },
  { name: 'backup', run: (c) => benchBackup(c.stack.info) },
  { name: 'registry', run: (c) => benchRegistryOutbox(c.stack.info, Number(process.env.BENCH_REGISTRATIONS ?? 500)) },
  // After every part that needs the table stream (test/bench/events.ts).
  { name: 'events', run: () => benchEvents(stackInfo()) },
  { name: 'resolver-function', run: () => benchResolverFunction() },
  { name: 'bundles', run: () => benchBundles() },
];

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (process.argv.includes('--list')) {
  console.log(PARTS.map((p) => p.name).join('\n'));
  process.exit(0);
}
const unknown = asked.filter((name) => !PARTS.some((p) => p.name === name));
if (unknown.length) {
  console.error(`Unknown bench part(s): ${unknown.join(', ')}. The parts: ${PARTS.map((p) => p.name).join(', ')}.`);
  process.exit(2);
}
const chosen = asked.length ? PARTS.filter((p) => asked.includes(p.name)) : PARTS;

const dataDir = mkdtempSync(join(tmpdir(), 'passport-bench-'));
// A 500 ms batching window (Lambda's default here is 5 s) keeps the end-to-end figure about throughput.
// Every scan reads its GTIN (no hot cache), so that the scan's figures stay those of an ordinary product;
// the hot product's are the resolver function's (test/bench/resolver.ts).
const stack = await startLocalStack({ port: 0, memory: true, dataDir, scanBatchWindowMs: 500, resolverViewCacheMs: 0, backupPublicPages: true });
const stackInfo = () => stack.info;
const outDir = join(REPO_ROOT, 'bench-results');
const rows: Row[] = [];
const failed: { part: string; error: string }[] = [];
const write = () => {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify({ at: new Date().toISOString(), node: process.version, count, concurrency, parts: chosen.map((p) => p.name), rows, failed }, null, 2)}\n`);
};
try {
  console.log(`Product Passport benchmarks (${count} requests per figure, ${concurrency} in flight, Node ${process.version}): ${chosen.map((p) => p.name).join(', ')}`);
  const context: Context = { stack, baselineScans: 1 };
  for (const part of chosen) {
    const started = Date.now();
    try {
      const measured = await part.run(context);
      rows.push(...measured);
      console.log(`\n${part.name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      printTable(measured);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ part: part.name, error: message });
      console.error(`\n${part.name} FAILED after ${((Date.now() - started) / 1000).toFixed(0)} s: ${message}`);
    }
    write();
  }
  console.log('\nAll figures');
  printTable(rows);
  console.log(`\nWritten to bench-results/latest.json${failed.length ? `; ${failed.length} part(s) failed: ${failed.map((f) => f.part).join(', ')}` : ''}`);
  if (failed.length) process.exitCode = 1;
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
