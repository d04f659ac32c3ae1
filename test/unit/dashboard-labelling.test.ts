import { describe, expect, it } from 'vitest';
import { browserLanguage, ingredientLabel, previewUrl, searchVocabulary } from '../../dashboard/src/labelling.ts';
import { vocabularyList } from '../../lib/domain/labelling/vocabulary.ts';

const vocabulary = vocabularyList();

describe('the dashboard’s ingredient search', () => {
  it('finds "Weinsäure" by typing "weinsaure" in German (case and accents folded), first among those it matches', () => {
    // Act
    const found = searchVocabulary(vocabulary, 'weinsaure', 'de');
    // Assess
    expect(found[0]?.code).toBe('tartaric-acid');
  });

  it('finds an entry by its E-number or code whatever the language, and by its English name as a last resort', () => {
    expect(searchVocabulary(vocabulary, 'E334', 'fi')[0]?.code).toBe('tartaric-acid');
    expect(searchVocabulary(vocabulary, 'e 220', 'pl')[0]?.code).toBe('sulphur-dioxide');
    expect(searchVocabulary(vocabulary, 'gum arabic', 'el').map((entry) => entry.code)).toContain('gum-arabic');
    expect(searchVocabulary(vocabulary, '  ', 'en')).toEqual([]);
    expect(searchVocabulary(vocabulary, 'unicorn', 'en')).toEqual([]);
  });

  it('takes the browser’s first language among the 24, else English', () => {
    expect(browserLanguage(['ja-JP', 'pt-BR', 'en'])).toBe('pt');
    expect(browserLanguage(['ja'])).toBe('en');
  });

  it('labels an ingredient in the chosen language with its category and E-number; free text in the best language', () => {
    expect(ingredientLabel({ code: 'tartaric-acid' }, 'en', vocabulary)).toBe('Acidity regulators: tartaric acid (E 334)');
    expect(ingredientLabel({ text: { de: 'Eiche', en: 'oak' } }, 'fr', vocabulary)).toBe('oak');
    expect(ingredientLabel('Grapes', 'fr', vocabulary)).toBe('Grapes');
  });

  it('previews the e-label of a version in a language on the platform resolver; none for a brand host', () => {
    expect(previewUrl('https://id.example.com/org_0123456789abcdef/live/01/04006381333931', 3, 'el')).toBe(
      'https://id.example.com/org_0123456789abcdef/live/p/04006381333931/3/el',
    );
    expect(previewUrl('https://id.brand.example/01/04006381333931', 3, 'el')).toBeUndefined();
  });
});
