import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ACCESS_REQUEST_STATUSES, type AccessRequestRecord, type AccessRequestStatus } from '../domain/access-requests.ts';
import { isPurposeName } from '../domain/battery/access-tiers.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { ACCESS_REQUEST_OUT_PREFIX, ACCESS_REQUEST_PREFIX, accessRequestSk, tenantPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Access requests (docs/access.md#access-requests), kept twice: in the owner's partition
 * (`AREQ#{id}`, the requests made to it) and in the requester's (`AREQOUT#{id}`, those it made),
 * so that each side reads and lists them within its own tenant partition. Both copies are written
 * together, in one transaction; an answer changes both on the condition that the owner's copy is
 * still pending, so a request is approved or refused once.
 */
type Item = Record<string, unknown>;
export type AccessRequestSide = 'owner' | 'requester';

const tenantOf = (record: AccessRequestRecord, side: AccessRequestSide): Tenant => ({ orgId: side === 'owner' ? record.ownerOrgId : record.requesterOrgId, environment: record.environment });

export const accessRequestKey = (tenant: Tenant, side: AccessRequestSide, requestId: string): ItemKey => ({ PK: tenantPk(tenant), SK: accessRequestSk(side, requestId) });

const keyOf = (record: AccessRequestRecord, side: AccessRequestSide): ItemKey => accessRequestKey(tenantOf(record, side), side, record.requestId);

const attributes = (record: AccessRequestRecord): Item => ({
  type: 'accessRequest',
  requestId: record.requestId,
  environment: record.environment,
  requesterOrgId: record.requesterOrgId,
  requesterName: record.requesterName,
  ownerOrgId: record.ownerOrgId,
  productIds: record.productIds,
  purpose: record.purpose,
  justification: record.justification,
  status: record.status,
  createdAt: record.createdAt,
  ...(record.answeredAt === undefined ? {} : { answeredAt: record.answeredAt }),
  ...(record.reason === undefined ? {} : { reason: record.reason }),
  ...(record.grantId === undefined ? {} : { grantId: record.grantId }),
});

const isStatus = (value: unknown): value is AccessRequestStatus => typeof value === 'string' && (ACCESS_REQUEST_STATUSES as readonly string[]).includes(value);

/** A stored request, or undefined for anything that is not one this code can read (an unknown purpose or status opens nothing). */
function fromItem(item: Item | undefined): AccessRequestRecord | undefined {
  if (!item || typeof item.requestId !== 'string' || !isPurposeName(item.purpose) || !isStatus(item.status)) return undefined;
  return {
    requestId: item.requestId,
    environment: item.environment === 'test' ? 'test' : 'live',
    requesterOrgId: String(item.requesterOrgId),
    requesterName: String(item.requesterName ?? ''),
    ownerOrgId: String(item.ownerOrgId),
    productIds: Array.isArray(item.productIds) ? item.productIds.map(String) : [],
    purpose: item.purpose,
    justification: String(item.justification ?? ''),
    status: item.status,
    createdAt: String(item.createdAt),
    ...(typeof item.answeredAt === 'string' ? { answeredAt: item.answeredAt } : {}),
    ...(typeof item.reason === 'string' ? { reason: item.reason } : {}),
    ...(typeof item.grantId === 'string' ? { grantId: item.grantId } : {}),
  };
}

/** Both copies of a new request, with its events: nothing is written unless all is. */
export async function insertAccessRequest(record: AccessRequestRecord, also: readonly TransactItem[]): Promise<void> {
  await writeIfFirstHolds([putNew({ ...keyOf(record, 'owner'), ...attributes(record) }), putNew({ ...keyOf(record, 'requester'), ...attributes(record) }), ...also]);
}

/** A request as one side sees it: the owner's copy, else the requester's (undefined when the tenant is neither). */
export async function getAccessRequest(tenant: Tenant, requestId: string): Promise<{ record: AccessRequestRecord; side: AccessRequestSide } | undefined> {
  for (const side of ['owner', 'requester'] as const) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: accessRequestKey(tenant, side, requestId), ConsistentRead: true }));
    const record = fromItem(Item);
    if (record) return { record, side };
  }
  return undefined;
}

/** One side's requests, oldest first (ids sort by time). */
export async function listAccessRequests(tenant: Tenant, side: AccessRequestSide, limit: number, startingAfter?: string): Promise<{ records: AccessRequestRecord[]; hasMore: boolean }> {
  const page = await queryItems(beginsWith(tenantPk(tenant), side === 'owner' ? ACCESS_REQUEST_PREFIX : ACCESS_REQUEST_OUT_PREFIX), {
    limit,
    ...(startingAfter ? { startKey: { ...accessRequestKey(tenant, side, startingAfter) } } : {}),
  });
  return { records: page.items.flatMap((item) => fromItem(item) ?? []), hasMore: page.hasMore };
}

/**
 * Writes an answered request over both copies, the owner's first and on the condition that it is
 * still pending, with what rides along (the grant an approval makes, the events): false, and
 * nothing written, when it was answered meanwhile.
 */
export function writeAccessRequestAnswer(answered: AccessRequestRecord, also: readonly TransactItem[]): Promise<boolean> {
  const pending = (side: AccessRequestSide): TransactItem => ({
    Put: {
      TableName: tableName(),
      Item: { ...keyOf(answered, side), ...attributes(answered) },
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    },
  });
  return writeIfFirstHolds([pending('owner'), pending('requester'), ...also]);
}
