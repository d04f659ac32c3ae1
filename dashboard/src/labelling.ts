import { COUNTRY_CODES } from '../../lib/domain/countries.ts';
import { DEFAULT_LANGUAGE, isLang, type Lang } from '../../lib/domain/labelling/languages.ts';
import type { VocabularyListEntry } from '../../lib/domain/labelling/vocabulary.ts';
import { elabelPageUrl } from '../../lib/domain/page-urls.ts';
import type { Ingredient } from '../../lib/domain/passport.ts';

/** The passport form's labelling helpers, without DOM: the ingredient search, labels, and the e-label preview URL. */

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language's name in English for the dashboard's language lists ("German"), or its code. */
export const languageName = (code: string): string => LANGUAGE_NAMES.of(code) ?? code;

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's name in English ("Italy") from its ISO 3166-1 alpha-2 code, or the code. */
export const countryName = (code: string): string => {
  try {
    return REGION_NAMES.of(code) ?? code;
  } catch {
    return code;
  }
};

/** The codes the API accepts (lib/domain/countries.ts), in the order of their English names: what a country list offers. */
export const COUNTRIES_BY_NAME: readonly string[] = [...COUNTRY_CODES].sort((a, b) => countryName(a).localeCompare(countryName(b), 'en'));

/** The user's language among the 24: the browser's first one the e-label offers, else English. */
export function browserLanguage(preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): Lang {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLang(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** Lower case, without accents: "Säure" is found by "saure". */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The vocabulary entries matching what was typed (name in `lang`, or in English, code, E-number), best first. */
export function searchVocabulary(entries: readonly VocabularyListEntry[], query: string, lang: Lang, limit = 8): VocabularyListEntry[] {
  const q = fold(query.trim());
  if (q === '') return [];
  const compact = q.replace(/\s+/g, '');
  const scored: [number, VocabularyListEntry][] = [];
  for (const entry of entries) {
    const name = fold(entry.names[lang] ?? '');
    let score = name.startsWith(q) ? 0 : name.includes(q) ? 1 : -1;
    if (score < 0 && (entry.code.includes(compact) || (entry.eNumber ?? '').toLowerCase().replace(/\s+/g, '') === compact)) score = 2;
    if (score < 0 && fold(entry.names.en).includes(q)) score = 3;
    if (score >= 0) scored.push([score, entry]);
  }
  return scored.sort((a, b) => a[0] - b[0]).slice(0, limit).map(([, entry]) => entry);
}

/** How an ingredient reads in the form, in the chosen language. */
export function ingredientLabel(ingredient: Ingredient, lang: Lang, vocabulary: readonly VocabularyListEntry[] | undefined): string {
  if (typeof ingredient === 'string') return ingredient;
  if (ingredient.code !== undefined) {
    const entry = vocabulary?.find((candidate) => candidate.code === ingredient.code);
    // The vocabulary not loaded (yet): the code in words rather than the code itself ("sulphur dioxide").
    if (!entry) return ingredient.code.replace(/-/g, ' ');
    return [entry.category ? `${entry.category.names[lang]}: ` : '', entry.names[lang], entry.eNumber ? ` (${entry.eNumber})` : ''].join('');
  }
  const texts = ingredient.text ?? {};
  return texts[lang] ?? texts.en ?? Object.values(texts).find((value) => value !== undefined) ?? '';
}

/** The immutable e-label page of a version in one language, when the QR link is on the platform's own resolver. */
export function previewUrl(qrCodeUrl: string, version: number, lang: Lang): string | undefined {
  const url = new URL(qrCodeUrl);
  const [orgId, environment, ai, gtin] = url.pathname.split('/').filter(Boolean);
  if (!orgId || ai !== '01' || !gtin || (environment !== 'live' && environment !== 'test')) return undefined;
  return elabelPageUrl(url.origin, { orgId, environment }, gtin.padStart(14, '0'), version, lang);
}

