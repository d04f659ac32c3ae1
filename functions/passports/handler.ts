import { findPassportVersion, getPassportVersion, listPassportVersions } from '../../lib/data/passports.ts';
import { cursorQuerySchema } from '../../lib/domain/pagination.ts';
import { createPassportSchema } from '../../lib/domain/passport.ts';
import { toPassportView } from '../../lib/domain/passport-view.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { NotFoundError, ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';
import { publishPassport } from '../../lib/services/passports.ts';
import { requireProduct } from '../../lib/services/products.ts';

async function postPassport(request: ApiRequest) {
  const input = parseBody(createPassportSchema, request.body);
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, input.productId);
  const passport = await publishPassport(tenant, product, input.data);
  return json(
    201,
    {
      passportId: passport.passportId,
      productId: passport.productId,
      version: passport.version,
      status: passport.status,
      createdAt: passport.createdAt,
    },
    { Location: `/v1/products/${passport.productId}/passport` },
  );
}

async function getCurrentPassport(request: ApiRequest) {
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  const passport = product.passportVersion
    ? await getPassportVersion(tenant, product.productId, product.passportVersion)
    : undefined;
  if (!passport) {
    throw new NotFoundError(`Product '${product.productId}' has no published passport yet.`, {
      param: 'productId',
      suggestion: 'Publish one with POST /v1/passports.',
    });
  }
  return json(200, toPassportView(product, passport));
}

const versionsQuery = cursorQuerySchema('passportId');

async function listVersions(request: ApiRequest) {
  const { limit, starting_after } = parseQuery(versionsQuery, request.event.queryStringParameters, ['limit', 'starting_after']);
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  let before: number | undefined;
  if (starting_after !== undefined) {
    before = await findPassportVersion(tenant, product.productId, starting_after);
    if (before === undefined) {
      throw new ValidationError(`No passport '${starting_after}' for this product.`, 'starting_after', 'Send the passportId of the last item of the previous page.');
    }
  }
  const page = await listPassportVersions(tenant, product.productId, limit, before);
  return json(200, { data: page.passports, hasMore: page.hasMore });
}

export const handler = defineApiHandler('passports', {
  'POST /v1/passports': postPassport,
  'GET /v1/products/{productId}/passport': getCurrentPassport,
  'GET /v1/products/{productId}/passports': listVersions,
});
