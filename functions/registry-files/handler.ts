import { defineApiHandler, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { json } from '../../lib/http/response.ts';
import { applyRegistryResults, buildRegistryFiles } from '../../lib/services/registry-files.ts';

/**
 * The EU registry's web upload (docs/registry.md#files-out, docs/registry.md#results-in): the
 * upload files of the registrations that pass the pre-checks, and the registry's result file read
 * back. The result file's body is the CSV itself, read raw (the route table gives it `rawBody`).
 */
export const handler = defineApiHandler('registry-files', {
  'POST /v1/registry/files': async (request: ApiRequest) => json(200, await buildRegistryFiles(request.principal.tenant, request.body, originOf(request))),
  'POST /v1/registry/results': async (request: ApiRequest) =>
    json(200, await applyRegistryResults(request.principal.tenant, request.body as Buffer, request.event.headers?.['content-type'], originOf(request))),
});
