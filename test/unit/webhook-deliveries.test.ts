import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  advanceWatermark,
  deliveryUnrecordedItems,
  findDelivery,
  getWatermark,
  recordDelivery,
  recordDeliveryItems,
  watermarkItem,
  type DeliveryKey,
} from '../../lib/data/webhook-deliveries.ts';

/**
 * The replay ledger and the watermark as stored (lib/data/keys.ts): their keys to the character,
 * and the conditions that make a replay or an older delivery fail inside the version's transaction.
 */
const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
});

const keys: DeliveryKey[] = [
  { kind: 'sha256', value: 'ab'.repeat(32) },
  { kind: 'webhook-id', value: 'msg_1' },
];
const record = { endpointId: 'whe_1', acceptedAt: '2026-11-23T12:00:00.000Z', products: [{ gtin: '03760123450027', productId: 'p1', passportId: 'ps_1', version: 2 }] };
const tenant = { orgId: 'org_1', environment: 'live' as const };

describe('webhook delivery ledger and watermark items', () => {
  it('record a delivery under its body digest and webhook-id, each only if no copy was recorded first, with no TTL', async () => {
    // Act
    const puts = recordDeliveryItems('whe_1', keys, record);
    const checks = deliveryUnrecordedItems('whe_1', keys);
    // Assess
    expect(puts.map((i) => [i.Put?.Item?.PK, i.Put?.Item?.SK, i.Put?.ConditionExpression])).toEqual([
      ['WHD#whe_1', `SHA256#${'ab'.repeat(32)}`, 'attribute_not_exists(PK)'],
      ['WHD#whe_1', 'MSGID#msg_1', 'attribute_not_exists(PK)'],
    ]);
    expect(puts.every((i) => i.Put?.Item?.expiresAt === undefined)).toBe(true);
    expect(checks.map((i) => [i.ConditionCheck?.Key?.SK, i.ConditionCheck?.ConditionExpression])).toEqual([
      [`SHA256#${'ab'.repeat(32)}`, 'attribute_not_exists(PK)'],
      ['MSGID#msg_1', 'attribute_not_exists(PK)'],
    ]);
  });

  it('find a recorded delivery by either key, reading consistently', async () => {
    // Prepare
    ddb.onAnyCommand().callsFake((input: { Key: { SK: string } }) => (input.Key.SK === 'MSGID#msg_1' ? { Item: { ...record } } : {}));
    // Act
    const found = await findDelivery('whe_1', keys);
    // Assess
    expect(found).toEqual(record);
    expect(ddb.calls().map((c) => (c.args[0].input as { ConsistentRead?: boolean }).ConsistentRead)).toEqual([true, true]);
  });

  it('treat a delivery recorded by a concurrent copy as already recorded', async () => {
    // Prepare
    ddb.onAnyCommand().rejects(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }));
    // Act / Assess
    expect(await recordDelivery('whe_1', keys, record)).toBe(false);
  });

  it('keep a watermark per product that never moves back, an equal one passing', async () => {
    // Act
    const item = watermarkItem(tenant, 'p1', { kind: 'time', value: 1000 }, '2026-11-23T12:00:00.000Z');
    ddb.onAnyCommand().rejects(Object.assign(new Error('newer there'), { name: 'ConditionalCheckFailedException' }));
    await advanceWatermark(tenant, 'p1', { kind: 'time', value: 1000 }, '2026-11-23T12:00:00.000Z');
    ddb.onAnyCommand().resolves({ Item: { kind: 'revision', mark: 7 } });
    // Assess
    expect([item.Put?.Item?.PK, item.Put?.Item?.SK]).toEqual(['T#org_1#live', 'WHMARK#p1']);
    expect(item.Put?.ConditionExpression).toBe('attribute_not_exists(PK) OR #kind <> :kind OR #mark <= :mark');
    expect(await getWatermark(tenant, 'p1')).toEqual({ kind: 'revision', value: 7 });
  });
});
