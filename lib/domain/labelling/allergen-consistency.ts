import type { AllergenField } from '../enums.ts';
import type { IngredientCode } from './codes.ts';
import type { Allergen } from './vocabulary.ts';

/**
 * Allergens follow the ingredients (docs/labelling.md#allergens-follow-the-ingredients): an entry
 * of the ingredient vocabulary that carries an allergen requires the passport's matching allergen
 * flag, so that the dashboard's summary ("Allergens: …") and the e-label (which prints the entry in
 * bold) cannot disagree. Publishing data that names such an entry without its flag is refused with
 * a 422 naming the flag (lib/services/passports.ts, lib/services/imports.ts, lib/services/ingest.ts);
 * the dashboard's form ticks the flag itself. Only vocabulary entries count: free text is the
 * producer's own wording. No imports but types: the dashboard uses it too, and passport
 * validation must not bundle the vocabulary's names in 24 languages (docs/decisions.md).
 */

/** The passport allergen flag of each allergen the vocabulary names. */
export const ALLERGEN_FLAGS: Readonly<Record<Allergen, AllergenField>> = {
  sulphites: 'containsSulphites',
  egg: 'containsEgg',
  milk: 'containsMilk',
  fish: 'containsFish',
};

/**
 * The vocabulary entries that carry an allergen, with their English name, as
 * lib/domain/labelling/vocabulary.json has them (test/unit/allergen-consistency.test.ts holds the
 * two equal). Isinglass is not here: fish gelatine and isinglass used as fining agents in wine are
 * exempt (Reg. (EU) No 1169/2011 Annex II point 4(b); docs/labelling.md#fish-and-wine).
 */
export const ALLERGEN_ENTRIES: Readonly<Partial<Record<IngredientCode, { allergen: Allergen; name: string }>>> = {
  'sulphur-dioxide': { allergen: 'sulphites', name: 'sulphur dioxide' },
  'potassium-bisulphite': { allergen: 'sulphites', name: 'potassium bisulphite' },
  'potassium-metabisulphite': { allergen: 'sulphites', name: 'potassium metabisulphite' },
  lysozyme: { allergen: 'egg', name: 'egg lysozyme' },
  'egg-albumin': { allergen: 'egg', name: 'egg albumin' },
  casein: { allergen: 'milk', name: 'milk casein' },
  'milk-protein': { allergen: 'milk', name: 'milk protein' },
};

/** One vocabulary ingredient that requires an allergen flag. */
export interface RequiredAllergen {
  flag: AllergenField;
  allergen: Allergen;
  /** Its position in `ingredients`. */
  index: number;
  code: string;
  /** Its English name ("sulphur dioxide"). */
  name: string;
}

/** What the rule reads of passport data (loosely typed: the dashboard's form state passes too). */
export interface AllergenInput {
  productType?: string | undefined;
  ingredients?: readonly unknown[] | undefined;
  allergens?: Partial<Record<string, unknown>> | undefined;
}

const codeOf = (ingredient: unknown): string | undefined =>
  ingredient !== null && typeof ingredient === 'object' && typeof (ingredient as { code?: unknown }).code === 'string' ? (ingredient as { code: string }).code : undefined;

/**
 * Every flag the data's vocabulary ingredients require, in the order of the ingredients. A fish
 * entry never requires a wine's fish flag (Annex II point 4(b)): a wine is `category` or
 * `productType` "wine".
 */
export function requiredAllergens(data: AllergenInput, category?: string): RequiredAllergen[] {
  const wine = category === 'wine' || data.productType === 'wine';
  const required: RequiredAllergen[] = [];
  for (const [index, ingredient] of (data.ingredients ?? []).entries()) {
    const code = codeOf(ingredient);
    const entry = code === undefined || !Object.hasOwn(ALLERGEN_ENTRIES, code) ? undefined : ALLERGEN_ENTRIES[code as IngredientCode];
    if (!entry || code === undefined || (entry.allergen === 'fish' && wine)) continue;
    required.push({ flag: ALLERGEN_FLAGS[entry.allergen], allergen: entry.allergen, index, code, name: entry.name });
  }
  return required;
}

/** The first vocabulary ingredient whose allergen flag is not set to true, if any. */
export function allergenContradiction(data: AllergenInput, category?: string): RequiredAllergen | undefined {
  return requiredAllergens(data, category).find((required) => data.allergens?.[required.flag] !== true);
}

/**
 * The 422's param, message and suggestion, naming the flag and the ingredient. `at` names a path
 * of the data as the caller's client knows it: a prefix (`data` for the API, `passport` for an
 * import row's columns) or a function (a webhook names the payload's own fields).
 */
export function allergenContradictionMessage(required: RequiredAllergen, at: string | ((path: string) => string) = 'data'): { param: string; message: string; suggestion: string } {
  const name = typeof at === 'function' ? at : (path: string) => (at ? `${at}.${path}` : path);
  const param = name(`allergens.${required.flag}`);
  return {
    param,
    message: `${param} must be true: ${name(`ingredients[${required.index}]`)} "${required.name}" (code ${required.code}) contains ${required.allergen}, which the e-label emphasises.`,
    suggestion: `Set ${required.flag} to true, or remove "${required.name}" from the ingredients.`,
  };
}
