import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeStats } from '../../functions/aggregator/handler.ts';
import { db, tableName } from '../../lib/data/client.ts';
import { forgetReferrers } from '../../lib/data/rollups.ts';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { again, gatedAt, invoke, isLedgerPut, isRollupUpdate, killedAt, productOf, type Invocation } from '../support/aggregator-faults.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Fault injection on the scan aggregator against DynamoDB Local: invocations killed at chosen
 * writes, copies of one message counted at once, half a batch failing. Every case ends with the
 * analytics endpoint's counts, which must be exact (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan).
 *
 * Faults are injected per invocation into this process's DynamoDB client
 * (test/support/aggregator-faults.ts); after a kill, the redelivery runs as a fresh process
 * (`forgetReferrers`).
 */
let org: TestOrg;
beforeAll(async () => {
  org = await newOrg('Exactness Org');
});
// Each case starts as a cold process; a redelivery after a kill is one too.
beforeEach(() => forgetReferrers());

/** A scan message of `product`; `receiveCount` as SQS reports it on this delivery. */
function record(messageId: string, product: CreatedProduct, receiveCount = 1, country = 'DE'): SQSRecord {
  return {
    messageId,
    receiptHandle: `${messageId}-${receiveCount}`,
    body: JSON.stringify({
      v: 1, orgId: org.orgId, environment: 'live', productId: product.productId, gtin: `0${product.gtin}`,
      at: new Date().toISOString(), country, referrer: 'direct', device: 'mobile',
    }),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:scan-events',
    awsRegion: 'eu-central-1',
  };
}
const products = (n: number) => Promise.all(Array.from({ length: n }, () => createProduct(org.live)));
const scans = (product: CreatedProduct, n: number, prefix = crypto.randomUUID()) =>
  Array.from({ length: n }, (_, i) => record(`${prefix}-${product.productId}-${i}`, product));
const totalOf = async (product: CreatedProduct): Promise<number> => {
  const response = await call('GET', `/v1/analytics/product/${product.productId}`, { key: org.live });
  expect(response.status).toBe(200);
  return response.body.totalScans as number;
};
const today = () => new Date().toISOString().slice(0, 10);
const marksOn = async (product: CreatedProduct): Promise<number> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `STATS#${org.orgId}#live#${product.productId}`, SK: `DAY#${today()}` } }));
  return Object.keys(Item ?? {}).filter((name) => name.startsWith('m_')).length;
};

describe('scan counts stay exact when the aggregator is killed', () => {
  it('killed after its rollup writes and before its ledger put: the batch delivered again counts each scan once', async () => {
    // Prepare
    const [a, b] = await products(2);
    const batch = [...scans(a!, 6), ...scans(b!, 4)];
    const { invocation, dead } = killedAt(isLedgerPut);
    // Act: the first invocation dies with its rollups written; SQS delivers the batch again, with 3 new scans
    void invoke(batch, invocation);
    await dead;
    forgetReferrers();
    const redelivery = await invoke([...scans(a!, 2), ...batch.map(again), ...scans(b!, 1)]);
    // Assess
    expect(redelivery).toEqual({ batchItemFailures: [] });
    expect(await totalOf(a!)).toBe(8);
    expect(await totalOf(b!)).toBe(5);
  });

  it('killed between two rollup writes: the product-day written keeps its counts, the other gets them on redelivery', async () => {
    // Prepare
    const [a, b, c] = await products(3);
    const batch = [...scans(a!, 3), ...scans(b!, 3), ...scans(c!, 3)];
    let updates = 0;
    const { invocation, dead } = killedAt((input) => isRollupUpdate(input) && ++updates === 2);
    // Act
    void invoke(batch, invocation);
    await dead;
    forgetReferrers();
    const redelivery = await invoke(batch.map(again));
    // Assess
    expect(redelivery).toEqual({ batchItemFailures: [] });
    expect([await totalOf(a!), await totalOf(b!), await totalOf(c!)]).toEqual([3, 3, 3]);
  });

  it('killed after every write and before SQS deleted the batch: its messages, delivered again in other batches, count nothing twice', async () => {
    // Prepare
    const [a, b] = await products(2);
    const batch = [...scans(a!, 5), ...scans(b!, 5)];
    expect(await invoke(batch)).toEqual({ batchItemFailures: [] });
    forgetReferrers();
    // Act: the undeleted messages come back split over two batches, mixed with new scans
    const first = await invoke([...batch.slice(0, 4).map(again), ...scans(a!, 1)]);
    const second = await invoke([...scans(b!, 2), ...batch.slice(4).map(again)]);
    // Assess
    expect([first, second]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(await totalOf(a!)).toBe(6);
    expect(await totalOf(b!)).toBe(7);
  });
});

describe('copies of one message counted at the same time', () => {
  it('counts a message delivered twice at once, to two concurrent invocations, once', async () => {
    // Prepare: two batches sharing four messages; both read the ledger before either writes
    const [a, b] = await products(2);
    const shared = [...scans(a!, 2), ...scans(b!, 2)];
    const one = [...scans(a!, 3), ...shared];
    const other = [...shared.map((r) => ({ ...r, receiptHandle: `${r.receiptHandle}-copy` })), ...scans(b!, 1)];
    const first = gatedAt(isRollupUpdate);
    const second = gatedAt(isRollupUpdate);
    const refusedBefore = writeStats.refused;
    // Act
    const results = Promise.all([invoke(one, first.invocation), invoke(other, second.invocation)]);
    await Promise.all([first.reached, second.reached]);
    first.open();
    second.open();
    // Assess
    expect(await results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(await totalOf(a!)).toBe(5);
    expect(await totalOf(b!)).toBe(3);
    expect(writeStats.refused).toBeGreaterThan(refusedBefore);
  });

  it('counts a copy that read the ledger before the first copy was recorded, and wrote after its mark was cleaned away, once', async () => {
    // Prepare: copy B of message m stops between its ledger read and its rollup write
    const [product] = await products(1);
    const [m] = scans(product!, 1);
    const b = gatedAt(isRollupUpdate);
    const late = invoke([{ ...m!, receiptHandle: 'copy-b' }], b.invocation);
    await b.reached;
    // Act: copy A counts m with 59 more scans (60 marks take the item past 1 KB) and records them;
    // the next batch on the same day rollup removes the 60 marks, m's among them
    expect(await invoke([m!, ...scans(product!, 59)])).toEqual({ batchItemFailures: [] });
    expect(await invoke(scans(product!, 1))).toEqual({ batchItemFailures: [] });
    expect(await marksOn(product!)).toBe(1);
    b.open();
    // Assess: B's write is refused (the item's marks generation moved), B reads the ledger again and finds m
    expect(await late).toEqual({ batchItemFailures: [] });
    expect(await totalOf(product!)).toBe(61);
  });

  it('counts a duplicate copy that SQS delivers with receive count 1 after the message was counted and its mark cleaned, not at all', async () => {
    // Prepare
    const [product] = await products(1);
    const [m] = scans(product!, 1);
    expect(await invoke([m!, ...scans(product!, 59)])).toEqual({ batchItemFailures: [] });
    expect(await invoke(scans(product!, 2))).toEqual({ batchItemFailures: [] });
    expect(await marksOn(product!)).toBe(2);
    // Act: a fresh process meets the copy, receive count 1
    forgetReferrers();
    const duplicate = await invoke([{ ...m!, receiptHandle: 'other-server-copy' }, ...scans(product!, 1)]);
    // Assess
    expect(duplicate).toEqual({ batchItemFailures: [] });
    expect(await totalOf(product!)).toBe(63);
  });
});

describe('half a batch failing', () => {
  it('reports exactly the records of the product-day that could not be written, and counts them once when they come back', async () => {
    // Prepare: every write to product a's rollup fails once (throttled)
    const [a, b] = await products(2);
    const batch = [...scans(a!, 5), ...scans(b!, 5)];
    let throttled = false;
    const invocation: Invocation = {
      beforeSend: (input) => {
        if (throttled || !isRollupUpdate(input) || productOf(input) !== a!.productId) return;
        throttled = true;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
      },
    };
    // Act
    const response = await invoke(batch, invocation);
    const retry = await invoke(batch.filter((r) => response.batchItemFailures.some((f) => f.itemIdentifier === r.messageId)).map(again));
    // Assess
    expect(response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(batch.slice(0, 5).map((r) => r.messageId).sort());
    expect(retry).toEqual({ batchItemFailures: [] });
    expect(await totalOf(a!)).toBe(5);
    expect(await totalOf(b!)).toBe(5);
  });

  it('reports the records of a failed ledger put although their counts are written, and their redelivery adds nothing', async () => {
    // Prepare
    const [product] = await products(1);
    const batch = scans(product!, 6);
    const invocation: Invocation = {
      beforeSend: (input) => {
        if (isLedgerPut(input)) throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError' });
      },
    };
    // Act
    const response = await invoke(batch, invocation);
    const retry = await invoke(batch.map(again));
    // Assess
    expect(response.batchItemFailures).toHaveLength(6);
    expect(retry).toEqual({ batchItemFailures: [] });
    expect(await totalOf(product!)).toBe(6);
  });
});

describe('the marks stay cheap', () => {
  it('removes a process\'s marks before they take a day rollup past 1 KB, so every write costs one unit', async () => {
    // Prepare
    const [product] = await products(1);
    const before = { ...writeStats };
    // Act: fifteen batches of 10 scans
    for (let i = 0; i < 15; i++) expect(await invoke(scans(product!, 10))).toEqual({ batchItemFailures: [] });
    // Assess: 15 rollup writes and 15 ledger puts, one unit each, as DynamoDB Local reports them
    expect(await totalOf(product!)).toBe(150);
    expect(writeStats.rollupUpdates - before.rollupUpdates).toBe(15);
    expect(writeStats.ledgerPuts - before.ledgerPuts).toBe(15);
    expect(writeStats.writeUnits - before.writeUnits).toBe(30);
    const marks = await marksOn(product!);
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThan(70);
  });
});
