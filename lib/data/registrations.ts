import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { REGISTRATION_STATUSES, REGISTRY_GRANULARITIES, type RegistrationStatus, type RegistryEntry, type RegistryGranularity } from '../domain/registry/entry.ts';
import type { RegistrationReason, RegistrationRecord } from '../domain/registry/registration.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { renewalDayOf } from '../domain/registry/outbox.ts';
import { proofDuePk, proofDueShardOf, REGISTRATION_PREFIX, registrationSk, tenantOfPk, tenantPk, type ItemKey } from './keys.ts';
import { GSI1 } from './table.ts';
import { beginsWith } from './query.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Registrations in the EU registry (docs/registry.md#registrations): one item per passport
 * identifier in the tenant's partition, `REG#{registrationId}`, the id derived from the identifier
 * (registrationIdOf), so that writing one twice writes it once. It is created once (in the
 * publication's transaction, or on demand) and then changed only on the condition that the stored
 * `version` is the one the change was made from: a status change is one write.
 */
type Item = Record<string, unknown>;

export const registrationKey = (tenant: Tenant, registrationId: string): ItemKey => ({ PK: tenantPk(tenant), SK: registrationSk(registrationId) });

/** The stored attributes of a record (undefined members are left out by the client). */
const attributes = (record: RegistrationRecord): Item => {
  const due = renewalDayOf(record);
  return {
  type: 'registration',
  // In the sparse index under the day its proof is due for renewal, while it is registered (docs/registry.md#proof-of-registration).
  [GSI1.partitionKey]: due === undefined ? undefined : proofDuePk(due, proofDueShardOf(record.registrationId)),
  registrationId: record.registrationId,
  entry: record.entry,
  granularity: record.granularity,
  productId: record.productId,
  gtin: record.gtin,
  lot: record.lot,
  serial: record.serial,
  status: record.status,
  reasons: record.reasons,
  warnings: record.warnings,
  registryId: record.registryId,
  registryUri: record.registryUri,
  correlationId: record.correlationId,
  submittedAt: record.submittedAt,
  registeredAt: record.registeredAt,
  proofExpiresAt: record.proofExpiresAt,
  proofRenewedAt: record.proofRenewedAt,
  deactivation: record.deactivation,
  claimedAt: record.claimedAt,
  notBefore: record.notBefore,
  sendRetries: record.sendRetries,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  version: record.version,
  };
};

const isStatus = (value: unknown): value is RegistrationStatus => typeof value === 'string' && (REGISTRATION_STATUSES as readonly string[]).includes(value);
const isGranularity = (value: unknown): value is RegistryGranularity => typeof value === 'string' && (REGISTRY_GRANULARITIES as readonly string[]).includes(value);
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function reasonsOf(value: unknown): RegistrationReason[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): RegistrationReason[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const reason = raw as Item;
    if (typeof reason.message !== 'string') return [];
    return [
      {
        source: reason.source === 'registry' ? 'registry' : 'precheck',
        code: String(reason.code ?? ''),
        ...(typeof reason.field === 'string' ? { field: reason.field } : {}),
        message: reason.message,
      },
    ];
  });
}

function entryOf(value: unknown): RegistryEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Item;
  if (typeof raw.upi !== 'string' || !isGranularity(raw.granularityLevel)) return undefined;
  const entry: RegistryEntry = {
    upi: raw.upi,
    reoId: String(raw.reoId ?? ''),
    facilitiesId: Array.isArray(raw.facilitiesId) ? raw.facilitiesId.map(String) : [],
    liveURL: String(raw.liveURL ?? ''),
    backupURL: String(raw.backupURL ?? ''),
    commodityCode: String(raw.commodityCode ?? ''),
    granularityLevel: raw.granularityLevel,
  };
  if (raw.granularityLevel === 'ITEM') entry.deactivated = typeof raw.deactivated === 'boolean' ? raw.deactivated : null;
  return entry;
}

/** A stored registration, or undefined for anything this code cannot read as one. */
export function registrationFromItem(item: Item | undefined): RegistrationRecord | undefined {
  if (!item || item.type !== 'registration' || typeof item.registrationId !== 'string' || !isStatus(item.status) || !isGranularity(item.granularity)) return undefined;
  const entry = entryOf(item.entry);
  if (!entry) return undefined;
  const optional = (name: string): Record<string, string> => {
    const value = optionalString(item[name]);
    return value === undefined ? {} : { [name]: value };
  };
  return {
    registrationId: item.registrationId,
    entry,
    granularity: item.granularity,
    productId: String(item.productId ?? ''),
    gtin: String(item.gtin ?? ''),
    ...optional('lot'),
    ...optional('serial'),
    status: item.status,
    reasons: reasonsOf(item.reasons),
    warnings: reasonsOf(item.warnings),
    ...optional('registryId'),
    ...optional('registryUri'),
    ...optional('correlationId'),
    ...optional('submittedAt'),
    ...optional('registeredAt'),
    ...optional('proofExpiresAt'),
    ...optional('proofRenewedAt'),
    ...(item.deactivation === 'requested' || item.deactivation === 'reactivation_requested' ? { deactivation: item.deactivation } : {}),
    ...optional('claimedAt'),
    ...optional('notBefore'),
    ...(typeof item.sendRetries === 'number' && Number.isInteger(item.sendRetries) && item.sendRetries > 0 ? { sendRetries: item.sendRetries } : {}),
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? ''),
    version: typeof item.version === 'number' ? item.version : 0,
  };
}

/**
 * A new registration, to join a publication's transaction: written only where no registration of
 * its id exists; one that exists is left as it is, and the transaction goes through. It is an update
 * that sets each attribute only where the item lacks it (`if_not_exists`), not a conditional put: a
 * failed condition would cancel the publication. A registration's identity attributes (entry, product,
 * lot, serial) follow from its id, so a stored one keeps every value it has.
 */
export function registrationPut(tenant: Tenant, record: RegistrationRecord): TransactItem {
  const stored = Object.entries(attributes(record)).filter(([, value]) => value !== undefined);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = stored.map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} = if_not_exists(#a${index}, :a${index})`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: registrationKey(tenant, record.registrationId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A registration written where none of its id exists (one conditional PutItem): `exists`, and nothing written, otherwise. */
export async function insertRegistrationIfAbsent(tenant: Tenant, record: RegistrationRecord): Promise<'created' | 'exists'> {
  try {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...registrationKey(tenant, record.registrationId), ...attributes(record) }, ConditionExpression: 'attribute_not_exists(PK)' }),
    );
    return 'created';
  } catch (error) {
    if (isConditionFailure(error)) return 'exists';
    throw error;
  }
}

/** A registration by id, read consistently (a change is made from what this answers). */
export async function getRegistration(tenant: Tenant, registrationId: string): Promise<RegistrationRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: registrationKey(tenant, registrationId), ConsistentRead: true }));
  return registrationFromItem(Item);
}

/** Which of `registrationIds` the tenant has a registration of: BatchGetItem of their keys only, 100 a call (what on-demand creation asks before writing). */
export async function storedRegistrationIds(tenant: Tenant, registrationIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const ids = [...new Set(registrationIds)];
  for (let i = 0; i < ids.length; i += 100) {
    let pending: Item[] = ids.slice(i, i + 100).map((id): Item => ({ ...registrationKey(tenant, id) }));
    for (let attempt = 1; pending.length; attempt++) {
      const { Responses, UnprocessedKeys } = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ProjectionExpression: 'registrationId', ConsistentRead: true } } }),
      );
      for (const item of Responses?.[tableName()] ?? []) if (typeof item.registrationId === 'string') found.add(item.registrationId);
      pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
      if (pending.length && attempt >= 8) throw new Error(`Could not read ${pending.length} registrations`);
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
  return found;
}

export interface RegistrationFilter {
  status?: RegistrationStatus;
  granularity?: RegistryGranularity;
  productId?: string;
}

/**
 * The tenant's registrations in id order (ids are digests: a stable order, not a time order), `limit`
 * after the cursor (the last id of the page before). Filters apply to what the Query reads, whole
 * 1 MB pages until the page is full, so a rare status among many registrations reads them all.
 * `nextCursor` is set when more follow.
 */
export async function listRegistrations(
  tenant: Tenant,
  filter: RegistrationFilter,
  page: { limit: number; cursor?: string },
): Promise<{ data: RegistrationRecord[]; nextCursor?: string }> {
  const key = beginsWith(tenantPk(tenant), REGISTRATION_PREFIX);
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...key.ExpressionAttributeValues };
  const add = (name: string, value: string | undefined): void => {
    if (value === undefined) return;
    conditions.push(`#${name} = :${name}`);
    names[`#${name}`] = name;
    values[`:${name}`] = value;
  };
  add('status', filter.status);
  add('granularity', filter.granularity);
  add('productId', filter.productId);
  const query = {
    ...key,
    ExpressionAttributeValues: values,
    ...(conditions.length === 0 ? {} : { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names }),
  };
  const data: RegistrationRecord[] = [];
  let startKey: Item | undefined = page.cursor === undefined ? undefined : { ...registrationKey(tenant, page.cursor) };
  do {
    const result = await db().send(
      new QueryCommand({ ...query, TableName: tableName(), ExclusiveStartKey: startKey, ...(conditions.length === 0 ? { Limit: page.limit + 1 - data.length } : {}) }),
    );
    for (const item of result.Items ?? []) {
      const record = registrationFromItem(item);
      if (!record) continue;
      if (data.length === page.limit) return { data, nextCursor: data.at(-1)?.registrationId ?? '' };
      data.push(record);
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return { data };
}

/**
 * Writes `after` over `before` on the condition that the stored record is still `before` (its
 * `version`), with what rides along in the same transaction (events, other records): `conflict`, and
 * nothing written, when it changed meanwhile or is gone. `after` is `before` one version on.
 */
export async function updateRegistration(tenant: Tenant, before: RegistrationRecord, after: RegistrationRecord, also: readonly TransactItem[] = []): Promise<'written' | 'conflict'> {
  const put = registrationChange(tenant, before, after).Put;
  if (also.length === 0) {
    try {
      await db().send(new PutCommand(put));
      return 'written';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }
  return (await writeIfFirstHolds([{ Put: put }, ...also])) ? 'written' : 'conflict';
}

/** `after` over `before`, on the condition that the stored record is still `before`: to join another write's transaction (an item's withdrawal, docs/registry.md#lifecycle). */
export function registrationChange(tenant: Tenant, before: RegistrationRecord, after: RegistrationRecord): TransactItem & { Put: NonNullable<TransactItem['Put']> } {
  if (after.registrationId !== before.registrationId) throw new Error(`updateRegistration: ${after.registrationId} is not ${before.registrationId}`);
  if (after.version !== before.version + 1) throw new Error(`updateRegistration: version ${after.version} does not follow ${before.version}`);
  const put = {
    TableName: tableName(),
    Item: { ...registrationKey(tenant, after.registrationId), ...attributes(after) },
    ConditionExpression: '#version = :before',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':before': before.version },
  };
  return { Put: put };
}

/**
 * One page of the registrations whose proof is due for renewal on `day` in one shard of the sparse
 * index (docs/registry.md#proof-of-registration): their tenants and ids, at most `limit`, after the
 * cursor (the index's LastEvaluatedKey as JSON). The index holds only registered records.
 */
export async function registrationsDueOn(
  day: string,
  shard: number,
  page: { limit: number; cursor?: string },
): Promise<{ data: { tenant: Tenant; registrationId: string }[]; nextCursor?: string }> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#id': 'registrationId', '#key': 'PK' },
      ExpressionAttributeValues: { ':pk': proofDuePk(day, shard) },
      ProjectionExpression: '#key, #id',
      Limit: page.limit,
      ...(page.cursor === undefined ? {} : { ExclusiveStartKey: JSON.parse(page.cursor) as Item }),
    }),
  );
  const data = (result.Items ?? []).flatMap((item) => {
    const tenant = typeof item.PK === 'string' ? tenantOfPk(item.PK) : undefined;
    return tenant && typeof item.registrationId === 'string' ? [{ tenant, registrationId: item.registrationId }] : [];
  });
  return { data, ...(result.LastEvaluatedKey ? { nextCursor: JSON.stringify(result.LastEvaluatedKey) } : {}) };
}
