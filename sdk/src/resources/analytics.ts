import { init, ok, type Api, type RequestOptions } from '../request.ts';
import type { Query } from '../types.ts';

export type AnalyticsQuery = Query<'/v1/analytics/product/{productId}', 'get'>;

/** Scan analytics (docs/api.md#scan-analytics-and-why-nothing-personal-is-kept). */
export const analytics = (api: Api) => ({
  /** A product's scans by day, ISO week or month, with countries, referrers and devices. */
  product: (productId: string, query: AnalyticsQuery = {}, options?: RequestOptions) =>
    ok(api.GET('/v1/analytics/product/{productId}', { params: { path: { productId }, query }, ...init(options) })),
});
