import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { toTransferView, transferListQuerySchema } from '../../lib/domain/transfer.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { acceptTransfer, cancelTransfer, declineTransfer, listTransfersOf, offerTransfer, readTransfer } from '../../lib/services/transfers.ts';

/**
 * Transfers of a product to another organization, a change of economic operator (docs/transfers.md).
 * An acceptance answers 200 with the completed transfer, or 202 with the accepted one when its move
 * has not finished within the call's budget: accepting again goes on from where it stopped.
 */
export const handler = defineApiHandler('transfers', {
  'POST /v1/transfers': async (request: ApiRequest) => {
    const record = await offerTransfer(request.principal.tenant, request.body, originOf(request));
    return json(201, toTransferView(record, request.principal.tenant), { Location: `/v1/transfers/${record.transferId}` });
  },
  'GET /v1/transfers': async (request: ApiRequest) => {
    const { direction, limit, starting_after } = parseQuery(transferListQuerySchema, request.event.queryStringParameters, ['direction', 'limit', 'starting_after']);
    const page = await listTransfersOf(request.principal.tenant, direction, limit, starting_after);
    return json(200, { data: page.records.map((record) => toTransferView(record, request.principal.tenant)), hasMore: page.hasMore });
  },
  'GET /v1/transfers/{transferId}': async (request: ApiRequest) =>
    json(200, toTransferView(await readTransfer(request.principal.tenant, pathParam(request, 'transferId')), request.principal.tenant)),
  'POST /v1/transfers/{transferId}/accept': async (request: ApiRequest) => {
    const { record, finished } = await acceptTransfer(request.principal.tenant, pathParam(request, 'transferId'), originOf(request));
    return json(finished ? 200 : 202, toTransferView(record, request.principal.tenant), finished ? {} : { 'Retry-After': '1' });
  },
  'POST /v1/transfers/{transferId}/decline': async (request: ApiRequest) =>
    json(200, toTransferView(await declineTransfer(request.principal.tenant, pathParam(request, 'transferId'), originOf(request)), request.principal.tenant)),
  'POST /v1/transfers/{transferId}/cancel': async (request: ApiRequest) =>
    json(200, toTransferView(await cancelTransfer(request.principal.tenant, pathParam(request, 'transferId'), originOf(request)), request.principal.tenant)),
});
