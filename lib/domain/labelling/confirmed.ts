import { isConfirmed } from './evidence-levels.ts';
import type { Lang } from './languages.ts';
import { isLegalText, TEXT_FILES, TEXT_KEYS } from './texts.ts';
import { nameEvidence, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS } from './vocabulary.ts';

/**
 * Whether a language's legal wording is confirmed (docs/labelling.md#evidence), and what a page in
 * it must say while it is not. No npm imports: the resolver reads it.
 */

const confirmedByLang = new Map<Lang, boolean>();

/**
 * Whether every legal text and every vocabulary name of `lang` rests on the act in the Official
 * Journal or a faithful copy of it (evidence official or official-copy). The platform's wording
 * only: an organization's corrections are signed off by the organization.
 */
export function languageTermsConfirmed(lang: Lang): boolean {
  const known = confirmedByLang.get(lang);
  if (known !== undefined) return known;
  const texts = TEXT_KEYS.filter((key) => isLegalText(lang, key)).map((key) => TEXT_FILES[lang]?.texts[key]?.evidence?.level ?? 'unconfirmed');
  const names = [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS].map((entry) => nameEvidence(entry, lang).level);
  const confirmed = [...texts, ...names].every(isConfirmed);
  confirmedByLang.set(lang, confirmed);
  return confirmed;
}

/**
 * The languages whose member state has English as an official language too, so that a consumer
 * there may be sent to the English text: Irish (Ireland). Maltese would qualify on the same ground
 * (Malta) but its pages are not changed without a decision (docs/labelling.md#irish).
 */
export const ENGLISH_CO_OFFICIAL: readonly Lang[] = ['ga'];

/**
 * Whether a page in `lang` must say that the English text is authoritative (text key
 * `englishAuthoritative`): a language of ENGLISH_CO_OFFICIAL whose terms are not all confirmed.
 */
export const englishIsAuthoritative = (lang: Lang): boolean => ENGLISH_CO_OFFICIAL.includes(lang) && !languageTermsConfirmed(lang);
