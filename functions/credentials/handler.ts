import { defineApiHandler, pathParam, publicOperation, type ApiRequest, type PublicRequest } from '../../lib/api/handler.ts';
import { DID_JSON_MEDIA_TYPE } from '../../lib/api/schemas.ts';
import { VC_JWT_MEDIA_TYPE } from '../../lib/domain/credential.ts';
import { viewerHostname } from '../../lib/domain/viewer-host.ts';
import { isEnvironment, type Tenant } from '../../lib/domain/tenant.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { hostDidDocument, organizationDidDocument, passportIdCredential, statusListJwt, versionCredential } from '../../lib/services/credentials.ts';
import { requireProduct } from '../../lib/services/products.ts';
import { exportArchive } from '../../lib/services/archive-export.ts';
import { requireScope } from '../../lib/auth/authenticate.ts';
import { json } from '../../lib/http/response.ts';

/**
 * Signed passports (docs/credentials.md): each published version as a W3C Verifiable Credential
 * secured with VC-JOSE (`application/vc+jwt`), through the API and at a public URL beside the
 * version's pages; the organization's did:web DID documents; its Bitstring Status Lists. A
 * function of its own, so that only it holds the KMS grants and the resolver's bundle stays small.
 */

/** A version's credential never changes once signed: cacheable like its pages (functions/resolver/pages.ts). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Not there (yet): a version may be published under the URL later. */
const NOT_FOUND_CACHE = 'public, max-age=60';
/** A DID document changes on rotation; a status list on each withdrawal and reinstatement. */
const DID_CACHE = 'public, max-age=300';
const STATUS_CACHE = 'public, max-age=60';

const PUBLIC = { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' };
const ORG_ID = /^org_[0-9a-z]{16}$/;

const jwtResult = (jwt: string, cacheControl: string, extra: Record<string, string> = {}): HttpResult => ({
  statusCode: 200,
  headers: { 'Content-Type': VC_JWT_MEDIA_TYPE, 'Cache-Control': cacheControl, ...extra },
  body: jwt,
});

const jsonResult = (status: number, body: unknown, cacheControl: string, contentType = 'application/json; charset=utf-8'): HttpResult => ({
  statusCode: status,
  headers: { 'Content-Type': contentType, 'Cache-Control': cacheControl, ...PUBLIC },
  body: JSON.stringify(body),
});

/**
 * A DID document as DID Core's JSON representation, `application/did+json` (no charset parameter:
 * the type is UTF-8 by definition). did:web resolvers take the body as JSON whatever the type
 * (docs/credentials.md#did-documents-media-type).
 */
const didResult = (document: unknown): HttpResult => jsonResult(200, document, DID_CACHE, DID_JSON_MEDIA_TYPE);

const notFound = (message: string): HttpResult => jsonResult(404, new NotFoundError(message).toBody(), NOT_FOUND_CACHE);

function tenantOf(event: HttpEvent): Tenant | undefined {
  const orgId = event.pathParameters?.orgId ?? '';
  const environment = event.pathParameters?.environment ?? '';
  return ORG_ID.test(orgId) && isEnvironment(environment) ? { orgId, environment } : undefined;
}


async function apiCredential(request: ApiRequest): Promise<HttpResult> {
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  return jwtResult(await passportIdCredential(tenant, product, pathParam(request, 'passportId')), 'private, max-age=31536000, immutable');
}

async function publicCredential({ event }: PublicRequest): Promise<HttpResult> {
  const tenant = tenantOf(event);
  const gtin = event.pathParameters?.gtin ?? '';
  const version = event.pathParameters?.version ?? '';
  if (!tenant || !/^\d{14}$/.test(gtin) || !/^[1-9]\d{0,8}$/.test(version)) return notFound('No published passport version is found under this URL.');
  const jwt = await versionCredential(tenant, gtin, Number(version));
  return jwt ? jwtResult(jwt, IMMUTABLE, PUBLIC) : notFound('No published passport version is found under this URL.');
}

/**
 * The organization's whole archive (docs/import-export.md#leaving-the-archive): built into the
 * exports bucket, answered as a presigned URL. Here because it signs the versions never signed.
 * Like the product export, it needs both scopes (the route table admits either). A POST: it
 * signs and writes, so a session cookie's call passes the CSRF defence first (lib/auth/session.ts).
 */
async function archive(request: ApiRequest): Promise<HttpResult> {
  const operation = 'POST /v1/exports/archive';
  requireScope(request.principal, ['products:read'], operation);
  requireScope(request.principal, ['passports:read'], operation);
  return json(200, await exportArchive(request.principal.tenant));
}

async function organizationDid({ event }: PublicRequest): Promise<HttpResult> {
  const orgId = event.pathParameters?.orgId ?? '';
  const document = ORG_ID.test(orgId) ? await organizationDidDocument(orgId) : undefined;
  return document ? didResult(document) : notFound('No organization has a DID document here.');
}

async function hostDid({ event }: PublicRequest): Promise<HttpResult> {
  // A Host that is no DNS name of at most 253 characters is nobody's brand domain: 404 before any
  // read (a 2,000-character one was a key DynamoDB refuses, a 500: docs/security.md, finding 6).
  const hostname = viewerHostname(event.headers);
  const document = hostname === undefined ? undefined : await hostDidDocument(hostname);
  return document ? didResult(document) : notFound('This host is no verified brand domain: it has no DID document.');
}

async function statusList({ event }: PublicRequest): Promise<HttpResult> {
  const tenant = tenantOf(event);
  const list = event.pathParameters?.list ?? '';
  const jwt = tenant && /^[1-9]\d{0,5}$/.test(list) ? await statusListJwt(tenant, Number(list)) : undefined;
  return jwt ? jwtResult(jwt, STATUS_CACHE, PUBLIC) : notFound('No status list is published under this URL.');
}

export const handler = defineApiHandler('credentials', {
  'GET /v1/products/{productId}/passports/{passportId}/credential': apiCredential,
  'GET /{orgId}/{environment}/p/{gtin}/{version}/credential.jwt': publicOperation(publicCredential),
  'GET /orgs/{orgId}/did.json': publicOperation(organizationDid),
  'GET /.well-known/did.json': publicOperation(hostDid),
  'GET /{orgId}/{environment}/status/{list}': publicOperation(statusList),
  'POST /v1/exports/archive': archive,
});
