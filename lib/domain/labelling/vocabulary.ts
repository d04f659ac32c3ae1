import vocabulary from './vocabulary.json' with { type: 'json' };
import type { Evidence } from './evidence-levels.ts';
import type { Lang } from './languages.ts';

/**
 * The ingredient vocabulary (lib/domain/labelling/vocabulary.json; sources in docs/labelling.md):
 * wine ingredients and additives with their category (acidity regulator, preservative, …), their
 * E-number where one exists, the allergen they carry, and their name in the 24 languages. Passport
 * ingredients may name an entry by its code (docs/api.md#passport-data). No npm imports.
 */

export type Allergen = 'sulphites' | 'egg' | 'milk' | 'fish';

/**
 * The evidence of an entry's names, one group per level and source with the languages it covers
 * (docs/labelling.md#evidence): each of the 24 languages in exactly one group
 * (test/unit/labelling-evidence.test.ts).
 */
export interface EvidenceGroup extends Evidence {
  langs: Lang[];
}

export interface VocabularyCategory {
  id: string;
  names: Record<Lang, string>;
  /** The rule the category comes from (docs/labelling.md#sources). */
  source: string;
  evidence: EvidenceGroup[];
}

export interface VocabularyIngredient {
  code: string;
  category: string | null;
  eNumber: string | null;
  allergen: Allergen | null;
  /**
   * The name itself is a term of Annex I Part A of Reg. (EU) 2019/33 (sulphur dioxide, egg lysozyme,
   * egg albumin, milk casein, milk protein): the page prints it in bold as it is. An entry with an
   * allergen but without this flag (potassium metabisulphite) is followed by the Annex term in
   * parentheses: "potassium metabisulphite (**sulphites**)".
   */
  annexTerm?: boolean;
  /** Why an entry is as it is (isinglass: not an allergen in wine, Reg. (EU) No 1169/2011 Annex II point 4(b)). */
  note?: string;
  names: Record<Lang, string>;
  /** The rule the name comes from (docs/labelling.md#sources). */
  source: string;
  evidence: EvidenceGroup[];
}

interface VocabularyFile {
  categories: VocabularyCategory[];
  ingredients: VocabularyIngredient[];
}

const data = vocabulary as unknown as VocabularyFile;

export const VOCABULARY_CATEGORIES: readonly VocabularyCategory[] = data.categories;
export const VOCABULARY_INGREDIENTS: readonly VocabularyIngredient[] = data.ingredients;

const ingredients = new Map(data.ingredients.map((entry) => [entry.code, entry]));
const categories = new Map(data.categories.map((entry) => [entry.id, entry]));

/** The vocabulary entry of a code, or undefined for a code the vocabulary does not know. */
export const ingredientByCode = (code: string): VocabularyIngredient | undefined => ingredients.get(code);

/** A category by its id. */
export const categoryById = (id: string): VocabularyCategory | undefined => categories.get(id);

/** The evidence of an entry's name in one language (the platform's own wording when no group names the language). */
export function nameEvidence(entry: VocabularyCategory | VocabularyIngredient, lang: Lang): Evidence {
  const group = entry.evidence.find((candidate) => candidate.langs.includes(lang));
  if (group === undefined) return { level: 'unconfirmed', source: 'platform' };
  return { level: group.level, source: group.source, ...(group.note === undefined ? {} : { note: group.note }) };
}

/** One entry as `GET /v1/vocabulary/ingredients` lists it: its category inlined with its names. */
export interface VocabularyListEntry {
  code: string;
  category: { id: string; names: Record<Lang, string> } | null;
  eNumber: string | null;
  allergen: Allergen | null;
  names: Record<Lang, string>;
}

export function vocabularyList(): VocabularyListEntry[] {
  return data.ingredients.map((entry) => {
    const category = entry.category === null ? undefined : categoryById(entry.category);
    return {
      code: entry.code,
      category: category ? { id: category.id, names: category.names } : null,
      eNumber: entry.eNumber,
      allergen: entry.allergen,
      names: entry.names,
    };
  });
}
