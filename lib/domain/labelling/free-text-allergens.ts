import { isWine } from '../wine.ts';
import { ALLERGEN_ENTRIES, ALLERGEN_FLAGS } from './allergen-consistency.ts';
import { findAllergenWords, WINE_ALLERGENS } from './allergen-words.ts';
import type { IngredientCode } from './codes.ts';
import { DEFAULT_LANGUAGE, isLang, type Lang } from './languages.ts';
import type { Allergen } from './vocabulary.ts';

/**
 * The allergen rules of a wine's list of ingredients that read its free text
 * (docs/labelling.md#free-text-allergens, docs/labelling.md#no-allergen-box-beside-a-list):
 *
 * - a free-text ingredient that names a sulphiting agent, an E number from E 220 to E 228, lysozyme
 *   or casein must carry the allergen's term beside it ("E 220 (sulphites)"): Reg. (EU) 2019/33
 *   Art. 41(1) designates the allergens of wine by the terms of its Annex I Part A;
 * - an allergen flag set to true needs an ingredient of the list that carries the allergen (a
 *   vocabulary entry with it, or free text with its term): beside a list of ingredients the e-label
 *   shows allergens only in the list (Reg. (EU) No 1169/2011 Art. 21(1); Commission Notice
 *   2017/C 428/01), so a flag that no ingredient carries would show nowhere.
 *
 * Wines only (lib/domain/wine.ts): the word lists hold the wine terms of Annex I Part A for every
 * language, not the many names food gives the 14 allergens of Annex II. Publishing refuses either
 * with a 422 (lib/services/passports.ts checkAllergens, imports, webhook deliveries).
 */

/** What the rules read of passport data (loosely typed: stored data and import rows pass too). */
export interface FreeTextInput {
  productType?: unknown;
  labelLanguage?: unknown;
  ingredients?: readonly unknown[] | undefined;
  allergens?: Partial<Record<string, unknown>> | undefined;
}

/** One free text of an ingredient: its path under data, its language and the text. */
interface FreeText {
  index: number;
  path: string;
  lang: Lang;
  text: string;
}

/** Every free text of the list: a plain string in the label's language (else English), each translation in its own. */
function freeTexts(data: FreeTextInput): FreeText[] {
  const plainLang = typeof data.labelLanguage === 'string' && isLang(data.labelLanguage) ? data.labelLanguage : DEFAULT_LANGUAGE;
  const texts: FreeText[] = [];
  for (const [index, ingredient] of (data.ingredients ?? []).entries()) {
    if (typeof ingredient === 'string') texts.push({ index, path: `ingredients[${index}]`, lang: plainLang, text: ingredient });
    else if (ingredient !== null && typeof ingredient === 'object' && typeof (ingredient as { text?: unknown }).text === 'object') {
      const translations = (ingredient as { text: Record<string, unknown> | null }).text ?? {};
      for (const [lang, text] of Object.entries(translations)) {
        if (typeof text === 'string' && isLang(lang)) texts.push({ index, path: `ingredients[${index}].text.${lang}`, lang, text });
      }
    }
  }
  return texts;
}

/** A free text naming an allergen's source without the allergen's term. */
export interface MissingTerm {
  /** The free text's path under data: `ingredients[2]` or `ingredients[2].text.de`. */
  path: string;
  /** The word as written ("E 220"). */
  word: string;
  allergen: Allergen;
  text: string;
}

/** The first free text of a wine's list that names a sulphiting agent, E 220–E 228, lysozyme or casein without the term, if any. */
export function freeTextMissingTerm(data: FreeTextInput, category?: string): MissingTerm | undefined {
  if (!isWine(category, data.productType)) return undefined;
  for (const { path, lang, text } of freeTexts(data)) {
    const found = findAllergenWords(text, lang, true);
    const withTerm = new Set(found.filter((match) => !match.needsTerm).map((match) => match.allergen));
    const bare = found.find((match) => match.needsTerm && !withTerm.has(match.allergen));
    if (bare) return { path, word: bare.text, allergen: bare.allergen, text };
  }
  return undefined;
}

/** The English term and vocabulary codes a refusal suggests, per allergen (Reg. (EU) 2019/33 Annex I Part A). */
const ADVICE: Readonly<Record<Allergen, { term: string; codes: IngredientCode[] }>> = {
  sulphites: { term: 'sulphites', codes: ['sulphur-dioxide', 'potassium-metabisulphite', 'potassium-bisulphite'] },
  egg: { term: 'egg', codes: ['lysozyme', 'egg-albumin'] },
  milk: { term: 'milk', codes: ['casein', 'milk-protein'] },
  // Never asked for: a wine declares no fish (Reg. (EU) No 1169/2011 Annex II point 4(b)).
  fish: { term: 'fish', codes: [] },
};

const adviceOf = (allergen: Allergen) => ADVICE[allergen];

/** The 422's param, message and suggestion for a free text without its term; `at` names a path as the client knows it. */
export function missingTermMessage(problem: MissingTerm, at: string | ((path: string) => string) = 'data'): { param: string; message: string; suggestion: string } {
  const name = typeof at === 'function' ? at : (path: string) => (at ? `${at}.${path}` : path);
  const param = name(problem.path);
  const advice = adviceOf(problem.allergen);
  return {
    param,
    message: `${param} "${problem.text}" names ${problem.word}, a source of ${problem.allergen}, without the term a wine's list of ingredients must give it (Regulation (EU) 2019/33 Art. 41(1), Annex I Part A): the e-label would show "${problem.word}" without the allergen.`,
    suggestion: `Write the term beside it ("${problem.word} (${advice.term})"), or use the vocabulary code ${advice.codes.join(' or ')} (GET /v1/vocabulary/ingredients).`,
  };
}

/** The allergens the list of ingredients shows: its vocabulary entries' and the allergen words of its free text (a wine never shows fish). */
export function carriedAllergens(data: FreeTextInput, category?: string): Set<Allergen> {
  const wine = isWine(category, data.productType);
  const carried = new Set<Allergen>();
  for (const ingredient of data.ingredients ?? []) {
    const code = ingredient !== null && typeof ingredient === 'object' ? (ingredient as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && Object.hasOwn(ALLERGEN_ENTRIES, code)) {
      const allergen = ALLERGEN_ENTRIES[code as IngredientCode]?.allergen;
      if (allergen && !(wine && allergen === 'fish')) carried.add(allergen);
    }
  }
  for (const { lang, text } of freeTexts(data)) for (const match of findAllergenWords(text, lang, wine)) carried.add(match.allergen);
  return carried;
}

/** An allergen flag set to true that no ingredient of a wine's list carries, if any (none without a list: then the flags are the allergen statement). */
export function uncarriedAllergenFlag(data: FreeTextInput, category?: string): { flag: string; allergen: Allergen } | undefined {
  if (!isWine(category, data.productType) || (data.ingredients ?? []).length === 0) return undefined;
  const carried = carriedAllergens(data, category);
  for (const allergen of WINE_ALLERGENS) {
    const flag = ALLERGEN_FLAGS[allergen];
    if (data.allergens?.[flag] === true && !carried.has(allergen)) return { flag, allergen };
  }
  return undefined;
}

/** The 422's param, message and suggestion for a flag no ingredient carries. */
export function uncarriedFlagMessage(problem: { flag: string; allergen: Allergen }, at: string | ((path: string) => string) = 'data'): { param: string; message: string; suggestion: string } {
  const name = typeof at === 'function' ? at : (path: string) => (at ? `${at}.${path}` : path);
  const param = name(`allergens.${problem.flag}`);
  const advice = adviceOf(problem.allergen);
  return {
    param,
    message: `${param} is true, but no ingredient of the list carries ${problem.allergen}: beside a list of ingredients the e-label shows allergens only in the list (Regulation (EU) No 1169/2011 Art. 21(1)), so ${problem.allergen} would show nowhere.`,
    suggestion: `Add the ingredient that brings it (the vocabulary code ${advice.codes.join(' or ')}, or free text with the term "${advice.term}"), or set ${problem.flag} to false.`,
  };
}
