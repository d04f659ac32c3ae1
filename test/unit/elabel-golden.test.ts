import { describe, expect, it } from 'vitest';
import { renderElabel } from '../../functions/resolver/page/elabel.ts';
import type { PassportData } from '../../lib/domain/passport.ts';
import { wineView } from '../support/wine-label.ts';

/*
 * The golden wine label (issue 25): one full wine passport rendered in de, fr, it, es, pl and mt,
 * compared part by part with the strings a compliance officer signs. Each expected string names its
 * source: the source id of docs/labelling.md#sources, the evidence (E…) of
 * docs/labelling.md#evidence-read where one was read, and "unconfirmed" where the wording is the
 * platform's own (docs/labelling.md#unconfirmed). A change to any of these strings must come with
 * its source.
 */

const GOLDEN: PassportData = {
  productType: 'wine',
  colour: 'white',
  vintage: 2023,
  ingredients: [
    { code: 'grapes' },
    { code: 'tartaric-acid' }, // an acidity regulator
    { code: 'gum-arabic' }, // a stabilising agent
    { code: 'potassium-metabisulphite' },
    { code: 'lysozyme' }, // egg lysozyme
    { code: 'casein' }, // a milk-casein fining agent
    { code: 'isinglass' }, // a fish fining agent: no fish declaration (Reg. 1169/2011 Annex II point 4(b))
    { code: 'nitrogen' }, // a packaging gas, replaced by the protective-atmosphere phrase
  ],
  nutrition: {
    energyKj: 318,
    energyKcal: 76,
    fatG: 0,
    saturatedFatG: 0,
    carbohydratesG: 2.6,
    sugarsG: 0.6,
    proteinG: 0.1,
    saltG: 0.01,
    alcoholG: 9.9,
    negligible: ['fat', 'saturates', 'protein', 'salt'],
  },
  alcoholByVolume: 12.5,
  allergens: { containsSulphites: true, containsEgg: true, containsMilk: true, containsFish: false },
  protectiveAtmosphere: 'bottled',
};

interface Golden {
  /** The list of ingredients, one part per ingredient or category group, joined with ", ". */
  ingredients: string[];
  /** Every emphasised word of the list, in order (Reg. 1169/2011 Art. 21(1)(b)). */
  emphasised: string[];
  /** The allergen statement. */
  contains: string;
  /** The declaration's rows, name and value: the rest are negligible, and alcohol is never one. */
  rows: [string, string][];
  /** The Art. 34(5) statement under the table. */
  negligible: string;
  /** The actual alcoholic strength, outside the declaration. */
  alcohol: string;
}

const NBSP = '\u00a0';

const GOLDEN_PAGES: Record<'de' | 'fr' | 'it' | 'es' | 'pl' | 'mt', Golden> = {
  de: {
    ingredients: [
      'Trauben', // eu-2019-33-2023-1606 Art. 48a(1), German copy E45; vocabulary status unconfirmed
      'Säureregulatoren: Weinsäure', // category: eu-2019-934-annex-i-a-2, the plural of Art. 48a(5) (German copy E45, official-copy); name: eu-1333-2008 (E39, secondary)
      'Stabilisatoren: Gummi arabicum', // category: eu-2019-934-annex-i-a-2, the plural of Art. 48a(5) (E45, official-copy); name: eu-1333-2008 (E39, secondary)
      // category: eu-2019-934-annex-i-a-2, unconfirmed in de; name E39; allergen term "Sulfite": eu-2019-33-annex-i (E10, E32)
      'Konservierungsstoffe und Antioxidationsmittel: Kaliummetabisulfit (<strong>Sulfite</strong>)',
      '<strong>Lysozym aus Ei</strong>', // eu-2019-33-annex-i, E32
      '<strong>Kasein aus Milch</strong>', // eu-2019-33-annex-i, unconfirmed in de
      'Hausenblase', // eu-1169-2011-annex-ii point 4(b), German copy E46: not an allergen in wine
      'unter Schutzatmosphäre abgefüllt', // eu-2019-33-2023-1606 Art. 48a(6), German copy E45
    ],
    emphasised: ['Sulfite', 'Lysozym aus Ei', 'Kasein aus Milch'],
    contains: 'Enthält: Sulfite, Ei, Milch', // "Enthält": eu-1169-2011 Art. 21 (E30); terms eu-2019-33-annex-i (E10, E32)
    rows: [
      ['Brennwert', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E4
      ['Kohlenhydrate', `2,6${NBSP}g`], // eu-1169-2011-annex-xv, E4
      ['davon Zucker', `0,6${NBSP}g`], // eu-1169-2011-annex-xv, E4, E5
    ],
    negligible: 'Enthält geringfügige Mengen von Fett, gesättigten Fettsäuren, Eiweiß und Salz', // eu-1169-2011-art-34-5, E48 (secondary)
    alcohol: `Alkohol 12,5${NBSP}%${NBSP}vol`, // "% vol": eu-1169-2011-annex-xii (German copy); the word "Alkohol" unconfirmed
  },
  fr: {
    ingredients: [
      'raisins', // eu-2019-33-2023-1606, unconfirmed
      'Régulateurs d’acidité: acide tartrique', // category eu-2019-934-annex-i-a-2 as E49 reports Table 2 (secondary); name eu-1333-2008 (E39)
      'Agents stabilisateurs: gomme arabique', // category as E49 reports Table 2 (secondary); name E39
      // category "conservateurs et antioxydants": eu-2019-934-annex-i-a-2 through E49 (secondary); term "sulfites" eu-2019-33-annex-i (E32)
      'Conservateurs et antioxydants: métabisulfite de potassium (<strong>sulfites</strong>)',
      '<strong>lysozyme de l’œuf</strong>', // eu-2019-33-annex-i, E32
      '<strong>caséine du lait</strong>', // eu-2019-33-annex-i, E32
      'colle de poisson', // eu-1169-2011-annex-ii point 4(b) (E30); name unconfirmed
      'Mis en bouteille sous atmosphère protectrice', // eu-2019-33-2023-1606 Art. 48a(6), unconfirmed
    ],
    emphasised: ['sulfites', 'lysozyme de l’œuf', 'caséine du lait'],
    contains: `Contient${NBSP}: sulfites, œuf, lait`, // eu-1169-2011 Art. 21 (E30); terms eu-2019-33-annex-i (E32)
    rows: [
      ['Valeur énergétique', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E6
      ['Glucides', `2,6${NBSP}g`], // E6
      ['dont sucres', `0,6${NBSP}g`], // "sucres" E6; "dont" unconfirmed
    ],
    negligible: 'Contient des quantités négligeables de matières grasses, acides gras saturés, protéines et sel', // eu-1169-2011-art-34-5, unconfirmed; names E6
    alcohol: `Alcool 12,5${NBSP}%${NBSP}vol`, // eu-1169-2011-annex-xii; the word unconfirmed
  },
  it: {
    ingredients: [
      'uve', // eu-2019-33-2023-1606, unconfirmed
      'Regolatori di acidità: acido tartarico', // category as E50 reports Table 2 (secondary); name E39
      'Stabilizzanti: gomma arabica', // category as E50 reports Table 2 (secondary); name E39
      // "Conservanti e antiossidanti": eu-2019-934-annex-i-a-2 through E50 (secondary); "solfiti" eu-2019-33-annex-i (E34)
      'Conservanti e antiossidanti: metabisolfito di potassio (<strong>solfiti</strong>)',
      '<strong>lisozima da uovo</strong>', // eu-2019-33-annex-i, E34
      '<strong>caseina del latte</strong>', // eu-2019-33-annex-i, E34
      'colla di pesce', // eu-1169-2011-annex-ii point 4(b) (E30); name unconfirmed
      'Imbottigliato in atmosfera protettiva', // eu-2019-33-2023-1606 Art. 48a(6), unconfirmed
    ],
    emphasised: ['solfiti', 'lisozima da uovo', 'caseina del latte'],
    contains: 'Contiene: solfiti, uovo, latte', // eu-1169-2011 Art. 21 (E30); terms E34
    rows: [
      ['Valore energetico', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E16
      ['Carboidrati', `2,6${NBSP}g`], // E16
      ['di cui zuccheri', `0,6${NBSP}g`], // "zuccheri" E16; "di cui" unconfirmed
    ],
    negligible: 'Contiene quantità trascurabili di grassi, acidi grassi saturi, proteine e sale', // eu-1169-2011-art-34-5, unconfirmed; names E16
    alcohol: `Alcol 12,5${NBSP}%${NBSP}vol`, // eu-1169-2011-annex-xii; the word unconfirmed
  },
  es: {
    ingredients: [
      'uvas', // eu-2019-33-2023-1606, unconfirmed
      'Correctores de acidez: ácido tartárico', // category: the plural Table 2 uses, unconfirmed; name E39
      'Estabilizadores: goma arábiga', // category: the plural, unconfirmed; name E39
      // category unconfirmed; "sulfitos" eu-2019-33-annex-i (E10)
      'Conservantes y antioxidantes: metabisulfito de potasio (<strong>sulfitos</strong>)',
      '<strong>lisozima de huevo</strong>', // eu-2019-33-annex-i, E10
      '<strong>caseína de leche</strong>', // eu-2019-33-annex-i, unconfirmed
      'cola de pescado', // eu-1169-2011-annex-ii point 4(b); name unconfirmed
      'Embotellado en atmósfera protectora', // eu-2019-33-2023-1606 Art. 48a(6), unconfirmed
    ],
    emphasised: ['sulfitos', 'lisozima de huevo', 'caseína de leche'],
    contains: 'Contiene: sulfitos, huevo, leche', // eu-1169-2011 Art. 21; terms eu-2019-33-annex-i (E10)
    rows: [
      ['Valor energético', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E7 (a copy of Annex XV)
      ['Hidratos de carbono', `2,6${NBSP}g`], // E7
      ['de los cuales: azúcares', `0,6${NBSP}g`], // E7
    ],
    negligible: 'Contiene cantidades insignificantes de grasas, ácidos grasos saturados, proteínas y sal', // eu-1169-2011-art-34-5, unconfirmed; names E7
    alcohol: `Alcohol 12,5${NBSP}%${NBSP}vol`, // eu-1169-2011-annex-xii; the word unconfirmed
  },
  pl: {
    ingredients: [
      'winogrona', // eu-2019-33-2023-1606, unconfirmed
      'Regulatory kwasowości: kwas winowy', // category: the plural Table 2 uses, unconfirmed; name E39
      'Stabilizatory: guma arabska', // category: the plural, unconfirmed; name E39
      // category unconfirmed; "siarczyny" eu-2019-33-annex-i through E44 (secondary)
      'Substancje konserwujące i przeciwutleniacze: pirosiarczyn potasu (<strong>siarczyny</strong>)',
      '<strong>lizozym z jaj</strong>', // eu-2019-33-annex-i through E44 (secondary)
      '<strong>kazeina z mleka</strong>', // eu-2019-33-annex-i through E44 (secondary)
      'karuk', // eu-1169-2011-annex-ii point 4(b), Polish copy E42
      'Butelkowane w atmosferze ochronnej', // eu-2019-33-2023-1606 Art. 48a(6), unconfirmed
    ],
    emphasised: ['siarczyny', 'lizozym z jaj', 'kazeina z mleka'],
    contains: 'Zawiera: siarczyny, jajo, mleko', // "Zawiera" eu-1169-2011; "jajo" (not "jaja") as E44 gives the Annex I Part A term
    rows: [
      ['Wartość energetyczna', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E13
      ['Węglowodany', `2,6${NBSP}g`], // E13
      ['w tym cukry', `0,6${NBSP}g`], // "cukry" E13; "w tym" unconfirmed
    ],
    negligible: 'Zawiera nieznaczne ilości: tłuszcz, kwasy tłuszczowe nasycone, białko i sól', // eu-1169-2011-art-34-5, unconfirmed
    alcohol: `Alkohol 12,5${NBSP}%${NBSP}vol`, // eu-1169-2011-annex-xii; the word unconfirmed
  },
  mt: {
    ingredients: [
      'għeneb', // eu-2019-33-2023-1606, unconfirmed
      'Regolaturi tal-aċidità: aċidu tartariku', // category: the plural Table 2 uses, unconfirmed; name E39
      'Stabbilizzaturi: gomma tal-akaċja', // category: the plural, unconfirmed; name E39
      // category unconfirmed; "sulfiti" eu-2019-33-annex-i, unconfirmed
      'Preservattivi u antiossidanti: metabisulfit tal-potassju (<strong>sulfiti</strong>)',
      '<strong>liżożima tal-bajd</strong>', // eu-2019-33-annex-i, unconfirmed
      '<strong>kaseina tal-ħalib</strong>', // eu-2019-33-annex-i, unconfirmed
      'kolla tal-ħut', // eu-1169-2011-annex-ii point 4(b); name unconfirmed
      'Ibbottiljat taħt atmosfera protettiva', // eu-2019-33-2023-1606 Art. 48a(6), unconfirmed
    ],
    emphasised: ['sulfiti', 'liżożima tal-bajd', 'kaseina tal-ħalib'],
    contains: 'Fih: sulfiti, bajd, ħalib', // "Fih" eu-1169-2011 (confirmed); terms unconfirmed
    rows: [
      ['Valur enerġetiku', `318${NBSP}kJ / 76${NBSP}kcal`], // eu-1169-2011-annex-xv, E26
      ['Karboidrati', `2.6${NBSP}g`], // unconfirmed; Maltese writes a decimal point (CLDR)
      ['li minnhom zokkor', `0.6${NBSP}g`], // unconfirmed
    ],
    // eu-1169-2011-art-34-5, unconfirmed; the list joined by CLDR's Maltese pattern (", u")
    negligible: 'Fih ammonti negliġibbli ta&#39; xaħam, xaħam saturat, proteina, u melħ',
    alcohol: `Alkoħol 12.5${NBSP}%${NBSP}vol`, // eu-1169-2011-annex-xii; the word unconfirmed
  },
};

/** The parts of the page the label review signs off. */
function readLabel(page: string) {
  const ingredients = /aria-labelledby="ingredients"[^>]*>[\s\S]*?<p>([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
  return {
    ingredients,
    emphasised: [...ingredients.matchAll(/<strong>([\s\S]*?)<\/strong>/g)].map((match) => match[1]),
    contains: /aria-labelledby="allergens"[^>]*>[\s\S]*?<strong>([\s\S]*?)<\/strong>/.exec(page)?.[1],
    rows: [...page.matchAll(/<th scope="row">([^<]*)<\/th><td>([^<]*)<\/td>/g)].map((match) => [match[1], match[2]]),
    negligible: /<\/table>\s*<p>([^<]*)<\/p>/.exec(page)?.[1],
    alcohol: /<p class="meta">([^<]*%\u00a0vol)<\/p>/.exec(page)?.[1],
  };
}

describe('the golden wine label (grapes, an acidity regulator, a stabilising agent, a sulphite, egg and milk fining agents, isinglass, protective atmosphere, 12.5 % vol, negligible nutrients)', () => {
  it.each(Object.entries(GOLDEN_PAGES))('%s: the page shows exactly the signed-off strings', (lang, golden) => {
    // Act
    const label = readLabel(renderElabel(wineView(GOLDEN), lang as keyof typeof GOLDEN_PAGES));

    // Assess
    expect(label.ingredients).toBe(golden.ingredients.join(', '));
    expect(label.emphasised).toEqual(golden.emphasised);
    expect(label.contains).toBe(golden.contains);
    expect(label.rows).toEqual(golden.rows);
    expect(label.negligible).toBe(golden.negligible);
    expect(label.alcohol).toBe(golden.alcohol);
  });
});
