import words from './allergen-words.json' with { type: 'json' };
import { LANGUAGES, type Lang } from './languages.ts';
import type { Allergen } from './vocabulary.ts';

/**
 * The allergen words of each language (lib/domain/labelling/allergen-words.json; sources in
 * docs/labelling.md): the terms of Annex I Part A of Reg. (EU) 2019/33 for sulphites, egg and milk,
 * and common forms, each with its status and source. The e-label emphasises them in free-text
 * ingredients (Reg. (EU) No 1169/2011 Art. 21(1)(b)). No npm imports.
 */

export type WordStatus = 'confirmed' | 'secondary' | 'unconfirmed';

export interface AllergenWord {
  word: string;
  status: WordStatus;
  source: string;
  evidence?: string;
  /** Letters may precede and follow (German compounds: Magermilchpulver). */
  compound?: boolean;
  /** Letters may follow (inflections: kananmunaa). */
  stem?: boolean;
  /** Whole matches that are not the allergen (Milchsäure is lactic acid). */
  except?: string[];
  /** Only in text of this language: elsewhere a common word (Romanian "ou" is French "or"). */
  ownLanguageOnly?: boolean;
  /**
   * A substance's name that is not the allergen's term (E 220, potassium metabisulphite, lysozyme,
   * casein): never emphasised alone; the term must stand beside it (docs/labelling.md#free-text-allergens).
   */
  needsTerm?: boolean;
}

type Words = Partial<Record<Allergen, AllergenWord[]>>;

interface AllergenWordsFile {
  anyLanguage: Words;
  languages: Record<Lang, Words>;
}

const data = words as unknown as AllergenWordsFile;

export const ANY_LANGUAGE_WORDS: Readonly<Words> = data.anyLanguage;
export const LANGUAGE_WORDS: Readonly<Record<Lang, Words>> = data.languages;

/** The allergens wine can carry: fish-derived fining agents are exempt (Reg. (EU) No 1169/2011 Annex II point 4(b)). */
export const WINE_ALLERGENS: readonly Allergen[] = ['sulphites', 'egg', 'milk'];
const ALL_ALLERGENS: readonly Allergen[] = ['sulphites', 'egg', 'milk', 'fish'];

const LETTER = '[\\p{L}\\p{M}\\p{N}]';

let accentedLetters: Map<string, string> | undefined;

/** Each base letter of the Latin, Greek and Cyrillic blocks with its accented forms ("ι" → "ίϊΐ…"). */
function accented(): Map<string, string> {
  if (accentedLetters) return accentedLetters;
  accentedLetters = new Map();
  for (const [from, to] of [[0xc0, 0x24f], [0x370, 0x3ff], [0x400, 0x4ff], [0x1e00, 0x1fff]] as const) {
    for (let point = from; point <= to; point++) {
      const char = String.fromCodePoint(point);
      const base = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      if (base.length === 1 && base !== char.toLowerCase()) accentedLetters.set(base, (accentedLetters.get(base) ?? '') + char);
    }
  }
  return accentedLetters;
}

/** One word as a regular-expression source: spaces match any run of spaces, both apostrophes match, letters may precede/follow where allowed. */
function wordSource(entry: AllergenWord): string {
  const body = [...entry.word]
    // An accented letter matches its base letter and its other accented forms: labels in capitals often drop accents (ΠΡΩΤΕΪΝΗ ΑΥΓΟΥ, CASEINE).
    .map((char) => {
      if (char === 'ß') return '(?:ß|ss)'; // EIWEISS in capitals
      const base = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      return base !== char.toLowerCase() && base.length === 1 ? `[${base}${accented().get(base) ?? ''}]\\p{M}*` : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('')
    .replace(/['’]/g, "['’]")
    .replace(/[\s\u00a0]+/g, '[\\s\\u00a0]+')
    .replace(/-/g, '[-\\u2010\\u2011]');
  return `${entry.compound ? '\\p{L}*' : ''}${body}${entry.compound || entry.stem ? '\\p{L}*' : ''}`;
}

export interface AllergenMatcher {
  /** One capturing group per alternative, in `alternatives`' order. */
  pattern: RegExp;
  /** What each capturing group of `pattern` finds: its allergen, and whether the word needs the term beside it. */
  alternatives: readonly { allergen: Allergen; needsTerm: boolean }[];
  /** Lower-case whole matches not to emphasise. */
  except: ReadonlySet<string>;
}

/** One allergen word found in free text. */
export interface AllergenWordMatch {
  index: number;
  text: string;
  allergen: Allergen;
  /** Not the allergen's term (E 220, lysozyme): see AllergenWord.needsTerm. */
  needsTerm: boolean;
}

const matchers = new Map<string, AllergenMatcher>();

/**
 * What finds the allergen words in free text: the words of every language (text on a label may be in
 * any of them) except those marked ownLanguageOnly, which count only in text of `lang`. Fish words
 * only when `wine` is false. The allergens' terms are tried before the names that need a term, and
 * longer words before shorter ones, so "caseína de leche" and "Sulfite" are found as terms, not as
 * "caseína" or the stem "sulfit".
 */
export function allergenMatcher(lang: Lang, wine: boolean): AllergenMatcher {
  const key = `${lang}:${wine}`;
  const cached = matchers.get(key);
  if (cached) return cached;
  const allergens = wine ? WINE_ALLERGENS : ALL_ALLERGENS;
  const entries: { entry: AllergenWord; allergen: Allergen }[] = [];
  for (const allergen of allergens) for (const entry of ANY_LANGUAGE_WORDS[allergen] ?? []) entries.push({ entry, allergen });
  for (const other of LANGUAGES) {
    for (const allergen of allergens) {
      for (const entry of LANGUAGE_WORDS[other]?.[allergen] ?? []) if (other === lang || !entry.ownLanguageOnly) entries.push({ entry, allergen });
    }
  }
  const rank = (item: { entry: AllergenWord }) => (item.entry.needsTerm ? 1 : 0);
  entries.sort((a, b) => rank(a) - rank(b) || b.entry.word.length - a.entry.word.length);
  const sources: string[] = [];
  const alternatives: { allergen: Allergen; needsTerm: boolean }[] = [];
  const seen = new Set<string>();
  for (const { entry, allergen } of entries) {
    const source = wordSource(entry);
    if (seen.has(source)) continue;
    seen.add(source);
    sources.push(`(${source})`);
    alternatives.push({ allergen, needsTerm: entry.needsTerm === true });
  }
  const matcher = {
    pattern: new RegExp(`(?<!${LETTER})(?:${sources.join('|')})(?!${LETTER})`, 'giu'),
    alternatives,
    except: new Set(entries.flatMap(({ entry }) => entry.except ?? []).map((word) => word.toLocaleLowerCase())),
  };
  matchers.set(key, matcher);
  return matcher;
}

/** The allergen words of free text, in order (the look-alikes of `except` left out). */
export function findAllergenWords(text: string, lang: Lang, wine: boolean): AllergenWordMatch[] {
  const { pattern, alternatives, except } = allergenMatcher(lang, wine);
  const found: AllergenWordMatch[] = [];
  for (const match of text.matchAll(pattern)) {
    if (except.has(match[0].toLocaleLowerCase())) continue;
    const group = match.findIndex((value, index) => index > 0 && value !== undefined);
    const alternative = alternatives[group - 1];
    if (!alternative) continue;
    found.push({ index: match.index, text: match[0], allergen: alternative.allergen, needsTerm: alternative.needsTerm });
  }
  return found;
}
