import { DEFAULT_LANGUAGE, LANGUAGES, type Lang } from './languages.ts';

/**
 * The languages a published version's e-label offers (docs/labelling.md#sign-off). No imports but
 * the language list: the resolver reads it.
 *
 * `fixed` is what publishing wrote on the version's page item: absent when the organization offers
 * every language (`labelLanguages: "all"`, the default), else the languages signed off when the
 * version was published. When none was, the page offers the product's own label language alone,
 * so that a product is never without its e-label.
 */
export function offeredLanguages(fixed: readonly Lang[] | undefined, labelLanguage: Lang): readonly Lang[] {
  if (fixed === undefined) return LANGUAGES;
  const offered = LANGUAGES.filter((lang) => fixed.includes(lang));
  return offered.length ? offered : [labelLanguage];
}

/**
 * Where a page asked for in a language the version does not offer goes: the product's label
 * language, then English, then the first offered, as the page language falls back when the
 * visitor's is not available (docs/resolver.md#the-page-language). A version page's URL alone
 * decides its answer (it is cached by path), so the visitor's Accept-Language plays no part here.
 */
export function fallbackLanguage(offered: readonly Lang[], labelLanguage: Lang): Lang {
  if (offered.includes(labelLanguage)) return labelLanguage;
  if (offered.includes(DEFAULT_LANGUAGE)) return DEFAULT_LANGUAGE;
  return offered[0] ?? labelLanguage;
}
