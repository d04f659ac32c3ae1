import { List } from '../pagination.ts';
import { init, MERGE_PATCH, ok, okText, type Api, type RequestOptions } from '../request.ts';
import type { Batch, Body, Query } from '../types.ts';

export type BatchBody = Body<'/v1/products/{productId}/batches/{lot}', 'put'>;
export type BatchPatch = Body<'/v1/products/{productId}/batches/{lot}', 'patch'>;

/** A product's batches by lot (GS1 AI 10; docs/api.md#batches-and-items). */
export const batches = (api: Api) => {
  const path = (productId: string, lot: string) => ({ path: { productId, lot } });
  return {
    /** The product's batches in lot order. */
    list: (productId: string, query: Omit<Query<'/v1/products/{productId}/batches', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
      new List<Batch>(
        (after) => ok(api.GET('/v1/products/{productId}/batches', { params: { path: { productId }, query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
        (batch) => batch.lot,
      ),
    /** The batch, or with `at` its version current then. */
    get: (productId: string, lot: string, query: Query<'/v1/products/{productId}/batches/{lot}', 'get'> = {}, options?: RequestOptions) =>
      ok(api.GET('/v1/products/{productId}/batches/{lot}', { params: { ...path(productId, lot), query }, ...init(options) })),
    /** Registers the batch, or replaces what it holds. */
    put: (productId: string, lot: string, body: BatchBody, options?: RequestOptions) =>
      ok(api.PUT('/v1/products/{productId}/batches/{lot}', { params: path(productId, lot), body, ...init(options) })),
    update: (productId: string, lot: string, patch: BatchPatch, options?: RequestOptions) =>
      ok(api.PATCH('/v1/products/{productId}/batches/{lot}', { params: path(productId, lot), body: patch, ...init(options, MERGE_PATCH) })),
    qr: async (productId: string, lot: string, query: Query<'/v1/products/{productId}/batches/{lot}/qr', 'get'> = {}, options?: RequestOptions) =>
      (await okText(api.GET('/v1/products/{productId}/batches/{lot}/qr', { params: { ...path(productId, lot), query }, parseAs: 'text', ...init(options) }))).text,
  };
};
