import { describe, expect, it } from 'vitest';
import { alcoholLine, negligibleStatement, renderElabel } from '../../functions/resolver/page/elabel.ts';
import { draftMissing, toDraftView } from '../../lib/domain/draft.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { text } from '../../lib/domain/labelling/texts.ts';
import {
  missingDeclaration,
  NEGLIGIBLE_NUTRIENTS,
  NEGLIGIBLE_THRESHOLDS,
  negligibleConflicts,
  orphanSubNutrient,
  roundMacronutrient,
  roundSalt,
  roundSaturates,
  withComputedEnergy,
} from '../../lib/domain/nutrition.ts';
import { createPassportSchema, type PassportData } from '../../lib/domain/passport.ts';
import { ApiError } from '../../lib/http/errors.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { checkDeclaration, checkNutrition } from '../../lib/services/passports.ts';
import { FULL_WINE, wineView } from '../support/wine-label.ts';

/** The inner markup of the section whose heading has this id. */
const sectionMarkup = (page: string, id: string): string => new RegExp(`<section[^>]*aria-labelledby="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(page)?.[1] ?? '';
const header = (page: string): string => /<header class="intro">([\s\S]*?)<\/header>/.exec(page)?.[1] ?? '';
const plain = (value: string): string => value.replace(/\u00a0/g, ' ');

/** The 422 a call throws: its param and message. */
function refusal(act: () => unknown): { status: number; param: string | undefined; message: string } {
  try {
    act();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

const PRODUCT_ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const NEGLIGIBLE_WINE: PassportData = {
  ...FULL_WINE,
  nutrition: { energyKj: 348, carbohydratesG: 2.6, sugarsG: 0.6, alcoholG: 10.4, fatG: 0, negligible: ['fat', 'saturates', 'protein', 'salt'] },
};

describe('the nutrition declaration is a closed list: no alcohol row (Regulation (EU) No 1169/2011 Art. 30(1), Annex XV)', () => {
  it.each(LANGUAGES)('%s: the nutrition table of a wine with alcoholG has no alcohol row', (lang) => {
    // Prepare
    const view = wineView({ ...FULL_WINE, nutrition: { ...FULL_WINE.nutrition, alcoholG: 10.4 } });

    // Act
    const table = sectionMarkup(renderElabel(view, lang), 'nutrition');

    // Assess
    expect(table).toContain('<table>');
    expect(table).not.toContain(`<th scope="row">${text(lang, 'alcohol')}</th>`);
    expect(table.match(/<th scope="row">/g)).toHaveLength(7); // energy and the six nutrients
  });
});

describe('the actual alcoholic strength, outside the declaration (Annex XII: one decimal at most, "% vol"; a wine\'s in whole or half units, Reg. (EU) 2019/33 Art. 44)', () => {
  it('12.5 shows as "alc 12,5 % vol" in German and "alc 12.5 % vol" in English ("alc": Annex XII and Art. 44), under the heading, not in the nutrition section', () => {
    // Prepare
    const view = wineView({ ...FULL_WINE, alcoholByVolume: 12.5 });

    // Act
    const de = renderElabel(view, 'de');
    const en = renderElabel(view, 'en');

    // Assess
    expect(plain(header(de))).toContain('<p class="meta">alc 12,5 % vol</p>');
    expect(plain(header(en))).toContain('<p class="meta">alc 12.5 % vol</p>');
    expect(plain(sectionMarkup(de, 'nutrition'))).not.toContain('% vol');
    expect(de).toContain('12,5\u00a0%\u00a0vol'); // kept together when the line wraps
  });

  it('a whole figure has no decimals ("13 % vol"); none given, no line', () => {
    expect(plain(alcoholLine(wineView({ ...FULL_WINE, alcoholByVolume: 13 }), 'fr')?.markup ?? '')).toBe('<p class="meta">alc 13 % vol</p>');
    const { alcoholByVolume: _none, ...without } = FULL_WINE;
    expect(alcoholLine(wineView(without), 'fr')).toBeUndefined();
    expect(renderElabel(wineView(without), 'fr')).not.toContain('vol</p>');
  });

  it.each<[unknown, string]>([
    [12.55, 'more than one decimal (checked by the service, stated in words in the document)'],
    [-1, 'negative'],
    [100.5, 'over 100'],
    ['12.5', 'a string'],
    [2e-323, 'a denormal, which DynamoDB cannot store (found by the contract fuzz)'],
  ])('alcoholByVolume %s (%s) is refused with a 422 naming data.alcoholByVolume', (value) => {
    // Act
    const refused = refusal(() => checkNutrition(parseOrThrow(createPassportSchema, { productId: PRODUCT_ID, data: { alcoholByVolume: value } }).data));

    // Assess
    expect(refused).toMatchObject({ status: 422, param: 'data.alcoholByVolume' });
  });

  it.each<[number, string]>([
    [12.3, 'wine'],
    [0.2, 'wine'],
  ])('a wine strength of %s (not a whole or half unit) is refused with a 422 naming data.alcoholByVolume, by productType or by category', (value) => {
    // Act
    const byType = refusal(() => checkNutrition({ productType: 'wine', alcoholByVolume: value }));
    const byCategory = refusal(() => checkNutrition({ alcoholByVolume: value }, 'data', 'wine'));

    // Assess
    expect(byType).toMatchObject({ status: 422, param: 'data.alcoholByVolume' });
    expect(byCategory.message).toContain('whole or half units');
    expect(() => checkNutrition({ productType: 'food', alcoholByVolume: value })).not.toThrow(); // other drinks: one decimal (Annex XII)
  });

  it('0, 12.5, 0.1 × 3 (0.30000000000000004) and 100 are accepted', () => {
    for (const value of [0, 12.5, 0.1 * 3, 100]) {
      const { data } = parseOrThrow(createPassportSchema, { productId: PRODUCT_ID, data: { alcoholByVolume: value } });
      expect(() => checkNutrition(data)).not.toThrow();
      expect(data.alcoholByVolume).toBe(value);
    }
  });
});

describe('"Contains negligible amounts of …" (Regulation (EU) No 1169/2011 Art. 34(5))', () => {
  it.each([
    // Secondary-confirmed wording (lebensmittelklarheit.de); the nouns keep their capital, in the dative after "von".
    ['de', 'Enthält geringfügige Mengen von Fett, gesättigten Fettsäuren, Eiweiß und Salz'],
    // Unconfirmed wording (source id eu-1169-2011-art-34-5, "unconfirmed": true); nutrient names from the Annex XV keys.
    ['fr', 'Contient des quantités négligeables de matières grasses, acides gras saturés, protéines et sel'],
    // Unconfirmed wording.
    ['it', 'Contiene quantità trascurabili di grassi, acidi grassi saturi, proteine e sale'],
    // Unconfirmed wording; "de las cuales:" of the saturates row dropped.
    ['es', 'Contiene cantidades insignificantes de grasas, ácidos grasos saturados, proteínas y sal'],
    // Unconfirmed wording; a colon keeps the names in the nominative the keys give.
    ['pl', 'Zawiera nieznaczne ilości: tłuszcz, kwasy tłuszczowe nasycone, białko i sól'],
    // Unconfirmed wording; the saturates named whole ("xaħam saturat", not the row's bare adjective "saturat"); the comma before "u" is CLDR's Maltese list format.
    ['mt', "Fih ammonti negliġibbli ta' xaħam, xaħam saturat, proteina, u melħ"],
    // Unconfirmed wording (the Art. 34(5) example as the brief quotes it); en-GB lists have no serial comma.
    ['en', 'Contains negligible amounts of fat, saturates, protein and salt'],
  ] as const)('%s: %s, directly under the table, and no rows for those nutrients', (lang, expected) => {
    // Act
    const section = sectionMarkup(renderElabel(wineView(NEGLIGIBLE_WINE), lang), 'nutrition');

    // Assess
    expect(negligibleStatement(NEGLIGIBLE_WINE.nutrition ?? {}, lang)).toBe(expected);
    expect(plain(section)).toContain(`</table>\n<p>${expected.replace(/'/g, '&#39;')}</p>`);
    for (const key of ['fat', 'saturates', 'protein', 'salt'] as const) expect(section, key).not.toContain(`<th scope="row">${text(lang, key)}</th>`);
    for (const key of ['energy', 'carbohydrate', 'sugars'] as const) expect(section, key).toContain(`<th scope="row">${text(lang, key)}</th>`);
  });

  it('every language has a statement with every nutrient, none left with an "of which"', () => {
    for (const lang of LANGUAGES) {
      const statement = negligibleStatement({ negligible: [...NEGLIGIBLE_NUTRIENTS] }, lang) ?? '';
      expect(statement, lang).not.toMatch(/\{list\}|of which|davon|dont |di cui|w tym|li minn/);
      expect(statement.length, lang).toBeGreaterThan(text(lang, 'negligibleAmounts').length);
    }
  });

  it('a value at or below the threshold without negligible keeps its row (the producer chose)', () => {
    const section = sectionMarkup(renderElabel(wineView(FULL_WINE), 'en'), 'nutrition');
    expect(section).toContain('<tr><th scope="row">Fat</th><td>0\u00a0g</td></tr>');
    expect(section).not.toContain('negligible');
  });

  it.each([
    ['fat', 'fatG', 0.6],
    ['saturates', 'saturatedFatG', 0.2],
    ['sugars', 'sugarsG', 0.6],
    ['salt', 'saltG', 0.013],
  ] as const)('%s declared negligible with %s = %s (above the threshold) is refused with a 422 naming data.nutrition.%s', (nutrient, field, value) => {
    // Act
    const refused = refusal(() =>
      checkNutrition(parseOrThrow(createPassportSchema, { productId: PRODUCT_ID, data: { productType: 'wine', nutrition: { [field]: value, negligible: [nutrient] } } }).data),
    );

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.param).toBe(`data.nutrition.${field}`);
    expect(refused.message).toMatch(/negligible amount of/);
  });

  it('at the threshold a negligible nutrient may carry its value; an unknown or repeated nutrient is refused', () => {
    expect(negligibleConflicts({ fatG: 0.5, saturatedFatG: 0.1, saltG: 0.0125, negligible: ['fat', 'saturates', 'salt'] })).toEqual([]);
    expect(refusal(() => parseOrThrow(createPassportSchema, { productId: PRODUCT_ID, data: { nutrition: { negligible: ['alcohol'] } } })).param).toBe('data.nutrition.negligible[0]');
    expect(refusal(() => checkNutrition({ nutrition: { negligible: ['fat', 'fat'] } })).param).toBe('data.nutrition.negligible');
  });

  it('the thresholds (guidance document on tolerances, 2012, through a secondary source) are the "0" bands of the display rounding', () => {
    expect(NEGLIGIBLE_THRESHOLDS).toEqual({ fat: 0.5, saturates: 0.1, carbohydrate: 0.5, sugars: 0.5, protein: 0.5, salt: 0.0125 });
    expect(roundMacronutrient(NEGLIGIBLE_THRESHOLDS.fat).value).toBe(0);
    expect(roundSaturates(NEGLIGIBLE_THRESHOLDS.saturates).value).toBe(0);
    expect(roundSalt(NEGLIGIBLE_THRESHOLDS.salt).value).toBe(0);
  });
});

describe('no orphan "of which" rows: saturates and sugars stand only under their nutrient (Regulation (EU) No 1169/2011 Annex XV)', () => {
  it.each<[string, PassportData['nutrition'], string]>([
    ['a negligible fat with a declared saturates value', { saturatedFatG: 0.05, negligible: ['fat'] }, 'data.nutrition.saturatedFatG'],
    ['a negligible carbohydrate with a declared sugars value', { sugarsG: 0.2, negligible: ['carbohydrate'] }, 'data.nutrition.sugarsG'],
    ['sugars without carbohydrate', { sugarsG: 0.6 }, 'data.nutrition.sugarsG'],
  ])('%s is refused with a 422 naming the sub-row', (_, nutrition, param) => {
    // Act
    const refused = refusal(() => checkNutrition({ productType: 'food', nutrition }));

    // Assess
    expect(refused).toMatchObject({ status: 422, param });
  });

  it('fat and saturates both negligible, or fat given with saturates, are accepted', () => {
    expect(() => checkNutrition({ nutrition: { saturatedFatG: 0.05, negligible: ['fat', 'saturates'] } })).not.toThrow();
    expect(() => checkNutrition({ nutrition: { fatG: 0.3, saturatedFatG: 0.05 } })).not.toThrow();
    expect(orphanSubNutrient({ fatG: 0, saturatedFatG: 0, negligible: ['fat', 'saturates'] })).toBeUndefined();
  });

  it('a stored version with an orphan shows no "of which" row: never saturates under no fat row', () => {
    // Prepare: stored before the rule.
    const view = wineView({ productType: 'wine', nutrition: { energyKj: 300, fatG: 0, saturatedFatG: 0.05, carbohydratesG: 2, negligible: ['fat'] } });

    // Act
    const section = sectionMarkup(renderElabel(view, 'en'), 'nutrition');

    // Assess
    expect(section).not.toContain('of which saturates');
    expect(section).toContain('<tr><th scope="row">Carbohydrate</th>');
    expect(section).toContain('Contains negligible amounts of fat');
  });
});

describe('a wine is published only with a complete declaration (Reg. (EU) No 1308/2013 Art. 119; 1169/2011 Art. 30(1))', () => {
  const complete = FULL_WINE.nutrition ?? {};

  it('without saturates: 422 naming data.nutrition.saturatedFatG', () => {
    const { saturatedFatG: _gone, ...nutrition } = complete;
    const refused = refusal(() => checkDeclaration(withComputedEnergy({ productType: 'wine', nutrition })));
    expect(refused).toMatchObject({ status: 422, param: 'data.nutrition.saturatedFatG' });
  });

  it('without nutrition: 422 naming data.nutrition; several missing: the first in Annex XV order, all in the message', () => {
    expect(refusal(() => checkDeclaration({ productType: 'wine' }))).toMatchObject({ status: 422, param: 'data.nutrition' });
    const refused = refusal(() => checkDeclaration({ productType: 'wine', nutrition: { sugarsG: 1 } }));
    expect(refused.param).toBe('data.nutrition.energyKj');
    expect(refused.message).toContain('energyKj, fatG, saturatedFatG, carbohydratesG, proteinG, saltG');
  });

  it('energy computed from the nutrients counts; negligible covers a nutrient; either energy unit is enough', () => {
    const { energyKj: _kj, energyKcal: _kcal, ...withoutEnergy } = complete;
    expect(() => checkDeclaration(withComputedEnergy({ productType: 'wine', nutrition: withoutEnergy }))).not.toThrow();
    expect(() => checkDeclaration(withComputedEnergy(NEGLIGIBLE_WINE))).not.toThrow();
    expect(() => checkDeclaration({ productType: 'wine', nutrition: { ...withoutEnergy, energyKcal: 84 } })).not.toThrow();
    expect(missingDeclaration({ carbohydratesG: 1, sugarsG: 1, energyKj: 100 }, true)).toEqual(['nutrition.fatG', 'nutrition.saturatedFatG', 'nutrition.proteinG', 'nutrition.saltG']);
  });

  it('other products, and data without productType of a product that is no wine, are not held to it', () => {
    expect(() => checkDeclaration({ productType: 'food', nutrition: { fatG: 1 } })).not.toThrow();
    expect(() => checkDeclaration({})).not.toThrow();
    expect(() => checkDeclaration({}, 'data', 'food')).not.toThrow();
  });

  it('a product of category wine is held to it without productType, and productType wine under another category too (lib/domain/wine.ts)', () => {
    expect(refusal(() => checkDeclaration({}, 'data', 'wine'))).toMatchObject({ status: 422, param: 'data.nutrition' });
    expect(refusal(() => checkDeclaration({ nutrition: { energyKj: 318 } }, 'data', 'wine'))).toMatchObject({ status: 422, param: 'data.nutrition.fatG' });
    expect(refusal(() => checkDeclaration({ productType: 'wine' }, 'data', 'food'))).toMatchObject({ status: 422, param: 'data.nutrition' });
    expect(draftMissing({}, 'wine')).toEqual(['data.nutrition']);
  });

  it('a draft may be incomplete and says what is missing, as the 422 would name it', () => {
    expect(draftMissing({ productType: 'wine' })).toEqual(['data.nutrition']);
    const { saturatedFatG: _gone, energyKj: _kj, energyKcal: _kcal, ...nutrition } = complete;
    const view = toDraftView({ productId: PRODUCT_ID, data: { productType: 'wine', nutrition }, createdAt: '2026-11-25T10:00:00Z', updatedAt: '2026-11-25T10:00:00Z' });
    expect(view.missing).toEqual(['data.nutrition.saturatedFatG']); // energy computable from the nutrients
    expect(draftMissing(FULL_WINE)).toEqual([]);
  });

  it('a stored incomplete passport still renders: no rows for missing values, no crash', () => {
    // Prepare: data stored before the rule, and a stored negligible list with an entry the page does not know.
    const stored = wineView({ productType: 'wine', nutrition: { carbohydratesG: 2.6, sugarsG: 0.6 } });
    const odd = wineView({ productType: 'wine', nutrition: { fatG: 1, negligible: ['alcohol', 'salt'] } as never, alcoholByVolume: 'strong' as never });

    // Act
    const page = renderElabel(stored, 'en');
    const oddPage = renderElabel(odd, 'de');

    // Assess
    const section = sectionMarkup(page, 'nutrition');
    expect(section.match(/<th scope="row">/g)).toHaveLength(2);
    expect(section).toContain('of which sugars');
    expect(sectionMarkup(oddPage, 'nutrition')).toContain('Enthält geringfügige Mengen von Salz');
    expect(oddPage).not.toContain('% vol');
    expect(renderElabel(wineView({ productType: 'wine' }), 'en')).not.toContain('aria-labelledby="nutrition"');
  });
});
