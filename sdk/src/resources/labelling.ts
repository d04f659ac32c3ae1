import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, Operation, Query } from '../types.ts';

export type SignOffBody = Body<'/v1/labelling/sign-offs', 'post'>;
export type LabellingSettingsBody = Body<'/v1/labelling/settings', 'put'>;
export type CorrectTermBody = Body<'/v1/labelling/terms/{lang}/{termKey}', 'put'>;
/** A language of the e-label: one of the 24 codes. */
export type LabelLanguage = SignOffBody['lang'];
/** A key of the e-label's texts that is a legal term (docs/labelling.md#correcting-a-term). */
export type LegalTermKey = Operation<'/v1/labelling/terms/{lang}/{termKey}', 'put'>['parameters']['path']['termKey'];

/**
 * The e-label's legal wording (docs/labelling.md): the organization's corrections of legal terms,
 * a compliance officer's sign-off of each language, and which languages the pages offer.
 */
export const labelling = (api: Api) => ({
  /** The legal terms of the languages asked for (all 24 without `lang`), with their evidence and the organization's corrections. */
  terms: (query: Query<'/v1/labelling/terms', 'get'> = {}, options?: RequestOptions) => ok(api.GET('/v1/labelling/terms', { params: { query }, ...init(options) })),
  /** Sets the organization's wording of a legal term: versions published afterwards show it, and a sign-off of the language re-opens. */
  correctTerm: (lang: LabelLanguage, termKey: LegalTermKey, body: CorrectTermBody, options?: RequestOptions) =>
    ok(api.PUT('/v1/labelling/terms/{lang}/{termKey}', { params: { path: { lang, termKey } }, body, ...init(options) })),
  /** Removes the organization's wording of a legal term. */
  removeCorrection: (lang: LabelLanguage, termKey: LegalTermKey, options?: RequestOptions) =>
    ok(api.DELETE('/v1/labelling/terms/{lang}/{termKey}', { params: { path: { lang, termKey } }, ...init(options) })),
  /** Each of the 24 languages with its sign-off: `signed`, `reopened` (with `changedTerms`, each as signed and as now) or `none`. */
  signOffs: (options?: RequestOptions) => ok(api.GET('/v1/labelling/sign-offs', { ...init(options) })),
  /** One language's terms as the pages use them, with their evidence, their digest, and its sign-off: what a sign-off signs. */
  signOffOf: (lang: LabelLanguage, options?: RequestOptions) => ok(api.GET('/v1/labelling/sign-offs/{lang}', { params: { path: { lang } }, ...init(options) })),
  /**
   * Signs off a language as the key's organization's compliance officer (the key needs
   * `labelling:write` and is recorded as the signer). With `digest` (from `signOffOf`), terms that
   * changed since are a 409 naming `digest`. A sign-off that still holds is answered as it is.
   */
  signOff: (body: SignOffBody, options?: CreateOptions) => ok(api.POST('/v1/labelling/sign-offs', { body, ...init(options) })),
  /** `labelLanguages` (all, or signed-off) and the languages whose sign-off holds now. */
  getSettings: (options?: RequestOptions) => ok(api.GET('/v1/labelling/settings', { ...init(options) })),
  /** Saves `labelLanguages`: versions published from now on offer all 24 languages, or only those signed off. */
  updateSettings: (body: LabellingSettingsBody, options?: RequestOptions) => ok(api.PUT('/v1/labelling/settings', { body, ...init(options) })),
});
