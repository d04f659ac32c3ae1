import { getAccessRequest, insertAccessRequest, listAccessRequests, writeAccessRequestAnswer } from '../data/access-requests.ts';
import { newGrantPuts } from '../data/access-grants.ts';
import { eventPut } from '../data/events.ts';
import { getOrganization } from '../data/organizations.ts';
import { getPublicView } from '../data/passports.ts';
import { getProduct } from '../data/products.ts';
import { parseDppId, type GrantRecord } from '../domain/access.ts';
import {
  accessRequestIdSchema,
  createAccessRequestSchema,
  refuseAccessRequestSchema,
  toAccessRequestView,
  type AccessRequestRecord,
  type CreateAccessRequest,
} from '../domain/access-requests.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { normalizeGtin } from '../domain/gtin.ts';
import { newSortableId } from '../domain/ids.ts';
import { isBatteryPassport } from '../domain/passport-kinds.ts';
import type { Tenant } from '../domain/tenant.ts';
import { underPairLimit } from '../auth/pair-rate-limit.ts';
import type { Principal } from '../auth/principal.ts';
import { DuplicateError, NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { grantCreatedEvents } from './access-grants.ts';
import { dppIdOfIdentifier } from './dpps.ts';

/**
 * Access requests (docs/access.md#access-requests): an organization with a legitimate interest
 * (Regulation (EU) 2023/1542 Art. 77(2)(c)) asks the owner of battery passports for the elements of
 * one purpose; the owner approves, which gives it a grant of that purpose, or refuses with a
 * reason. Each step writes into both organizations' logs, so each counts against the pair's limit
 * (lib/auth/pair-rate-limit.ts). The requester names passports by what it can read on a battery:
 * their Digital Links (the QR code), or the owner and a GTIN.
 */

const otherSide = (record: AccessRequestRecord, side: 'owner' | 'requester'): Tenant => ({
  orgId: side === 'owner' ? record.requesterOrgId : record.ownerOrgId,
  environment: record.environment,
});

/** The other side's events are the service's own work, in the request's name: one organization's key never shows in the other's log. */
const systemOrigin = (record: AccessRequestRecord): Origin => ({ actor: { type: 'system', id: record.requestId }, requestId: null });

/** The product with a published battery passport that `owner`'s GTIN names; 404 (as the public reads answer) or 422 naming `param`. */
async function batteryProductOf(owner: Tenant, gtin14: string, param: string): Promise<string> {
  const view = await getPublicView(owner, gtin14);
  const product = view?.passport ? await getProduct(owner, view.productId) : undefined;
  if (!view?.passport || !product) throw new NotFoundError('No published passport for this product identifier.', { param });
  if (!isBatteryPassport(product.category, view.passport.data)) {
    throw new ValidationError(`${param} names a ${product.category} passport: every element of it is public already.`, param, 'Read it with GET /v1/dppsByProductId/{productIdentifier}.');
  }
  return product.productId;
}

/** The owner and its products that a request names (docs/access.md#access-requests). */
async function requestedProducts(principal: Principal, input: CreateAccessRequest): Promise<{ owner: Tenant; productIds: string[] }> {
  const environment = principal.tenant.environment;
  if (input.productIds === undefined) {
    if (input.gtin === undefined) throw new ValidationError('productIds is required, or ownerOrgId and gtin.', 'productIds', 'Send the Digital Links of the batteries (their QR codes), or ownerOrgId and gtin.');
    if (input.ownerOrgId === undefined) throw new ValidationError('ownerOrgId is required with gtin: a GTIN names a product within one organization only.', 'ownerOrgId');
    const gtin = normalizeGtin(input.gtin);
    if (!gtin.ok) throw new ValidationError(`gtin is not a valid GTIN: ${gtin.reason}`, 'gtin');
    const owner = { orgId: input.ownerOrgId, environment };
    return { owner, productIds: [await batteryProductOf(owner, gtin.gtin14, 'gtin')] };
  }
  if (input.gtin !== undefined) throw new ValidationError('Name the passports by productIds, or by ownerOrgId and gtin, not both.', 'gtin');
  let owner: Tenant | undefined;
  const productIds = new Set<string>();
  const seen = new Set<string>();
  for (const [index, identifier] of input.productIds.entries()) {
    // Each distinct identifier is resolved once (at most MAX_REQUESTED_PRODUCTS, a few reads each).
    if (seen.has(identifier)) continue;
    seen.add(identifier);
    const param = `productIds[${index}]`;
    const dppId = await dppIdOfIdentifier(principal, identifier);
    const ref = dppId ? parseDppId(dppId) : undefined;
    if (!ref) throw new NotFoundError('No passport for this product identifier (a Digital Link URI of a battery).', { param });
    if (ref.tenant.environment !== environment) {
      throw new ValidationError(`${param} names a passport of the ${ref.tenant.environment} environment; a request made with ${environment} credentials asks for ${environment} passports.`, param);
    }
    if (owner && ref.tenant.orgId !== owner.orgId) throw new ValidationError(`${param} names another organization's passport: one request asks one organization.`, param, 'Send one request per organization.');
    if (input.ownerOrgId !== undefined && ref.tenant.orgId !== input.ownerOrgId) throw new ValidationError(`${param} names a passport of another organization than ownerOrgId.`, param);
    owner = ref.tenant;
    productIds.add(await batteryProductOf(ref.tenant, ref.gtin14, param));
  }
  return { owner: owner as Tenant, productIds: [...productIds] };
}

/** `POST /v1/access-requests`: asks an owner for access for one purpose; both logs get access_request.created. */
export async function createAccessRequest(principal: Principal, body: unknown, origin: Origin): Promise<AccessRequestRecord> {
  const input = parseBody(createAccessRequestSchema, body);
  const tenant = principal.tenant;
  const { owner, productIds } = await requestedProducts(principal, input);
  if (owner.orgId === tenant.orgId) {
    throw new ValidationError('These are your own passports: your keys read every element already.', input.productIds === undefined ? 'ownerOrgId' : 'productIds');
  }
  await underPairLimit(tenant.orgId, owner.orgId);
  const now = new Date().toISOString();
  const record: AccessRequestRecord = {
    requestId: newSortableId('areq'),
    environment: tenant.environment,
    requesterOrgId: tenant.orgId,
    requesterName: (await getOrganization(tenant.orgId))?.name ?? tenant.orgId,
    ownerOrgId: owner.orgId,
    productIds,
    purpose: input.purpose,
    justification: input.justification,
    status: 'pending',
    createdAt: now,
  };
  const view = toAccessRequestView(record);
  await insertAccessRequest(record, [
    eventPut(tenant, newEvent('access_request.created', view, origin, now)),
    eventPut(owner, newEvent('access_request.created', view, systemOrigin(record), now)),
  ]);
  return record;
}

/** A request the tenant made or was asked; 404 for anyone else, and for what cannot be a request id. */
async function findRequest(tenant: Tenant, requestId: string): Promise<{ record: AccessRequestRecord; side: 'owner' | 'requester' }> {
  const found = accessRequestIdSchema.safeParse(requestId).success ? await getAccessRequest(tenant, requestId) : undefined;
  if (!found) throw new NotFoundError(`No access request '${requestId}'.`, { param: 'requestId' });
  return found;
}

export const readAccessRequest = async (tenant: Tenant, requestId: string): Promise<AccessRequestRecord> => (await findRequest(tenant, requestId)).record;

export const listAccessRequestsOf = (tenant: Tenant, as: 'owner' | 'requester', limit: number, startingAfter?: string) => listAccessRequests(tenant, as, limit, startingAfter);

/** The pending request the owner answers: 403 for the requester, 409 once answered. */
async function pendingForOwner(tenant: Tenant, requestId: string): Promise<AccessRequestRecord> {
  const { record, side } = await findRequest(tenant, requestId);
  if (side === 'requester') throw new PermissionError('Only the organization asked approves or refuses a request.');
  if (record.status !== 'pending') throw answered(record);
  return record;
}

const answered = (record: AccessRequestRecord) =>
  new DuplicateError(`The access request '${record.requestId}' was ${record.status} already${record.grantId ? ` (grant ${record.grantId})` : ''}.`, { param: 'requestId' });

/** Writes an answer (counted against the pair's limit: it writes into the requester's log), or 409 when another answer came first. */
async function answer(tenant: Tenant, next: AccessRequestRecord, origin: Origin, also: ReturnType<typeof newGrantPuts>): Promise<void> {
  await underPairLimit(tenant.orgId, next.requesterOrgId);
  const type = next.status === 'approved' ? 'access_request.approved' : 'access_request.refused';
  const view = toAccessRequestView(next);
  const now = next.answeredAt;
  const written = await writeAccessRequestAnswer(next, [
    ...also,
    eventPut(tenant, newEvent(type, view, origin, now)),
    eventPut(otherSide(next, 'owner'), newEvent(type, view, systemOrigin(next), now)),
  ]);
  if (!written) throw answered((await findRequest(tenant, next.requestId)).record);
}

/**
 * `POST /v1/access-requests/{requestId}/approve`: the owner approves; in one transaction the
 * request is approved and a grant of its purpose for its products is made (access_request.approved
 * and access_grant.created in both logs). Answers the grant.
 */
export async function approveAccessRequest(tenant: Tenant, requestId: string, origin: Origin): Promise<GrantRecord> {
  const record = await pendingForOwner(tenant, requestId);
  const now = new Date().toISOString();
  const grant: GrantRecord = {
    grantId: newSortableId('grant'),
    ownerOrgId: record.ownerOrgId,
    environment: record.environment,
    granteeOrgId: record.requesterOrgId,
    tier: 'legitimate_interest',
    purpose: record.purpose,
    productIds: record.productIds,
    write: false,
    createdAt: now,
    accessRequestId: record.requestId,
  };
  await answer(tenant, { ...record, status: 'approved', answeredAt: now, grantId: grant.grantId }, origin, [...newGrantPuts(grant), ...grantCreatedEvents(grant, origin)]);
  return grant;
}

/** `POST /v1/access-requests/{requestId}/refuse`: the owner refuses, saying why (access_request.refused in both logs). */
export async function refuseAccessRequest(tenant: Tenant, requestId: string, body: unknown, origin: Origin): Promise<AccessRequestRecord> {
  const record = await pendingForOwner(tenant, requestId);
  const { reason } = parseBody(refuseAccessRequestSchema, body);
  const refused: AccessRequestRecord = { ...record, status: 'refused', answeredAt: new Date().toISOString(), reason };
  await answer(tenant, refused, origin, []);
  return refused;
}
