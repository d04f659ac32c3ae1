import { defineApiHandler, optionalOperation, pathParam, type ApiRequest, type PublicRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import type { Principal } from '../../lib/auth/principal.ts';
import { byDateQuerySchema, byProductIdsSchema, grantListQuerySchema, toGrantView } from '../../lib/domain/access.ts';
import { accessRequestListQuerySchema, toAccessRequestView } from '../../lib/domain/access-requests.ts';
import { MERGE_PATCH_TYPE } from '../../lib/domain/draft.ts';
import { NotFoundError, UnsupportedMediaTypeError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';
import { createGrant, listGrantsOf, readGrant, revokeGrant } from '../../lib/services/access-grants.ts';
import { approveAccessRequest, createAccessRequest, listAccessRequestsOf, readAccessRequest, refuseAccessRequest } from '../../lib/services/access-requests.ts';
import { dppIdOfIdentifier, patchDppItem, readDpp, readDpps, readElement } from '../../lib/services/dpps.ts';

/**
 * Access grants, access requests and the EN 18222 reads (docs/access.md). The reads take
 * credentials when sent and answer the public elements without them.
 */
type Caller = PublicRequest & { principal?: Principal };

const param = (request: PublicRequest, name: string): string => {
  const value = request.event.pathParameters?.[name];
  if (value === undefined) throw new NotFoundError('No such endpoint.');
  return value;
};

export const handler = defineApiHandler('access', {
  'POST /v1/access-grants': async (request: ApiRequest) => {
    const grant = await createGrant(request.principal.tenant, request.body, originOf(request));
    return json(201, toGrantView(grant), { Location: `/v1/access-grants/${grant.grantId}` });
  },
  'GET /v1/access-grants': async (request: ApiRequest) => {
    const { as, limit, starting_after } = parseQuery(grantListQuerySchema, request.event.queryStringParameters, ['as', 'limit', 'starting_after']);
    const page = await listGrantsOf(request.principal.tenant, as, limit, starting_after);
    return json(200, { data: page.grants.map((grant) => toGrantView(grant)), hasMore: page.hasMore });
  },
  'GET /v1/access-grants/{grantId}': async (request: ApiRequest) => json(200, toGrantView(await readGrant(request.principal.tenant, pathParam(request, 'grantId')))),
  'DELETE /v1/access-grants/{grantId}': async (request: ApiRequest) =>
    json(200, toGrantView(await revokeGrant(request.principal.tenant, pathParam(request, 'grantId'), originOf(request)))),
  'POST /v1/access-requests': async (request: ApiRequest) => {
    const created = await createAccessRequest(request.principal, request.body, originOf(request));
    return json(201, toAccessRequestView(created), { Location: `/v1/access-requests/${created.requestId}` });
  },
  'GET /v1/access-requests': async (request: ApiRequest) => {
    const { as, limit, starting_after } = parseQuery(accessRequestListQuerySchema, request.event.queryStringParameters, ['as', 'limit', 'starting_after']);
    const page = await listAccessRequestsOf(request.principal.tenant, as, limit, starting_after);
    const now = Date.now();
    return json(200, { data: page.records.map((record) => toAccessRequestView(record, now)), hasMore: page.hasMore });
  },
  'GET /v1/access-requests/{requestId}': async (request: ApiRequest) => json(200, toAccessRequestView(await readAccessRequest(request.principal.tenant, pathParam(request, 'requestId')))),
  'POST /v1/access-requests/{requestId}/approve': async (request: ApiRequest) => {
    const grant = await approveAccessRequest(request.principal.tenant, pathParam(request, 'requestId'), originOf(request));
    return json(201, toGrantView(grant), { Location: `/v1/access-grants/${grant.grantId}` });
  },
  'POST /v1/access-requests/{requestId}/refuse': async (request: ApiRequest) =>
    json(200, toAccessRequestView(await refuseAccessRequest(request.principal.tenant, pathParam(request, 'requestId'), request.body, originOf(request)))),
  'GET /v1/dpps/{dppId}': optionalOperation(async (request: Caller) => json(200, await readDpp(request.principal, param(request, 'dppId'), request.requestId))),
  'PATCH /v1/dpps/{dppId}': async (request: ApiRequest) => {
    // The passport and the caller's access first (404 before 415), as a batch's or item's PATCH does.
    const contentType = (request.event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    const mergePatch = () => {
      if (contentType !== MERGE_PATCH_TYPE) throw new UnsupportedMediaTypeError(`An item's passport is patched with a JSON Merge Patch: send Content-Type: ${MERGE_PATCH_TYPE}.`, [MERGE_PATCH_TYPE]);
    };
    return json(200, await patchDppItem(request.principal, pathParam(request, 'dppId'), request.body, originOf(request), mergePatch));
  },
  'GET /v1/dpps/{dppId}/elements/{elementPath}': optionalOperation(async (request: Caller) =>
    json(200, await readElement(request.principal, param(request, 'dppId'), param(request, 'elementPath'), request.requestId)),
  ),
  'GET /v1/dppsByProductId/{productIdentifier}': optionalOperation(async (request: Caller) => {
    const dppId = await dppIdOfIdentifier(request.principal, param(request, 'productIdentifier'));
    if (!dppId) throw new NotFoundError('No passport for this product identifier (a Digital Link URI, URL-encoded, or a GTIN of your own).', { param: 'productIdentifier' });
    return json(200, await readDpp(request.principal, dppId, request.requestId, undefined, 'productIdentifier'));
  }),
  'GET /v1/dppsByIdAndDate/{dppId}': optionalOperation(async (request: Caller) => {
    const { date } = parseQuery(byDateQuerySchema, request.event.queryStringParameters, ['date']);
    return json(200, await readDpp(request.principal, param(request, 'dppId'), request.requestId, Date.parse(date)));
  }),
  'POST /v1/dppsByProductIds': optionalOperation(async (request: Caller) => {
    const { productIds } = parseBody(byProductIdsSchema, request.body);
    return json(200, { data: await readDpps(request.principal, productIds, request.requestId) });
  }),
});
