import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { GrantRecord } from '../domain/access.ts';
import { isPurposeName } from '../domain/battery/access-tiers.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { retryOnConflict } from './errors.ts';
import { GRANT_IN_PREFIX, GRANT_PREFIX, grantInSk, grantSk, grantToPrefix, grantToSk, tenantPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * Access grants (docs/access.md#grants), kept three times in one transaction: in the owner's
 * partition by id (`GRANT#`, to read and list them) and by grantee (`GRANTTO#{grantee}#`, so that a
 * read of the owner's passport by an organization finds its grants in one Query), and in the
 * grantee's partition (`GRANTIN#`, the grants it holds). Revoking marks all three; reads ignore
 * revoked and expired grants, so a revocation holds from the next request on (no cache).
 *
 * A grant stored before grants had a purpose has none: it reads as a grant for both purposes
 * (docs/access.md#purposes). A purpose this code does not know (written by a later version) makes
 * the grant unreadable here, so that it opens nothing rather than more than it says.
 */
type Item = Record<string, unknown>;

const ownerTenant = (grant: GrantRecord): Tenant => ({ orgId: grant.ownerOrgId, environment: grant.environment });
const granteeTenant = (grant: GrantRecord): Tenant => ({ orgId: grant.granteeOrgId, environment: grant.environment });

const keysOf = (grant: GrantRecord): ItemKey[] => [
  { PK: tenantPk(ownerTenant(grant)), SK: grantSk(grant.grantId) },
  { PK: tenantPk(ownerTenant(grant)), SK: grantToSk(grant.granteeOrgId, grant.grantId) },
  { PK: tenantPk(granteeTenant(grant)), SK: grantInSk(grant.grantId) },
];

const attributes = (grant: GrantRecord): Item => ({
  type: 'accessGrant',
  grantId: grant.grantId,
  ownerOrgId: grant.ownerOrgId,
  environment: grant.environment,
  granteeOrgId: grant.granteeOrgId,
  tier: grant.tier,
  ...(grant.purpose === undefined ? {} : { purpose: grant.purpose }),
  ...(grant.productIds === undefined ? {} : { productIds: grant.productIds }),
  write: grant.write,
  ...(grant.expiresAt === undefined ? {} : { expiresAt: grant.expiresAt }),
  createdAt: grant.createdAt,
  ...(grant.revokedAt === undefined ? {} : { revokedAt: grant.revokedAt }),
  ...(grant.accessRequestId === undefined ? {} : { accessRequestId: grant.accessRequestId }),
});

function fromItem(item: Item | undefined): GrantRecord | undefined {
  if (!item || typeof item.grantId !== 'string') return undefined;
  const tier = item.tier === 'authority' ? 'authority' : 'legitimate_interest';
  if (item.purpose !== undefined && (tier === 'authority' || !isPurposeName(item.purpose))) return undefined;
  return {
    grantId: item.grantId,
    ownerOrgId: String(item.ownerOrgId),
    environment: item.environment === 'test' ? 'test' : 'live',
    granteeOrgId: String(item.granteeOrgId),
    tier,
    ...(isPurposeName(item.purpose) ? { purpose: item.purpose } : {}),
    ...(Array.isArray(item.productIds) ? { productIds: item.productIds.map(String) } : {}),
    write: item.write === true,
    ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
    createdAt: String(item.createdAt),
    ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
    ...(typeof item.accessRequestId === 'string' ? { accessRequestId: item.accessRequestId } : {}),
  };
}

/** The puts of a new grant's three copies, each on the condition that it does not exist yet. */
export const newGrantPuts = (grant: GrantRecord): TransactItem[] => keysOf(grant).map((key) => putNew({ ...key, ...attributes(grant) }));

/** The three copies of a new grant, with what rides along (its event). */
export async function insertGrant(grant: GrantRecord, also: readonly TransactItem[]): Promise<void> {
  const items: TransactItem[] = [...newGrantPuts(grant), ...also];
  await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: items })));
}

/** Writes a revoked grant over all three copies, with its event. */
export async function writeRevokedGrant(grant: GrantRecord, also: readonly TransactItem[]): Promise<void> {
  const items: TransactItem[] = [...keysOf(grant).map((key) => ({ Put: { TableName: tableName(), Item: { ...key, ...attributes(grant) } } })), ...also];
  await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: items })));
}

/** A grant as its owner (`owner`) or its grantee (`grantee`) reads it, or undefined. */
export async function getGrant(tenant: Tenant, side: 'owner' | 'grantee', grantId: string): Promise<GrantRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: side === 'owner' ? grantSk(grantId) : grantInSk(grantId) }, ConsistentRead: true }));
  return fromItem(Item);
}

/** The grants a tenant gave (`owner`) or holds (`grantee`), oldest first (ids sort by time). */
export async function listGrants(tenant: Tenant, side: 'owner' | 'grantee', limit: number, startingAfter?: string): Promise<{ grants: GrantRecord[]; hasMore: boolean }> {
  const prefix = side === 'owner' ? GRANT_PREFIX : GRANT_IN_PREFIX;
  const page = await queryItems(beginsWith(tenantPk(tenant), prefix), {
    limit,
    ...(startingAfter ? { startKey: { PK: tenantPk(tenant), SK: `${prefix}${startingAfter}` } } : {}),
  });
  return { grants: page.items.flatMap((item) => fromItem(item) ?? []), hasMore: page.hasMore };
}

/** Every grant the owner gave one organization (revoked and expired ones too: the caller decides), strongly consistent. */
export async function grantsTo(owner: Tenant, granteeOrgId: string): Promise<GrantRecord[]> {
  const page = await queryItems({ ...beginsWith(tenantPk(owner), grantToPrefix(granteeOrgId)), ConsistentRead: true }, { limit: 1000 });
  return page.items.flatMap((item) => fromItem(item) ?? []);
}
