import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createOrganization } from '../../lib/services/organizations.ts';
import { dynamoCallCount } from '../../lib/data/call-counts.ts';
import { checkDigit } from '../../lib/domain/gtin.ts';
import { applyMapping, HEADLESS_CMS_MAPPING } from '../../lib/domain/mapping.ts';
import { MAX_PRODUCTS_PER_DELIVERY } from '../../lib/services/ingest.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { REPO_ROOT } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * Signed webhook deliveries of the sample headless-CMS payload through the local gateway: new products
 * (create product, supplier reuse, passport v1) and repeated deliveries (nothing written), against
 * raw GetItem calls on the same DynamoDB Local in the same run.
 */
export async function benchIngest(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { organization } = await createOrganization('Bench ingest');
  const { endpoint, secret } = await createEndpoint({ orgId: organization.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
  const sample = JSON.parse(readFileSync(`${REPO_ROOT}/events/webhooks/headless-cms-product.json`, 'utf8'));
  const body = (i: number) => {
    const gtinBody = `49${String(i).padStart(10, '0')}`;
    sample.entity.attributes.barcode[0].barcode_number = `${gtinBody}${checkDigit(gtinBody)}`;
    return JSON.stringify(sample);
  };
  const deliver = async (payload: string) => {
    const response = await fetch(`${stack.url}/v1/webhooks/ingest?endpoint=${endpoint.endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}` },
      body: payload,
    });
    if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
    await response.arrayBuffer();
  };
  const deliveries = Math.min(count, 1000);
  const raw = localClient(stack.dynamodbEndpoint, stack.region);
  const getItem = () => raw.send(new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: `WHE#${endpoint.endpointId}` }, SK: { S: 'WHE' } } }));

  await throughput(getItem, 200, concurrency);
  const baseline = await throughput(getItem, deliveries, concurrency);
  let calls = dynamoCallCount();
  const fresh = await throughput((i) => deliver(body(i)), deliveries, concurrency);
  const freshCalls = (dynamoCallCount() - calls) / deliveries;
  calls = dynamoCallCount();
  const repeated = await throughput((i) => deliver(body(i)), deliveries, concurrency);
  const repeatedCalls = (dynamoCallCount() - calls) / deliveries;
  raw.destroy();

  return [
    ...benchMapping(),
    { benchmark: 'ingest', figure: 'baseline raw GetItem', value: baseline, unit: 'req/s' },
    { benchmark: 'ingest', figure: 'new-product deliveries', value: fresh, unit: 'req/s', note: `ratio ${(fresh / baseline).toFixed(2)}` },
    { benchmark: 'ingest', figure: 'DynamoDB calls per new-product delivery', value: freshCalls, unit: 'calls' },
    { benchmark: 'ingest', figure: 'repeated deliveries (duplicate)', value: repeated, unit: 'req/s', note: `ratio ${(repeated / baseline).toFixed(2)}` },
    { benchmark: 'ingest', figure: 'DynamoDB calls per repeated delivery', value: repeatedCalls, unit: 'calls' },
  ];
}

const MAX_BODY = 256 * 1024;

/** The sample headless-CMS payload grown to just under 256 KiB by repeating `grow` (a barcode or an ingredient). */
function worstCase(products: number, grow: 'barcode' | 'ingredient'): string {
  const doc = JSON.parse(readFileSync(`${REPO_ROOT}/events/webhooks/headless-cms-product.json`, 'utf8'));
  const attributes = doc.entity.attributes;
  attributes.barcode = Array.from({ length: products }, (_, i) => ({ barcode_number: String(10_000_000 + i), vintage_year: 2022 }));
  const item = grow === 'barcode' ? { barcode_number: '3760123450027', vintage_year: 2022 } : { ingredient_name: 'Grapes', quantity: '' };
  const list: unknown[] = grow === 'barcode' ? attributes.barcode : attributes.list_of_ingredient;
  const room = MAX_BODY - Buffer.byteLength(JSON.stringify(doc));
  const each = Buffer.byteLength(JSON.stringify(item)) + 1;
  for (let i = 0; i < Math.floor(room / each) - 1; i++) list.push(item);
  return JSON.stringify(doc);
}

/** Median milliseconds of `runs` calls of `task`. */
function medianMs(task: () => unknown, runs = 21): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    task();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0;
}

/**
 * The mapping of a worst-case 256 KiB delivery (security finding 6), against JSON.parse of the same
 * bytes in the same run: thousands of barcodes (refused at the count, before mapping), and the most
 * products allowed with every other byte in a list all of them share. No stack needed.
 */
export function benchMapping(): Row[] {
  const rows: Row[] = [];
  for (const [figure, body] of [
    ['256 KiB of barcodes (refused at the count)', worstCase(0, 'barcode')],
    [`256 KiB: ${MAX_PRODUCTS_PER_DELIVERY} products sharing one list`, worstCase(MAX_PRODUCTS_PER_DELIVERY, 'ingredient')],
  ] as const) {
    const payload = JSON.parse(body);
    const parse = medianMs(() => JSON.parse(body));
    const map = medianMs(() => applyMapping(payload, HEADLESS_CMS_MAPPING, { maxProducts: MAX_PRODUCTS_PER_DELIVERY }));
    rows.push({ benchmark: 'ingest', figure: `mapping ${figure}`, value: map, unit: 'ms', note: `ratio ${(map / parse).toFixed(2)} × JSON.parse of it (${parse.toFixed(2)} ms)` });
  }
  return rows;
}
