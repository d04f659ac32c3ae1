import { qrCodeResponse } from '../../lib/http/qr-code.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { MERGE_PATCH_TYPE } from '../../lib/domain/draft.ts';
import { qrQuerySchema, type ProductRecord } from '../../lib/domain/product.ts';
import { putItemQuerySchema } from '../../lib/domain/passport-completeness.ts';
import { UNIT_PARAM, unitDigitalLink, type UnitKind } from '../../lib/domain/unit.ts';
import { itemExportQuerySchema, toUnitView, unitAtQuerySchema, unitListQuerySchema } from '../../lib/domain/units.ts';
import { UnsupportedMediaTypeError } from '../../lib/http/errors.ts';
import { exportPage, json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { exportItems } from '../../lib/services/items-export.ts';
import { listUnitsOf, patchUnit, putUnit, readUnit, requireUnit, unitValueOf } from '../../lib/services/items.ts';
import { requireProduct } from '../../lib/services/products.ts';
import { unitRegistryCheck } from '../../lib/services/registry-publish-check.ts';
import { handoverRoutes } from './handovers.ts';
import { config } from '../../lib/config.ts';

/**
 * A product's batches and serialised items (docs/api.md#batches-and-items): one set of operations
 * for both kinds, the path naming which. The product is read first, so another organization's
 * product is a 404 whatever the rest of the request (docs/decisions.md#another-tenants-resource-is-a-404);
 * then the lot or serial is checked (422 naming it).
 */
const COLLECTION: Readonly<Record<UnitKind, string>> = { batch: 'batches', item: 'items' };

const productOf = (request: ApiRequest) => requireProduct(request.principal.tenant, pathParam(request, 'productId'));

async function unitInPath(request: ApiRequest, kind: UnitKind): Promise<{ product: ProductRecord; value: string }> {
  const product = await productOf(request);
  return { product, value: unitValueOf(kind, pathParam(request, UNIT_PARAM[kind])) };
}

const locationOf = (product: ProductRecord, kind: UnitKind, value: string) => `/v1/products/${product.productId}/${COLLECTION[kind]}/${encodeURIComponent(value)}`;

const put = (kind: UnitKind) => async (request: ApiRequest) => {
  const { product, value } = await unitInPath(request, kind);
  // `?asOf=` judges a battery on a later day, as publishing does (docs/battery.md#the-individual-battery).
  // `?force=true` registers a live battery on the platform's host (docs/brand-domains.md#battery-items).
  const { asOf, force } = kind === 'item' ? parseQuery(putItemQuerySchema, request.event.queryStringParameters, ['asOf', 'force']) : { asOf: undefined, force: undefined };
  const { unit, created, completeness } = await putUnit(request.principal.tenant, product, kind, value, request.body, originOf(request), { ...(asOf === undefined ? {} : { asOf }), force: force === 'true' });
  const view = toUnitView(unit, product.qrCodeUrl, request.principal.tenant, config().backupPublicOrigin);
  // A new batch or item: the EU registry's pre-checks on the registration it made (docs/registry.md#at-publish-time).
  const registry = created ? await unitRegistryCheck(request.principal.tenant, product, unit) : undefined;
  return json(created ? 201 : 200, { ...view, ...(completeness ? { completeness } : {}), ...(registry ? { registry } : {}) }, created ? { Location: locationOf(product, kind, value) } : {});
};

const read = (kind: UnitKind) => async (request: ApiRequest) => {
  const { at } = parseQuery(unitAtQuerySchema, request.event.queryStringParameters, ['at']);
  const { product, value } = await unitInPath(request, kind);
  return json(200, toUnitView(await readUnit(request.principal.tenant, product, kind, value, at), product.qrCodeUrl, request.principal.tenant, config().backupPublicOrigin));
};

/** RFC 7396: the patch must say it is one; the product and the record first (404 before 415). */
const patch = (kind: UnitKind) => async (request: ApiRequest) => {
  const { product, value } = await unitInPath(request, kind);
  await requireUnit(request.principal.tenant, product, kind, value);
  const contentType = (request.event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== MERGE_PATCH_TYPE) {
    throw new UnsupportedMediaTypeError(`A ${kind} is patched with a JSON Merge Patch: send Content-Type: ${MERGE_PATCH_TYPE}.`, [MERGE_PATCH_TYPE]);
  }
  const { unit } = await patchUnit(request.principal.tenant, product, kind, value, request.body, originOf(request));
  return json(200, toUnitView(unit, product.qrCodeUrl, request.principal.tenant, config().backupPublicOrigin));
};

const list = (kind: UnitKind) => async (request: ApiRequest) => {
  const query = parseQuery(unitListQuerySchema(kind), request.event.queryStringParameters, ['limit', 'starting_after', 'prefix', 'status', ...(kind === 'item' ? ['lot'] : [])]);
  const product = await productOf(request);
  const { limit, starting_after, prefix, status } = query;
  const lot = 'lot' in query && typeof query.lot === 'string' ? query.lot : undefined;
  const filter = { ...(prefix === undefined ? {} : { prefix }), ...(status === undefined ? {} : { status }), ...(lot === undefined ? {} : { lot }) };
  const page = await listUnitsOf(request.principal.tenant, product, kind, limit, starting_after, filter);
  return json(200, { data: page.units.map((unit) => toUnitView(unit, product.qrCodeUrl, request.principal.tenant, config().backupPublicOrigin)), hasMore: page.hasMore });
};

/** The record's QR code: its Digital Link as SVG, as the product's QR code is drawn (docs/decisions.md#qr-codes-with-qrcode-svg). */
const qr = (kind: UnitKind) => async (request: ApiRequest) => {
  const { size, margin } = parseQuery(qrQuerySchema, request.event.queryStringParameters, ['size', 'margin']);
  const { product, value } = await unitInPath(request, kind);
  await requireUnit(request.principal.tenant, product, kind, value);
  // The file name holds only what is safe in a header whatever the serial: the GTIN and the record's digits and letters.
  return qrCodeResponse(unitDigitalLink(product.qrCodeUrl, kind, value), size, margin, `${product.gtin}-${UNIT_PARAM[kind]}-${value.replace(/[^0-9A-Za-z_-]/g, '_')}`);
};

/** One page of a product's items with their Digital Links (docs/import-export.md#items), for a label printer. */
async function exportItemsPage(request: ApiRequest) {
  const { productId, format, limit, starting_after } = parseQuery(itemExportQuerySchema, request.event.queryStringParameters, ['productId', 'format', 'limit', 'starting_after']);
  const product = await requireProduct(request.principal.tenant, productId, 'productId');
  const page = await exportItems(request.principal.tenant, product, format, limit, starting_after);
  const next = page.next === undefined ? undefined : `/v1/exports/items?${new URLSearchParams({ productId: product.productId, format, limit: String(limit), starting_after: page.next })}`;
  return exportPage(format, `items-${product.gtin}`, page.body, next);
}

export const handler = defineApiHandler('items', {
  'GET /v1/products/{productId}/batches': list('batch'),
  'PUT /v1/products/{productId}/batches/{lot}': put('batch'),
  'GET /v1/products/{productId}/batches/{lot}': read('batch'),
  'PATCH /v1/products/{productId}/batches/{lot}': patch('batch'),
  'GET /v1/products/{productId}/batches/{lot}/qr': qr('batch'),
  'GET /v1/products/{productId}/items': list('item'),
  'PUT /v1/products/{productId}/items/{serial}': put('item'),
  'GET /v1/products/{productId}/items/{serial}': read('item'),
  'PATCH /v1/products/{productId}/items/{serial}': patch('item'),
  'GET /v1/products/{productId}/items/{serial}/qr': qr('item'),
  'GET /v1/exports/items': exportItemsPage,
  ...handoverRoutes,
});
