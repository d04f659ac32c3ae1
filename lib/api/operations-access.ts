import * as z from 'zod';
import { byDateQuerySchema, byProductIdsSchema, createGrantSchema, dppBatchSchema, dppElementSchema, dppSchema, grantListQuerySchema, grantListSchema, grantSchema } from '../domain/access.ts';
import { accessRequestListQuerySchema, accessRequestListSchema, accessRequestSchema, createAccessRequestSchema, OVERDUE_AFTER_DAYS, refuseAccessRequestSchema } from '../domain/access-requests.ts';
import { itemSchema } from '../domain/units.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of access grants, access requests and the EN 18222 reads (docs/access.md). */
const API_KEY_ERRORS = [401, 403, 429] as const;
const READ =
  "Without credentials the public elements, at most ANON_RATE_LIMIT_PER_MINUTE requests a minute per client address (429 past it); with an API key or session, the elements of the caller's audiences (docs/access.md#who-reads-what): the owner everything, a grantee its grants' audiences for the products they cover (a battery: authority, Annex XIII points 1 to 3; dismantling_repair_repurposing_recycling, points 1 and 2; energy_services, points 1 and 4), an authority (its live keys and sessions) points 1 to 3 of every live passport. A read of restricted elements by another organization is logged in the owner's event log as passport.accessed, naming the reader's organization, environment and key or user.";

export function accessOperations(): Record<string, OperationDoc> {
  return {
    'POST /v1/access-grants': {
      summary: 'Grant another organization access to your passports',
      description:
        "Gives granteeOrgId access for a purpose of Art. 77(2) (purpose: dismantling_repair_repurposing_recycling or energy_services; tier legitimate_interest, which may be left out) or as an authority (tier: authority, no purpose) on all your products in this environment, or on productIds (404 names an unknown one), until expiresAt if given; write lets it update the covered items' dynamic data (PATCH /v1/dpps/{dppId}). tier legitimate_interest without a purpose opens both purposes' elements (docs/access.md#purposes). Writes access_grant.created in both organizations' logs. 422 names the field (neither tier nor purpose, a purpose with tier authority, yourself or an unknown organization as grantee, a past expiresAt).",
      tag: 'Access',
      body: createGrantSchema,
      responses: { 201: { description: 'The grant', schema: grantSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
    },
    'GET /v1/access-grants': {
      summary: 'List access grants',
      description: 'as=owner (default): the grants you gave, oldest first; as=grantee: the grants you hold. Revoked and expired ones are listed with active: false.',
      tag: 'Access',
      query: grantListQuerySchema,
      responses: { 200: { description: 'A page of grants', schema: grantListSchema } },
      errors: [400, ...API_KEY_ERRORS, 422],
    },
    'GET /v1/access-grants/{grantId}': {
      summary: 'Get an access grant',
      description: 'A grant you gave or hold; any other is 404.',
      tag: 'Access',
      responses: { 200: { description: 'The grant', schema: grantSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'DELETE /v1/access-grants/{grantId}': {
      summary: 'Revoke an access grant',
      description: 'The owner revokes a grant: from the next request on, the grantee reads what its other grants open, or the public elements (grants are not cached). Revoking again answers the revoked grant. 403 for the grantee. Writes access_grant.revoked in both logs.',
      tag: 'Access',
      responses: { 200: { description: 'The revoked grant', schema: grantSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/access-requests': {
      summary: 'Ask an organization for access to its battery passports',
      description:
        `A person with a legitimate interest asks for the elements of one purpose of Regulation (EU) 2023/1542 Art. 77(2) (docs/access.md#access-requests): the passports by their Digital Links (productIds, up to 100, all of one organization and of your credentials' environment), or by ownerOrgId and gtin; a justification. 404 names an identifier without a published passport; 422 names the field (a passport of another kind than a battery, yours, of several organizations or of the other environment, neither productIds nor gtin, gtin without ownerOrgId). Writes access_request.created in both organizations' logs; each request counts against the limit of actions towards that organization (429).`,
      tag: 'Access',
      body: createAccessRequestSchema,
      responses: { 201: { description: 'The pending request', schema: accessRequestSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
    },
    'GET /v1/access-requests': {
      summary: 'List access requests',
      description: `as=owner (default): the requests made to you, oldest first; as=requester: those you made. A request pending ${OVERDUE_AFTER_DAYS} days or more is overdue: true.`,
      tag: 'Access',
      query: accessRequestListQuerySchema,
      responses: { 200: { description: 'A page of requests', schema: accessRequestListSchema } },
      errors: [400, ...API_KEY_ERRORS, 422],
    },
    'GET /v1/access-requests/{requestId}': {
      summary: 'Get an access request',
      description: 'A request you made or were asked; any other is 404.',
      tag: 'Access',
      responses: { 200: { description: 'The request', schema: accessRequestSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/access-requests/{requestId}/approve': {
      summary: 'Approve an access request',
      description:
        "The organization asked approves: in one transaction the request is approved and a grant of its purpose for its products is made to the requester (without write, without end; revoke it with DELETE /v1/access-grants/{grantId}). Answers the grant. Writes access_request.approved and access_grant.created in both logs. 403 for the requester; 409 once answered.",
      tag: 'Access',
      responses: { 201: { description: 'The grant', schema: grantSchema } },
      errors: [...API_KEY_ERRORS, 404, 409],
    },
    'POST /v1/access-requests/{requestId}/refuse': {
      summary: 'Refuse an access request',
      description: 'The organization asked refuses, saying why (reason, required: 422 without it); the requester reads the reason. Writes access_request.refused in both logs. 403 for the requester; 409 once answered.',
      tag: 'Access',
      body: refuseAccessRequestSchema,
      responses: { 200: { description: 'The refused request', schema: accessRequestSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    'GET /v1/dpps/{dppId}': {
      summary: 'Read a passport',
      description: `A product's, a batch's or an item's passport by its DPP id (every passport, batch and item read names it as dppId). ${READ} An id that names nothing is 404.`,
      tag: 'Access',
      responses: { 200: { description: 'The passport, with the elements the caller may read', schema: dppSchema } },
      errors: [401, 404, 429],
    },
    'PATCH /v1/dpps/{dppId}': {
      summary: "Update an item's dynamic data (a grantee with write)",
      description:
        "An RFC 7396 merge patch of an item's {status, data} by its owner or a grantee whose grant has write (docs/access.md#grants), sent as application/merge-patch+json (415 otherwise), checked as PATCH …/items/{serial} checks it. A grantee writes only the battery's dynamic condition data (data.performanceAndDurability.batteryCondition.*; negativeEvents append-only): anything else (status, lot, lineage, identifiers, dates, batteryStatus, a removal) is 403 naming the field (docs/access.md#what-a-grantee-writes). The version names the grantee's organization (updatedBy), and the owner's item.updated event names it as actor; the grantee's answer holds its audiences' elements and is logged as passport.accessed. Only an item's DPP id (422 for another); 403 without write access.",
      tag: 'Access',
      bodyContent: { 'application/merge-patch+json': z.record(z.string(), z.unknown()).describe('A merge patch: {"data": {"performanceAndDurability": {"batteryCondition": {…}}}}') },
      responses: { 200: { description: 'The item after the patch', schema: itemSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 413, 415, 422],
    },
    'GET /v1/dpps/{dppId}/elements/{elementPath}': {
      summary: 'Read one element of a passport',
      description: `One element by its dotted path (a battery's: the element map's, docs/battery.md#the-element-map; e.g. performanceAndDurability.batteryCondition.stateOfCertifiedEnergy), with its audiences. ${READ} 403 permission_error naming the element's audiences when the caller is not among them; 404 for an unknown element or one without a value.`,
      tag: 'Access',
      responses: { 200: { description: 'The element', schema: dppElementSchema } },
      errors: [401, 403, 404, 429],
    },
    'GET /v1/dppsByProductId/{productIdentifier}': {
      summary: "Read a product's current passport by its identifier",
      description: `productIdentifier is a GS1 Digital Link URI, URL-encoded (the platform's …/{orgId}/{environment}/01/{gtin} form, or a verified brand domain's https://{host}/01/{gtin}, with /10/{lot} or /21/{serial} for a batch or an item), or a GTIN of the caller's own organization. ${READ}`,
      tag: 'Access',
      responses: { 200: { description: 'The passport', schema: dppSchema } },
      errors: [401, 404, 429],
    },
    'GET /v1/dppsByIdAndDate/{dppId}': {
      summary: 'Read a passport as it was at a date',
      description: `The version (and the record's version) current at date: a day read at its end (UTC), or an instant; 404 (param date) before the first version. ${READ}`,
      tag: 'Access',
      query: byDateQuerySchema,
      responses: { 200: { description: 'The passport as it was', schema: dppSchema } },
      errors: [400, 401, 404, 422, 429],
    },
    'POST /v1/dppsByProductIds': {
      summary: 'Read up to 100 passports by product identifier',
      description: `Each distinct identifier as GET /v1/dppsByProductId reads it, in the order first named: its passport, or its error (404). A repeated identifier is answered once, and identifiers of one passport read it once. Without credentials at most 10 distinct identifiers (422 naming productIds). A reader of restricted elements is logged once per passport and request. ${READ}`,
      tag: 'Access',
      body: byProductIdsSchema,
      responses: { 200: { description: 'One entry per distinct identifier', schema: dppBatchSchema } },
      errors: [400, 401, 413, 422, 429],
    },
  };
}

export const ACCESS_PATH_PARAMETERS = {
  grantId: { description: 'An access grant id (grant_…)', schema: z.string() },
  requestId: { description: 'An access request id (areq_…)', schema: z.string() },
  dppId: { description: 'A DPP id (dpp_…), as every passport, batch and item read names it', schema: z.string() },
  elementPath: { description: 'An element path, dotted (e.g. performanceAndDurability.batteryCondition.stateOfCertifiedEnergy)', schema: z.string() },
  productIdentifier: { description: 'A GS1 Digital Link URI, URL-encoded, or a GTIN of your own', schema: z.string() },
};
