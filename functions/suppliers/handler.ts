import { getSupplier, listSuppliers } from '../../lib/data/suppliers.ts';
import { cursorQuerySchema } from '../../lib/domain/pagination.ts';
import { createSupplierSchema, toSupplierView } from '../../lib/domain/supplier.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';
import { createSupplier } from '../../lib/services/suppliers.ts';

const SUPPLIER_ID = /^sup_[0-9a-z]{20}$/;

async function postSupplier(request: ApiRequest) {
  const input = parseBody(createSupplierSchema, request.body);
  const supplier = await createSupplier(request.principal.tenant, input, originOf(request));
  return json(201, toSupplierView(supplier), { Location: `/v1/suppliers/${supplier.supplierId}` });
}

const listQuery = cursorQuerySchema('supplierId');

async function getSuppliers(request: ApiRequest) {
  const { limit, starting_after } = parseQuery(listQuery, request.event.queryStringParameters, ['limit', 'starting_after']);
  const page = await listSuppliers(request.principal.tenant, limit, starting_after);
  return json(200, { data: page.suppliers.map(toSupplierView), hasMore: page.hasMore });
}

async function getOneSupplier(request: ApiRequest) {
  const supplierId = pathParam(request, 'supplierId');
  const supplier = SUPPLIER_ID.test(supplierId) ? await getSupplier(request.principal.tenant, supplierId) : undefined;
  if (!supplier) throw new NotFoundError(`No supplier with id '${supplierId}'.`, { param: 'supplierId' });
  return json(200, toSupplierView(supplier));
}

export const handler = defineApiHandler('suppliers', {
  'POST /v1/suppliers': postSupplier,
  'GET /v1/suppliers': getSuppliers,
  'GET /v1/suppliers/{supplierId}': getOneSupplier,
});
