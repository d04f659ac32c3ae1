import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../domain/scopes.ts';
import type { Environment } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure, retryOnConflict } from './errors.ts';
import { API_KEY_PREFIX, apiKeyCountKey as activeCountKey, apiKeyHashKey, apiKeyListingKey, orgPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import type { TransactItem } from './writes.ts';

/**
 * API keys, stored as two items written together:
 * - `APIKEY#{sha256}` / `APIKEY`: the lookup by hash that authentication makes (one GetItem);
 * - `ORG#{orgId}` / `APIKEY#{keyId}`: the organization's listing, holding the hash for revocation,
 *   and `lastUsedAt` (written at most once a minute per key; see lib/auth/rate-limit.ts).
 * The key value itself is never stored.
 * - `ORG#{orgId}` / `APIKEYS`: `active`, the organization's count of active keys, changed in the
 *   same transaction as every insert (on the condition that it stays under the cap) and every
 *   revocation, so the cap holds exactly under concurrency. An organization from before the count
 *   gets it on its first insert or revocation, by counting its active keys.
 */
export interface ApiKeyRecord {
  keyId: string;
  orgId: string;
  environment: Environment;
  name: string;
  scopes: Scope[];
  hash: string;
  /** `sk_live_` or `sk_test_`. */
  prefix: string;
  last4: string;
  createdAt: string;
  revokedAt?: string;
  /** The key's own requests-a-minute limit; the configured default when absent. */
  rateLimitPerMinute?: number;
  /** Start of the last minute the key was used in (listing item only). */
  lastUsedAt?: string;
}

function fromItem(item: Record<string, unknown>): ApiKeyRecord {
  return {
    keyId: String(item.keyId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    name: String(item.name),
    scopes: (item.scopes as Scope[] | undefined) ?? [],
    hash: String(item.hash),
    prefix: String(item.prefix),
    last4: String(item.last4),
    createdAt: String(item.createdAt),
    ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
    ...(typeof item.rateLimitPerMinute === 'number' ? { rateLimitPerMinute: item.rateLimitPerMinute } : {}),
    ...(typeof item.lastUsedAt === 'string' ? { lastUsedAt: item.lastUsedAt } : {}),
  };
}

/**
 * Makes sure the organization's active-key count exists: when it does not, counts the active keys
 * and writes it (once: a concurrent writer's count wins). No insert or revocation commits without
 * the count, so nothing changes the keys between the counting and the write.
 */
async function ensureActiveCount(orgId: string): Promise<void> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: activeCountKey(orgId), ConsistentRead: true }));
  if (Item) return;
  const active = (await listActiveApiKeys(orgId)).length;
  try {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...activeCountKey(orgId), type: 'apiKeyCount', active }, ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Inserts the key unless the organization already has `maxActive` active keys: `false` then, and
 * nothing is written. `extra` joins the insert's transaction (its event, docs/lifecycle.md#event-log).
 */
export async function insertApiKey(record: ApiKeyRecord, maxActive: number, extra: TransactItem[] = []): Promise<boolean> {
  await ensureActiveCount(record.orgId);
  try {
    // Concurrent inserts and revocations all update the count item: a lost race is retried.
    await retryOnConflict(() => insertCounted(record, maxActive, extra));
    return true;
  } catch (error) {
    if (cancellationReasons(error)[2]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

async function insertCounted(record: ApiKeyRecord, maxActive: number, extra: TransactItem[]): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...apiKeyHashKey(record.hash), type: 'apiKey', ...record },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...apiKeyListingKey(record.orgId, record.keyId), type: 'apiKeyListing', ...record },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: activeCountKey(record.orgId),
            UpdateExpression: 'ADD active :one',
            ConditionExpression: 'active < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': maxActive },
          },
        },
        ...extra,
      ],
    }),
  );
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: apiKeyHashKey(hash) }));
  return Item ? fromItem(Item) : undefined;
}

/** The key as both of its items hold it: `SET` the same attributes on the two, in one transaction. */
async function updateBothItems(key: ApiKeyRecord, update: { UpdateExpression: string; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<void> {
  const common = { TableName: tableName(), ...update };
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { ...common, Key: apiKeyHashKey(key.hash) } },
        { Update: { ...common, Key: apiKeyListingKey(key.orgId, key.keyId) } },
      ],
    }),
  );
}

export async function getApiKey(orgId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: apiKeyListingKey(orgId, keyId) }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The organization's keys that are not revoked, oldest first. */
export async function listActiveApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
  const { items } = await queryItems({ ...beginsWith(orgPk(orgId), API_KEY_PREFIX), FilterExpression: 'attribute_not_exists(revokedAt)' });
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Marks both items of the key revoked. Returns the revoked record; undefined when the
 * organization has no such key. Revoking twice keeps the first revocation time. `extra` gives the
 * items that join the revoking transaction (its event, docs/lifecycle.md#event-log): they are
 * written only by the call that revokes, never by a repeated or losing one.
 */
export async function revokeApiKey(
  orgId: string,
  keyId: string,
  now: string,
  extra: (revoked: ApiKeyRecord) => TransactItem[] = () => [],
): Promise<ApiKeyRecord | undefined> {
  const key = await getApiKey(orgId, keyId);
  if (!key) return undefined;
  if (key.revokedAt) return key;
  await ensureActiveCount(orgId);
  try {
    const common = {
      TableName: tableName(),
      UpdateExpression: 'SET revokedAt = :now',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':now': now },
    };
    await retryOnConflict(() => db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { ...common, Key: apiKeyHashKey(key.hash) } },
          { Update: { ...common, Key: apiKeyListingKey(key.orgId, key.keyId) } },
          {
            Update: {
              TableName: tableName(),
              Key: activeCountKey(orgId),
              UpdateExpression: 'ADD active :minusOne',
              ConditionExpression: 'attribute_exists(active)',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
          ...extra({ ...key, revokedAt: now }),
        ],
      }),
    ));
  } catch (error) {
    // A concurrent revocation won: the key is revoked either way.
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed')) return getApiKey(orgId, keyId);
    throw error;
  }
  return { ...key, revokedAt: now };
}

/**
 * Sets the key's requests-a-minute limit on both items (authentication reads it from the hash
 * item). Undefined when the organization has no such key.
 */
export async function setApiKeyRateLimit(orgId: string, keyId: string, perMinute: number): Promise<ApiKeyRecord | undefined> {
  const key = await getApiKey(orgId, keyId);
  if (!key) return undefined;
  await updateBothItems(key, {
    UpdateExpression: 'SET rateLimitPerMinute = :limit',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':limit': perMinute },
  });
  return { ...key, rateLimitPerMinute: perMinute };
}

/** Records that the key was used at `at` (listing item only; never creates the item). */
export async function touchApiKey(orgId: string, keyId: string, at: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyListingKey(orgId, keyId),
        UpdateExpression: 'SET lastUsedAt = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
