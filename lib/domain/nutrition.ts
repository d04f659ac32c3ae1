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
 * The energy the nutrients of a passport give, or undefined when they do not say enough: fat,
 * carbohydrate and protein must all be given, and alcohol too unless the product is known not to
 * be wine (a wine's energy is mostly its alcohol; a wine label seldom states alcohol in grams).
 * Food without alcohol may give `alcoholG: 0`.
 */
export function computableEnergy(nutrition: NutritionInput, productType?: string): { kj: number; kcal: number } | undefined {
  if (!given(nutrition.fatG) || !given(nutrition.carbohydratesG) || !given(nutrition.proteinG)) return undefined;
  if (!given(nutrition.alcoholG) && (productType === undefined || productType === 'wine')) return undefined;
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
export function energyMismatch(nutrition: NutritionInput, productType?: string): EnergyCheck | undefined {
  if (nutrition.energyCalculated === true) return undefined; // recomputed on publish anyway
  const computed = computableEnergy(nutrition, productType);
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
  const kj = (value: number) => `${Math.round(value)} kJ`;
  return {
    message: `${mismatch.field} disagrees with the nutrients: they give ${kj(mismatch.computedKj)}, the declared value is ${kj(mismatch.declaredKj)} (more than 20 % and 10 kJ apart).`,
    suggestion: 'Check the figure for a kcal value typed as kJ or a misplaced decimal, or leave energy out to have it computed.',
  };
}

/**
 * The nutrition as it is stored on publish: when it gives no energy figure (or only figures the
 * service computed before) and the nutrients suffice, `energyKj` and `energyKcal` computed and
 * rounded to whole units, with `energyCalculated: true`. A declared figure is kept as declared
 * (the page derives a missing unit from it, 1 kcal = 4.184 kJ).
 */
export function completeEnergy<T extends NutritionInput>(nutrition: T, productType?: string): T {
  const recompute = nutrition.energyCalculated === true;
  const hasKj = given(nutrition.energyKj) && !recompute;
  const hasKcal = given(nutrition.energyKcal) && !recompute;
  if (hasKj || hasKcal) {
    const { energyCalculated: _dropped, ...declared } = nutrition;
    return declared as T;
  }
  const { energyKj: _kj, energyKcal: _kcal, energyCalculated: _flag, ...rest } = nutrition;
  const computed = computableEnergy(nutrition, productType);
  if (!computed) return rest as T;
  return { ...rest, energyKj: Math.round(computed.kj), energyKcal: Math.round(computed.kcal), energyCalculated: true } as T;
}

/** Passport data with its energy completed on publish (completeEnergy); data without nutrition unchanged. */
export function withComputedEnergy<T extends { nutrition?: NutritionInput | undefined; productType?: string | undefined }>(data: T): T {
  if (!data.nutrition || typeof data.nutrition !== 'object') return data;
  return { ...data, nutrition: completeEnergy(data.nutrition, data.productType) };
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
