import { describe, expect, it } from 'vitest';
import {
  alcoholGrams,
  completeEnergy,
  computableEnergy,
  energyMismatch,
  energyMismatchMessage,
  energyOf,
  roundEnergy,
  roundMacronutrient,
  roundSalt,
  roundSaturates,
} from '../../lib/domain/nutrition.ts';

describe('energy calculator (Regulation (EU) No 1169/2011 Annex XIV factors)', () => {
  it('12 % vol → 9.47 g alcohol → 275 kJ / 66 kcal', () => {
    // Prepare
    const grams = alcoholGrams(12);

    // Act
    const energy = energyOf({ alcoholG: grams });

    // Assess
    expect(grams).toBeCloseTo(9.468, 6);
    expect(roundEnergy(energy.kj).value).toBe(275); // 9.468 × 29 = 274.57
    expect(roundEnergy(energy.kcal).value).toBe(66); // 9.468 × 7 = 66.28
  });

  it('red wine: 2.6 g carbohydrate × 17 + 0.1 g protein × 17 + 10.4 g alcohol × 29 = 347.5 → 348 kJ; × 4, × 4, × 7 = 83.6 → 84 kcal', () => {
    // Act
    const energy = energyOf({ carbohydrateG: 2.6, proteinG: 0.1, fatG: 0, alcoholG: 10.4 });

    // Assess
    expect(energy.kj).toBeCloseTo(347.5, 9);
    expect(energy.kcal).toBeCloseTo(83.6, 9);
    expect(roundEnergy(energy.kcal).value).toBe(84);
  });

  it('10 g fat × 37 = 370 kJ, × 9 = 90 kcal', () => {
    expect(energyOf({ fatG: 10 })).toEqual({ kj: 370, kcal: 90 });
  });

  it('5 g organic acid × 13 = 65 kJ, × 3 = 15 kcal; 10 g polyols × 10 = 100 kJ, × 2.4 = 24 kcal', () => {
    expect(energyOf({ organicAcidG: 5 })).toEqual({ kj: 65, kcal: 15 });
    const polyols = energyOf({ polyolsG: 10 });
    expect(polyols.kj).toBe(100);
    expect(polyols.kcal).toBeCloseTo(24, 9);
  });

  it('a wine without alcohol in grams gives no computed energy (its energy is mostly alcohol); food with alcoholG 0 does', () => {
    const macros = { fatG: 0.2, carbohydratesG: 5.1, proteinG: 1.4 };
    expect(computableEnergy(macros, 'wine')).toBeUndefined();
    expect(computableEnergy(macros)).toBeUndefined();
    expect(computableEnergy(macros, 'food')?.kj).toBeCloseTo(117.9, 9); // 0.2 × 37 + 5.1 × 17 + 1.4 × 17
    expect(computableEnergy({ ...macros, alcoholG: 0 })?.kj).toBeCloseTo(117.9, 9);
    expect(computableEnergy({ carbohydratesG: 5, alcoholG: 10 }, 'wine')).toBeUndefined(); // fat and protein missing
  });
});

describe('energy on publish', () => {
  it('no energy given: 347.5 kJ / 83.6 kcal stored as 348 kJ / 84 kcal, marked energyCalculated', () => {
    // Act
    const nutrition = completeEnergy({ fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4, sugarsG: 0.6 }, 'wine');

    // Assess
    expect(nutrition).toEqual({ fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4, sugarsG: 0.6, energyKj: 348, energyKcal: 84, energyCalculated: true });
  });

  it('a declared value is kept as declared, and a stale energyCalculated flag is dropped with it', () => {
    expect(completeEnergy({ energyKj: 318, fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4 })).toEqual({
      energyKj: 318,
      fatG: 0,
      carbohydratesG: 2.6,
      proteinG: 0.1,
      alcoholG: 10.4,
    });
  });

  it('figures the service computed before are computed again from the (changed) nutrients', () => {
    const republished = completeEnergy({ energyKj: 348, energyKcal: 84, energyCalculated: true, fatG: 10, carbohydratesG: 0, proteinG: 0, alcoholG: 0 });
    expect(republished).toEqual({ fatG: 10, carbohydratesG: 0, proteinG: 0, alcoholG: 0, energyKj: 370, energyKcal: 90, energyCalculated: true });
  });

  it('too few nutrients to compute: the nutrition is stored as given', () => {
    expect(completeEnergy({ sugarsG: 10.25, fatG: 0 })).toEqual({ sugarsG: 10.25, fatG: 0 });
  });
});

describe('declared energy against the computed value (more than 20 % and more than 10 kJ apart is refused)', () => {
  const wine = { fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4 }; // 347.5 kJ

  it('kcal typed as kJ: 84 declared vs 347.5 computed (76 % and 263.5 kJ off) → refused on energyKj', () => {
    expect(energyMismatch({ ...wine, energyKj: 84 })).toEqual({ declaredKj: 84, computedKj: 347.5, field: 'energyKj' });
  });

  it('answers in the unit the figure was typed in: kcal typed → the message in kcal', () => {
    // Prepare: 348 typed as kcal (a kJ figure in the kcal field) against 83 kcal computed.
    const mismatch = energyMismatch({ ...wine, energyKcal: 348 });
    // Act
    const { message } = energyMismatchMessage(mismatch!);
    // Assess
    expect(message).toBe('energyKcal disagrees with the nutrients: they give 83 kcal, the declared value is 348 kcal (more than 20 % and 10 kJ apart).');
    expect(energyMismatchMessage(energyMismatch({ ...wine, energyKj: 84 })!).message).toContain('they give 348 kJ, the declared value is 84 kJ');
  });

  it('a laboratory value 318 vs 347.5 computed (8.5 % off) → kept', () => {
    expect(energyMismatch({ ...wine, energyKj: 318 })).toBeUndefined();
  });

  it('at the edge: 278 kJ (69.5 kJ = 20.0 % under 347.5) kept, 277 kJ (20.3 %) refused', () => {
    expect(energyMismatch({ ...wine, energyKj: 278 })).toBeUndefined();
    expect(energyMismatch({ ...wine, energyKj: 277 })?.field).toBe('energyKj');
  });

  it('small values: 29 kJ declared vs 18.7 computed (55 % but only 10.3 kJ off) refused; 28 kJ (9.3 kJ off) kept', () => {
    const light = { fatG: 0, carbohydratesG: 1.1, proteinG: 0, alcoholG: 0 }; // 1.1 × 17 = 18.7 kJ
    expect(energyMismatch({ ...light, energyKj: 29 })?.field).toBe('energyKj');
    expect(energyMismatch({ ...light, energyKj: 28 })).toBeUndefined();
  });

  it('a kcal figure that disagrees (348 kcal typed for 348 kJ) → refused on energyKcal', () => {
    expect(energyMismatch({ ...wine, energyKcal: 348 })?.field).toBe('energyKcal');
    expect(energyMismatch({ ...wine, energyKcal: 83 })).toBeUndefined();
  });

  it('nothing to compare when the nutrients do not suffice (no alcohol for a wine)', () => {
    expect(energyMismatch({ fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, energyKj: 318 }, 'wine')).toBeUndefined();
  });
});

describe('display rounding (Commission guidance on tolerances, 2012)', () => {
  it('energy: 274.5 kJ → 275, 66.28 kcal → 66', () => {
    expect(roundEnergy(274.5).value).toBe(275);
    expect(roundEnergy(66.28).value).toBe(66);
  });

  it('fat, carbohydrate, sugars, protein: 10 g → 10, 12.6 → 13 (1 g); 9.96 → 10.0, 0.56 → 0.6 (0.1 g); 0.51 → 0.5; 0.5 and under → "0"', () => {
    expect(roundMacronutrient(10)).toEqual({ value: 10, decimals: 0 });
    expect(roundMacronutrient(12.6)).toEqual({ value: 13, decimals: 0 });
    expect(roundMacronutrient(9.96)).toEqual({ value: 10, decimals: 1 });
    expect(roundMacronutrient(0.56)).toEqual({ value: 0.6, decimals: 1 });
    expect(roundMacronutrient(0.51)).toEqual({ value: 0.5, decimals: 1 });
    expect(roundMacronutrient(0.5)).toEqual({ value: 0, decimals: 0 });
    expect(roundMacronutrient(0.49)).toEqual({ value: 0, decimals: 0 });
  });

  it('saturates: 10.4 → 10 (1 g); 9.94 → 9.9, 0.15 → 0.2 (0.1 g); 0.1 and under → "0"', () => {
    expect(roundSaturates(10.4)).toEqual({ value: 10, decimals: 0 });
    expect(roundSaturates(9.94)).toEqual({ value: 9.9, decimals: 1 });
    expect(roundSaturates(0.15)).toEqual({ value: 0.2, decimals: 1 });
    expect(roundSaturates(0.1)).toEqual({ value: 0, decimals: 0 });
    expect(roundSaturates(0.09)).toEqual({ value: 0, decimals: 0 });
  });

  it('salt: 1 → 1.0, 1.26 → 1.3 (0.1 g); 0.994 → 0.99, 0.013 → 0.01 (0.01 g); 0.0125 and under → "0"', () => {
    expect(roundSalt(1)).toEqual({ value: 1, decimals: 1 });
    expect(roundSalt(1.26)).toEqual({ value: 1.3, decimals: 1 });
    expect(roundSalt(0.994)).toEqual({ value: 0.99, decimals: 2 });
    expect(roundSalt(0.013)).toEqual({ value: 0.01, decimals: 2 });
    expect(roundSalt(0.0125)).toEqual({ value: 0, decimals: 0 });
    expect(roundSalt(0.01)).toEqual({ value: 0, decimals: 0 });
  });
});
