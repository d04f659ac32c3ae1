import { queryRollups } from '../../lib/data/rollups.ts';
import { analyticsQuerySchema, resolveWindow, summarize } from '../../lib/domain/analytics.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { requireProduct } from '../../lib/services/products.ts';

async function productAnalytics(request: ApiRequest) {
  const query = parseQuery(analyticsQuerySchema, request.event.queryStringParameters, ['start', 'end', 'granularity', 'lot']);
  const resolved = resolveWindow(query.start, query.end);
  if (!resolved.ok) throw new ValidationError(resolved.message, resolved.param, 'Send a window of at most 366 days with end on or after start.');
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  const { startDay, endDay } = resolved.window;
  // With `lot`, one batch's scans (docs/resolver.md#batches-and-items).
  const rollups = await queryRollups(tenant, product.productId, startDay, endDay, query.lot);
  return json(200, summarize(product.productId, resolved.window, query.granularity, rollups));
}

export const handler = defineApiHandler('analytics', {
  'GET /v1/analytics/product/{productId}': productAnalytics,
});
