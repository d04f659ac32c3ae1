import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamoCallCounts } from '../../lib/data/call-counts.ts';
import { dynamo } from '../../lib/data/client.ts';
import { importSk, tenantPk } from '../../lib/data/keys.ts';
import { scanSendCount } from '../../lib/data/scan-queue.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * Batches and serialised items (docs/api.md#batches-and-items; docs/benchmarks.md#items):
 * - bulk registration: a CSV of new items (serial and lot) uploaded to `POST /v1/imports?type=items`,
 *   registered by the import worker through the local pipeline; items a second from the upload to
 *   the job's final status, and the DynamoDB write units per registered item, as DynamoDB Local
 *   reports them (every write this process makes meanwhile: the job and its chunk markers, the items,
 *   the chunks' summary events and counts; goal ≤ 1.1);
 * - a scan of a registered serial: DynamoDB calls per scan (goal 1: one BatchGetItem of the GTIN
 *   item and the item) and SQS sends per scan. Its rate is noted, not compared: the aggregator runs in
 *   the same process and counts each item scan twice (its product's and its lot's rollup).
 * BENCH_ITEM_ROWS sets the file's rows (default 100,000).
 */
export async function benchItems(stack: StackInfo, concurrency: number): Promise<Row[]> {
  const rows = Number(process.env.BENCH_ITEM_ROWS ?? 100_000);
  const { organization, keys } = await createOrganization('Bench items');
  const key = keys.live.key;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench bottles', category: 'wine', gtin: '4006381333948', granularity: 'item' }),
  }).then((r) => r.json())) as { productId: string; qrCodeUrl: string };
  await fetch(`${stack.url}/v1/passports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.productId, data: { productType: 'wine', ingredients: ['Grapes', 'Sulphites'], nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 } } }),
  });
  const serial = (i: number) => `B${String(i).padStart(9, '0')}`;
  const file = Buffer.from(`serial,lot\n${Array.from({ length: rows }, (_, i) => `${serial(i)},L${String(i % 200).padStart(3, '0')}`).join('\n')}\n`);

  // Write units as DynamoDB reports them, summed over every write of this process's SDK client
  // (the gateway's handlers and the import worker run in this process).
  let writeUnits = 0;
  let measuring = false;
  const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      const write = measuring && WRITES.has(context.commandName ?? '');
      if (write) input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      if (write) {
        const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
        for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) writeUnits += c.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name: 'benchWriteUnits' },
  );

  const raw = localClient(stack.dynamodbEndpoint, stack.region);
  const tenant = { orgId: organization.orgId, environment: 'live' as const };
  async function registerAll(): Promise<{ itemsPerSecond: number; unitsPerItem: number; counts: Record<string, number> }> {
    writeUnits = 0;
    measuring = true;
    const started = performance.now();
    const response = await fetch(`${stack.url}/v1/imports?type=items&productId=${product.productId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      body: file,
    });
    if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    for (;;) {
      const { Item } = await raw.send(new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: tenantPk(tenant) }, SK: { S: importSk(id) } }, ConsistentRead: true }));
      const status = Item?.status?.S;
      if (status === 'succeeded' || status === 'failed') {
        const seconds = (performance.now() - started) / 1000;
        measuring = false;
        const counts = Object.fromEntries(['created', 'updated', 'unchanged', 'failed'].map((k) => [k, Number(Item?.[`${k}Count`]?.N ?? 0)]));
        return { itemsPerSecond: rows / seconds, unitsPerItem: writeUnits / Math.max(1, counts.created ?? 0), counts };
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const fresh = await registerAll();
  if (fresh.counts.created !== rows) throw new Error(`the import registered ${fresh.counts.created} of ${rows} items`);

  // Scans: a registered serial against the GTIN alone, the same number of each.
  const scans = Math.min(1_000, rows);
  const scanOf = (link: (i: number) => string) => async (i: number) => {
    const answer = await fetch(link(i), { headers: { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' }, redirect: 'manual' });
    if (answer.status !== 307) throw new Error(`scan answered ${answer.status}`);
    await answer.arrayBuffer();
  };
  const reads = () => (dynamoCallCounts().GetItemCommand ?? 0) + (dynamoCallCounts().BatchGetItemCommand ?? 0);
  const itemScan = scanOf((i) => `${product.qrCodeUrl}/21/${serial(i)}`);
  await throughput(itemScan, 100, concurrency);
  const readsBefore = reads();
  const sendsBefore = scanSendCount();
  const itemRate = await throughput(itemScan, scans, concurrency);
  const callsPerItemScan = (reads() - readsBefore) / scans;
  const sendsPerItemScan = (scanSendCount() - sendsBefore) / scans;
  raw.destroy();
  return [
    { benchmark: 'items', figure: `items registered by import (${rows}-row CSV: serial, lot)`, value: fresh.itemsPerSecond, unit: 'items/s', note: JSON.stringify(fresh.counts) },
    { benchmark: 'items', figure: 'DynamoDB write units per registered item (goal ≤ 1.1)', value: fresh.unitsPerItem, unit: 'WCU' },
    { benchmark: 'items', figure: 'DynamoDB calls per item scan (goal 1)', value: callsPerItemScan, unit: 'calls', note: `SQS sends per scan ${sendsPerItemScan.toFixed(2)}; ${itemRate.toFixed(0)} scans/s` },
  ];
}
