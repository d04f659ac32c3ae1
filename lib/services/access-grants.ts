import { getGrant, grantsTo, insertGrant, listGrants, writeRevokedGrant } from '../data/access-grants.ts';
import { eventPut } from '../data/events.ts';
import { getOrganization } from '../data/organizations.ts';
import { getProduct } from '../data/products.ts';
import { audiencesOfGrant, covers, createGrantSchema, grantIdSchema, isActive, toGrantView, type GrantRecord } from '../domain/access.ts';
import { audiencesOf, type Audience, type Reader } from '../domain/battery/access-tiers.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import type { Tenant } from '../domain/tenant.ts';
import { underPairLimit } from '../auth/pair-rate-limit.ts';
import type { Principal } from '../auth/principal.ts';
import { NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';

/**
 * Access grants (docs/access.md#grants): an owner gives another organization on the platform an
 * audience of its passports (authority, or legitimate interest for a purpose), for all its products
 * or a list of them, optionally until a day, optionally with write access to the covered items'
 * dynamic data. And who reads a passport as which audiences: the owner everything, a grantee the
 * audiences of its grants, an authority the authorities' elements of every live passport, anyone
 * else the public's. Grants are read from the table on every request (no cache), so a revoked or
 * expired grant opens nothing from the next request on.
 */

const systemOrigin = (grant: GrantRecord): Origin => ({ actor: { type: 'system', id: grant.grantId }, requestId: null });

export async function createGrant(tenant: Tenant, body: unknown, origin: Origin): Promise<GrantRecord> {
  const input = parseBody(createGrantSchema, body);
  if (input.tier === undefined && input.purpose === undefined) {
    throw new ValidationError('tier is required unless purpose is given.', 'tier', 'Send purpose (dismantling_repair_repurposing_recycling or energy_services) for a person with a legitimate interest, or tier: authority.');
  }
  if (input.tier === 'authority' && input.purpose !== undefined) {
    throw new ValidationError('An authority grant has no purpose: Art. 77(2)(b) gives authorities Annex XIII points 2 and 3 whatever they read them for.', 'purpose', 'Leave purpose out, or send tier: legitimate_interest.');
  }
  if (input.granteeOrgId === tenant.orgId) throw new ValidationError('granteeOrgId must be another organization: your own keys read everything already.', 'granteeOrgId');
  if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= Date.now()) throw new ValidationError('expiresAt must be in the future.', 'expiresAt');
  if (!(await getOrganization(input.granteeOrgId))) throw new ValidationError(`No organization '${input.granteeOrgId}' on the platform.`, 'granteeOrgId');
  const productIds = input.productIds === undefined ? undefined : [...new Set(input.productIds.map((id) => id.toLowerCase()))];
  for (const [index, productId] of (productIds ?? []).entries()) {
    if (!(await getProduct(tenant, productId))) throw new NotFoundError(`No product with id '${productId}'.`, { param: `productIds[${index}]` });
  }
  await underPairLimit(tenant.orgId, input.granteeOrgId);
  const now = new Date().toISOString();
  const grant: GrantRecord = {
    grantId: newSortableId('grant'),
    ownerOrgId: tenant.orgId,
    environment: tenant.environment,
    granteeOrgId: input.granteeOrgId,
    tier: input.tier ?? 'legitimate_interest',
    ...(input.purpose === undefined ? {} : { purpose: input.purpose }),
    ...(productIds === undefined ? {} : { productIds }),
    write: input.write ?? false,
    ...(input.expiresAt === undefined ? {} : { expiresAt: new Date(input.expiresAt).toISOString() }),
    createdAt: now,
  };
  await insertGrant(grant, grantCreatedEvents(grant, origin));
  return grant;
}

/** The events of a new grant: `access_grant.created` in the owner's log (by `origin`) and in the grantee's (by the service, in the grant's name). */
export function grantCreatedEvents(grant: GrantRecord, origin: Origin) {
  const view = toGrantView(grant);
  return [
    eventPut({ orgId: grant.ownerOrgId, environment: grant.environment }, newEvent('access_grant.created', view, origin, grant.createdAt)),
    eventPut({ orgId: grant.granteeOrgId, environment: grant.environment }, newEvent('access_grant.created', view, systemOrigin(grant), grant.createdAt)),
  ];
}

/** A grant the tenant gave or holds; 404 for anyone else, and for what cannot be a grant id. */
async function findGrant(tenant: Tenant, grantId: string): Promise<{ grant: GrantRecord; side: 'owner' | 'grantee' }> {
  if (grantIdSchema.safeParse(grantId).success) {
    for (const side of ['owner', 'grantee'] as const) {
      const grant = await getGrant(tenant, side, grantId);
      if (grant) return { grant, side };
    }
  }
  throw new NotFoundError(`No access grant '${grantId}'.`, { param: 'grantId' });
}

export const readGrant = async (tenant: Tenant, grantId: string): Promise<GrantRecord> => (await findGrant(tenant, grantId)).grant;

export const listGrantsOf = (tenant: Tenant, as: 'owner' | 'grantee', limit: number, startingAfter?: string) => listGrants(tenant, as, limit, startingAfter);

/** `DELETE /v1/access-grants/{grantId}`: the owner revokes; revoking again answers the revoked grant. */
export async function revokeGrant(tenant: Tenant, grantId: string, origin: Origin): Promise<GrantRecord> {
  const { grant, side } = await findGrant(tenant, grantId);
  if (side === 'grantee') throw new PermissionError('Only the organization that gave a grant revokes it.');
  if (grant.revokedAt !== undefined) return grant;
  await underPairLimit(tenant.orgId, grant.granteeOrgId);
  const now = new Date().toISOString();
  const revoked: GrantRecord = { ...grant, revokedAt: now };
  const view = toGrantView(revoked);
  await writeRevokedGrant(revoked, [
    eventPut(tenant, newEvent('access_grant.revoked', view, origin, now)),
    eventPut({ orgId: grant.granteeOrgId, environment: grant.environment }, newEvent('access_grant.revoked', view, systemOrigin(grant), now)),
  ]);
  return revoked;
}

/** How a caller reads an owner's passport: as which audiences, whether it may write the items' dynamic data, and why. */
export interface ReaderAccess {
  /** `owner`, or the audiences the caller reads as (`public` always among them). */
  reader: Reader;
  write: boolean;
  via: 'owner' | 'grant' | 'authority' | 'anonymous' | 'none';
  /** The caller's organization, when it is another one than the owner. */
  orgId?: string;
  /** The first grant that opened something; grantIds: every grant that did. */
  grantId?: string;
  grantIds?: string[];
  /** Which credential of that organization read: its environment and API key or user (logged with passport.accessed). */
  caller?: { environment: Tenant['environment']; keyId?: string; userId?: string };
}

const PUBLIC_ONLY: readonly Audience[] = ['public'];

/** Whether an access reads nothing but public elements. */
export const readsPublicOnly = (access: ReaderAccess): boolean => access.reader !== 'owner' && audiencesOf(access.reader).every((audience) => audience === 'public');

/**
 * The audiences `principal` reads `owner`'s product as (docs/access.md#who-reads-what): the owner's
 * own keys and sessions everything; a grantee the union of the audiences of its active grants
 * covering the product in the owner's environment (docs/access.md#purposes); an authority, through
 * its live keys and sessions, the authorities' elements of every live passport; anyone else, and a
 * request without credentials, the public's.
 */
export async function accessOf(principal: Principal | undefined, owner: Tenant, productId: string): Promise<ReaderAccess> {
  if (!principal) return { reader: PUBLIC_ONLY, write: false, via: 'anonymous' };
  const caller = principal.tenant;
  if (caller.orgId === owner.orgId) {
    // The owner's other environment is another tenant: its test keys do not read its live passports.
    return caller.environment === owner.environment
      ? { reader: 'owner', write: true, via: 'owner' }
      : { reader: PUBLIC_ONLY, write: false, via: 'none', orgId: caller.orgId };
  }
  const credential = { environment: caller.environment, ...(principal.kind === 'apiKey' ? { keyId: principal.keyId } : { userId: principal.userId }) };
  const audiences = new Set<Audience>(PUBLIC_ONLY);
  const grantIds: string[] = [];
  let write = false;
  if (caller.environment === owner.environment) {
    const now = Date.now();
    for (const grant of await grantsTo(owner, caller.orgId)) {
      if (!isActive(grant, now) || !covers(grant, productId)) continue;
      grantIds.push(grant.grantId);
      for (const audience of audiencesOfGrant(grant)) audiences.add(audience);
      write ||= grant.write;
    }
  }
  // The authority mark opens live passports to the authority's live credentials only: its test keys are a sandbox, as grants are bound to their environment.
  const marked = owner.environment === 'live' && caller.environment === 'live' && !audiences.has('authority') && (await getOrganization(caller.orgId))?.authority === true;
  if (marked) audiences.add('authority');
  const reader = audiencesOf([...audiences]);
  return {
    reader,
    write,
    via: marked ? 'authority' : grantIds.length > 0 ? 'grant' : 'none',
    orgId: caller.orgId,
    ...(grantIds.length > 0 ? { grantId: grantIds[0], grantIds } : {}),
    caller: credential,
  };
}
