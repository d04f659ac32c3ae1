import { describe, expect, it } from 'vitest';
import { ALLERGEN_ENTRIES, ALLERGEN_FLAGS, allergenContradiction, allergenContradictionMessage, requiredAllergens } from '../../lib/domain/labelling/allergen-consistency.ts';
import { VOCABULARY_INGREDIENTS } from '../../lib/domain/labelling/vocabulary.ts';

describe('allergens follow the ingredients (docs/labelling.md#allergens-follow-the-ingredients)', () => {
  it('knows exactly the vocabulary entries that carry an allergen, with their allergen and English name', () => {
    // Prepare
    const fromVocabulary = Object.fromEntries(
      VOCABULARY_INGREDIENTS.filter((entry) => entry.allergen !== null).map((entry) => [entry.code, { allergen: entry.allergen, name: entry.names.en }]),
    );

    // Act
    const known = { ...ALLERGEN_ENTRIES };

    // Assess
    expect(known, 'an entry of vocabulary.json gained or lost an allergen: list it in lib/domain/labelling/allergen-consistency.ts too').toEqual(fromVocabulary);
    expect(ALLERGEN_ENTRIES.isinglass).toBeUndefined();
  });

  it('finds sulphur dioxide without containsSulphites, and names the flag and the ingredient', () => {
    // Prepare
    const data = { productType: 'wine', ingredients: ['Grapes', { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }], allergens: { containsSulphites: false } };

    // Act
    const found = allergenContradiction(data, 'wine');
    const { param, message } = allergenContradictionMessage(found!);
    const row = allergenContradictionMessage(found!, 'passport');

    // Assess
    expect(found).toMatchObject({ flag: 'containsSulphites', index: 2, code: 'sulphur-dioxide', name: 'sulphur dioxide' });
    expect(param).toBe('data.allergens.containsSulphites');
    expect(message).toContain('data.ingredients[2] "sulphur dioxide"');
    expect(row.param).toBe('passport.allergens.containsSulphites');
  });

  it('accepts the flag set, free text that mentions an allergen, and entries without one', () => {
    // Prepare
    const cases = [
      { ingredients: [{ code: 'potassium-metabisulphite' }, { code: 'egg-albumin' }], allergens: { containsSulphites: true, containsEgg: true } },
      { ingredients: ['Preservative: sulphites', { text: { en: 'milk' } }] },
      { ingredients: [{ code: 'grapes' }, { code: 'isinglass' }] },
    ];

    // Act
    const found = cases.map((data) => allergenContradiction(data, 'wine'));

    // Assess
    expect(found).toEqual([undefined, undefined, undefined]);
  });

  it('lists every flag the ingredients require, in their order, with each allergen mapped to its flag', () => {
    // Act
    const required = requiredAllergens({ ingredients: [{ code: 'casein' }, 'water', { code: 'lysozyme' }, { code: 'sulphur-dioxide' }] });

    // Assess
    expect(required.map((r) => [r.flag, r.index])).toEqual([
      ['containsMilk', 0],
      ['containsEgg', 2],
      ['containsSulphites', 3],
    ]);
    expect(ALLERGEN_FLAGS).toEqual({ sulphites: 'containsSulphites', egg: 'containsEgg', milk: 'containsMilk', fish: 'containsFish' });
  });
});
