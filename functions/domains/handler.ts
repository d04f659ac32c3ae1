import { createDomainSchema, updateDomainSchema } from '../../lib/domain/domain.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody } from '../../lib/http/validation.ts';
import { createDomain, domainsOf, domainView, removeDomain, requireDomain, setDefaultDomain, verifyDomain } from '../../lib/services/domains.ts';

/** Brand-owned resolver domains of the session's organization (dashboard session only; docs/brand-domains.md). */
const domainInPath = (request: ApiRequest) => requireDomain(request.principal.tenant.orgId, pathParam(request, 'domainId'));

async function create(request: ApiRequest) {
  const input = parseBody(createDomainSchema, request.body);
  const domain = await createDomain(request.principal.tenant, input, originOf(request));
  return json(201, domainView(domain), { Location: `/v1/domains/${domain.domainId}` });
}

async function list(request: ApiRequest) {
  return json(200, { data: (await domainsOf(request.principal.tenant.orgId)).map((domain) => domainView(domain)) });
}

async function read(request: ApiRequest) {
  return json(200, domainView(await domainInPath(request)));
}

async function update(request: ApiRequest) {
  const changes = parseBody(updateDomainSchema, request.body);
  return json(200, domainView(await setDefaultDomain(request.principal.tenant, await domainInPath(request), changes.default, originOf(request))));
}

async function remove(request: ApiRequest) {
  const domain = await domainInPath(request);
  await removeDomain(request.principal.tenant, domain, originOf(request));
  return json(200, { id: domain.domainId, deleted: true });
}

async function verify(request: ApiRequest) {
  return json(200, domainView(await verifyDomain(request.principal.tenant, await domainInPath(request), originOf(request))));
}

export const handler = defineApiHandler('domains', {
  'POST /v1/domains': create,
  'GET /v1/domains': list,
  'GET /v1/domains/{domainId}': read,
  'PATCH /v1/domains/{domainId}': update,
  'DELETE /v1/domains/{domainId}': remove,
  'POST /v1/domains/{domainId}/verify': verify,
});
