import { allergenContradiction, allergenContradictionMessage } from './labelling/allergen-consistency.ts';
import { freeTextMissingTerm, missingTermMessage, uncarriedAllergenFlag, uncarriedFlagMessage } from './labelling/free-text-allergens.ts';
import { energyMismatch, energyMismatchMessage, hasAtMostOneDecimal, isWholeOrHalfUnit, NEGLIGIBLE_FIELD, negligibleConflicts, orphanSubNutrient } from './nutrition.ts';
import type { PassportData } from './passport.ts';
import { isWine } from './wine.ts';

/**
 * The rules of wine and food passport data across fields that the schema does not make (the
 * document states them in words; docs/labelling.md), as refusals: the 422's param, message and
 * suggestion. lib/services/passports.ts throws them when publishing and saving drafts; an import
 * row reports them at their column (lib/services/imports.ts).
 */
export interface Refusal {
  param: string;
  message: string;
  suggestion: string;
}

/**
 * The figures: a nutrient listed in `negligible` twice, or with a value above its threshold
 * (Regulation (EU) No 1169/2011 Art. 34(5); naming the value, e.g. `data.nutrition.fatG`); an "of
 * which" value without its nutrient's row (saturates under a negligible fat: naming
 * `data.nutrition.saturatedFatG`; docs/labelling.md#the-nutrition-declaration); an `alcoholByVolume`
 * with more than one decimal place (Annex XII), or a wine's that is not in whole or half units (Reg.
 * (EU) 2019/33 Art. 44); a declared energy more than 20 % and 10 kJ from what the nutrients give
 * (docs/labelling.md#energy-and-rounding). `prefix` is where the data sits; `category` is the
 * product's, when known (lib/domain/wine.ts).
 */
export function nutritionRefusal(data: Pick<PassportData, 'nutrition' | 'productType' | 'alcoholByVolume'>, prefix = 'data', category?: string): Refusal | undefined {
  const at = (path: string) => `${prefix ? `${prefix}.` : ''}${path}`;
  const negligible = data.nutrition?.negligible ?? [];
  if (new Set(negligible).size !== negligible.length) {
    return { param: at('nutrition.negligible'), message: `${at('nutrition.negligible')} must not list a nutrient twice.`, suggestion: 'List each nutrient once.' };
  }
  const conflict = data.nutrition ? negligibleConflicts(data.nutrition)[0] : undefined;
  if (conflict) {
    return {
      param: at(`nutrition.${conflict.field}`),
      message: `${at(`nutrition.${conflict.field}`)} is ${conflict.value} g, above the ${conflict.threshold} g a negligible amount of ${conflict.nutrient} may have.`,
      suggestion: `Remove '${conflict.nutrient}' from negligible, or correct ${NEGLIGIBLE_FIELD[conflict.nutrient]}.`,
    };
  }
  const orphan = data.nutrition ? orphanSubNutrient(data.nutrition) : undefined;
  if (orphan) {
    return {
      param: at(`nutrition.${orphan.field}`),
      message: orphan.parentNegligible
        ? `${at(`nutrition.${orphan.field}`)} is given while ${orphan.parent} is listed in negligible: the declaration would show "of which ${orphan.nutrient}" under no ${orphan.parent} row (Regulation (EU) No 1169/2011 Annex XV).`
        : `${at(`nutrition.${orphan.field}`)} is given without ${orphan.parentField}: the declaration shows "of which ${orphan.nutrient}" only under its ${orphan.parent} row (Regulation (EU) No 1169/2011 Annex XV).`,
      suggestion: orphan.parentNegligible
        ? `List '${orphan.nutrient}' in negligible too (its amount must then be negligible), or give ${orphan.parentField} and remove '${orphan.parent}' from negligible.`
        : `Give ${orphan.parentField} (or list '${orphan.parent}' and '${orphan.nutrient}' in negligible), or remove ${orphan.field}.`,
    };
  }
  if (typeof data.alcoholByVolume === 'number' && !hasAtMostOneDecimal(data.alcoholByVolume)) {
    return { param: at('alcoholByVolume'), message: `${at('alcoholByVolume')} must have at most one decimal place (e.g. 12.5).`, suggestion: 'Round the strength to one decimal place.' };
  }
  if (typeof data.alcoholByVolume === 'number' && isWine(category, data.productType) && !isWholeOrHalfUnit(data.alcoholByVolume)) {
    return {
      param: at('alcoholByVolume'),
      message: `${at('alcoholByVolume')} of a wine is indicated in whole or half units (e.g. 12 or 12.5), not ${data.alcoholByVolume} (Regulation (EU) 2019/33 Art. 44).`,
      suggestion: 'Round the strength to the nearest half unit.',
    };
  }
  const mismatch = data.nutrition && energyMismatch(data.nutrition, data.productType, category);
  if (mismatch) {
    const { message, suggestion } = energyMismatchMessage(mismatch);
    return { param: at(`nutrition.${mismatch.field}`), message, suggestion };
  }
  return undefined;
}

/**
 * The allergens (docs/labelling.md#allergens-follow-the-ingredients): a vocabulary ingredient that
 * carries an allergen whose flag is not set; for a wine, free text naming a source of an allergen
 * without its term, and a flag that no ingredient of its list carries
 * (lib/domain/labelling/free-text-allergens.ts). `prefix` is where the data sits, or a function
 * naming a path as the client knows it (a webhook's payload, an import row's columns).
 */
export function allergenRefusal(
  data: Pick<PassportData, 'ingredients' | 'allergens' | 'productType' | 'labelLanguage'>,
  category?: string,
  prefix: string | ((path: string) => string) = 'data',
): Refusal | undefined {
  const contradiction = allergenContradiction(data, category);
  if (contradiction) return allergenContradictionMessage(contradiction, prefix);
  const missingTerm = freeTextMissingTerm(data, category);
  if (missingTerm) return missingTermMessage(missingTerm, prefix);
  const uncarried = uncarriedAllergenFlag(data, category);
  return uncarried ? uncarriedFlagMessage(uncarried, prefix) : undefined;
}
