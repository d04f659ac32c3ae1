import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handoverFromItem, type HandoverRecord } from '../domain/handover.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, retryOnConflict } from './errors.ts';
import { handoverSk, HANDOVER_IN_PREFIX, HANDOVER_PREFIX, tenantPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Handovers of batteries between organizations (docs/battery.md#second-life). Each handover is kept
 * twice, the same record in the sender's partition (`HANDOVER#{id}`) and in the recipient's
 * (`HANDOVERIN#{id}`), so that each side reads and lists what concerns it within its own tenant
 * partition; both copies change together, in one transaction, on the condition that both are still
 * offered.
 */
type Item = Record<string, unknown>;

const senderTenant = (record: HandoverRecord): Tenant => ({ orgId: record.from.orgId, environment: record.environment });
const recipientTenant = (record: HandoverRecord): Tenant => ({ orgId: record.to.orgId, environment: record.environment });

export const handoverKey = (tenant: Tenant, side: 'out' | 'in', handoverId: string): ItemKey => ({ PK: tenantPk(tenant), SK: handoverSk(side, handoverId) });

const attributes = (record: HandoverRecord): Item => ({
  type: 'handover',
  handoverId: record.handoverId,
  environment: record.environment,
  operation: record.operation,
  status: record.status,
  from: record.from,
  to: record.to,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  ...(record.acceptedAt === undefined ? {} : { acceptedAt: record.acceptedAt }),
  ...(record.recycledAt === undefined ? {} : { recycledAt: record.recycledAt }),
});

/** Both copies of a new offer, with the events of each side: nothing is written unless all is. */
export async function insertHandover(record: HandoverRecord, also: readonly TransactItem[]): Promise<void> {
  await writeIfFirstHolds([
    putNew({ ...handoverKey(senderTenant(record), 'out', record.handoverId), ...attributes(record) }),
    putNew({ ...handoverKey(recipientTenant(record), 'in', record.handoverId), ...attributes(record) }),
    ...also,
  ]);
}

/** A handover as one side sees it: the sender's copy, else the recipient's (undefined when the tenant is neither). */
export async function getHandover(tenant: Tenant, handoverId: string, consistent = false): Promise<{ record: HandoverRecord; side: 'out' | 'in' } | undefined> {
  for (const side of ['out', 'in'] as const) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: handoverKey(tenant, side, handoverId), ConsistentRead: consistent }));
    const record = handoverFromItem(Item);
    if (record) return { record, side };
  }
  return undefined;
}

/** One side's handovers, oldest first (ids sort by time). */
export async function listHandovers(tenant: Tenant, side: 'out' | 'in', limit: number, startingAfter?: string): Promise<{ records: HandoverRecord[]; hasMore: boolean }> {
  const page = await queryItems(beginsWith(tenantPk(tenant), side === 'out' ? HANDOVER_PREFIX : HANDOVER_IN_PREFIX), {
    limit,
    ...(startingAfter ? { startKey: { ...handoverKey(tenant, side, startingAfter) } } : {}),
  });
  return { records: page.items.flatMap((item) => handoverFromItem(item) ?? []), hasMore: page.hasMore };
}

/**
 * The writes that move both copies from offered to `next` (accepted or cancelled), each on the
 * condition that it is still offered: a handover is accepted or cancelled once.
 */
export function handoverTransition(next: HandoverRecord): TransactItem[] {
  return (['out', 'in'] as const).map((side) => ({
    Put: {
      TableName: tableName(),
      Item: { ...handoverKey(side === 'out' ? senderTenant(next) : recipientTenant(next), side, next.handoverId), ...attributes(next) },
      ConditionExpression: '#status = :offered',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':offered': 'offered' },
    },
  }));
}

/** Writes a transition with what rides along (the items' versions, the events): false when the handover was no longer offered or a record changed meanwhile. */
export const writeHandoverTransition = (next: HandoverRecord, also: readonly TransactItem[]): Promise<boolean> => writeIfFirstHoldsAll([...handoverTransition(next), ...also]);

/**
 * A waste handover's battery declared recycled (docs/battery.md#a-batterys-life): both copies take
 * `recycledAt`, each on the condition that the handover is accepted and not yet recycled, with what
 * rides along (the item's last version, the events): false when a condition failed.
 */
export const writeHandoverRecycled = (next: HandoverRecord, also: readonly TransactItem[]): Promise<boolean> =>
  writeIfFirstHoldsAll([
    ...(['out', 'in'] as const).map((side) => ({
      Put: {
        TableName: tableName(),
        Item: { ...handoverKey(side === 'out' ? senderTenant(next) : recipientTenant(next), side, next.handoverId), ...attributes(next) },
        ConditionExpression: '#status = :accepted AND attribute_not_exists(recycledAt)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':accepted': 'accepted' },
      },
    })),
    ...also,
  ]);

/** Like writeIfFirstHolds, but any failed condition (not only the first) answers false. */
async function writeIfFirstHoldsAll(items: readonly TransactItem[]): Promise<boolean> {
  try {
    await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: [...items] })));
    return true;
  } catch (error) {
    if (cancellationReasons(error).some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}
