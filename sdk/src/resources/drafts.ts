import { init, MERGE_PATCH, ok, type Api, type RequestOptions } from '../request.ts';
import type { Body, Query } from '../types.ts';

export type DraftBody = Body<'/v1/products/{productId}/draft', 'put'>;
export type DraftPatch = Body<'/v1/products/{productId}/draft', 'patch'>;
export type PublishDraftQuery = Query<'/v1/products/{productId}/draft/publish', 'post'>;

/** A product's one draft, never public (docs/lifecycle.md#drafts). */
export const drafts = (api: Api) => {
  const path = (productId: string) => ({ path: { productId } });
  return {
    get: (productId: string, options?: RequestOptions) => ok(api.GET('/v1/products/{productId}/draft', { params: path(productId), ...init(options) })),
    replace: (productId: string, body: DraftBody, options?: RequestOptions) => ok(api.PUT('/v1/products/{productId}/draft', { params: path(productId), body, ...init(options) })),
    /** Merges an RFC 7396 patch into the draft (`null` removes a member). */
    update: (productId: string, patch: DraftPatch, options?: RequestOptions) =>
      ok(api.PATCH('/v1/products/{productId}/draft', { params: path(productId), body: patch, ...init(options, MERGE_PATCH) })),
    delete: (productId: string, options?: RequestOptions) => ok(api.DELETE('/v1/products/{productId}/draft', { params: path(productId), ...init(options) })),
    /** Publishes the draft as the product's next version. */
    publish: (productId: string, query: PublishDraftQuery = {}, options?: RequestOptions) =>
      ok(api.POST('/v1/products/{productId}/draft/publish', { params: { ...path(productId), query }, ...init(options) })),
  };
};
