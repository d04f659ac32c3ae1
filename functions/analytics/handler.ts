import { getPassportVersion } from '../../lib/data/passports.ts';
import { queryRollups } from '../../lib/data/rollups.ts';
import { analyticsQuerySchema, resolveWindow, summarize } from '../../lib/domain/analytics.ts';
import type { ProductRecord } from '../../lib/domain/product.ts';
import { scanIsCountOnly } from '../../lib/domain/scan.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { requireProduct } from '../../lib/services/products.ts';

/**
 * Whether the product's scans are counts only (a wine, docs/privacy.md), decided as the resolver
 * decides it: from the category, else from the current passport's productType (one GetItem).
 */
async function countsOnly(tenant: Tenant, product: ProductRecord): Promise<boolean> {
  if (scanIsCountOnly({ category: product.category })) return true;
  if (product.passportVersion === 0) return false;
  const passport = await getPassportVersion(tenant, product.productId, product.passportVersion);
  return scanIsCountOnly({ category: product.category, productType: passport?.data.productType });
}

async function productAnalytics(request: ApiRequest) {
  const query = parseQuery(analyticsQuerySchema, request.event.queryStringParameters, ['start', 'end', 'granularity', 'lot']);
  const resolved = resolveWindow(query.start, query.end);
  if (!resolved.ok) throw new ValidationError(resolved.message, resolved.param, 'Send a window of at most 366 days with end on or after start.');
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  const { startDay, endDay } = resolved.window;
  // With `lot`, one batch's scans (docs/resolver.md#batches-and-items).
  const [rollups, countOnly] = await Promise.all([queryRollups(tenant, product.productId, startDay, endDay, query.lot), countsOnly(tenant, product)]);
  return json(200, summarize(product.productId, resolved.window, query.granularity, rollups, { countOnly }));
}

export const handler = defineApiHandler('analytics', {
  'GET /v1/analytics/product/{productId}': productAnalytics,
});
