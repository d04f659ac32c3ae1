import { List } from '../pagination.ts';
import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, Query, Supplier } from '../types.ts';

export type CreateSupplierBody = Body<'/v1/suppliers', 'post'>;

/** Suppliers: producers, bottlers, importers and the like. */
export const suppliers = (api: Api) => ({
  create: (body: CreateSupplierBody, options?: CreateOptions) => ok(api.POST('/v1/suppliers', { body, ...init(options) })),
  /** Every supplier, oldest first. */
  list: (query: Omit<Query<'/v1/suppliers', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
    new List<Supplier>(
      (after) => ok(api.GET('/v1/suppliers', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (supplier) => supplier.supplierId,
    ),
  get: (supplierId: string, options?: RequestOptions) => ok(api.GET('/v1/suppliers/{supplierId}', { params: { path: { supplierId } }, ...init(options) })),
});
