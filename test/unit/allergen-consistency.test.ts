import { describe, expect, it } from 'vitest';
import { ALLERGEN_ENTRIES, ALLERGEN_FLAGS, allergenContradiction, allergenContradictionMessage, requiredAllergens } from '../../lib/domain/labelling/allergen-consistency.ts';
import { VOCABULARY_INGREDIENTS } from '../../lib/domain/labelling/vocabulary.ts';
import { carriedAllergens, freeTextMissingTerm, missingTermMessage, uncarriedAllergenFlag, uncarriedFlagMessage } from '../../lib/domain/labelling/free-text-allergens.ts';
import { isProcessingAid, PROCESSING_AID_CODES } from '../../lib/domain/labelling/processing-aids.ts';

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

describe('a wine\'s free text carries its allergen terms, and every flag an ingredient (docs/labelling.md#free-text-allergens)', () => {
  it.each([
    ['E 220', 'E 220', 'sulphites'],
    ['E228', 'E228', 'sulphites'],
    ['potassium metabisulphite', 'metabisulphite', 'sulphites'],
    ['Kaliumdisulfit', 'Kaliumdisulfit', 'sulphites'],
    ['metabisolfito di potassio', 'metabisolfito', 'sulphites'],
    ['lysozyme', 'lysozyme', 'egg'],
    ['E 1105', 'E 1105', 'egg'],
    ['Kasein', 'Kasein', 'milk'],
    ['caseína', 'caseína', 'milk'],
  ])('free text %j without its term is found: %j, %s', (text, word, allergen) => {
    // Act
    const found = freeTextMissingTerm({ productType: 'wine', ingredients: ['grapes', text] });

    // Assess
    expect(found).toMatchObject({ path: 'ingredients[1]', word, allergen });
    expect(missingTermMessage(found!).param).toBe('data.ingredients[1]');
  });

  it.each([
    'E 220 (sulphites)',
    'sulphur dioxide (E 220)',
    'Kaliumdisulfit (Sulfite)',
    'egg lysozyme',
    'Lysozym aus Ei',
    'caseína de leche',
    'oak chips',
    'Milchsäure',
  ])('free text %j passes', (text) => {
    expect(freeTextMissingTerm({ productType: 'wine', ingredients: [text] })).toBeUndefined();
  });

  it('names a translation by its language, and leaves products that are no wine alone', () => {
    // Act
    const found = freeTextMissingTerm({ ingredients: [{ text: { en: 'sulphites', de: 'E 220' } }] }, 'wine');

    // Assess
    expect(found?.path).toBe('ingredients[0].text.de');
    expect(freeTextMissingTerm({ productType: 'food', ingredients: ['E 220'] }, 'food')).toBeUndefined();
  });

  it('a flag no ingredient of a wine\'s list carries is found; a vocabulary entry or free text with the term carries it; no list, no rule', () => {
    // Prepare
    const flags = { containsSulphites: true, containsEgg: true, containsMilk: true };

    // Act
    const uncarried = uncarriedAllergenFlag({ productType: 'wine', ingredients: [{ code: 'grapes' }, { code: 'sulphur-dioxide' }], allergens: flags });
    const carried = uncarriedAllergenFlag({ productType: 'wine', ingredients: [{ code: 'sulphur-dioxide' }, 'egg white (egg)', { text: { de: 'Kasein aus Milch' } }], allergens: flags });

    // Assess
    expect(uncarried).toEqual({ flag: 'containsEgg', allergen: 'egg' });
    expect(uncarriedFlagMessage(uncarried!).param).toBe('data.allergens.containsEgg');
    expect(carried).toBeUndefined();
    expect(uncarriedAllergenFlag({ productType: 'wine', allergens: flags })).toBeUndefined();
    expect(uncarriedAllergenFlag({ productType: 'food', ingredients: ['water'], allergens: flags }, 'food')).toBeUndefined();
    expect([...carriedAllergens({ ingredients: [{ code: 'casein' }, 'E 220'] }, 'wine')].sort()).toEqual(['milk', 'sulphites']);
  });
});

describe('processing aids (docs/labelling.md#processing-aids)', () => {
  it('are the vocabulary\'s fining agents, each with a note saying so', () => {
    // Prepare
    const fining = VOCABULARY_INGREDIENTS.filter((entry) => entry.note?.startsWith('Fining agent')).map((entry) => entry.code);

    // Assess
    expect([...PROCESSING_AID_CODES].sort()).toEqual([...fining].sort());
    expect(isProcessingAid('isinglass')).toBe(true);
    expect(isProcessingAid('lysozyme')).toBe(false); // an additive of Table 2's preservatives and antioxidants (E 1105)
  });
});
