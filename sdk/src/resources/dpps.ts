import { init, MERGE_PATCH, ok, type Api, type RequestOptions } from '../request.ts';
import type { Body } from '../types.ts';

export type DppPatch = Body<'/v1/dpps/{dppId}', 'patch'>;

/**
 * Passports as EN 18222 names its reads (issue 28, docs/access.md#reads): each answer holds the
 * elements the caller's tier may see (a client without a key reads the public ones).
 */
export const dpps = (api: Api) => {
  const path = (dppId: string) => ({ path: { dppId } });
  return {
    get: (dppId: string, options?: RequestOptions) => ok(api.GET('/v1/dpps/{dppId}', { params: path(dppId), ...init(options) })),
    /** The product's current passport by its Digital Link URI or GTIN. */
    byProductId: (productIdentifier: string, options?: RequestOptions) =>
      ok(api.GET('/v1/dppsByProductId/{productIdentifier}', { params: { path: { productIdentifier } }, ...init(options) })),
    /** The passport as it was on `date`. */
    byIdAndDate: (dppId: string, date: string, options?: RequestOptions) =>
      ok(api.GET('/v1/dppsByIdAndDate/{dppId}', { params: { ...path(dppId), query: { date } }, ...init(options) })),
    /** Up to 100 products' current passports in one call, each with its passport or its error. */
    byProductIds: (productIds: string[], options?: RequestOptions) => ok(api.POST('/v1/dppsByProductIds', { body: { productIds }, ...init(options) })),
    /** One element; 403 names the tier needed when the caller's is too low. */
    element: (dppId: string, elementPath: string, options?: RequestOptions) =>
      ok(api.GET('/v1/dpps/{dppId}/elements/{elementPath}', { params: { path: { dppId, elementPath } }, ...init(options) })),
    /** A granted writer's merge patch of an item's dynamic data (a battery's state of health, say). */
    update: (dppId: string, patch: DppPatch, options?: RequestOptions) =>
      ok(api.PATCH('/v1/dpps/{dppId}', { params: path(dppId), body: patch, ...init(options, MERGE_PATCH) })),
  };
};
