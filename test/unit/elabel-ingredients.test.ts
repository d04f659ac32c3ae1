import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emphasiseAllergens, escapeHtml, renderElabel } from '../../functions/resolver/page/elabel.ts';
import { ANY_LANGUAGE_WORDS, LANGUAGE_WORDS, WINE_ALLERGENS } from '../../lib/domain/labelling/allergen-words.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { VOCABULARY_INGREDIENTS, ingredientByCode } from '../../lib/domain/labelling/vocabulary.ts';
import { createPassportSchema, WINE_FISH_MESSAGE, wineDeclaresFish, type PassportData } from '../../lib/domain/passport.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { wineView } from '../support/wine-label.ts';

/** The inner markup of the ingredient list's paragraph. */
function ingredientsOf(data: PassportData, lang: Lang = 'en', category: 'wine' | 'food' = 'wine'): string {
  const page = renderElabel(wineView(data, { category }), lang);
  return /<section[^>]*aria-labelledby="ingredients"[^>]*>[\s\S]*?<p>([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
}

/** The text of the allergens section's <strong>, or undefined without the section. */
function containsLine(data: PassportData, lang: Lang = 'en', category: 'wine' | 'food' = 'wine'): string | undefined {
  const page = renderElabel(wineView(data, { category }), lang);
  return /<section[^>]*aria-labelledby="allergens"[^>]*>[\s\S]*?<strong>([\s\S]*?)<\/strong>/.exec(page)?.[1];
}

const strongTexts = (markup: string): string[] => [...markup.matchAll(/<strong>([\s\S]*?)<\/strong>/g)].map((match) => match[1] ?? '');

describe('allergen emphasis in free text, in every language (Reg. (EU) No 1169/2011 Art. 21(1)(b))', () => {
  it.each([
    ['it', 'caseina del latte', '<strong>caseina del latte</strong>'],
    ['es', 'caseína de leche', '<strong>caseína de leche</strong>'],
    ['pl', 'białko jaja', '<strong>białko jaja</strong>'],
    ['sv', 'vin, äggalbumin', 'vin, <strong>äggalbumin</strong>'],
    ['fr', 'albumine de l’œuf', '<strong>albumine de l’œuf</strong>'],
    ['fr', "protéine de l'œuf", '<strong>protéine de l&#39;œuf</strong>'],
    ['de', 'Magermilchpulver', '<strong>Magermilchpulver</strong>'],
    // A sulphiting agent's name is not the allergen's term: the term follows it (Reg. (EU) 2019/33 Art. 41(1), Annex I Part A).
    ['de', 'Kaliumdisulfit', 'Kaliumdisulfit (<strong>Sulfite</strong>)'],
    ['it', 'metabisolfito di potassio', 'metabisolfito di potassio (<strong>solfiti</strong>)'],
    ['en', 'potassium metabisulphite', 'potassium metabisulphite (<strong>sulphites</strong>)'],
    ['de', 'Lysozym, Kasein', 'Lysozym (<strong>Ei</strong>), Kasein (<strong>Milch</strong>)'],
    ['en', 'sulphur dioxide (E 220)', '<strong>sulphur dioxide</strong> (E 220)'],
    ['el', 'καζεΐνη γάλακτος', '<strong>καζεΐνη γάλακτος</strong>'],
    ['ro', 'albuș de ou', 'albuș de <strong>ou</strong>'],
    ['en', 'E 224', 'E 224 (<strong>sulphites</strong>)'],
    ['en', 'E 224, E 220', 'E 224 (<strong>sulphites</strong>), E 220'],
  ] as const)('%s: %j reads %j', (lang, ingredient, markup) => {
    // Act
    const shown = ingredientsOf({ productType: 'wine', ingredients: [{ text: { [lang]: ingredient } }] }, lang);
    // Assess
    expect(shown).toBe(markup);
  });

  it.each([
    ['de', 'Milchsäure'],
    ['fr', 'acide citrique ou acide tartrique'],
    ['en', 'eggplant'],
    ['de', 'Eiche'],
    ['fi', 'maitohappo'],
  ] as const)('%s: %j has no allergen and stays plain', (lang, ingredient) => {
    // Act
    const shown = ingredientsOf({ productType: 'wine', ingredients: [{ text: { [lang]: ingredient } }] }, lang);
    // Assess
    expect(shown).toBe(escapeHtml(ingredient));
  });

  it('does not search vocabulary names for allergen words: German lactic acid is "Milchsäure", not milk', () => {
    // Act
    const shown = ingredientsOf({ productType: 'wine', ingredients: [{ code: 'lactic-acid' }] }, 'de');
    // Assess
    expect(shown).toBe('Säureregulatoren: Milchsäure');
  });

  it('property: every allergen word of every language, in free text among vocabulary names, is inside <strong> or followed by its term in <strong>', () => {
    // Prepare: every (language, word) of the wine allergens, and the vocabulary names around it.
    const pairs = LANGUAGES.flatMap((lang) =>
      WINE_ALLERGENS.flatMap((allergen) => [...(LANGUAGE_WORDS[lang][allergen] ?? []), ...(ANY_LANGUAGE_WORDS[allergen] ?? [])].map((entry) => ({ lang, word: entry.word }))),
    );
    const name = fc.constantFrom(...VOCABULARY_INGREDIENTS.filter((entry) => entry.allergen === null));
    fc.assert(
      fc.property(fc.constantFrom(...pairs), name, name, fc.constantFrom(', ', ' (', ' – ', ': '), fc.boolean(), ({ lang, word }, before, after, glue, upper) => {
        // Act
        const written = upper ? word.toLocaleUpperCase(lang) : word;
        const text = `${before.names[lang]}${glue}${written}${glue === ' (' ? ')' : glue}${after.names[lang]}`;
        const shown = emphasiseAllergens(text, lang, true).markup;
        // Assess: a term is emphasised; a name that needs the term (E 220, lysozyme) is followed by it, never bold alone.
        const bold = strongTexts(shown).some((strong) => strong.includes(escapeHtml(written)));
        const at = shown.indexOf(escapeHtml(written));
        const followed = at >= 0 && /^[^,;()]*\(<strong>/.test(shown.slice(at).replace(/ \(<strong>/, '(<strong>'));
        expect(bold || followed, `${lang}: ${text} → ${shown}`).toBe(true);
        expect(shown, `${lang}: ${text} → ${shown}`).not.toMatch(/<strong>E ?22\d<\/strong>/);
      }),
      { numRuns: 2000, seed: 25 },
    );
  });
});

describe('explicit emphasis: **word** in free text', () => {
  it.each([
    ['oak chips, **egg white**', 'oak chips, <strong>egg white</strong>'],
    ['**<script>**', '<strong>&lt;script&gt;</strong>'],
    ['**a**b**', '<strong>a</strong>b**'],
    ['a ** b', 'a ** b'],
    ['****', '****'],
    ['**"x" & y**', '<strong>&quot;x&quot; &amp; y</strong>'],
    ['**Schwefeldioxid**, Milch', '<strong>Schwefeldioxid</strong>, <strong>Milch</strong>'],
  ])('%j reads %j', (ingredient, markup) => {
    // Act
    const shown = ingredientsOf({ productType: 'wine', ingredients: [ingredient] });
    // Assess
    expect(shown).toBe(markup);
  });

  it('property: no markup ever comes through from free text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('*', '<', '>', '&', '"', "'", 'a', ' ', 'b', 'milk') }), (text) => {
        const shown = emphasiseAllergens(text).markup;
        expect(shown.replace(/<\/?strong>/g, '')).not.toMatch(/[<>"']/);
      }),
      { numRuns: 500, seed: 25 },
    );
  });
});

describe('fish in wine (Reg. (EU) No 1169/2011 Annex II point 4(b))', () => {
  it('a stored wine passport that says containsFish shows the other allergens and never fish', () => {
    // Act
    const line = containsLine({ productType: 'wine', allergens: { containsSulphites: true, containsFish: true } });
    // Assess
    expect(line).toBe('Contains: sulphites');
  });

  it('a wine with containsFish alone shows no allergens section', () => {
    expect(containsLine({ productType: 'wine', allergens: { containsFish: true } })).toBeUndefined();
  });

  it('a food product still shows fish', () => {
    expect(containsLine({ productType: 'food', allergens: { containsFish: true } }, 'en', 'food')).toBe('Contains: fish');
  });

  it.each(['isinglass', 'Hausenblase', 'fish gelatine', 'Fischgelatine'])('free text %j on a wine page is not emphasised', (ingredient) => {
    expect(ingredientsOf({ productType: 'wine', ingredients: [ingredient] })).toBe(ingredient);
  });

  it('free text "fish gelatine" on a food page is emphasised', () => {
    expect(ingredientsOf({ productType: 'food', ingredients: ['fish gelatine'] }, 'en', 'food')).toBe('<strong>fish gelatine</strong>');
  });

  it('the vocabulary has isinglass without an allergen, and the fining agents of egg and milk with theirs', () => {
    expect(ingredientByCode('isinglass')?.allergen).toBeNull();
    expect(ingredientByCode('egg-albumin')?.allergen).toBe('egg');
    expect(ingredientByCode('casein')?.allergen).toBe('milk');
    expect(ingredientByCode('milk-protein')?.allergen).toBe('milk');
    expect(ingredientByCode('lysozyme')?.allergen).toBe('egg');
  });

  it('the fining agents show with the Annex I Part A terms; isinglass, which carries no allergen, only when the passport asks, plain', () => {
    const data: PassportData = { productType: 'wine', ingredients: [{ code: 'grapes' }, { code: 'egg-albumin' }, { code: 'casein' }, { code: 'milk-protein' }, { code: 'isinglass' }] };
    expect(ingredientsOf(data)).toBe('grapes, <strong>egg albumin</strong>, <strong>milk casein</strong>, <strong>milk protein</strong>');
    const listed: PassportData = { ...data, listNonAllergenicProcessingAids: true };
    expect(ingredientsOf(listed)).toBe('grapes, <strong>egg albumin</strong>, <strong>milk casein</strong>, <strong>milk protein</strong>, isinglass');
    expect(ingredientsOf(listed, 'de')).toBe('Trauben, <strong>Albumin aus Ei</strong>, <strong>Kasein aus Milch</strong>, <strong>Milchprotein</strong>, Hausenblase');
  });

  it('the publish rule: a wine (by category or productType) that declares fish is refused, citing Annex II point 4(b)', () => {
    // The 422 naming data.allergens.containsFish is asserted through HTTP in test/integration/wine-fish.test.ts.
    expect(wineDeclaresFish({ allergens: { containsFish: true } }, 'wine')).toBe(true);
    expect(wineDeclaresFish({ allergens: { containsFish: true } }, 'food', 'wine')).toBe(true);
    expect(wineDeclaresFish({ allergens: { containsFish: false } }, 'wine')).toBe(false);
    expect(wineDeclaresFish({ allergens: { containsFish: true } }, 'food')).toBe(false);
    expect(WINE_FISH_MESSAGE).toBe(
      'A wine does not declare fish: fish gelatine or isinglass used as a fining agent in wine is exempt (Regulation (EU) No 1169/2011, Annex II point 4(b)); remove containsFish or set it to false.',
    );
  });
});

describe('sulphiting agents with the allergen term (Reg. (EU) 2019/33 Annex I Part A)', () => {
  it.each([
    ['en', 'Preservatives and antioxidants: potassium metabisulphite (<strong>sulphites</strong>), potassium bisulphite (<strong>sulphites</strong>), <strong>sulphur dioxide</strong>'],
    ['de', 'Konservierungsstoffe und Antioxidationsmittel: Kaliummetabisulfit (<strong>Sulfite</strong>), Kaliumbisulfit (<strong>Sulfite</strong>), <strong>Schwefeldioxid</strong>'],
    // French: a narrow no-break space before the colon.
    ['fr', 'Conservateurs et antioxydants\u202f: métabisulfite de potassium (<strong>sulfites</strong>), bisulfite de potassium (<strong>sulfites</strong>), <strong>anhydride sulfureux</strong>'],
  ] as const)('%s: %j', (lang, markup) => {
    // Prepare
    const data: PassportData = { productType: 'wine', ingredients: [{ code: 'potassium-metabisulphite' }, { code: 'potassium-bisulphite' }, { code: 'sulphur-dioxide' }] };
    // Act
    const shown = ingredientsOf(data, lang);
    // Assess
    expect(shown).toBe(markup);
  });
});

describe('protective atmosphere (Reg. (EU) 2019/33 Art. 48a(6))', () => {
  const ingredients: PassportData['ingredients'] = [{ code: 'grapes' }, { code: 'nitrogen' }, { code: 'tartaric-acid' }, { code: 'carbon-dioxide' }, { code: 'argon' }];

  it('without it, the packaging gases are listed', () => {
    expect(ingredientsOf({ productType: 'wine', ingredients })).toBe('grapes, gases and packaging gases: nitrogen; acidity regulators: tartaric acid; gases and packaging gases: carbon dioxide, argon');
  });

  it.each([
    ['en', 'bottled', 'grapes, acidity regulators: tartaric acid; bottled in a protective atmosphere'],
    ['en', 'may-be-bottled', 'grapes, acidity regulators: tartaric acid; bottling may happen in a protective atmosphere'],
    ['de', 'bottled', 'Trauben, Säureregulatoren: Weinsäure; unter Schutzatmosphäre abgefüllt'],
    ['de', 'may-be-bottled', 'Trauben, Säureregulatoren: Weinsäure; Die Abfüllung kann unter Schutzatmosphäre erfolgen'],
  ] as const)('%s, %s: the phrase ends the list in place of the packaging gases', (lang, protectiveAtmosphere, sentence) => {
    expect(ingredientsOf({ productType: 'wine', ingredients, protectiveAtmosphere }, lang)).toBe(sentence);
  });

  it('shows the phrase alone when no other ingredient is given', () => {
    expect(ingredientsOf({ productType: 'wine', protectiveAtmosphere: 'bottled' })).toBe('Bottled in a protective atmosphere');
  });

  it('refuses another value with a 422 naming data.protectiveAtmosphere', () => {
    let error: unknown;
    try {
      parseOrThrow(createPassportSchema, { productId: '01890a5d-ac96-774b-bcce-b302099a8057', data: { protectiveAtmosphere: 'yes' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ status: 422, param: 'data.protectiveAtmosphere' });
    expect((error as Error).message).toBe('protectiveAtmosphere must be one of: bottled, may-be-bottled.');
  });
});

describe('ingredient order: the producer\'s, consecutive additives of one category grouped, each group ended visibly', () => {
  it('keeps an additive entered later where it was entered; a semicolon ends each group, whose name is in lower case mid-list', () => {
    // Prepare
    const data: PassportData = {
      productType: 'wine',
      ingredients: [{ code: 'tartaric-acid' }, { code: 'grapes' }, { code: 'sulphur-dioxide' }, { code: 'citric-acid' }, { code: 'malic-acid' }, 'oak chips', { code: 'lactic-acid' }],
    };
    // Act
    const shown = ingredientsOf(data);
    // Assess
    expect(shown).toBe(
      'Acidity regulators: tartaric acid; grapes, preservatives and antioxidants: <strong>sulphur dioxide</strong>; stabilising agents: citric acid; acidity regulators: malic acid; oak chips, acidity regulators: lactic acid',
    );
  });
});

describe('substitutable additives: "contains … and/or …" (Reg. (EU) 2019/33 Art. 48a(5))', () => {
  const refusal = (ingredients: PassportData['ingredients']): unknown => {
    try {
      parseOrThrow(createPassportSchema, { productId: '01890a5d-ac96-774b-bcce-b302099a8057', data: { productType: 'wine', ingredients } });
    } catch (caught) {
      return caught;
    }
    return undefined;
  };

  it.each([
    ['en', 'grapes, acidity regulators: contains tartaric acid and/or malic acid and/or lactic acid; stabilising agents: gum arabic'],
    ['de', 'Trauben, Säureregulatoren: enthält Weinsäure und/oder Äpfelsäure und/oder Milchsäure; Stabilisatoren: Gummi arabicum'],
    // A case language: a colon keeps the additive names in the nominative the vocabulary gives (issue 40).
    ['cs', 'hrozny, regulátory kyselosti: obsahuje: kyselina vinná a/nebo kyselina jablečná a/nebo kyselina mléčná; stabilizátory: arabská guma'],
  ] as const)('%s: a run of marked acidity regulators reads %j', (lang, sentence) => {
    // Prepare
    const data: PassportData = {
      productType: 'wine',
      ingredients: [{ code: 'grapes' }, { code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid', substitutable: true }, { code: 'lactic-acid', substitutable: true }, { code: 'gum-arabic' }],
    };
    // Act
    const shown = ingredientsOf(data, lang);
    // Assess
    expect(shown).toBe(sentence);
  });

  it('lists an unmarked additive of the same category apart from the run', () => {
    // Prepare
    const data: PassportData = {
      productType: 'wine',
      ingredients: [{ code: 'citric-acid' }, { code: 'metatartaric-acid', substitutable: true }, { code: 'carboxymethylcellulose', substitutable: true }],
    };
    // Act
    const shown = ingredientsOf(data);
    // Assess
    expect(shown).toBe('Stabilising agents: citric acid, contains metatartaric acid and/or carboxymethylcellulose');
  });

  it.each([
    ['a single marked additive', [{ code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid' }], 'data.ingredients[0].substitutable', 'stands alone'],
    ['four in a run', [{ code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid', substitutable: true }, { code: 'lactic-acid', substitutable: true }, { code: 'calcium-sulphate', substitutable: true }], 'data.ingredients[3].substitutable', 'at most 3'],
    ['a preservative', [{ code: 'sulphur-dioxide', substitutable: true }, { code: 'potassium-sorbate', substitutable: true }], 'data.ingredients[0].substitutable', 'only to acidity regulators and stabilising agents'],
    ['an acidity regulator next to a stabilising agent', [{ code: 'tartaric-acid', substitutable: true }, { code: 'gum-arabic', substitutable: true }], 'data.ingredients[0].substitutable', 'stands alone'],
    ['free text', [{ text: { en: 'oak' }, substitutable: true }], 'data.ingredients[0].substitutable', 'given by its code'],
  ] as const)('refuses %s with a 422 naming the mark', (_, ingredients, param, words) => {
    // Act
    const error = refusal(ingredients as unknown as PassportData['ingredients']);
    // Assess
    expect(error).toMatchObject({ status: 422, param });
    expect((error as Error).message).toContain(words);
  });

  it('accepts two and three in a run', () => {
    // Act
    const two = refusal([{ code: 'gum-arabic', substitutable: true }, { code: 'yeast-mannoproteins', substitutable: true }]);
    const three = refusal([{ code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid', substitutable: true }, { code: 'lactic-acid', substitutable: true }]);
    // Assess
    expect(two).toBeUndefined();
    expect(three).toBeUndefined();
  });
});
