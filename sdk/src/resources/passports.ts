import { List } from '../pagination.ts';
import { init, ok, okText, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, PassportVersion, Query } from '../types.ts';

export type PublishPassportBody = Body<'/v1/passports', 'post'>;
export type PublishQuery = Query<'/v1/passports', 'post'>;
export type PassportQuery = Query<'/v1/products/{productId}/passport', 'get'>;
export type CompletenessQuery = Query<'/v1/products/{productId}/passport/completeness', 'get'>;

/** Passport versions: publish, read the current one or one as it was, the history, the signed credential. */
export const passports = (api: Api) => ({
  /** Publishes `data` as the product's next version; `asOf` judges a battery passport on a later day. */
  publish: (body: PublishPassportBody, query: PublishQuery = {}, options?: CreateOptions) => ok(api.POST('/v1/passports', { body, params: { query }, ...init(options) })),
  /** The current version, or with `at` the version current then. */
  get: (productId: string, query: PassportQuery = {}, options?: RequestOptions) =>
    ok(api.GET('/v1/products/{productId}/passport', { params: { path: { productId }, query }, ...init(options) })),
  /** Every version, newest first. */
  versions: (productId: string, query: Omit<Query<'/v1/products/{productId}/passports', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
    new List<PassportVersion>(
      (after) => ok(api.GET('/v1/products/{productId}/passports', { params: { path: { productId }, query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (version) => version.passportId,
    ),
  completeness: (productId: string, query: CompletenessQuery = {}, options?: RequestOptions) =>
    ok(api.GET('/v1/products/{productId}/passport/completeness', { params: { path: { productId }, query }, ...init(options) })),
  /** The version as a signed W3C Verifiable Credential (a compact JWS, `application/vc+jwt`): check it with verifyPassportCredential. */
  credential: async (productId: string, passportId: string, options?: RequestOptions) =>
    (await okText(api.GET('/v1/products/{productId}/passports/{passportId}/credential', { params: { path: { productId, passportId } }, parseAs: 'text', ...init(options) }))).text,
});
