import { createHash } from 'node:crypto';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { storedUnitFields } from '../domain/battery/units-migration.ts';
import { inParallel } from '../domain/in-parallel.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitFromItem, unitValue, type UnitKind, type UnitRecord } from '../domain/unit.ts';
import { putItems } from './backup-restore.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure, isTransactionConflict, retryOnConflict } from './errors.ts';
import { batteryIdClaimSk, batchPrefix, batchSk, batchVersionPrefix, batchVersionSk, itemPrefix, itemSk, itemVersionPrefix, itemVersionSk, tenantPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import type { TransactItem } from './writes.ts';

/**
 * Batches and serialised items of a product (docs/api.md#batches-and-items), in the tenant's
 * partition, keyed by the product's GTIN-14:
 * - `BATCH#{gtin14}#{lot}` and `ITEM#{gtin14}#{serial}`: the current version of each record, the
 *   one the resolver reads with the GTIN item in one BatchGetItem, and a product's records in one
 *   Query (lot or serial order).
 * - `BATCHV#{gtin14}#{lot}#{n}` and `ITEMV#{gtin14}#{serial}#{n}`: version n, put when version n + 1
 *   replaces it. A record's first version is one item, so registering costs one write (a small item:
 *   one write unit); the history grows only when something changes.
 */
type Item = Record<string, unknown>;

export const unitSk = (kind: UnitKind, gtin14: string, value: string): string => (kind === 'batch' ? batchSk(gtin14, value) : itemSk(gtin14, value));
const versionSk = (kind: UnitKind, gtin14: string, value: string, version: number): string =>
  kind === 'batch' ? batchVersionSk(gtin14, value, version) : itemVersionSk(gtin14, value, version);
const versionPrefix = (kind: UnitKind, gtin14: string, value: string): string => (kind === 'batch' ? batchVersionPrefix(gtin14, value) : itemVersionPrefix(gtin14, value));
const listPrefix = (kind: UnitKind, gtin14: string): string => (kind === 'batch' ? batchPrefix(gtin14) : itemPrefix(gtin14));

/** The key of a record's current version. */
export const unitKey = (tenant: Tenant, kind: UnitKind, gtin14: string, value: string): ItemKey => ({ PK: tenantPk(tenant), SK: unitSk(kind, gtin14, value) });
/** The key of one of a record's earlier versions. */
export const unitVersionKey = (tenant: Tenant, kind: UnitKind, gtin14: string, value: string, version: number): ItemKey => ({
  PK: tenantPk(tenant),
  SK: versionSk(kind, gtin14, value, version),
});

/** The stored attributes of a record (no undefined: the document client would refuse it). */
function attributes(unit: UnitRecord): Item {
  return {
    kind: unit.kind,
    productId: unit.productId,
    gtin: unit.gtin,
    ...(unit.lot === undefined ? {} : { lot: unit.lot }),
    ...(unit.serial === undefined ? {} : { serial: unit.serial }),
    status: unit.status,
    // The record read in older units as it was stored; one written now with the units' marker when it needs one (docs/battery.md#units).
    ...storedUnitFields(unit),
    version: unit.version,
    digest: unit.digest,
    ...(unit.previousDigest === null ? {} : { previousDigest: unit.previousDigest }),
    createdAt: unit.createdAt,
    updatedAt: unit.updatedAt,
    ...(unit.importId === undefined ? {} : { importId: unit.importId }),
    ...(unit.lineage === undefined ? {} : { lineage: unit.lineage }),
    ...(unit.updatedBy === undefined ? {} : { updatedBy: unit.updatedBy }),
  };
}

/** The item of a record's current version. */
export const currentItem = (tenant: Tenant, unit: UnitRecord): Item => ({ ...unitKey(tenant, unit.kind, unit.gtin, unitValue(unit)), type: unit.kind, ...attributes(unit) });
/** The item of an earlier version, kept when the next replaces it. */
export const archivedItem = (tenant: Tenant, unit: UnitRecord): Item => ({
  ...unitVersionKey(tenant, unit.kind, unit.gtin, unitValue(unit), unit.version),
  type: `${unit.kind}Version`,
  ...attributes(unit),
});

export async function getUnit(tenant: Tenant, kind: UnitKind, gtin14: string, value: string, consistent = false): Promise<UnitRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: unitKey(tenant, kind, gtin14, value), ConsistentRead: consistent }));
  return unitFromItem(Item, kind);
}

/**
 * The condition of a record's next version, every writer's (the API's transactions, bulk
 * registration's puts, a handover): no record yet (a new one), or the stored current version is
 * still `before`, the very version it was planned from (its number and its digest, so that a
 * version forked under the same number is not taken for it).
 */
function plannedFrom(before: UnitRecord | undefined): { ConditionExpression: string; ExpressionAttributeValues?: Item } {
  return before
    ? { ConditionExpression: 'version = :version AND digest = :digest', ExpressionAttributeValues: { ':version': before.version, ':digest': before.digest } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
}

/**
 * The writes of a record's next version, for a transaction: `after` as the current version on the
 * condition that none exists (a new record) or that the stored one is still `before` (its version
 * and digest), and `before` archived under its own key.
 */
export function unitVersionWrites(tenant: Tenant, before: UnitRecord | undefined, after: UnitRecord): TransactItem[] {
  return [
    { Put: { TableName: tableName(), Item: currentItem(tenant, after), ...plannedFrom(before) } },
    ...(before ? [{ Put: { TableName: tableName(), Item: archivedItem(tenant, before), ConditionExpression: 'attribute_not_exists(PK)' } }] : []),
  ];
}

/** Whether a write failed because a concurrent one won: its condition failed, or it lost to a transaction on the same item. */
const lostRace = (error: unknown): boolean =>
  isConditionFailure(error) || isTransactionConflict(error) || cancellationReasons(error).some((reason) => reason.Code === 'ConditionalCheckFailed');

/** One transaction, retried on transaction conflicts: 'conflict' when a condition failed or it kept losing (nothing written). */
async function transactOrLose(items: TransactItem[]): Promise<'written' | 'conflict'> {
  try {
    await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: items })));
    return 'written';
  } catch (error) {
    if (lostRace(error)) return 'conflict';
    throw error;
  }
}

/**
 * Writes `after` as the record's current version in one transaction with `also` (its event): a new
 * record on the condition that none exists, a next version on the condition that the stored one is
 * still `before` (its version and digest), which is archived under its own key beside it. 'conflict'
 * when a condition failed or the transaction kept losing to concurrent ones: nothing was written.
 */
export async function writeUnitVersion(tenant: Tenant, before: UnitRecord | undefined, after: UnitRecord, also: readonly TransactItem[] = []): Promise<'written' | 'conflict'> {
  const items: TransactItem[] = [...unitVersionWrites(tenant, before, after), ...also];
  return transactOrLose(items);
}

/** What a list keeps (docs/api.md#batches-and-items): lots or serials starting with `prefix`, one `status`, an item's `lot`. */
export interface UnitFilter {
  prefix?: string;
  status?: string;
  lot?: string;
}

/**
 * A product's records of one kind in lot or serial order: `limit` after `startingAfter` (or from the
 * first). `prefix` narrows the key condition (an index read); `status` and `lot` filter what the
 * Query reads, whole 1 MB pages until the page is full, so a rare status among many records reads
 * them all. A cursor outside the prefix's range starts before it (an earlier one) or after it (a later one).
 */
export async function listUnits(
  tenant: Tenant,
  kind: UnitKind,
  gtin14: string,
  limit: number,
  startingAfter?: string,
  filter: UnitFilter = {},
): Promise<{ units: UnitRecord[]; hasMore: boolean }> {
  const prefix = filter.prefix ?? '';
  let cursor = startingAfter;
  if (cursor !== undefined && !cursor.startsWith(prefix)) {
    if (cursor > prefix) return { units: [], hasMore: false };
    cursor = undefined;
  }
  const key = beginsWith(tenantPk(tenant), `${listPrefix(kind, gtin14)}${prefix}`);
  const startKey = cursor === undefined ? undefined : { ...unitKey(tenant, kind, gtin14, cursor) };
  const conditions = [...(filter.status === undefined ? [] : ['#status = :status']), ...(filter.lot === undefined ? [] : ['#lot = :lot'])];
  if (conditions.length === 0) {
    const page = await queryItems(key, { limit, ...(startKey ? { startKey } : {}) });
    return { units: page.items.flatMap((item) => unitFromItem(item, kind) ?? []), hasMore: page.hasMore };
  }
  const query = {
    ...key,
    FilterExpression: conditions.join(' AND '),
    ExpressionAttributeNames: { ...(filter.status === undefined ? {} : { '#status': 'status' }), ...(filter.lot === undefined ? {} : { '#lot': 'lot' }) },
    ExpressionAttributeValues: { ...key.ExpressionAttributeValues, ...(filter.status === undefined ? {} : { ':status': filter.status }), ...(filter.lot === undefined ? {} : { ':lot': filter.lot }) },
  };
  const units: UnitRecord[] = [];
  let next: Item | undefined = startKey;
  do {
    const page = await db().send(new QueryCommand({ ...query, TableName: tableName(), ExclusiveStartKey: next }));
    for (const item of page.Items ?? []) {
      const unit = unitFromItem(item, kind);
      if (!unit) continue;
      if (units.length === limit) return { units, hasMore: true };
      units.push(unit);
    }
    next = page.LastEvaluatedKey;
  } while (next);
  return { units, hasMore: false };
}

/**
 * The version of a record that was current at `at` (epoch ms): the newest whose `updatedAt` is not
 * after it. The current version first (one read), then the earlier ones newest first, a page at a time.
 */
export async function getUnitAt(tenant: Tenant, current: UnitRecord, at: number): Promise<UnitRecord | undefined> {
  if (Date.parse(current.updatedAt) <= at) return current;
  const pk = tenantPk(tenant);
  const value = unitValue(current);
  let startKey: Item | undefined;
  do {
    const page = await queryItems(
      { ...beginsWith(pk, versionPrefix(current.kind, current.gtin, value)), ScanIndexForward: false },
      { limit: 25, ...(startKey ? { startKey } : {}) },
    );
    for (const item of page.items) {
      const version = unitFromItem(item, current.kind);
      if (version && Date.parse(version.updatedAt) <= at) return version;
    }
    const last = page.items.at(-1);
    startKey = page.hasMore && last ? { PK: pk, SK: last.SK } : undefined;
  } while (startKey);
  return undefined;
}

/** How long bulk calls wait between their attempts at what DynamoDB left unprocessed. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 20 * 2 ** attempt)));


/** BatchGetItem calls a chunk makes at once: a chunk of 500 items is 5 reads of 100. */
const IN_FLIGHT = 8;

/** The current versions of a product's records named by `values` (strongly consistent): one BatchGetItem per 100, several at once. */
export async function readUnits(tenant: Tenant, kind: UnitKind, gtin14: string, values: readonly string[]): Promise<Map<string, UnitRecord>> {
  const out = new Map<string, UnitRecord>();
  const keys: Item[] = [...new Set(values)].map((value) => ({ ...unitKey(tenant, kind, gtin14, value) }));
  const parts = Array.from({ length: Math.ceil(keys.length / 100) }, (_, i) => keys.slice(i * 100, i * 100 + 100));
  await inParallel(parts, IN_FLIGHT, async (part) => {
    let pending: Item[] = part;
    for (let attempt = 1; pending.length; attempt++) {
      const { Responses, UnprocessedKeys } = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of Responses?.[tableName()] ?? []) {
        const unit = unitFromItem(item, kind);
        if (unit) out.set(unitValue(unit), unit);
      }
      pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
      if (pending.length && attempt >= 8) throw new Error(`Could not read ${pending.length} ${kind} records`);
      if (pending.length) await backOff(attempt);
    }
  });
  return out;
}

/** A record's next version as planned: `after`, on the condition that the stored record is still `before` (none: a new record). */
export interface PlannedVersion {
  before: UnitRecord | undefined;
  after: UnitRecord;
  /** Written in the version's own transaction (a battery's identifier claims): a new record then takes a transaction too. */
  also?: readonly TransactItem[];
}

/** Conditional writes a chunk makes at once (DynamoDB takes no condition in a BatchWriteItem: one call an item). */
const WRITES_IN_FLIGHT = 16;

/**
 * Writes planned versions, each on its own condition (docs/decisions.md#bulk-registration-within-11-write-units-an-item):
 * a new record with one PutItem on the condition that none exists (one write unit for an item of
 * at most 1 KB), a changed one with writeUnitVersion's transaction (the next version current on the
 * condition that the stored one is still the version it was planned from, that version archived
 * beside it: two items, four write units). A condition that fails costs its write too. Answers, in
 * the order of `plans`, 'written' or 'conflict' (a concurrent write won and nothing was written: the
 * caller plans the record again from what is stored).
 */
export async function writeVersions(tenant: Tenant, plans: readonly PlannedVersion[]): Promise<('written' | 'conflict')[]> {
  const outcomes: ('written' | 'conflict')[] = plans.map(() => 'conflict');
  await inParallel([...plans.keys()], WRITES_IN_FLIGHT, async (index) => {
    const { before, after, also = [] } = plans[index] as PlannedVersion;
    if (before || also.length > 0) {
      outcomes[index] = await writeUnitVersion(tenant, before, after, also);
      return;
    }
    try {
      await db().send(new PutCommand({ TableName: tableName(), Item: currentItem(tenant, after), ...plannedFrom(undefined) }));
      outcomes[index] = 'written';
    } catch (error) {
      if (!lostRace(error)) throw error;
    }
  });
  return outcomes;
}

/**
 * Whether the import `importId` wrote a version of the record after version `since` (0: since
 * before it existed): `current` (read strongly consistent just before) or an archived version between
 * them (one Query). What a bulk write that lost its race asks before planning its row again: its own
 * write may be stored after all (cut off by the client and sent again, the second attempt failing
 * its condition on the first), or another delivery of the same chunk wrote the row.
 */
export async function importWroteSince(tenant: Tenant, kind: UnitKind, gtin14: string, value: string, importId: string, since: number, current: UnitRecord | undefined): Promise<boolean> {
  if (!current || current.version <= since) return false;
  if (current.importId === importId) return true;
  if (current.version - 1 <= since) return false;
  const { items } = await queryItems({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': tenantPk(tenant), ':from': versionSk(kind, gtin14, value, since + 1), ':to': versionSk(kind, gtin14, value, current.version - 1) },
    ConsistentRead: true,
  });
  return items.some((item) => item.importId === importId);
}

/** Every stored version of a record: its current item and its archived ones (oldest first), each with its sort key. */
export interface StoredUnitVersions {
  current: UnitRecord | undefined;
  archived: { sk: string; unit: UnitRecord }[];
}

/** A record's current item and every archived version (all pages), strongly consistent: what a chain check or a repair reads. */
export async function readUnitVersions(tenant: Tenant, kind: UnitKind, gtin14: string, value: string): Promise<StoredUnitVersions> {
  const current = await getUnit(tenant, kind, gtin14, value, true);
  const { items } = await queryItems({ ...beginsWith(tenantPk(tenant), versionPrefix(kind, gtin14, value)), ConsistentRead: true });
  const archived = items.flatMap((item) => {
    const unit = unitFromItem(item, kind);
    return unit ? [{ sk: String(item.SK), unit }] : [];
  });
  return { current, archived: archived.sort((a, b) => a.unit.version - b.unit.version) };
}

/**
 * Makes `chain` (versions 1..n of one record, each naming its predecessor's digest) the record's
 * stored history (an operator's repair, docs/operator-cli.md#repairing-a-batch-or-an-item): versions
 * 1..n-1 archived under their keys, version n current, any other archived item of the record
 * deleted. The archived versions are put first; the current version, with the deletions, in one
 * transaction on the condition that the current item is still the one `stored` read (its digest;
 * none: no current item), so that a write that lands meanwhile is not overwritten ('conflict': run
 * the repair again).
 */
export async function replaceUnitChain(tenant: Tenant, chain: readonly UnitRecord[], stored: StoredUnitVersions): Promise<'written' | 'conflict'> {
  const head = chain.at(-1);
  if (!head) throw new Error('A chain to store needs at least one version.');
  const keep = new Map(chain.slice(0, -1).map((unit) => [versionSk(unit.kind, unit.gtin, unitValue(unit), unit.version), unit]));
  const archivedDigests = new Map(stored.archived.map(({ sk, unit }) => [sk, unit.digest]));
  const puts = [...keep].filter(([sk, unit]) => archivedDigests.get(sk) !== unit.digest).map(([, unit]) => archivedItem(tenant, unit));
  await putItems(tableName(), puts);
  const deletions = [...new Set(stored.archived.map(({ sk }) => sk))].filter((sk) => !keep.has(sk));
  const seen = stored.current;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: currentItem(tenant, head),
        ...(seen ? { ConditionExpression: 'digest = :seen', ExpressionAttributeValues: { ':seen': seen.digest } } : { ConditionExpression: 'attribute_not_exists(PK)' }),
      },
    },
    ...deletions.map((sk) => ({ Delete: { TableName: tableName(), Key: { PK: tenantPk(tenant), SK: sk } } })),
  ];
  if (items.length > 100) throw new Error(`The repair would delete ${deletions.length} archived versions in one transaction; DynamoDB takes at most 99.`);
  return transactOrLose(items);
}

/** A battery identifier that one item holds (docs/battery.md#model-and-item). */
export interface BatteryIdentifier {
  field: 'productIdentifier' | 'batteryPassportIdentifier';
  value: string;
}

/** The item that holds a claimed identifier. */
export interface BatteryIdClaim extends BatteryIdentifier {
  gtin: string;
  serial: string;
}

/** Identifiers are unique case-insensitively: the claim's key is the digest of the lower-case form (lib/data/keys.ts). */
const claimKey = (tenant: Tenant, { field, value }: BatteryIdentifier): ItemKey => ({
  PK: tenantPk(tenant),
  SK: batteryIdClaimSk(field, createHash('sha256').update(value.toLowerCase()).digest('hex')),
});

/** The claims on `identifiers` that exist (at most two: one BatchGetItem, strongly consistent). */
export async function getBatteryIdClaims(tenant: Tenant, identifiers: readonly BatteryIdentifier[]): Promise<BatteryIdClaim[]> {
  const keys = [...new Map(identifiers.map((identifier) => claimKey(tenant, identifier)).map((key) => [key.SK, key])).values()];
  const items: Record<string, unknown>[] = [];
  // BatchGetItem takes at most 100 keys; what it leaves unprocessed is asked again.
  for (let start = 0; start < keys.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + 100).map((key) => ({ ...key }));
    while (pending?.length) {
      const result: BatchGetCommandOutput = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      items.push(...(result.Responses?.[tableName()] ?? []));
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return items.flatMap((item) =>
    (item.field === 'productIdentifier' || item.field === 'batteryPassportIdentifier') && typeof item.value === 'string' && typeof item.gtin === 'string' && typeof item.serial === 'string'
      ? [{ field: item.field, value: item.value, gtin: item.gtin, serial: item.serial }]
      : [],
  );
}

/**
 * The writes that move an item's identifier claims from `before` to `after`, for the item's own
 * transaction: a new claim on the condition that none exists or that it is this item's; a claim
 * the item no longer holds deleted on the condition that it is this item's. An identifier whose
 * lower-case form is unchanged keeps its claim.
 */
export function batteryIdClaimWrites(tenant: Tenant, owner: { gtin: string; serial: string }, before: readonly BatteryIdentifier[], after: readonly BatteryIdentifier[]): TransactItem[] {
  const same = (a: BatteryIdentifier, b: BatteryIdentifier) => a.field === b.field && a.value.toLowerCase() === b.value.toLowerCase();
  const mine = { ':gtin': owner.gtin, ':serial': owner.serial };
  const names = { '#gtin': 'gtin', '#serial': 'serial' };
  return [
    ...after
      .filter((identifier) => !before.some((held) => same(held, identifier)))
      .map((identifier): TransactItem => ({
        Put: {
          TableName: tableName(),
          Item: { ...claimKey(tenant, identifier), type: 'battery-id-claim', field: identifier.field, value: identifier.value, gtin: owner.gtin, serial: owner.serial },
          ConditionExpression: 'attribute_not_exists(PK) OR (#gtin = :gtin AND #serial = :serial)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: mine,
        },
      })),
    ...before
      .filter((held) => !after.some((identifier) => same(held, identifier)))
      .map((held): TransactItem => ({
        Delete: { TableName: tableName(), Key: claimKey(tenant, held), ConditionExpression: 'attribute_not_exists(PK) OR (#gtin = :gtin AND #serial = :serial)', ExpressionAttributeNames: names, ExpressionAttributeValues: mine },
      })),
  ];
}
