import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import { deliveryKey, tenantPk, watermarkSk } from './keys.ts';

/**
 * What webhook ingest remembers to refuse replays (keys in lib/data/keys.ts; docs/security.md, finding 2):
 * - the replay ledger, `WHD#{endpointId}` / `SHA256#{hex digest of the raw body}` and, for Standard
 *   Webhooks deliveries, `WHD#{endpointId}` / `MSGID#{webhook-id}`: one item per accepted delivery,
 *   with what it published. No TTL: a delivery can be replayed for as long as the secret that signed
 *   it verifies, and the current secret verifies until it is rotated (and 24 hours after), so no
 *   lifetime shorter than the endpoint's is safe. An item is about 150 bytes plus 100 per product.
 * - the watermark, `T#{org}#{env}` / `WHMARK#{productId}`: the newest source revision or update time
 *   published for a product, so that an older delivery is refused as stale.
 */
import type { TransactItem } from './writes.ts';
export type { TransactItem };

/** One product as an accepted delivery left it. */
export interface RecordedProduct {
  gtin: string;
  productId: string;
  passportId: string;
  version: number;
}

export interface DeliveryRecord {
  endpointId: string;
  acceptedAt: string;
  products: RecordedProduct[];
}

/** A ledger key: the body digest or the Standard Webhooks message id. */
export type DeliveryKey = { kind: 'sha256'; value: string } | { kind: 'webhook-id'; value: string };

const ledgerKey = deliveryKey;
const watermarkKey = (tenant: Tenant, productId: string) => ({ PK: tenantPk(tenant), SK: watermarkSk(productId) });

function toItem(endpointId: string, key: DeliveryKey, record: DeliveryRecord): Record<string, unknown> {
  return { ...ledgerKey(endpointId, key), type: 'webhookDelivery', endpointId, acceptedAt: record.acceptedAt, products: record.products };
}

function fromItem(item: Record<string, unknown>): DeliveryRecord {
  const products = Array.isArray(item.products) ? (item.products as Record<string, unknown>[]) : [];
  return {
    endpointId: String(item.endpointId),
    acceptedAt: String(item.acceptedAt),
    products: products.map((p) => ({ gtin: String(p.gtin), productId: String(p.productId), passportId: String(p.passportId), version: Number(p.version) })),
  };
}

/** The accepted delivery any of `keys` names, read consistently (a copy racing this one may just have committed). */
export async function findDelivery(endpointId: string, keys: readonly DeliveryKey[]): Promise<DeliveryRecord | undefined> {
  const items = await Promise.all(
    keys.map(async (key) => (await db().send(new GetCommand({ TableName: tableName(), Key: ledgerKey(endpointId, key), ConsistentRead: true }))).Item),
  );
  const item = items.find((i) => i !== undefined);
  return item ? fromItem(item) : undefined;
}

/** Transaction items that record the delivery, on the condition that no copy of it was recorded first. */
export const recordDeliveryItems = (endpointId: string, keys: readonly DeliveryKey[], record: DeliveryRecord): TransactItem[] =>
  keys.map((key) => ({ Put: { TableName: tableName(), Item: toItem(endpointId, key, record), ConditionExpression: 'attribute_not_exists(PK)' } }));

/** Transaction items that hold only while no copy of the delivery has been recorded. */
export const deliveryUnrecordedItems = (endpointId: string, keys: readonly DeliveryKey[]): TransactItem[] =>
  keys.map((key) => ({ ConditionCheck: { TableName: tableName(), Key: ledgerKey(endpointId, key), ConditionExpression: 'attribute_not_exists(PK)' } }));

/**
 * Records a delivery that published no version (its data was already current), with `extra` (the
 * delivery's event) in the same transaction; without keys, writes `extra` alone. False when a copy
 * was recorded first.
 */
export async function recordDelivery(endpointId: string, keys: readonly DeliveryKey[], record: DeliveryRecord, extra: TransactItem[] = []): Promise<boolean> {
  const items = [...recordDeliveryItems(endpointId, keys, record), ...extra];
  if (!items.length) return true;
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (error) {
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** How new a product's published data is, by its source's account. */
export interface StoredWatermark {
  kind: 'revision' | 'time';
  value: number;
}

export async function getWatermark(tenant: Tenant, productId: string): Promise<StoredWatermark | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: watermarkKey(tenant, productId), ConsistentRead: true }));
  return Item ? { kind: Item.kind === 'revision' ? 'revision' : 'time', value: Number(Item.mark) } : undefined;
}

/**
 * Sets the product's watermark, on the condition that it does not go back: none yet, another kind
 * (the mapping changed), or not newer than `mark`. An equal mark passes (docs/decisions.md).
 */
export function watermarkItem(tenant: Tenant, productId: string, mark: StoredWatermark, at: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...watermarkKey(tenant, productId), type: 'webhookWatermark', productId, kind: mark.kind, mark: mark.value, updatedAt: at },
      ConditionExpression: 'attribute_not_exists(PK) OR #kind <> :kind OR #mark <= :mark',
      ExpressionAttributeNames: { '#kind': 'kind', '#mark': 'mark' },
      ExpressionAttributeValues: { ':kind': mark.kind, ':mark': mark.value },
    },
  };
}

/** Moves the watermark forward when a delivery was current but newer; a newer mark already there wins. */
export async function advanceWatermark(tenant: Tenant, productId: string, mark: StoredWatermark, at: string): Promise<void> {
  const { Put } = watermarkItem(tenant, productId, mark, at);
  if (!Put) return;
  try {
    await db().send(new PutCommand(Put));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
