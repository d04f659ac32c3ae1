import { describe, expect, it } from 'vitest';
import { INGREDIENT_CODES } from '../../lib/domain/labelling/codes.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { categoryById, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS, vocabularyList } from '../../lib/domain/labelling/vocabulary.ts';

describe('the ingredient vocabulary (lib/domain/labelling/vocabulary.json)', () => {
  it('has exactly the codes passports are validated against (lib/domain/labelling/codes.ts), each once, in kebab case', () => {
    const codes = VOCABULARY_INGREDIENTS.map((entry) => entry.code);
    expect(codes, 'a vocabulary entry added or removed: list its code in lib/domain/labelling/codes.ts too').toEqual([...INGREDIENT_CODES]);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('names every entry and category in each of the 24 languages, with a source; marks unconfirmed ones by language code', () => {
    for (const entry of [...VOCABULARY_INGREDIENTS, ...VOCABULARY_CATEGORIES]) {
      const label = 'code' in entry ? entry.code : entry.id;
      expect(Object.keys(entry.names).sort(), label).toEqual([...LANGUAGES].sort());
      for (const lang of LANGUAGES) expect(entry.names[lang].trim(), `${label}.${lang}`).not.toBe('');
      expect(entry.source, label).toBeTruthy();
      for (const lang of entry.unconfirmed) expect(LANGUAGES, `${label} unconfirmed ${lang}`).toContain(lang);
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
});
