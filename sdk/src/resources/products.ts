import { List } from '../pagination.ts';
import { init, ok, okText, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, Product, Query } from '../types.ts';

export type ProductListQuery = Omit<Query<'/v1/products', 'get'>, 'starting_after' | 'offset'> & { startingAfter?: string };
export type ProductPageQuery = Omit<Query<'/v1/products', 'get'>, 'starting_after'>;
export type CreateProductBody = Body<'/v1/products', 'post'>;
export type UpdateProductBody = Body<'/v1/products/{productId}', 'patch'>;
export type WithdrawProductBody = Body<'/v1/products/{productId}/withdraw', 'post'>;
export type QrQuery = Query<'/v1/products/{productId}/qr', 'get'>;

/** Products registered by GTIN (docs/api.md#endpoints). */
export const products = (api: Api) => ({
  /** Every product, oldest first, page after page; `q` searches names and GTINs. */
  list: ({ startingAfter, ...query }: ProductListQuery = {}, options?: RequestOptions) =>
    new List<Product>(
      (after) => ok(api.GET('/v1/products', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (product) => product.productId,
      startingAfter,
    ),
  /** One page of the offset form, with `pagination.total` (numbered pages in a UI). */
  page: (query: ProductPageQuery = {}, options?: RequestOptions) => ok(api.GET('/v1/products', { params: { query }, ...init(options) })),
  get: (productId: string, options?: RequestOptions) => ok(api.GET('/v1/products/{productId}', { params: { path: { productId } }, ...init(options) })),
  create: (body: CreateProductBody, options?: CreateOptions) => ok(api.POST('/v1/products', { body, ...init(options) })),
  update: (productId: string, body: UpdateProductBody, options?: RequestOptions) =>
    ok(api.PATCH('/v1/products/{productId}', { params: { path: { productId } }, body, ...init(options) })),
  withdraw: (productId: string, body: WithdrawProductBody, options?: RequestOptions) =>
    ok(api.POST('/v1/products/{productId}/withdraw', { params: { path: { productId } }, body, ...init(options) })),
  reinstate: (productId: string, options?: RequestOptions) => ok(api.POST('/v1/products/{productId}/reinstate', { params: { path: { productId } }, ...init(options) })),
  /** The product's QR code (its Digital Link) as SVG text. */
  qr: async (productId: string, query: QrQuery = {}, options?: RequestOptions) =>
    (await okText(api.GET('/v1/products/{productId}/qr', { params: { path: { productId }, query }, parseAs: 'text', ...init(options) }))).text,
});
