import { pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { handoverListQuerySchema, toHandoverView } from '../../lib/domain/handover.ts';
import { toUnitView } from '../../lib/domain/units.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { acceptHandover, cancelHandover, listHandoversOf, offerHandover, readHandover, recycleBattery } from '../../lib/services/handovers.ts';
import { config } from '../../lib/config.ts';

/** Handovers of batteries to their second life or as waste, and the recycling that ends a passport (docs/battery.md#second-life). */
export const handoverRoutes = {
  'POST /v1/handovers': async (request: ApiRequest) => {
    const record = await offerHandover(request.principal.tenant, request.body, originOf(request));
    return json(201, toHandoverView(record), { Location: `/v1/handovers/${record.handoverId}` });
  },
  'GET /v1/handovers': async (request: ApiRequest) => {
    const { as, limit, starting_after } = parseQuery(handoverListQuerySchema, request.event.queryStringParameters, ['as', 'limit', 'starting_after']);
    const page = await listHandoversOf(request.principal.tenant, as, limit, starting_after);
    return json(200, { data: page.records.map(toHandoverView), hasMore: page.hasMore });
  },
  'GET /v1/handovers/{handoverId}': async (request: ApiRequest) => json(200, toHandoverView(await readHandover(request.principal.tenant, pathParam(request, 'handoverId')))),
  'POST /v1/handovers/{handoverId}/accept': async (request: ApiRequest) => {
    const { handover, item, product, itemTenant } = await acceptHandover(request.principal.tenant, pathParam(request, 'handoverId'), request.body, originOf(request));
    return json(200, { ...toHandoverView(handover), item: toUnitView(item, product.qrCodeUrl, itemTenant, config().backupPublicOrigin) });
  },
  'POST /v1/handovers/{handoverId}/recycle': async (request: ApiRequest) => {
    const { handover, item, product, itemTenant } = await recycleBattery(request.principal.tenant, pathParam(request, 'handoverId'), originOf(request));
    return json(200, { ...toHandoverView(handover), item: toUnitView(item, product.qrCodeUrl, itemTenant, config().backupPublicOrigin) });
  },
  'DELETE /v1/handovers/{handoverId}': async (request: ApiRequest) => json(200, toHandoverView(await cancelHandover(request.principal.tenant, pathParam(request, 'handoverId'), originOf(request)))),
};
