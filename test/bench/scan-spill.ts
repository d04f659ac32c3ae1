import { writeStats as queuedStats } from '../../functions/aggregator/handler.ts';
import { writeStats as spilledStats } from '../../functions/scan-spill/handler.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { scanSendCount, scanSpillCount } from '../../lib/data/scan-queue.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { throughput, type Row } from './measure.ts';

/**
 * What a scan costs while the scan queue is down (docs/decisions.md#scans-while-the-queue-is-down):
 * the local stack's SQS endpoint is killed (by its PID), scans go on, and the resolver spills each
 * event to the table, whose stream carries it to the scan-spill function; then the SQS endpoint is
 * started again. Figures: scans per second with the queue down against with it up (the same run),
 * table writes and SendMessage tries per spilled scan, the write units of counting a spilled scan
 * against a queued one, how soon the spills are counted (the stream needs no queue), and that every
 * scan was counted.
 */
export async function benchScanSpill(stack: LocalStack, count: number, concurrency: number): Promise<Row[]> {
  const { url } = stack.info;
  const { keys } = await createOrganization('Bench spill');
  const headers = { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${url}/v1/products`, { method: 'POST', headers, body: JSON.stringify({ name: 'Spill wine', category: 'wine', gtin: '4012345000016' }) }).then((r) => r.json())) as {
    productId: string;
    qrCodeUrl: string;
  };
  const published = await fetch(`${url}/v1/passports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.productId, data: { productType: 'wine', ingredients: ['Grapes'], nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 } } }),
  });
  if (published.status !== 201) throw new Error(`spill bench: publish answered ${published.status}`);
  const scan = async () => {
    const response = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone; Mobile)' }, redirect: 'manual' });
    if (response.status !== 307) throw new Error(`scan answered ${response.status}`);
    await response.arrayBuffer();
  };
  const total = async () => ((await fetch(`${url}/v1/analytics/product/${product.productId}`, { headers }).then((r) => r.json())) as { totalScans: number }).totalScans;
  const until = async (what: string, check: () => Promise<boolean>) => {
    const deadline = Date.now() + 180_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`spill bench: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  // The queue up: the ordinary scan, and what counting it costs.
  await throughput(scan, Math.min(200, count), concurrency);
  const queuedBefore = { ...queuedStats };
  const up = await throughput(scan, count, concurrency);
  const queued = Math.min(200, count) + count;
  await until('the queued scans to be counted', async () => (await total()) >= queued);
  const queuedUnits = (queuedStats.writeUnits - queuedBefore.writeUnits) / count;

  // The queue down: each scan spilled.
  const pid = stack.processes.sqs.pid();
  if (pid === undefined) throw new Error('spill bench: the SQS endpoint is not running');
  process.kill(pid, 'SIGKILL');
  await until('the SQS endpoint to exit', async () => stack.processes.sqs.pid() === undefined);
  const sends = scanSendCount();
  const spills = scanSpillCount();
  const spilledBefore = { ...spilledStats };
  const down = await throughput(scan, count, concurrency);
  const folding = process.hrtime.bigint();
  const spilled = scanSpillCount() - spills;
  const tries = scanSendCount() - sends;
  await until('the spilled scans to be counted', async () => (await total()) >= queued + count);
  const foldSeconds = Number(process.hrtime.bigint() - folding) / 1e9;
  await stack.processes.sqs.start();
  const counted = await total();
  const spilledUnits = (spilledStats.writeUnits - spilledBefore.writeUnits) / count;

  return [
    { benchmark: 'scan.spill', figure: 'scans/s, queue down / queue up', value: down / up, unit: 'x', note: `${down.toFixed(0)} vs ${up.toFixed(0)} req/s; each spilled scan is one PutItem instead of one SendMessage` },
    { benchmark: 'scan.spill', figure: 'table writes per spilled scan', value: spilled / count, unit: 'calls', note: 'aim 1 (PutItem of the scan event)' },
    { benchmark: 'scan.spill', figure: 'SendMessage tries per spilled scan', value: tries / count, unit: 'calls', note: 'after a failure the resolver spills for 5 s without trying the queue' },
    {
      benchmark: 'scan.spill',
      figure: 'write units to count a spilled scan / a queued one',
      value: spilledUnits / queuedUnits,
      unit: 'x',
      note: `${spilledUnits.toFixed(3)} vs ${queuedUnits.toFixed(3)} WCU per scan (the spill's own PutItem not included: +1 WCU)`,
    },
    { benchmark: 'scan.spill', figure: 'seconds from the last spill until all are counted', value: foldSeconds, unit: 's', note: `${count} spills, through the table stream, the queue still down` },
    { benchmark: 'scan.spill', figure: 'scans counted / answered', value: counted / (queued + count), unit: 'x', note: 'aim 1.00: every scan counted once' },
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href;
if (isMain) {
  // `npx tsx test/bench/scan-spill.ts`: this bench alone, on a throwaway stack as `npm run bench` starts it.
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startLocalStack } = await import('../../infra/local/stack.ts');
  const { printTable } = await import('./measure.ts');
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const dataDir = mkdtempSync(join(tmpdir(), 'passport-bench-'));
  const stack = await startLocalStack({ port: 0, memory: true, dataDir, scanBatchWindowMs: 500, resolverViewCacheMs: 0, onReadinessChange: () => undefined });
  try {
    printTable(await benchScanSpill(stack, Number(process.env.BENCH_COUNT ?? 2000), Number(process.env.BENCH_CONCURRENCY ?? 8)));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
