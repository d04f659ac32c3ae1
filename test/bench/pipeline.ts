import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { createOrganization } from '../../lib/services/organizations.ts';
import { handler as aggregate, writeStats } from '../../functions/aggregator/handler.ts';
import { forgetReferrers, queryRollups } from '../../lib/data/rollups.ts';
import { again, gatedAt, invoke, isLedgerPut, isRollupUpdate, killedAt } from '../support/aggregator-faults.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import type { Row } from './measure.ts';

/** Zipf-like weights over `n` items (s = 1): item k is scanned in proportion to 1/k. */
function zipfPicker(n: number): () => number {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = weights.map(((sum) => (w) => (sum += w / total))(0));
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  return () => {
    const r = random();
    const index = cumulative.findIndex((c) => c >= r);
    return index < 0 ? n - 1 : index;
  };
}

/**
 * The scan pipeline: (1) scans per second from the resolver through the queue and the local event
 * source mapping to the aggregator's rollups, end to end, against the raw baseline rate measured
 * by the resolver benchmark; (2) DynamoDB write units per scan that exactly-once counting costs,
 * at batch sizes 10 and 100, over 100 products scanned with a Zipf-like skew.
 */
export async function benchPipeline(stack: StackInfo, count: number, concurrency: number, baselineScansPerSecond: number): Promise<Row[]> {
  const { keys, organization } = await createOrganization('Bench pipeline');
  const headers = { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Pipeline wine', category: 'wine', gtin: '96385074' }),
  }).then((r) => r.json())) as { productId: string; qrCodeUrl: string };
  await fetch(`${stack.url}/v1/passports`, { method: 'POST', headers, body: JSON.stringify({ productId: product.productId, data: { productType: 'wine', nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 } } }) });

  const total = async () =>
    ((await fetch(`${stack.url}/v1/analytics/product/${product.productId}`, { headers }).then((r) => r.json())) as { totalScans: number }).totalScans;
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await (await fetch(product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone; Mobile)' } })).arrayBuffer();
    }),
  );
  const deadline = Date.now() + 120_000;
  while ((await total()) < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const endToEnd = count / (Number(process.hrtime.bigint() - started) / 1e9);

  const context = { functionName: 'aggregator', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 } as Context;
  const pick = zipfPicker(100);
  const productIds = Array.from({ length: 100 }, (_, i) => `0190${String(i).padStart(4, '0')}-0000-7000-8000-000000000000`);
  const unitsPerScan = async (batchSize: number) => {
    const scans = 2000;
    const before = { ...writeStats };
    for (let b = 0; b < scans / batchSize; b++) {
      const event: SQSEvent = {
        Records: Array.from({ length: batchSize }, (_, i) => ({
          messageId: `bench-${batchSize}-${b}-${i}`,
          receiptHandle: 'x',
          body: JSON.stringify({
            v: 1, orgId: organization.orgId, environment: 'live', productId: productIds[pick()], gtin: '00000096385074',
            at: new Date().toISOString(), country: 'DE', referrer: 'direct', device: 'mobile',
          }),
          attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'bench', ApproximateFirstReceiveTimestamp: '0' },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:local:000000000000:scan-events',
          awsRegion: stack.region,
        })),
      };
      const { batchItemFailures } = await aggregate(event, context);
      if (batchItemFailures.length) throw new Error(`aggregator failed ${batchItemFailures.length} records`);
    }
    const spent = (field: 'writeUnits' | 'readUnits' | 'rollupUpdates' | 'ledgerPuts' | 'refused') => writeStats[field] - before[field];
    return {
      units: spent('writeUnits') / scans,
      reads: spent('readUnits') / scans,
      atLeastOnce: spent('rollupUpdates') / scans,
      // The previous design, on the same batches: a ledger put per message and an update per
      // product-day, all in transactions (2 units per item of < 1 KB).
      transactional: (2 * (scans + spent('rollupUpdates'))) / scans,
      ledgerPuts: spent('ledgerPuts') / (scans / batchSize),
      refused: spent('refused') / (scans / batchSize),
    };
  };
  const b10 = await unitsPerScan(10);
  const b100 = await unitsPerScan(100);

  // Fault injection (test/support/aggregator-faults.ts), the same Zipf load over 20 fresh products:
  // each batch of 50 is killed before its ledger put, or between its rollup writes, or counted by
  // two invocations at once; killed batches are delivered again to a fresh process. The rollups
  // must then hold exactly the scans sent.
  const faultProducts = Array.from({ length: 20 }, (_, i) => `0190${String(i).padStart(4, '0')}-0000-7000-8000-00000000fa17`);
  const faultPick = zipfPicker(20);
  let sent = 0;
  const faultRecord = (id: string): SQSRecord => {
    sent++;
    return {
      messageId: id, receiptHandle: id,
      body: JSON.stringify({
        v: 1, orgId: organization.orgId, environment: 'live', productId: faultProducts[faultPick()], gtin: '00000096385074',
        at: new Date().toISOString(), country: 'DE', referrer: 'direct', device: 'mobile',
      }),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'bench', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:local:000000000000:scan-events', awsRegion: stack.region,
    };
  };
  let failures = 0;
  for (let b = 0; b < 30; b++) {
    const batch = Array.from({ length: 50 }, (_, i) => faultRecord(`fault-${b}-${i}`));
    if (b % 3 === 2) {
      const [one, other] = [gatedAt(isRollupUpdate), gatedAt(isRollupUpdate)];
      const both = Promise.all([invoke(batch, one.invocation), invoke(batch.map(again), other.invocation)]);
      await Promise.all([one.reached, other.reached]);
      one.open();
      other.open();
      failures += (await both).reduce((n, r) => n + r.batchItemFailures.length, 0);
      continue;
    }
    let updates = 0;
    const { invocation, dead } = killedAt(b % 3 === 0 ? isLedgerPut : (input) => isRollupUpdate(input) && ++updates === 3);
    void invoke(batch, invocation);
    await dead;
    forgetReferrers();
    failures += (await invoke(batch.map(again))).batchItemFailures.length;
  }
  const day = new Date().toISOString().slice(0, 10);
  let counted = 0;
  for (const productId of faultProducts) {
    for (const rollup of await queryRollups({ orgId: organization.orgId, environment: 'live' }, productId, day, day)) counted += rollup.scans;
  }
  if (failures) throw new Error(`fault-injection run: ${failures} records failed`);

  return [
    { benchmark: 'pipeline', figure: 'scans/s resolver → queue → rollup', value: endToEnd, unit: 'scans/s' },
    { benchmark: 'pipeline', figure: 'ratio to baseline GetItem + SendMessage', value: endToEnd / baselineScansPerSecond, unit: 'x' },
    { benchmark: 'pipeline', figure: 'write units per scan, batch 10', value: b10.units, unit: 'WCU', note: 'Zipf over 100 products, exactly once: marks on the rollups, a ledger put per batch' },
    { benchmark: 'pipeline', figure: 'write units per scan, batch 100', value: b100.units, unit: 'WCU', note: 'Zipf over 100 products, exactly once: marks on the rollups, a ledger put per batch' },
    { benchmark: 'pipeline', figure: 'read units per scan, batch 100', value: b100.reads, unit: 'RCU', note: 'strongly consistent ledger queries' },
    { benchmark: 'pipeline', figure: 'same without exactness, batch 10', value: b10.atLeastOnce, unit: 'WCU', note: 'plain UpdateItem per rollup, no ledger' },
    { benchmark: 'pipeline', figure: 'same without exactness, batch 100', value: b100.atLeastOnce, unit: 'WCU', note: 'plain UpdateItem per rollup, no ledger' },
    { benchmark: 'pipeline', figure: 'previous design (transactional ledger), batch 100', value: b100.transactional, unit: 'WCU', note: 'ledger put per message + rollups, in transactions, on the same batches' },
    { benchmark: 'pipeline', figure: 'fault-injection runs: scans counted per scan sent', value: counted / sent, unit: 'x', note: `${counted} of ${sent}: kills before the ledger put and between rollup writes, copies at once` },
    { benchmark: 'pipeline', figure: 'ledger puts per batch of 100', value: b100.ledgerPuts, unit: 'calls' },
    { benchmark: 'pipeline', figure: 'refused rollup writes per batch of 100', value: b100.refused, unit: 'calls', note: 'conditional writes planned again (each billed)' },
  ];
}
