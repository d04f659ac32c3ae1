import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inCurrentUnits, storedUnitFields } from '../domain/battery/units-migration.ts';
import type { DraftRecord } from '../domain/draft.ts';
import type { PassportData } from '../domain/passport.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { draftSk, tenantPk } from './keys.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Drafts (docs/lifecycle.md#drafts): one item per product, `DRAFT#{productId}` in the tenant's
 * partition. Every write is conditional on the draft being as it was read (its `updatedAt`), so two
 * editors never overwrite each other silently, and carries its event.
 */
type Item = Record<string, unknown>;

const key = (tenant: Tenant, productId: string) => ({ PK: tenantPk(tenant), SK: draftSk(productId) });

/** A draft as stored, with the units' marker when its data needs one (docs/battery.md#units). */
export const toItem = (tenant: Tenant, draft: DraftRecord): Item => ({ ...key(tenant, draft.productId), type: 'draft', ...draft, ...storedUnitFields(draft) });

/** A stored draft, battery data stored in older units converted (lib/domain/battery/units-migration.ts). */
export function fromItem(item: Item): DraftRecord {
  const draft: DraftRecord = { productId: String(item.productId), data: (item.data ?? {}) as PassportData, createdAt: String(item.createdAt), updatedAt: String(item.updatedAt) };
  return inCurrentUnits(draft, item.dataUnits);
}

export async function getDraft(tenant: Tenant, productId: string): Promise<DraftRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key(tenant, productId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/** The condition "the draft is as `seen` left it" (or, with none seen, "there is no draft"). */
function unchanged(seen: DraftRecord | undefined) {
  return seen
    ? { ConditionExpression: 'updatedAt = :seen', ExpressionAttributeValues: { ':seen': seen.updatedAt } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
}

/** The delete of the draft as `seen`, for the transaction that publishes it. */
export const draftDelete = (tenant: Tenant, seen: DraftRecord): TransactItem => ({
  Delete: { TableName: tableName(), Key: key(tenant, seen.productId), ...unchanged(seen) },
});

/** Writes `draft` over `seen` (none: a new draft) with `also` (its event). 'conflict' when the draft changed meanwhile. */
export async function saveDraft(tenant: Tenant, draft: DraftRecord, seen: DraftRecord | undefined, also: readonly TransactItem[]): Promise<'saved' | 'conflict'> {
  return write([{ Put: { TableName: tableName(), Item: toItem(tenant, draft), ...unchanged(seen) } }, ...also]);
}

/** Deletes the draft as `seen` with `also` (its event). 'conflict' when it changed or went meanwhile. */
export const deleteDraft = (tenant: Tenant, seen: DraftRecord, also: readonly TransactItem[]): Promise<'saved' | 'conflict'> =>
  write([draftDelete(tenant, seen), ...also]);

const write = async (items: TransactItem[]): Promise<'saved' | 'conflict'> => ((await writeIfFirstHolds(items)) ? 'saved' : 'conflict');
