import { createEndpointSchema, toEndpointView, updateEndpointSchema } from '../../lib/domain/webhook.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody } from '../../lib/http/validation.ts';
import { createEndpoint, endpointsOf, removeEndpoint, requireEndpoint, rotateSecret, updateEndpoint } from '../../lib/services/webhooks.ts';

/** Webhook endpoints of the session's organization (dashboard session only). */
const endpointInPath = (request: ApiRequest) => requireEndpoint(request.principal.tenant.orgId, pathParam(request, 'endpointId'));

async function create(request: ApiRequest) {
  const input = parseBody(createEndpointSchema, request.body);
  const { endpoint, secret } = await createEndpoint(request.principal.tenant, input, originOf(request));
  return json(201, { ...toEndpointView(endpoint), secret }, { Location: `/v1/webhooks/endpoints/${endpoint.endpointId}` });
}

async function list(request: ApiRequest) {
  return json(200, { data: (await endpointsOf(request.principal.tenant.orgId)).map(toEndpointView) });
}

async function read(request: ApiRequest) {
  return json(200, toEndpointView(await endpointInPath(request)));
}

async function update(request: ApiRequest) {
  const changes = parseBody(updateEndpointSchema, request.body);
  return json(200, toEndpointView(await updateEndpoint(await endpointInPath(request), changes, originOf(request))));
}

async function remove(request: ApiRequest) {
  const endpoint = await endpointInPath(request);
  await removeEndpoint(endpoint, originOf(request));
  return json(200, { id: endpoint.endpointId, deleted: true });
}

async function rotate(request: ApiRequest) {
  const { endpoint, secret, previousValidUntil } = await rotateSecret(await endpointInPath(request), undefined, originOf(request));
  return json(200, { id: endpoint.endpointId, secret, previousSecretValidUntil: previousValidUntil });
}

export const handler = defineApiHandler('webhooks', {
  'POST /v1/webhooks/endpoints': create,
  'GET /v1/webhooks/endpoints': list,
  'GET /v1/webhooks/endpoints/{endpointId}': read,
  'PATCH /v1/webhooks/endpoints/{endpointId}': update,
  'DELETE /v1/webhooks/endpoints/{endpointId}': remove,
  'POST /v1/webhooks/endpoints/{endpointId}/rotate-secret': rotate,
});
