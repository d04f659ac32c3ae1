import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PublicJwk, PublicSigningKey } from '../domain/credential.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import {
  credentialSk,
  currentSigningKeyKey,
  productSk,
  SIGNING_KEY_PREFIX,
  signingKeyKey,
  STATUS_COUNTER_SK,
  statusIndexSk,
  statusListSk,
  tenantPk,
} from './keys.ts';
import type { TransactItem } from './writes.ts';

/**
 * Signed passports in the table (keys in lib/data/keys.ts; docs/credentials.md):
 * - a version's credential JWT, stored on first request (conditional put: signed once);
 * - the status lists: each product's index (claimed once, never changed), the tenant's counter,
 *   and each list's revoked bits as a number set that withdrawal and reinstatement ADD to and
 *   DELETE from in their own transaction;
 * - the organization's signing keys and the pointer to the current one.
 */

// ---- Credentials ------------------------------------------------------------------------------

export async function getStoredCredential(tenant: Tenant, gtin14: string, version: number): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: credentialSk(gtin14, version) } }));
  return typeof Item?.jwt === 'string' ? Item.jwt : undefined;
}

/** Stores a version's credential unless one is stored already; answers the stored one (the first signer's). */
export async function storeCredential(tenant: Tenant, gtin14: string, version: number, jwt: string, keyId: string): Promise<string> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: tenantPk(tenant), SK: credentialSk(gtin14, version), type: 'credential', gtin: gtin14, version, keyId, jwt, createdAt: new Date().toISOString() },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return jwt;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await getStoredCredentialConsistent(tenant, gtin14, version)) ?? jwt;
  }
}

async function getStoredCredentialConsistent(tenant: Tenant, gtin14: string, version: number): Promise<string | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: credentialSk(gtin14, version) }, ConsistentRead: true }),
  );
  return typeof Item?.jwt === 'string' ? Item.jwt : undefined;
}

// ---- Status lists -----------------------------------------------------------------------------

export async function getStatusIndex(tenant: Tenant, productId: string, consistent = false): Promise<number | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: statusIndexSk(productId) }, ConsistentRead: consistent }),
  );
  return typeof Item?.index === 'number' ? Item.index : undefined;
}

/** Takes the tenant's next free status index (an atomic ADD: two callers never get the same one). */
export async function allocateStatusIndex(tenant: Tenant): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: STATUS_COUNTER_SK },
      UpdateExpression: 'ADD #next :one SET #type = :type',
      ExpressionAttributeNames: { '#next': 'next', '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'statusCounter' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.next) - 1;
}

/** How many status indexes the tenant has handed out. */
export async function statusIndexesAllocated(tenant: Tenant): Promise<number> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: STATUS_COUNTER_SK } }));
  return typeof Item?.next === 'number' ? Item.next : 0;
}

/** Gives the product `index` unless it has one already; answers the product's index either way. */
export async function claimStatusIndex(tenant: Tenant, productId: string, index: number): Promise<number> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: tenantPk(tenant), SK: statusIndexSk(productId), type: 'statusIndex', productId, index },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return index;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const claimed = await getStatusIndex(tenant, productId, true);
    if (claimed === undefined) throw error;
    return claimed;
  }
}

/** The transaction action that sets (revoked) or clears bit `bit` of list `list`. */
export function statusBitUpdate(tenant: Tenant, list: number, bit: number, revoked: boolean): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: statusListSk(list) },
      UpdateExpression: revoked ? 'ADD revoked :bits SET #type = :type' : 'DELETE revoked :bits SET #type = :type',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':bits': new Set([bit]), ':type': 'statusList' },
    },
  };
}

/**
 * Sets the bit to `revoked` on the condition that the product's status is still what the caller
 * read (withdrawn or not). 'moved' when the product changed meanwhile: read it again.
 */
export async function setStatusBitIfProduct(tenant: Tenant, productId: string, list: number, bit: number, revoked: boolean): Promise<'set' | 'moved'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: { PK: tenantPk(tenant), SK: productSk(productId) },
              ConditionExpression: revoked ? '#status = :withdrawn' : 'attribute_exists(PK) AND (attribute_not_exists(#status) OR #status <> :withdrawn)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':withdrawn': 'withdrawn' },
            },
          },
          statusBitUpdate(tenant, list, bit, revoked),
        ],
      }),
    );
    return 'set';
  } catch (error) {
    if (cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')) return 'moved';
    throw error;
  }
}

/** The revoked bits of one list. */
export async function getRevokedBits(tenant: Tenant, list: number): Promise<number[]> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: statusListSk(list) }, ConsistentRead: true }));
  const revoked = Item?.revoked as Set<number> | undefined;
  return revoked ? [...revoked].map(Number).sort((a, b) => a - b) : [];
}

// ---- Signing keys -----------------------------------------------------------------------------

export interface SigningKeyRecord extends PublicSigningKey {
  orgId: string;
  /** Where the private key is: a KMS key (its ARN), or a local key file (SIGNING_KEY_DIR). */
  kind: 'kms' | 'local';
  kmsKeyArn?: string;
}

export async function putSigningKey(record: SigningKeyRecord): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...signingKeyKey(record.orgId, record.keyId), type: 'signingKey', ...record },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

const toSigningKey = (item: Record<string, unknown>): SigningKeyRecord => ({
  orgId: String(item.orgId),
  keyId: String(item.keyId),
  kind: item.kind === 'kms' ? 'kms' : 'local',
  ...(typeof item.kmsKeyArn === 'string' ? { kmsKeyArn: item.kmsKeyArn } : {}),
  publicJwk: item.publicJwk as PublicJwk,
  createdAt: String(item.createdAt),
});

export async function getSigningKey(orgId: string, keyId: string): Promise<SigningKeyRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: signingKeyKey(orgId, keyId), ConsistentRead: true }));
  return Item ? toSigningKey(Item) : undefined;
}

/** Every key of the organization, oldest first (key ids sort by time). */
export async function listSigningKeys(orgId: string): Promise<SigningKeyRecord[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': signingKeyKey(orgId, '').PK, ':prefix': SIGNING_KEY_PREFIX },
    }),
  );
  return (out.Items ?? []).map(toSigningKey);
}

export async function getCurrentSigningKeyId(orgId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: currentSigningKeyKey(orgId), ConsistentRead: true }));
  return typeof Item?.keyId === 'string' ? Item.keyId : undefined;
}

/**
 * Points the organization's current key at `keyId`. With `onlyIfNone` (first use) it succeeds
 * only while there is no current key: of two first uses one wins ('exists' for the other).
 */
export async function setCurrentSigningKey(orgId: string, keyId: string, onlyIfNone: boolean): Promise<'set' | 'exists'> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...currentSigningKeyKey(orgId), type: 'currentSigningKey', orgId, keyId, updatedAt: new Date().toISOString() },
        ...(onlyIfNone ? { ConditionExpression: 'attribute_not_exists(PK)' } : {}),
      }),
    );
    return 'set';
  } catch (error) {
    if (onlyIfNone && isConditionFailure(error)) return 'exists';
    throw error;
  }
}
