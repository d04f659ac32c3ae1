import { findPassportVersion, getPassportVersion, getPassportVersionAt, listPassportVersions } from '../../lib/data/passports.ts';
import { draftEnvelopeSchema, MERGE_PATCH_TYPE, passportAtQuerySchema } from '../../lib/domain/draft.ts';
import { cursorQuerySchema } from '../../lib/domain/pagination.ts';
import { createPassportEnvelopeSchema, type PassportVersion } from '../../lib/domain/passport.ts';
import { completenessQuerySchema, publishQuerySchema, type CompletenessReport } from '../../lib/domain/passport-completeness.ts';
import { dppIdOf } from '../../lib/domain/dpp-id.ts';
import { unitConversionsMember } from '../../lib/domain/battery/units-migration.ts';
import { toPassportView } from '../../lib/domain/passport-view.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { InvalidRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';
import { publishVersion, validatePassportData } from '../../lib/services/passports.ts';
import { discardDraft, patchDraft, publishDraftVersion, replaceDraft, requireDraft } from '../../lib/services/drafts.ts';
import { draftViewOf, passportCompleteness } from '../../lib/services/passport-completeness.ts';
import { requireProduct } from '../../lib/services/products.ts';
import { originOf } from '../../lib/api/origin.ts';
import { config } from '../../lib/config.ts';
import { passportBackupUrl } from '../../lib/domain/backup.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import type { PublicationRegistryCheck } from '../../lib/domain/registry/publish-check.ts';
import { modelRegistryCheck } from '../../lib/services/registry-publish-check.ts';

/**
 * The body's product first, then its data as that product's kind (a battery passport for a
 * battery: lib/domain/passport-kinds.ts); `?asOf=` judges a battery passport on a later day.
 */
async function postPassport(request: ApiRequest) {
  const { asOf } = parseQuery(publishQuerySchema, request.event.queryStringParameters, ['asOf']);
  const input = parseBody(createPassportEnvelopeSchema, request.body);
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, input.productId);
  const data = validatePassportData(product, input.data);
  const result = await publishVersion(tenant, product, data, { unlessCurrent: false, origin: originOf(request), ...(asOf === undefined ? {} : { asOf }) });
  const registry = await modelRegistryCheck(tenant, product, result.passport.version);
  return json(201, createdBody(result.passport, result.completeness, registry), { Location: `/v1/products/${result.passport.productId}/passport` });
}

/** `GET …/passport/completeness`: the current version's report, or the draft's with `?draft=true`, on `?asOf=` (today by default). */
async function getCompleteness(request: ApiRequest) {
  const { draft, asOf } = parseQuery(completenessQuerySchema, request.event.queryStringParameters, ['draft', 'asOf']);
  const product = await productOf(request);
  return json(200, await passportCompleteness(request.principal.tenant, product, { draft: draft === 'true', ...(asOf === undefined ? {} : { asOf }) }));
}

/** A version's `backupUrl` (docs/backup.md#the-public-copy), when the service keeps a public copy. */
function backupUrlOf(tenant: Tenant, gtin14: string, version: number): { backupUrl?: string } {
  const origin = config().backupPublicOrigin;
  return origin ? { backupUrl: passportBackupUrl(origin, tenant, gtin14, version) } : {};
}

/** The current version, or with `?at=` the version current at that instant (docs/lifecycle.md#point-in-time). */
async function getCurrentPassport(request: ApiRequest) {
  const { at } = parseQuery(passportAtQuerySchema, request.event.queryStringParameters, ['at']);
  const tenant = request.principal.tenant;
  const product = await requireProduct(tenant, pathParam(request, 'productId'));
  if (at !== undefined) {
    const version = product.passportVersion ? await getPassportVersionAt(tenant, product.productId, Date.parse(at)) : undefined;
    if (!version) throw new NotFoundError(`Product '${product.productId}' had no published passport at ${at}.`, { param: 'at' });
    return json(200, { ...toPassportView(product, version), ...unitConversionsMember(version), dppId: dppIdOf({ tenant, gtin14: product.gtin }), ...backupUrlOf(tenant, product.gtin, version.version) });
  }
  const passport = product.passportVersion
    ? await getPassportVersion(tenant, product.productId, product.passportVersion)
    : undefined;
  if (!passport) {
    throw new NotFoundError(`Product '${product.productId}' has no published passport yet.`, {
      param: 'productId',
      suggestion: 'Publish one with POST /v1/passports.',
    });
  }
  // The owner's read names the stored values of a battery version read in newer units (docs/battery.md#units); the public pages do not.
  return json(200, { ...toPassportView(product, passport), ...unitConversionsMember(passport), dppId: dppIdOf({ tenant, gtin14: product.gtin }), ...backupUrlOf(tenant, product.gtin, passport.version) });
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
  return json(200, { data: page.passports.map((passport) => ({ ...passport, ...unitConversionsMember(passport) })), hasMore: page.hasMore });
}

const createdBody = (passport: PassportVersion, completeness?: CompletenessReport, registry?: PublicationRegistryCheck) => ({
  passportId: passport.passportId,
  productId: passport.productId,
  version: passport.version,
  status: passport.status,
  createdAt: passport.createdAt,
  ...(completeness ? { completeness } : {}),
  // The EU registry's pre-checks on the registration the publication made (docs/registry.md#at-publish-time).
  ...(registry ? { registry } : {}),
});

const productOf = (request: ApiRequest) => requireProduct(request.principal.tenant, pathParam(request, 'productId'));

async function readDraft(request: ApiRequest) {
  const product = await productOf(request);
  return json(200, draftViewOf(product, await requireDraft(request.principal.tenant, product.productId)));
}

async function putDraft(request: ApiRequest) {
  const envelope = parseBody(draftEnvelopeSchema, request.body);
  const product = await productOf(request);
  const data = validatePassportData(product, envelope.data);
  return json(200, draftViewOf(product, await replaceDraft(request.principal.tenant, product, data, originOf(request))));
}

/** RFC 7396: the patch must say it is one (`Content-Type: application/merge-patch+json`). */
async function mergeIntoDraft(request: ApiRequest) {
  // The product first: another tenant's product is a 404 whatever the body (test/integration/isolation.test.ts).
  const product = await productOf(request);
  const contentType = (request.event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== MERGE_PATCH_TYPE) {
    throw new UnsupportedMediaTypeError(`A draft is patched with a JSON Merge Patch: send Content-Type: ${MERGE_PATCH_TYPE}.`, [MERGE_PATCH_TYPE]);
  }
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
    throw new InvalidRequestError('The merge patch must be a JSON object of the draft’s shape, such as {"data": {"vintage": 2022}}.');
  }
  return json(200, draftViewOf(product, await patchDraft(request.principal.tenant, product, request.body, originOf(request))));
}

async function removeDraft(request: ApiRequest) {
  const product = await productOf(request);
  await discardDraft(request.principal.tenant, product, originOf(request));
  return json(200, { productId: product.productId, deleted: true });
}

async function publishTheDraft(request: ApiRequest) {
  const { asOf } = parseQuery(publishQuerySchema, request.event.queryStringParameters, ['asOf']);
  const product = await productOf(request);
  const result = await publishDraftVersion(request.principal.tenant, product, originOf(request), asOf);
  const registry = await modelRegistryCheck(request.principal.tenant, product, result.passport.version);
  return json(201, createdBody(result.passport, result.completeness, registry), { Location: `/v1/products/${result.passport.productId}/passport` });
}

export const handler = defineApiHandler('passports', {
  'POST /v1/passports': postPassport,
  'GET /v1/products/{productId}/passport': getCurrentPassport,
  'GET /v1/products/{productId}/passports': listVersions,
  'GET /v1/products/{productId}/passport/completeness': getCompleteness,
  'GET /v1/products/{productId}/draft': readDraft,
  'PUT /v1/products/{productId}/draft': putDraft,
  'PATCH /v1/products/{productId}/draft': mergeIntoDraft,
  'DELETE /v1/products/{productId}/draft': removeDraft,
  'POST /v1/products/{productId}/draft/publish': publishTheDraft,
});
