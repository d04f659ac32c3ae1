import { isWine } from './wine.ts';

/**
 * The energy calculator and the display rounding of the nutrition declaration, as plain
 * functions (no npm imports: the dashboard uses them too). The conversion factors are those of
 * Regulation (EU) No 1169/2011, Annex XIV; the rounding rules are those of the Commission's
 * guidance document on tolerances (December 2012). Sources and the choices made here:
 * docs/labelling.md#energy-and-rounding.
 */

/** Energy conversion factors per gram (Regulation (EU) No 1169/2011, Annex XIV). */
export const ENERGY_FACTORS = {
  carbohydrate: { kj: 17, kcal: 4 },
  protein: { kj: 17, kcal: 4 },
  fat: { kj: 37, kcal: 9 },
  alcohol: { kj: 29, kcal: 7 },
  organicAcid: { kj: 13, kcal: 3 },
  polyols: { kj: 10, kcal: 2.4 },
} as const;
export type EnergySource = keyof typeof ENERGY_FACTORS;

/** Density of ethanol, g/ml (at 20 °C), to turn % vol into grams per 100 ml. */
export const ETHANOL_DENSITY = 0.789;

/** A declared energy value is refused when it differs from the computed one by more than this share… */
export const ENERGY_MISMATCH_RATIO = 0.2;
/** …and by more than this many kJ (docs/labelling.md#energy-and-rounding). */
export const ENERGY_MISMATCH_KJ = 10;

/** The nutrition figures the calculator reads (grams per 100 ml or 100 g, as passport data has them). */
export interface NutritionInput {
  energyKj?: number | undefined;
  energyKcal?: number | undefined;
  fatG?: number | undefined;
  saturatedFatG?: number | undefined;
  carbohydratesG?: number | undefined;
  sugarsG?: number | undefined;
  proteinG?: number | undefined;
  saltG?: number | undefined;
  alcoholG?: number | undefined;
  /** Set by the service when it computed the energy figures (docs/labelling.md#energy-and-rounding). */
  energyCalculated?: boolean | undefined;
}

/** Grams of ethanol in 100 ml at `percentVol` % vol: % vol × 0.789 g/ml (12 % vol → 9.468 g). */
export function alcoholGrams(percentVol: number): number {
  return percentVol * ETHANOL_DENSITY;
}

export interface EnergyParts {
  carbohydrateG?: number | undefined;
  proteinG?: number | undefined;
  fatG?: number | undefined;
  alcoholG?: number | undefined;
  organicAcidG?: number | undefined;
  polyolsG?: number | undefined;
}

/** Energy in kJ and kcal, unrounded, from grams of each source (missing ones count as 0). */
export function energyOf(parts: EnergyParts): { kj: number; kcal: number } {
  const grams: Record<EnergySource, number> = {
    carbohydrate: parts.carbohydrateG ?? 0,
    protein: parts.proteinG ?? 0,
    fat: parts.fatG ?? 0,
    alcohol: parts.alcoholG ?? 0,
    organicAcid: parts.organicAcidG ?? 0,
    polyols: parts.polyolsG ?? 0,
  };
  let kj = 0;
  let kcal = 0;
  for (const source of Object.keys(ENERGY_FACTORS) as EnergySource[]) {
    kj += grams[source] * ENERGY_FACTORS[source].kj;
    kcal += grams[source] * ENERGY_FACTORS[source].kcal;
  }
  return { kj, kcal };
}

const given = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Whether the energy calculator must count on alcohol: the product is a wine (lib/domain/wine.ts,
 * by its category or productType), or nothing says what it is (the calculator's requests without
 * productType, docs/labelling.md#energy-and-rounding).
 */
const mayBeWine = (productType: string | undefined, category: string | undefined): boolean =>
  (productType === undefined && category === undefined) || isWine(category, productType);

/**
 * The energy the nutrients of a passport give, or undefined when they do not say enough: fat,
 * carbohydrate and protein must all be given, and alcohol too unless the product is known not to
 * be wine (a wine's energy is mostly its alcohol; a wine label seldom states alcohol in grams).
 * Food without alcohol may give `alcoholG: 0`. `category` is the product's, when known.
 */
export function computableEnergy(nutrition: NutritionInput, productType?: string, category?: string): { kj: number; kcal: number } | undefined {
  if (!given(nutrition.fatG) || !given(nutrition.carbohydratesG) || !given(nutrition.proteinG)) return undefined;
  if (!given(nutrition.alcoholG) && mayBeWine(productType, category)) return undefined;
  return energyOf({ fatG: nutrition.fatG, carbohydrateG: nutrition.carbohydratesG, proteinG: nutrition.proteinG, alcoholG: nutrition.alcoholG });
}

/**
 * Whether a declared kJ value differs clearly from the computed one: more than 20 % and more than
 * 10 kJ apart (a kcal figure typed as kJ, a misplaced decimal). Within that band the declared
 * value stands: laboratory values differ from calculated ones.
 */
export function energyDisagrees(declaredKj: number, computedKj: number): boolean {
  const difference = Math.abs(declaredKj - computedKj);
  return difference > ENERGY_MISMATCH_KJ && difference > ENERGY_MISMATCH_RATIO * computedKj;
}

/** kJ per kcal (the thermochemical calorie), to derive the one energy unit from the other. */
export const KJ_PER_KCAL = 4.184;

export interface EnergyCheck {
  /** The declared figure (kJ, or kcal converted) that disagrees, and what the nutrients give. */
  declaredKj: number;
  computedKj: number;
  field: 'energyKj' | 'energyKcal';
}

/** The declared energy figure that disagrees clearly with the nutrients, if any (undefined when none or nothing to compare). */
export function energyMismatch(nutrition: NutritionInput, productType?: string, category?: string): EnergyCheck | undefined {
  if (nutrition.energyCalculated === true) return undefined; // recomputed on publish anyway
  const computed = computableEnergy(nutrition, productType, category);
  if (!computed) return undefined;
  if (given(nutrition.energyKj) && energyDisagrees(nutrition.energyKj, computed.kj)) {
    return { declaredKj: nutrition.energyKj, computedKj: computed.kj, field: 'energyKj' };
  }
  if (given(nutrition.energyKcal) && energyDisagrees(nutrition.energyKcal * KJ_PER_KCAL, computed.kj)) {
    return { declaredKj: nutrition.energyKcal * KJ_PER_KCAL, computedKj: computed.kj, field: 'energyKcal' };
  }
  return undefined;
}

/** The sentence and suggestion of a 422 for a declared energy that disagrees with the nutrients. */
export function energyMismatchMessage(mismatch: EnergyCheck): { message: string; suggestion: string } {
  // In the unit the figure was typed in: a kcal figure is answered in kcal (issue 32: people's words).
  const inKcal = mismatch.field === 'energyKcal';
  const shown = (kj: number) => (inKcal ? `${Math.round(kj / KJ_PER_KCAL)} kcal` : `${Math.round(kj)} kJ`);
  return {
    message: `${mismatch.field} disagrees with the nutrients: they give ${shown(mismatch.computedKj)}, the declared value is ${shown(mismatch.declaredKj)} (more than 20 % and 10 kJ apart).`,
    suggestion: inKcal
      ? 'Check the figure for a kJ value typed as kcal or a misplaced decimal, or leave energy out to have it computed.'
      : 'Check the figure for a kcal value typed as kJ or a misplaced decimal, or leave energy out to have it computed.',
  };
}

/**
 * The nutrition as it is stored on publish: when it gives no energy figure (or only figures the
 * service computed before) and the nutrients suffice, `energyKj` and `energyKcal` computed and
 * rounded to whole units, with `energyCalculated: true`. A declared figure is kept as declared
 * (the page derives a missing unit: energyUnits).
 */
export function completeEnergy<T extends NutritionInput>(nutrition: T, productType?: string, category?: string): T {
  const recompute = nutrition.energyCalculated === true;
  const hasKj = given(nutrition.energyKj) && !recompute;
  const hasKcal = given(nutrition.energyKcal) && !recompute;
  if (hasKj || hasKcal) {
    const { energyCalculated: _dropped, ...declared } = nutrition;
    return declared as T;
  }
  const { energyKj: _kj, energyKcal: _kcal, energyCalculated: _flag, ...rest } = nutrition;
  const computed = computableEnergy(nutrition, productType, category);
  if (!computed) return rest as T;
  return { ...rest, energyKj: Math.round(computed.kj), energyKcal: Math.round(computed.kcal), energyCalculated: true } as T;
}

/** Passport data with its energy completed on publish (completeEnergy); data without nutrition unchanged. `category` is the product's. */
export function withComputedEnergy<T extends { nutrition?: NutritionInput | undefined; productType?: string | undefined }>(data: T, category?: string): T {
  if (!data.nutrition || typeof data.nutrition !== 'object') return data;
  return { ...data, nutrition: completeEnergy(data.nutrition, data.productType, category) };
}

/**
 * Energy in kJ and kcal as the declaration shows it (unrounded): the declared figures, and a unit
 * the producer left out computed from the nutrients with the Annex XIV factors of that unit
 * (Reg. (EU) No 1169/2011 Art. 31(1)) when they suffice (computableEnergy), else converted from the
 * other unit (1 kcal = 4.184 kJ). Undefined without any energy figure.
 */
export function energyUnits(nutrition: NutritionInput, productType?: string, category?: string): { kj: number; kcal: number } | undefined {
  const kj = given(nutrition.energyKj) ? nutrition.energyKj : undefined;
  const kcal = given(nutrition.energyKcal) ? nutrition.energyKcal : undefined;
  if (kj === undefined && kcal === undefined) return undefined;
  if (kj !== undefined && kcal !== undefined) return { kj, kcal };
  const computed = computableEnergy(nutrition, productType, category);
  return {
    kj: kj ?? computed?.kj ?? (kcal as number) * KJ_PER_KCAL,
    kcal: kcal ?? computed?.kcal ?? (kj as number) / KJ_PER_KCAL,
  };
}

// ---------------------------------------------------------------------------------------------
// Display rounding (Commission guidance document on tolerances, December 2012, section 4).

/** A rounded figure: the number to show and its decimals (0 with no decimals where the rule says to declare "0"). */
export type Rounded = { value: number; decimals: number };

const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
};

/** Energy: the nearest whole kJ or kcal. */
export function roundEnergy(value: number): Rounded {
  return { value: roundTo(value, 0), decimals: 0 };
}

/** Fat, carbohydrate, sugars, protein (and alcohol, which the guidance does not list): ≥ 10 g → 1 g; > 0.5 g → 0.1 g; ≤ 0.5 g → "0". */
export function roundMacronutrient(grams: number): Rounded {
  if (grams >= 10) return { value: roundTo(grams, 0), decimals: 0 };
  if (grams > 0.5) return { value: roundTo(grams, 1), decimals: 1 };
  return { value: 0, decimals: 0 };
}

/** Saturates: ≥ 10 g → 1 g; > 0.1 g → 0.1 g; ≤ 0.1 g → "0". */
export function roundSaturates(grams: number): Rounded {
  if (grams >= 10) return { value: roundTo(grams, 0), decimals: 0 };
  if (grams > 0.1) return { value: roundTo(grams, 1), decimals: 1 };
  return { value: 0, decimals: 0 };
}

/** Salt: ≥ 1 g → 0.1 g; > 0.0125 g → 0.01 g; ≤ 0.0125 g → "0". */
export function roundSalt(grams: number): Rounded {
  if (grams >= 1) return { value: roundTo(grams, 1), decimals: 1 };
  if (grams > 0.0125) return { value: roundTo(grams, 2), decimals: 2 };
  return { value: 0, decimals: 0 };
}

/** The rounding rule of each nutrition field shown in grams. */
export const GRAM_ROUNDING = {
  fatG: roundMacronutrient,
  saturatedFatG: roundSaturates,
  carbohydratesG: roundMacronutrient,
  sugarsG: roundMacronutrient,
  proteinG: roundMacronutrient,
  saltG: roundSalt,
  alcoholG: roundMacronutrient,
} as const;

// ---------------------------------------------------------------------------------------------
// The declaration's structure (Regulation (EU) No 1169/2011 Art. 30(1), Art. 34(5), Annex XV).

/** The nutrition fields of the mandatory declaration (Art. 30(1)), in Annex XV's order; energy is energyKj or energyKcal. */
export const DECLARATION_FIELDS = ['energyKj', 'fatG', 'saturatedFatG', 'carbohydratesG', 'sugarsG', 'proteinG', 'saltG'] as const;
export type DeclarationField = (typeof DECLARATION_FIELDS)[number];

/**
 * The nutrients a producer may declare as present in negligible amounts (Art. 34(5): "Contains
 * negligible amounts of …" replaces their rows), by their text key, with their field. Energy is
 * not among them. Carbohydrate and sugars are allowed too: the guidance document gives a
 * threshold for them as for the others (a dry wine may have ≤ 0.5 g sugars).
 */
export const NEGLIGIBLE_NUTRIENTS = ['fat', 'saturates', 'carbohydrate', 'sugars', 'protein', 'salt'] as const;
export type NegligibleNutrient = (typeof NEGLIGIBLE_NUTRIENTS)[number];

export const NEGLIGIBLE_FIELD: Readonly<Record<NegligibleNutrient, Exclude<DeclarationField, 'energyKj'>>> = {
  fat: 'fatG',
  saturates: 'saturatedFatG',
  carbohydrate: 'carbohydratesG',
  sugars: 'sugarsG',
  protein: 'proteinG',
  salt: 'saltG',
};

/**
 * The largest amount, in g per 100 g or 100 ml, that counts as negligible ("0" may be declared):
 * the Commission's guidance document for competent authorities on tolerances (December 2012),
 * as quoted by lebensmittelklarheit.de (a German consumer portal): SECONDARY, NOT CONFIRMED
 * against the guidance document itself. They agree with the "0" bands of the display rounding
 * above (roundMacronutrient, roundSaturates, roundSalt).
 */
export const NEGLIGIBLE_THRESHOLDS: Readonly<Record<NegligibleNutrient, number>> = {
  fat: 0.5,
  saturates: 0.1,
  carbohydrate: 0.5,
  sugars: 0.5,
  protein: 0.5,
  salt: 0.0125,
};

/** What the declaration rules read: the figures and the nutrients declared negligible. */
export interface DeclarationInput extends NutritionInput {
  negligible?: readonly string[] | undefined;
}

/**
 * The negligible nutrients whose given value exceeds the threshold (each with its field), in the
 * order of NEGLIGIBLE_NUTRIENTS: a nutrient may not be both negligible and above the threshold.
 */
export function negligibleConflicts(nutrition: DeclarationInput): { nutrient: NegligibleNutrient; field: string; value: number; threshold: number }[] {
  const declared = new Set(nutrition.negligible ?? []);
  const conflicts: { nutrient: NegligibleNutrient; field: string; value: number; threshold: number }[] = [];
  for (const nutrient of NEGLIGIBLE_NUTRIENTS) {
    if (!declared.has(nutrient)) continue;
    const field = NEGLIGIBLE_FIELD[nutrient];
    const value = nutrition[field];
    if (given(value) && value > NEGLIGIBLE_THRESHOLDS[nutrient]) conflicts.push({ nutrient, field, value, threshold: NEGLIGIBLE_THRESHOLDS[nutrient] });
  }
  return conflicts;
}

/**
 * What a wine passport's declaration lacks, as paths under `data` (`nutrition` when there is none,
 * else `nutrition.<field>` in Annex XV's order; energy as `nutrition.energyKj`, given by either
 * unit). A nutrient declared negligible is not missing. Only a wine must be complete (Reg. (EU) No
 * 1308/2013 Art. 119 as amended by 2021/2117): `wine` is lib/domain/wine.ts isWine of the
 * product's category and the data's productType; other products: nothing missing. Read it after
 * completeEnergy, so that energy computable from the nutrients counts as given.
 */
export function missingDeclaration(nutrition: DeclarationInput | undefined | null, wine: boolean): string[] {
  if (!wine) return [];
  if (!nutrition || typeof nutrition !== 'object') return ['nutrition'];
  const negligible = new Set(nutrition.negligible ?? []);
  const missing: string[] = [];
  for (const field of DECLARATION_FIELDS) {
    if (field === 'energyKj') {
      if (!given(nutrition.energyKj) && !given(nutrition.energyKcal)) missing.push('nutrition.energyKj');
      continue;
    }
    const nutrient = NEGLIGIBLE_NUTRIENTS.find((candidate) => NEGLIGIBLE_FIELD[candidate] === field);
    if (!given(nutrition[field]) && !(nutrient && negligible.has(nutrient))) missing.push(`nutrition.${field}`);
  }
  return missing;
}

/** The sub-rows of the declaration ("of which"), each with the nutrient it stands under (Annex XV). */
export const SUB_NUTRIENTS = { saturates: 'fat', sugars: 'carbohydrate' } as const satisfies Partial<Record<NegligibleNutrient, NegligibleNutrient>>;

/**
 * The first "of which" value that would stand under no row of its nutrient (docs/labelling.md#the-nutrition-declaration):
 * saturates or sugars given (and not themselves negligible) while fat or carbohydrate is declared
 * negligible, or not given at all. Publishing refuses it with a 422 naming the sub-row's field; the
 * page never shows such a row.
 */
export function orphanSubNutrient(nutrition: DeclarationInput): { field: string; nutrient: NegligibleNutrient; parent: NegligibleNutrient; parentField: string; parentNegligible: boolean } | undefined {
  const negligible = new Set(nutrition.negligible ?? []);
  for (const [nutrient, parent] of Object.entries(SUB_NUTRIENTS) as [NegligibleNutrient, NegligibleNutrient][]) {
    const field = NEGLIGIBLE_FIELD[nutrient];
    const parentField = NEGLIGIBLE_FIELD[parent];
    if (!given(nutrition[field]) || negligible.has(nutrient)) continue;
    if (negligible.has(parent)) return { field, nutrient, parent, parentField, parentNegligible: true };
    if (!given(nutrition[parentField])) return { field, nutrient, parent, parentField, parentNegligible: false };
  }
  return undefined;
}

/**
 * A wine's actual alcoholic strength is indicated "in percentage units or half units" (Reg. (EU)
 * 2019/33 Art. 44, first paragraph; docs/labelling.md#the-nutrition-declaration): 12 and 12.5, not
 * 12.3. Float-safe.
 */
export function isWholeOrHalfUnit(value: number): boolean {
  return Math.abs(value * 2 - Math.round(value * 2)) < 1e-9;
}

/**
 * One decimal place at most (Annex XII: "to not more than one decimal place"), float-safe: 12.3
 * and 0.1 × 3 pass, 12.25 does not, nor a tiny non-zero figure such as 2e-323 (which would round
 * to 0, and which DynamoDB cannot store: found by the contract fuzz).
 */
export function hasAtMostOneDecimal(value: number): boolean {
  const tenths = Math.round(value * 10);
  return Math.abs(value * 10 - tenths) < 1e-9 && (tenths !== 0 || value === 0);
}
