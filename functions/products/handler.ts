import { qrCodeResponse } from '../../lib/http/qr-code.ts';
import { countProducts, listProductsAfter, listProductsAt, searchProductsAt } from '../../lib/data/products.ts';
import {
  createProductSchema,
  cursorPageSchema,
  IMMUTABLE_PRODUCT_FIELDS,
  listProductsQuerySchema,
  offsetPageSchema,
  productMatches,
  productSearchSchema,
  qrQuerySchema,
  toProductView,
  updateProductSchema,
  withdrawProductSchema,
} from '../../lib/domain/product.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { NotFoundError, ValidationError } from '../../lib/http/errors.ts';
import { exportPage, json } from '../../lib/http/response.ts';
import { parseBody, parseOrThrow, parseQuery } from '../../lib/http/validation.ts';
import { changeProductStatus, createProduct, requireProduct, updateProductFields } from '../../lib/services/products.ts';
import { originOf } from '../../lib/api/origin.ts';
import { requireScope } from '../../lib/auth/authenticate.ts';
import { exportQuerySchema } from '../../lib/domain/export.ts';
import { exportProducts } from '../../lib/services/exports.ts';

const productInPath = (request: ApiRequest) => requireProduct(request.principal.tenant, pathParam(request, 'productId'));

async function postProduct(request: ApiRequest) {
  const input = parseBody(createProductSchema, request.body);
  const product = await createProduct(request.principal.tenant, input, originOf(request));
  return json(
    201,
    { productId: product.productId, qrCodeUrl: product.qrCodeUrl, createdAt: product.createdAt },
    { Location: `/v1/products/${product.productId}` },
  );
}

async function listProducts(request: ApiRequest) {
  const { q, ...query } = parseQuery(listProductsQuerySchema, request.event.queryStringParameters, [
    'limit',
    'offset',
    'starting_after',
    'q',
  ]);
  const tenant = request.principal.tenant;
  // Search: a name substring or a GTIN prefix (a filter over the tenant's products).
  const search = q === undefined ? undefined : parseOrThrow(productSearchSchema, q, ['q']);
  const filter = search === undefined ? undefined : (product: Parameters<typeof productMatches>[0]) => productMatches(product, search);
  if (query.starting_after !== undefined) {
    if (query.offset !== undefined) {
      throw new ValidationError('offset and starting_after cannot be combined.', 'offset', 'Page with one or the other.');
    }
    const { limit, starting_after } = parseOrThrow(cursorPageSchema, query);
    const page = await listProductsAfter(tenant, limit, starting_after.toLowerCase(), filter);
    return json(200, { data: page.products.map(toProductView), hasMore: page.hasMore });
  }
  const { limit, offset } = parseOrThrow(offsetPageSchema, query);
  const [page, total] = filter
    ? await searchProductsAt(tenant, filter, limit, offset).then((found) => [found, found.total] as const)
    : await Promise.all([listProductsAt(tenant, limit, offset), countProducts(tenant)]);
  const data = page.products.map(toProductView);
  // The offset form names the array both `data` and `products` (docs/decisions.md#two-list-forms-for-products).
  return json(200, { data, products: data, pagination: { total, limit, offset }, hasMore: page.hasMore });
}

async function readProduct(request: ApiRequest) {
  return json(200, toProductView(await productInPath(request)));
}

async function patchProduct(request: ApiRequest) {
  const body = request.body;
  if (typeof body === 'object' && body !== null) {
    const immutable = Object.keys(body).find((field) => Object.hasOwn(IMMUTABLE_PRODUCT_FIELDS, field));
    if (immutable) throw new ValidationError(IMMUTABLE_PRODUCT_FIELDS[immutable] ?? '', immutable);
  }
  const changes = parseBody(updateProductSchema, body);
  const product = await productInPath(request);
  const updated = await updateProductFields(request.principal.tenant, product, changes, originOf(request));
  return json(200, { product: toProductView(updated) });
}

async function productQr(request: ApiRequest) {
  const { size, margin } = parseQuery(qrQuerySchema, request.event.queryStringParameters, ['size', 'margin']);
  const product = await productInPath(request);
  return qrCodeResponse(product.qrCodeUrl, size, margin, product.gtin);
}

/**
 * One page of the product export (docs/import-export.md#export). The route table admits either of
 * its scopes; the export shows products and passports, so it needs both.
 */
async function exportProductsPage(request: ApiRequest) {
  const operation = 'GET /v1/exports/products';
  requireScope(request.principal, ['products:read'], operation);
  requireScope(request.principal, ['passports:read'], operation);
  const { format, limit, starting_after } = parseQuery(exportQuerySchema, request.event.queryStringParameters, ['format', 'limit', 'starting_after']);
  const page = await exportProducts(request.principal.tenant, format, limit, starting_after?.toLowerCase());
  const next = page.next === undefined ? undefined : `/v1/exports/products?${new URLSearchParams({ format, limit: String(limit), starting_after: page.next })}`;
  return exportPage(format, 'products', page.body, next);
}

async function withdraw(request: ApiRequest) {
  const { reason } = parseBody(withdrawProductSchema, request.body);
  const product = await productInPath(request);
  return json(200, toProductView(await changeProductStatus(request.principal.tenant, product, { status: 'withdrawn', reason }, originOf(request))));
}

async function reinstate(request: ApiRequest) {
  const product = await productInPath(request);
  return json(200, toProductView(await changeProductStatus(request.principal.tenant, product, { status: 'active' }, originOf(request))));
}

export const handler = defineApiHandler('products', {
  'POST /v1/products': postProduct,
  'GET /v1/products': listProducts,
  'GET /v1/products/{productId}': readProduct,
  'PATCH /v1/products/{productId}': patchProduct,
  'GET /v1/products/{productId}/qr': productQr,
  'GET /v1/exports/products': exportProductsPage,
  'POST /v1/products/{productId}/withdraw': withdraw,
  'POST /v1/products/{productId}/reinstate': reinstate,
});
