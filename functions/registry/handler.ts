import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { REGISTRATION_ID_PATTERN } from '../../lib/domain/registry/registration.ts';
import { registrationListQuerySchema, toRegistrationView, toRegistrySettingsView } from '../../lib/domain/registry/settings.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { createMissingRegistrations, listRegistrationsOf, readRegistration, readRegistrySettings, resubmitRegistration, saveRegistrySettings } from '../../lib/services/registrations.ts';

/** The EU registry: the tenant's settings and its registrations (docs/registry.md#settings, docs/registry.md#registrations). */
export const handler = defineApiHandler('registry', {
  'GET /v1/registry/settings': async (request: ApiRequest) => {
    const { tenant } = request.principal;
    return json(200, toRegistrySettingsView(tenant.environment, await readRegistrySettings(tenant)));
  },
  'PUT /v1/registry/settings': async (request: ApiRequest) => {
    const { tenant } = request.principal;
    return json(200, toRegistrySettingsView(tenant.environment, await saveRegistrySettings(tenant, request.body, originOf(request))));
  },
  'POST /v1/registry/registrations': async (request: ApiRequest) => json(200, await createMissingRegistrations(request.principal.tenant, request.body, originOf(request))),
  'GET /v1/registry/registrations': async (request: ApiRequest) => {
    const { status, granularity, productId, limit, starting_after } = parseQuery(registrationListQuerySchema, request.event.queryStringParameters, ['status', 'granularity', 'productId', 'limit', 'starting_after']);
    const page = await listRegistrationsOf(
      request.principal.tenant,
      { ...(status === undefined ? {} : { status }), ...(granularity === undefined ? {} : { granularity }), ...(productId === undefined ? {} : { productId }) },
      limit,
      starting_after,
    );
    return json(200, { data: page.data.map(toRegistrationView), hasMore: page.nextCursor !== undefined });
  },
  'GET /v1/registry/registrations/{registrationId}': async (request: ApiRequest) => {
    const registrationId = pathParam(request, 'registrationId');
    if (!REGISTRATION_ID_PATTERN.test(registrationId)) throw new NotFoundError(`No registration with id '${registrationId.slice(0, 40)}'.`, { param: 'registrationId' });
    return json(200, toRegistrationView(await readRegistration(request.principal.tenant, registrationId)));
  },
  'POST /v1/registry/registrations/{registrationId}/resubmit': async (request: ApiRequest) => {
    const registrationId = pathParam(request, 'registrationId');
    if (!REGISTRATION_ID_PATTERN.test(registrationId)) throw new NotFoundError(`No registration with id '${registrationId.slice(0, 40)}'.`, { param: 'registrationId' });
    return json(200, toRegistrationView(await resubmitRegistration(request.principal.tenant, registrationId, originOf(request))));
  },
});
