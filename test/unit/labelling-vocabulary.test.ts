import { describe, expect, it } from 'vitest';
import { INGREDIENT_CODES, SUBSTITUTABLE_CATEGORIES, SUBSTITUTABLE_CODES } from '../../lib/domain/labelling/codes.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { categoryById, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS, vocabularyList } from '../../lib/domain/labelling/vocabulary.ts';

describe('the ingredient vocabulary (lib/domain/labelling/vocabulary.json)', () => {
  it('has exactly the codes passports are validated against (lib/domain/labelling/codes.ts), each once, in kebab case', () => {
    const codes = VOCABULARY_INGREDIENTS.map((entry) => entry.code);
    expect(codes, 'a vocabulary entry added or removed: list its code in lib/domain/labelling/codes.ts too').toEqual([...INGREDIENT_CODES]);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('lists in codes.ts exactly the acidity regulators and stabilising agents, with their category (what "substitutable" is checked against)', () => {
    const expected = Object.fromEntries(
      VOCABULARY_INGREDIENTS.filter((entry) => (SUBSTITUTABLE_CATEGORIES as readonly (string | null)[]).includes(entry.category)).map((entry) => [entry.code, entry.category]),
    );
    expect({ ...SUBSTITUTABLE_CODES }).toEqual(expected);
  });

  it('groups the additives as Reg. (EU) 2019/934 Annex I Part A Table 2 does: one category for preservatives and antioxidants, citric acid a stabilising agent', () => {
    const categoryOf = (code: string) => VOCABULARY_INGREDIENTS.find((entry) => entry.code === code)?.category;
    expect(VOCABULARY_CATEGORIES.map((category) => category.id)).toEqual(['acidityRegulator', 'preservativeAntioxidant', 'stabilisingAgent', 'packagingGas']);
    expect([categoryOf('sulphur-dioxide'), categoryOf('ascorbic-acid'), categoryOf('lysozyme')]).toEqual(['preservativeAntioxidant', 'preservativeAntioxidant', 'preservativeAntioxidant']);
    expect(categoryOf('citric-acid')).toBe('stabilisingAgent');
  });

  it('names every entry and category in each of the 24 languages, with a source and the evidence of each name', () => {
    for (const entry of [...VOCABULARY_INGREDIENTS, ...VOCABULARY_CATEGORIES]) {
      const label = 'code' in entry ? entry.code : entry.id;
      expect(Object.keys(entry.names).sort(), label).toEqual([...LANGUAGES].sort());
      for (const lang of LANGUAGES) expect(entry.names[lang].trim(), `${label}.${lang}`).not.toBe('');
      expect(entry.source, label).toBeTruthy();
      expect(entry.evidence.flatMap((group) => group.langs).sort(), label).toEqual([...LANGUAGES].sort());
    }
  });

  it('gives each ingredient a known category or none, an E-number as "E 123", and an allergen among sulphites, egg, milk, fish', () => {
    for (const entry of VOCABULARY_INGREDIENTS) {
      if (entry.category !== null) expect(categoryById(entry.category), entry.code).toBeDefined();
      if (entry.eNumber !== null) expect(entry.eNumber, entry.code).toMatch(/^E \d{3,4}[a-z]?$/);
      expect([null, 'sulphites', 'egg', 'milk', 'fish']).toContain(entry.allergen);
    }
    expect(vocabularyList().find((entry) => entry.code === 'tartaric-acid')?.category?.id).toBe('acidityRegulator');
  });

  it('lists the fining agents: egg albumin, milk casein and milk protein with their allergen, isinglass with none and a note (Annex II point 4(b))', () => {
    const byCode = new Map(VOCABULARY_INGREDIENTS.map((entry) => [entry.code, entry]));
    expect([byCode.get('egg-albumin')?.allergen, byCode.get('casein')?.allergen, byCode.get('milk-protein')?.allergen]).toEqual(['egg', 'milk', 'milk']);
    expect([byCode.get('egg-albumin')?.names.en, byCode.get('casein')?.names.en, byCode.get('milk-protein')?.names.en]).toEqual(['egg albumin', 'milk casein', 'milk protein']);
    expect(byCode.get('isinglass')?.allergen).toBeNull();
    expect(byCode.get('isinglass')?.note).toContain('Annex II point 4(b)');
  });

  it('no entry carries fish (wine has no fish allergen), and the packaging gases are argon, nitrogen and carbon dioxide', () => {
    expect(VOCABULARY_INGREDIENTS.filter((entry) => entry.allergen === 'fish')).toEqual([]);
    expect(VOCABULARY_INGREDIENTS.filter((entry) => entry.category === 'packagingGas').map((entry) => entry.code)).toEqual(['argon', 'nitrogen', 'carbon-dioxide']);
  });

  it('every sulphiting agent is either itself an Annex I Part A term (sulphur dioxide) or shown with one', () => {
    const sulphiting = VOCABULARY_INGREDIENTS.filter((entry) => entry.allergen === 'sulphites');
    expect(sulphiting.filter((entry) => entry.annexTerm).map((entry) => entry.code)).toEqual(['sulphur-dioxide']);
  });
});
