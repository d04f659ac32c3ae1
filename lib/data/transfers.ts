import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { answeredTimes, receiverOf, senderOf, transferFromItem, type MoveState, type TransferRecord, type TransferStatus } from '../domain/transfer.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, retryOnConflict, type CancellationReason } from './errors.ts';
import { gtinSk, openTransferSk, productSk, tenantPk, TRANSFER_IN_PREFIX, TRANSFER_PREFIX, transferSk, type ItemKey } from './keys.ts';
import { fromItem as productFromItem, toItem as productToItem } from './products.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * Transfers of a product to another organization (docs/transfers.md). Each transfer is kept twice,
 * the same record in the sender's partition (`TRANSFER#{id}`) and in the receiver's
 * (`TRANSFERIN#{id}`), so that each side reads and lists what concerns it within its own tenant
 * partition; both copies change together, in one transaction, on the condition that both are still
 * in the state the change was decided from. The sender's copy alone carries the move's progress
 * (`move`): the move reads and writes only it. A product has at most one open transfer: the claim
 * `TRANSFEROPEN#{productId}`, put with the offer, deleted when the transfer ends.
 *
 * The move's own reads and writes are here too: ranges of a tenant's partition read a page at a
 * time, copies put and deletions made 25 a call (BatchWriteItem), and the transactions of its steps.
 */
type Item = Record<string, unknown>;

export const transferKey = (tenant: Tenant, side: 'out' | 'in', transferId: string): ItemKey => ({ PK: tenantPk(tenant), SK: transferSk(side, transferId) });
export const openTransferKey = (tenant: Tenant, productId: string): ItemKey => ({ PK: tenantPk(tenant), SK: openTransferSk(productId) });

const recordOf = (item: Item | undefined): TransferRecord | undefined => transferFromItem(item, productFromItem);

/** The stored attributes of a transfer (the `move` is written by the move's own updates). */
function attributes(record: TransferRecord): Item {
  return {
    type: 'transfer',
    transferId: record.transferId,
    environment: record.environment,
    status: record.status,
    productId: record.productId,
    gtin: record.gtin,
    productName: record.productName,
    category: record.category,
    from: record.from,
    to: record.to,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...answeredTimes(record),
    // The product record, not its table item: its keys are the sender's.
    ...(record.product === undefined ? {} : { product: stripKeys(productToItem(record.product)) }),
    ...(record.move === undefined ? {} : { move: record.move }),
  };
}

const stripKeys = (item: Item): Item => {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest;
};

/** What writing a transaction did: written, or the cancellation reasons of the items whose conditions failed (in order). */
export type TransactOutcome = { written: true } | { written: false; reasons: CancellationReason[] };

/** One transaction, retried while it loses to concurrent ones; a failed condition is an answer, not an error. */
export async function transact(items: readonly TransactItem[]): Promise<TransactOutcome> {
  try {
    await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: [...items] })));
    return { written: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return { written: false, reasons };
    throw error;
  }
}

/**
 * A new offer: the product's open-transfer claim (first, on the condition that the product has
 * none), both copies and what rides along (the events). `open` when the product has an open
 * transfer already: nothing was written.
 */
export async function insertTransfer(record: TransferRecord, also: readonly TransactItem[]): Promise<'created' | 'open'> {
  const outcome = await transact([
    putNew({ ...openTransferKey(senderOf(record), record.productId), type: 'transferOpen', transferId: record.transferId }),
    putNew({ ...transferKey(senderOf(record), 'out', record.transferId), ...attributes(record) }),
    putNew({ ...transferKey(receiverOf(record), 'in', record.transferId), ...attributes(record) }),
    ...also,
  ]);
  return outcome.written ? 'created' : 'open';
}

/** The transfer the product's open claim names, if any. */
export async function openTransferOf(tenant: Tenant, productId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: openTransferKey(tenant, productId), ConsistentRead: true }));
  return typeof Item?.transferId === 'string' ? Item.transferId : undefined;
}

/** A transfer as one side sees it: the sender's copy, else the receiver's (undefined when the tenant is neither). */
export async function getTransfer(tenant: Tenant, transferId: string, consistent = false): Promise<{ record: TransferRecord; side: 'out' | 'in' } | undefined> {
  for (const side of ['out', 'in'] as const) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: transferKey(tenant, side, transferId), ConsistentRead: consistent }));
    const record = recordOf(Item);
    if (record) return { record, side };
  }
  return undefined;
}

/** The sender's copy (it carries the move), read consistently. */
export async function getSenderCopy(record: Pick<TransferRecord, 'from' | 'environment' | 'transferId'>): Promise<TransferRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: transferKey(senderOf(record), 'out', record.transferId), ConsistentRead: true }));
  return recordOf(Item);
}

/**
 * One side's transfers (`out`: offered by the tenant, `in`: offered to it) or both, oldest first
 * (ids sort by time): `limit` after `startingAfter`. Both sides are two Queries, each of at most
 * `limit + 1` items, merged by id (a tenant is never on both sides of one transfer).
 */
export async function listTransfers(tenant: Tenant, sides: readonly ('out' | 'in')[], limit: number, startingAfter?: string): Promise<{ records: TransferRecord[]; hasMore: boolean }> {
  const pages = await Promise.all(
    sides.map((side) =>
      queryItems(beginsWith(tenantPk(tenant), side === 'out' ? TRANSFER_PREFIX : TRANSFER_IN_PREFIX), {
        limit: limit + 1,
        ...(startingAfter ? { startKey: { ...transferKey(tenant, side, startingAfter) } } : {}),
      }),
    ),
  );
  const records = pages
    .flatMap((page) => page.items.flatMap((item) => recordOf(item) ?? []))
    .sort((a, b) => (a.transferId < b.transferId ? -1 : a.transferId > b.transferId ? 1 : 0));
  return { records: records.slice(0, limit), hasMore: records.length > limit || pages.some((page) => page.hasMore) };
}

/**
 * The writes that move both copies from `from` to `next`'s status, each on the condition that it is
 * still `from`: a transfer is accepted, declined, cancelled or completed once. The move's progress
 * is written on the sender's copy only.
 */
export function transferTransition(next: TransferRecord, from: TransferStatus): TransactItem[] {
  return (['out', 'in'] as const).map((side) => {
    const sets = Object.entries(attributes(next)).filter(([name]) => name !== 'move' || side === 'out');
    return {
      Update: {
        TableName: tableName(),
        Key: transferKey(side === 'out' ? senderOf(next) : receiverOf(next), side, next.transferId),
        UpdateExpression: `SET ${sets.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
        ConditionExpression: '#status = :from',
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(sets.map(([name], i) => [`#a${i}`, name])) },
        ExpressionAttributeValues: { ':from': from, ...Object.fromEntries(sets.map(([, value], i) => [`:a${i}`, value])) },
      },
    };
  });
}

/** The deletion of the product's open-transfer claim (the transfer ended), on the condition that it is this transfer's. */
export function releaseOpenTransfer(record: TransferRecord): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: openTransferKey(senderOf(record), record.productId),
      ConditionExpression: 'attribute_not_exists(PK) OR transferId = :id',
      ExpressionAttributeValues: { ':id': record.transferId },
    },
  };
}

/**
 * The sender's product deleted in the acceptance's transaction (docs/transfers.md#acceptance), on
 * the condition that it is still the product as read: the same passport version, the same update
 * time and the same draft mark. From then on every write of the sender that reads the product finds
 * none (404), and one that read it before fails its condition on the product item.
 */
export function productRemoval(tenant: Tenant, product: ProductRecord): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: productSk(product.productId) },
      ConditionExpression: `passportVersion = :version AND updatedAt = :updatedAt AND ${product.hasDraft ? 'hasDraft = :true' : 'attribute_not_exists(hasDraft)'}`,
      ExpressionAttributeValues: { ':version': product.passportVersion, ':updatedAt': product.updatedAt, ...(product.hasDraft ? { ':true': true } : {}) },
    },
  };
}

/** A GTIN item's public view as the receiver's GTIN item carries it: its attributes without keys, pointer or reservation. */
export function viewAttributes(gtinItem: Item): Item {
  const { PK: _pk, SK: _sk, reservedBy: _reserved, movedTo: _moved, transferId: _transfer, movedAt: _movedAt, ...view } = gtinItem;
  return view;
}

/**
 * The receiver's claim on the GTIN while the product moves: its GTIN item, new, or the pointer it
 * kept of a product it owned before (docs/transfers.md#the-printed-qr-codes), marked `reservedBy`
 * and given the product's public view already (`view`: the sender's GTIN item's attributes), so that
 * the backup copies of the batches and items written into the receiver's tenant find the passport
 * they name (functions/backup/public-copy.ts). A product of its own under the GTIN, or another
 * transfer's reservation, fails the condition; a kept pointer still points (the resolver follows it).
 */
export function gtinReservation(receiver: Tenant, gtin14: string, transferId: string, view: Item): TransactItem {
  const sets = Object.entries(view).filter(([name]) => name !== 'gtin');
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: tenantPk(receiver), SK: gtinSk(gtin14) },
      UpdateExpression: `SET reservedBy = :id, gtin = :gtin${sets.map((_, i) => `, #v${i} = :v${i}`).join('')}`,
      ConditionExpression: 'attribute_not_exists(PK) OR (attribute_exists(movedTo) AND attribute_not_exists(reservedBy))',
      ...(sets.length ? { ExpressionAttributeNames: Object.fromEntries(sets.map(([name], i) => [`#v${i}`, name])) } : {}),
      ExpressionAttributeValues: { ':id': transferId, ':gtin': gtin14, ...Object.fromEntries(sets.map(([, value], i) => [`:v${i}`, value])) },
    },
  };
}

/** A tenant's GTIN item as stored (consistent): its public view, a pointer to the product's new owner, or a reservation. */
export async function getGtinItem(tenant: Tenant, gtin14: string): Promise<Item | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: gtinSk(gtin14) }, ConsistentRead: true }));
  return Item;
}

/** One item by key, read consistently (the move's single items: a draft, a set of label terms). */
export async function getItemConsistent(key: ItemKey): Promise<Item | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item;
}

/**
 * A page of a tenant's items under `prefix`, in key order, after the sort key `after` (none: from the
 * first), at most `limit` (≤ 25: one BatchWriteItem), strongly consistent. `filter` (an attribute's
 * value) narrows what the Query answers: DynamoDB still reads the items it leaves out, so a page may
 * take several calls. `last` is the last sort key read, to continue after.
 */
export async function readRange(
  tenant: Tenant,
  prefix: string,
  after: string | undefined,
  limit: number,
  filter?: { name: string; value: string },
): Promise<{ items: Item[]; last?: string; done: boolean }> {
  const pk = tenantPk(tenant);
  const items: Item[] = [];
  let startKey: Item | undefined = after === undefined ? undefined : { PK: pk, SK: after };
  let last = after;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...(filter ? { ':f': filter.value } : {}) },
        ...(filter ? { FilterExpression: '#f = :f', ExpressionAttributeNames: { '#f': filter.name } } : {}),
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
        Limit: filter ? 100 : limit - items.length,
      }),
    );
    for (const item of page.Items ?? []) {
      if (items.length === limit) return { items, last, done: false };
      items.push(item);
      last = String(item.SK);
    }
    startKey = page.LastEvaluatedKey;
    if (page.LastEvaluatedKey) last = String(page.LastEvaluatedKey.SK);
  } while (startKey && items.length < limit);
  return { items, ...(last === undefined ? {} : { last }), done: startKey === undefined };
}

/** Unprocessed writes of a BatchWriteItem are sent again after this back-off; after this many attempts the call fails. */
const WRITE_ATTEMPTS = 10;
type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

async function batchWrite(requests: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: WriteRequest[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt >= WRITE_ATTEMPTS) throw new Error(`${pending.length} writes of a transfer were left unprocessed ${WRITE_ATTEMPTS} times.`);
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** Math.min(attempt, 6)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
    }
  }
}

/** Puts items as they are (the move's copies: the same item under the receiver's partition key), 25 a call. */
export const putCopies = (items: readonly Item[]): Promise<void> => batchWrite(items.map((Item) => ({ PutRequest: { Item } })));

/** Deletes items by key, 25 a call: the sender's copies once the receiver owns the product. */
export const deleteKeys = (keys: readonly ItemKey[]): Promise<void> => batchWrite(keys.map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } })));

/** A deletion on the condition that the stored item is still `version` (a registration the outbox may change meanwhile). */
export const deleteIfVersion = (key: ItemKey, version: unknown): TransactItem => ({
  Delete: { TableName: tableName(), Key: { PK: key.PK, SK: key.SK }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': version } },
});

/** An item of the sender's partition under the receiver's partition key (the sort key and every attribute as they are). */
export const copiedTo = (receiver: Tenant, item: Item): Item => ({ ...item, PK: tenantPk(receiver) });

/**
 * Writes the move's progress on the sender's copy, on the condition that the transfer is still
 * accepted and the move still in `phase` (a concurrent attempt that went further is not set back).
 * False when the condition failed.
 */
export async function saveMove(record: TransferRecord, move: MoveState, phase: MoveState['phase']): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(moveUpdate(record, move, phase).Update as NonNullable<TransactItem['Update']>));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The move's progress as a transaction's update of the sender's copy (the step that switches ownership), on the condition that the move is still in `phase`. */
export function moveUpdate(record: TransferRecord, move: MoveState, phase: MoveState['phase']): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: transferKey(senderOf(record), 'out', record.transferId),
      UpdateExpression: 'SET #move = :move',
      ConditionExpression: '#status = :accepted AND #move.#phase = :phase',
      ExpressionAttributeNames: { '#move': 'move', '#status': 'status', '#phase': 'phase' },
      ExpressionAttributeValues: { ':move': move, ':accepted': 'accepted', ':phase': phase },
    },
  };
}

/**
 * The switch of ownership (docs/transfers.md#the-move), one transaction: the product and its public
 * view put in the receiver's tenant (the view where the receiver's reservation is), the sender's GTIN
 * item made a pointer to the receiver (where it still holds the product's view), every former owner's
 * pointer moved to the receiver, and the move's next phase.
 */
export function switchWrites(record: TransferRecord, product: ProductRecord, senderGtinItem: Item, formerOwners: readonly string[], next: MoveState, now: string): TransactItem[] {
  const sender = senderOf(record);
  const receiver = receiverOf(record);
  const view = viewAttributes(senderGtinItem);
  const pointer = { type: 'gtin', gtin: record.gtin, productId: record.productId, transferId: record.transferId, movedAt: now };
  return [
    putNew(productToItem(product)),
    {
      Put: {
        TableName: tableName(),
        Item: { ...view, PK: tenantPk(receiver), SK: gtinSk(record.gtin) },
        ConditionExpression: 'reservedBy = :id',
        ExpressionAttributeValues: { ':id': record.transferId },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { PK: tenantPk(sender), SK: gtinSk(record.gtin), ...pointer, movedTo: receiver.orgId },
        ConditionExpression: 'productId = :pid AND attribute_not_exists(movedTo)',
        ExpressionAttributeValues: { ':pid': record.productId },
      },
    },
    ...formerOwners.map(
      (orgId): TransactItem => ({
        Update: {
          TableName: tableName(),
          Key: { PK: tenantPk({ orgId, environment: record.environment }), SK: gtinSk(record.gtin) },
          UpdateExpression: 'SET movedTo = :to, transferId = :id, movedAt = :now',
          ConditionExpression: 'attribute_exists(movedTo) AND productId = :pid',
          ExpressionAttributeValues: { ':to': receiver.orgId, ':id': record.transferId, ':now': now, ':pid': record.productId },
        },
      }),
    ),
    moveUpdate(record, next, 'copy'),
  ];
}
