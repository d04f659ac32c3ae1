import type { IngredientCode } from './codes.ts';

/**
 * The vocabulary entries that are processing aids, not ingredients (docs/labelling.md#processing-aids):
 * the fining agents. Reg. (EU) No 1169/2011 Art. 20 does not require processing aids in the list of
 * ingredients, except those that cause allergies (Art. 21; for wine Reg. (EU) 2019/33 Art. 41(1) with
 * the terms of its Annex I Part A). The e-label lists the allergenic ones after the additives and leaves
 * the others (isinglass) out unless the passport's `listNonAllergenicProcessingAids` asks for them.
 * test/unit/allergen-consistency.test.ts holds the set to the vocabulary's fining agents. No imports but a type.
 */
export const PROCESSING_AID_CODES: ReadonlySet<IngredientCode> = new Set<IngredientCode>(['egg-albumin', 'casein', 'milk-protein', 'isinglass']);

export const isProcessingAid = (code: string): boolean => PROCESSING_AID_CODES.has(code as IngredientCode);
