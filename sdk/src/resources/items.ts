import { List } from '../pagination.ts';
import { init, MERGE_PATCH, ok, okText, type Api, type RequestOptions } from '../request.ts';
import type { Body, Item, Query } from '../types.ts';

export type ItemBody = Body<'/v1/products/{productId}/items/{serial}', 'put'>;
export type ItemPatch = Body<'/v1/products/{productId}/items/{serial}', 'patch'>;

/** A product's serialised items by serial (GS1 AI 21; docs/api.md#batches-and-items). */
export const items = (api: Api) => {
  const path = (productId: string, serial: string) => ({ path: { productId, serial } });
  return {
    /** The product's items in serial order. */
    list: (productId: string, query: Omit<Query<'/v1/products/{productId}/items', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
      new List<Item>(
        (after) => ok(api.GET('/v1/products/{productId}/items', { params: { path: { productId }, query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
        (item) => item.serial,
      ),
    /** The item, or with `at` its version current then. */
    get: (productId: string, serial: string, query: Query<'/v1/products/{productId}/items/{serial}', 'get'> = {}, options?: RequestOptions) =>
      ok(api.GET('/v1/products/{productId}/items/{serial}', { params: { ...path(productId, serial), query }, ...init(options) })),
    /** Registers the item, or replaces what it holds. */
    put: (productId: string, serial: string, body: ItemBody, options?: RequestOptions) =>
      ok(api.PUT('/v1/products/{productId}/items/{serial}', { params: path(productId, serial), body, ...init(options) })),
    update: (productId: string, serial: string, patch: ItemPatch, options?: RequestOptions) =>
      ok(api.PATCH('/v1/products/{productId}/items/{serial}', { params: path(productId, serial), body: patch, ...init(options, MERGE_PATCH) })),
    qr: async (productId: string, serial: string, query: Query<'/v1/products/{productId}/items/{serial}/qr', 'get'> = {}, options?: RequestOptions) =>
      (await okText(api.GET('/v1/products/{productId}/items/{serial}/qr', { params: { ...path(productId, serial), query }, parseAs: 'text', ...init(options) }))).text,
  };
};
