import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PassportData } from '../../lib/domain/passport.ts';
import {
  CONTENT_SECURITY_POLICY,
  energyValues,
  escapeHtml,
  renderBadLink,
  renderElabel,
  renderNotFound,
} from '../../functions/resolver/page/elabel.ts';
import { LANGUAGES, negotiateLanguage } from '../../functions/resolver/page/i18n.ts';
import { text as labelText, TEXT_KEYS } from '../../lib/domain/labelling/texts.ts';
import { wineView } from '../support/wine-label.ts';

const COMPLETE_RED: PassportData = {
  productType: 'wine',
  colour: 'red',
  vintage: 2019,
  ingredients: ['grapes', 'tartaric acid', 'preservative: sulphites', 'egg albumin'],
  nutrition: {
    energyKj: 318,
    fatG: 0,
    saturatedFatG: 0,
    carbohydratesG: 2.6,
    sugarsG: 0.6,
    proteinG: 0.1,
    saltG: 0.01,
    alcoholG: 10.4,
  },
  allergens: { containsSulphites: true, containsEgg: true, containsFish: false, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'Pauillac AOC' },
  producers: [
    { name: 'Domaine Lumière', role: 'producer', country: 'FR' },
    { name: 'Weinimport Berger GmbH', role: 'importer', country: 'DE' },
  ],
};

/** The text of the page without tags and with entities decoded, whitespace collapsed. */
function visibleText(page: string): string {
  return page
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0]+/g, ' ');
}

/** The inner markup of the section whose heading has this id. */
function sectionMarkup(page: string, id: string): string | undefined {
  return new RegExp(`<section[^>]*aria-labelledby="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(page)?.[1];
}

describe('negotiateLanguage', () => {
  it.each<[string | undefined, string, string]>([
    [undefined, 'en', 'no header'],
    ['', 'en', 'empty header'],
    ['de', 'de', 'exact'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr', 'browser default order'],
    ['de-AT', 'de', 'region subtag falls back to the language'],
    ['DE-ch', 'de', 'case-insensitive'],
    ['*', 'en', 'wildcard'],
    ['ja, *;q=0.1', 'en', 'unsupported first, wildcard then'],
    ['ja, ko;q=0.9', 'en', 'nothing supported'],
    ['it, es;q=0.9', 'it', 'any of the 24 EU languages'],
    ['el-GR', 'el', 'Greek'],
    ['en;q=0.5, fr;q=0.8', 'fr', 'q-values beat order'],
    ['de;q=0.7, fr;q=0.7', 'de', 'ties go to the range listed first'],
    ['fr;q=0.7, de;q=0.7', 'fr', 'ties go to the range listed first (reversed)'],
    ['en;q=0, de;q=0.1', 'de', 'q=0 excludes'],
    ['en;q=0, *', 'bg', 'q=0 excludes also from the wildcard (then alphabetical order)'],
    ['de-AT, de;q=0, fr;q=0.2', 'fr', 'an exact q=0 refuses the language'],
    ['fr;q=0, de;q=0', 'en', 'nothing acceptable: default'],
    ['fr;q=2, de;q=0.5', 'de', 'malformed weight ignores the member'],
    ['en-US,en;q=0.9,de;q=0.95', 'en', 'a specific range counts for its language'],
    ['x-klingon, de ; q=0.8', 'de', 'whitespace around the weight'],
  ])('%s → %s (%s)', (header, expected) => {
    // Prepare: the header.
    // Act
    const lang = negotiateLanguage(header);
    // Assess
    expect(lang).toBe(expected);
  });

  it.each<[string | undefined, string]>([
    [undefined, 'de'],
    ['ja', 'de'],
    ['*', 'de'],
    ['fr, *;q=0.5', 'fr'],
  ])('with the product label language de as fallback: %s → %s', (header, expected) => {
    // Act
    const lang = negotiateLanguage(header, 'de');
    // Assess
    expect(lang).toBe(expected);
  });
});

describe('renderElabel: a complete red wine', () => {
  it('is a complete, self-contained HTML5 document for a phone', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toMatch(/<title>Château Lumière Pauillac 2019 · Product information<\/title>/);
    expect(page).toMatch(/<main>[\s\S]*<h1>Château Lumière Pauillac 2019<\/h1>[\s\S]*<\/main>/);
    expect(page).toContain('<style>');
    expect(page).toMatch(/font:[^;]*system-ui/);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('shows colour and vintage', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const text = visibleText(renderElabel(view, 'en'));
    // Assess
    expect(text).toContain('Red wine · Vintage 2019');
  });

  it('lists the ingredients with the allergens in <strong>', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const ingredients = sectionMarkup(renderElabel(view, 'en'), 'ingredients');
    // Assess
    expect(ingredients).toContain('<h2 id="ingredients">Ingredients</h2>');
    expect(ingredients).toContain('grapes, tartaric acid, preservative: <strong>sulphites</strong>, <strong>egg albumin</strong>');
  });

  it('has no allergen box beside a list of ingredients that shows the allergens (Regulation (EU) No 1169/2011 Art. 21(1))', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(sectionMarkup(page, 'allergens')).toBeUndefined();
    expect(sectionMarkup(page, 'ingredients')).toContain('<strong>sulphites</strong>');
  });

  it('emphasises sulphites strongly in the allergens section when there is no list of ingredients', () => {
    // Prepare
    const view = wineView({ ...COMPLETE_RED, ingredients: [] });
    // Act
    const allergens = sectionMarkup(renderElabel(view, 'en'), 'allergens');
    // Assess
    expect(allergens).toContain('<strong>Contains: sulphites, egg</strong>');
    expect(allergens).not.toMatch(/fish|milk/);
  });

  it('shows in the box only a stored flag the list does not carry (a version published before the rule)', () => {
    // Prepare
    const view = wineView({ ...COMPLETE_RED, allergens: { ...COMPLETE_RED.allergens, containsMilk: true } });
    // Act
    const allergens = sectionMarkup(renderElabel(view, 'en'), 'allergens');
    // Assess
    expect(allergens).toContain('<strong>Contains: milk</strong>');
  });

  it('has a nutrition table per 100 ml with kJ and kcal, caption and scoped headers', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const table = sectionMarkup(renderElabel(view, 'en'), 'nutrition') ?? '';
    // Assess
    expect(table).toContain('<caption>Average values per 100\u00a0ml</caption>');
    expect(table).toContain('<th scope="col">per 100\u00a0ml</th>');
    // kcal, left out, from the nutrients with the Annex XIV factors: 2.7 g × 4 + 10.4 g × 7 = 83.6 kcal (not 318 ÷ 4.184 = 76).
    expect(table).toContain('<tr><th scope="row">Energy</th><td>318\u00a0kJ / 84\u00a0kcal</td></tr>');
    expect(table).toContain('<tr class="sub"><th scope="row">of which saturates</th><td>0\u00a0g</td></tr>');
    expect(table).toContain('<tr><th scope="row">Carbohydrate</th><td>2.6\u00a0g</td></tr>');
    expect(table).toContain('<tr class="sub"><th scope="row">of which sugars</th><td>0.6\u00a0g</td></tr>');
    // Rounded for display (docs/labelling.md#energy-and-rounding): protein 0.1 g ≤ 0.5 g → 0, salt 0.01 g ≤ 0.0125 g → 0.
    expect(table).toContain('<tr><th scope="row">Protein</th><td>0\u00a0g</td></tr>');
    expect(table).toContain('<tr><th scope="row">Salt</th><td>0\u00a0g</td></tr>');
    // No alcohol row: the declaration is a closed list (Regulation (EU) No 1169/2011 Art. 30(1), Annex XV).
    expect(table).not.toContain('Alcohol');
    const order = ['Energy', 'Fat', 'of which saturates', 'Carbohydrate', 'of which sugars', 'Protein', 'Salt'];
    const positions = order.map((label) => table.indexOf(`<th scope="row">${label}</th>`));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions.every((position) => position >= 0)).toBe(true);
  });

  it('shows the origin with the country name localized', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const en = sectionMarkup(renderElabel(view, 'en'), 'origin');
    const de = sectionMarkup(renderElabel(view, 'de'), 'origin');
    const fr = sectionMarkup(renderElabel(view, 'fr'), 'origin');
    // Assess
    expect(en).toContain('<dt>Country</dt><dd>France</dd><dt>Region</dt><dd>Bordeaux</dd><dt>Designation</dt><dd>Pauillac AOC</dd>');
    expect(de).toContain('<dt>Land</dt><dd>Frankreich</dd>');
    expect(fr).toContain('<dt>Pays</dt><dd>France</dd>');
  });

  it('lists the producers with localized role and country', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const en = visibleText(sectionMarkup(renderElabel(view, 'en'), 'producers') ?? '');
    const de = visibleText(sectionMarkup(renderElabel(view, 'de'), 'producers') ?? '');
    // Assess
    expect(en).toContain('Domaine Lumière Producer · France');
    expect(en).toContain('Weinimport Berger GmbH Importer · Germany');
    expect(de).toContain('Domaine Lumière Erzeuger · Frankreich');
    expect(de).toContain('Weinimport Berger GmbH Importeur · Deutschland');
  });

  it('shows the version, its publication date (UTC) and the GTIN', () => {
    // Prepare: 23:30 UTC is already the next day in Paris, the page must say the UTC date.
    const view = wineView(COMPLETE_RED);
    // Act
    const en = visibleText(renderElabel(view, 'en'));
    const de = visibleText(renderElabel(view, 'de'));
    const fr = visibleText(renderElabel(view, 'fr'));
    // Assess
    expect(en).toContain('Version 3, published 21 November 2026');
    expect(de).toContain('Version 3, veröffentlicht am 21. November 2026');
    expect(fr).toContain('Version 3, publiée le 21 novembre 2026');
    expect(en).toContain('GTIN 04006381333931');
  });
});

describe('renderElabel: languages', () => {
  it('uses German labels, decimal commas and lang="de"', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const page = renderElabel(view, 'de');
    const text = visibleText(page);
    // Assess
    expect(page).toContain('<html lang="de">');
    for (const label of ['Zutaten', 'Nährwertdeklaration', 'Herkunft', 'Erzeuger', 'Brennwert', 'davon Zucker']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('Rotwein · Jahrgang 2019');
    expect(visibleText(renderElabel(wineView({ ...COMPLETE_RED, ingredients: [] }), 'de'))).toContain('Allergene Enthält: Sulfite, Ei');
    expect(text).toContain('pro 100 ml');
    expect(text).not.toContain('Alkohol 10 g');
    expect(text).toContain('Kohlenhydrate 2,6 g');
    expect(text).not.toMatch(/\bIngredients\b|\bContains\b/);
  });

  it('uses French labels, decimal commas and lang="fr"', () => {
    // Prepare
    const view = wineView(COMPLETE_RED);
    // Act
    const page = renderElabel(view, 'fr');
    const text = visibleText(page);
    // Assess
    expect(page).toContain('<html lang="fr">');
    for (const label of ['Ingrédients', 'Déclaration nutritionnelle', 'Origine', 'Producteurs', 'Valeur énergétique', 'dont sucres']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('Vin rouge · Millésime 2019');
    // French sets a narrow no-break space (U+202F) before the colon.
    expect(renderElabel(wineView({ ...COMPLETE_RED, ingredients: [] }), 'fr')).toContain('<strong>Contient\u202f: sulfites, œuf</strong>');
    expect(text).toContain('pour 100 ml');
    expect(text).toContain('Glucides 2,6 g');
    expect(text).not.toMatch(/\bIngredients\b|\bContains\b/);
  });

  it('offers the 24 official EU languages, each with its own texts', () => {
    // Assess
    expect(LANGUAGES).toHaveLength(24);
    expect(TEXT_KEYS.length).toBeGreaterThan(50);
    expect(labelText('de', 'ingredients')).not.toBe(labelText('en', 'ingredients'));
    expect(labelText('fr', 'ingredients')).not.toBe(labelText('en', 'ingredients'));
  });
});

describe('renderElabel: derived and partial data', () => {
  it.each([
    [{ energyKj: 318 }, { kj: 318, kcal: 76 }],
    [{ energyKcal: 76 }, { kj: 318, kcal: 76 }],
    [{ energyKj: 300, energyKcal: 72 }, { kj: 300, kcal: 72 }],
    [{ energyKj: 0 }, { kj: 0, kcal: 0 }],
    [{ fatG: 1 }, undefined],
    // The unit left out computed from the nutrients with the Annex XIV factors when they suffice (a food: no alcohol needed).
    [{ energyKj: 1000, fatG: 10, carbohydratesG: 30, proteinG: 5 }, { kj: 1000, kcal: 230 }], // 10 × 9 + 30 × 4 + 5 × 4 kcal, not 1000 ÷ 4.184 = 239
    [{ energyKcal: 230, fatG: 10, carbohydratesG: 30, proteinG: 5 }, { kj: 965, kcal: 230 }], // 10 × 37 + 30 × 17 + 5 × 17 kJ
  ])('energy %j → %j', (nutrition, expected) => {
    // Prepare: the nutrition object.
    // Act
    const energy = energyValues(nutrition, 'food');
    // Assess
    expect(energy).toEqual(expected);
  });

  it('uses per 100 g outside wine', () => {
    // Prepare
    const view = wineView({ nutrition: { energyKcal: 250, proteinG: 12.5 } }, { category: 'food', name: 'Bergkäse' });
    // Act
    const table = sectionMarkup(renderElabel(view, 'de'), 'nutrition') ?? '';
    // Assess
    expect(table).toContain('pro 100\u00a0g');
    expect(table).not.toContain('100\u00a0ml');
    expect(table).toContain('<td>1.046\u00a0kJ / 250\u00a0kcal</td>');
    expect(table).toContain('<td>13\u00a0g</td>'); // 12.5 g ≥ 10 g: to the gram
  });

  it('renders only the product name, version and GTIN when data is empty', () => {
    // Prepare
    const view = wineView({});
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(page).not.toContain('<section');
    expect(page).not.toContain('class="meta"');
    expect(page).not.toMatch(/undefined|null|NaN/);
    expect(visibleText(page)).toContain('Château Lumière Pauillac 2019');
    expect(visibleText(page)).toContain('Version 3, published 21 November 2026');
  });

  it('leaves out empty sections and the missing parts of partial ones', () => {
    // Prepare
    const view = wineView({
      vintage: 2020,
      ingredients: [],
      nutrition: {},
      allergens: { containsSulphites: false },
      origin: { region: 'Mosel' },
      producers: [{ name: 'Weingut Stein', role: 'producer' }],
    });
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(page).not.toMatch(/aria-labelledby="(ingredients|nutrition|allergens)"/);
    expect(sectionMarkup(page, 'origin')).toContain('<dl><dt>Region</dt><dd>Mosel</dd></dl>');
    expect(sectionMarkup(page, 'producers')).toContain('<span class="producer-detail"><span>Producer</span></span>');
    expect(visibleText(page)).toContain('Vintage 2020');
    expect(visibleText(page)).not.toMatch(/wine ·|· Vintage/);
    expect(page).not.toMatch(/undefined|null|NaN|<dd><\/dd>|<li><\/li>|<p><\/p>/);
  });

  it('tolerates nulls and a bad date from stored data without printing them', () => {
    // Prepare: data that bypassed validation.
    const data = {
      colour: null,
      vintage: null,
      ingredients: ['water', null],
      nutrition: { energyKj: null, fatG: null, saltG: 0.2 },
      allergens: { containsMilk: null },
      origin: { country: null, region: null, designation: null },
      producers: [{ name: null }, null],
    } as unknown as PassportData;
    const view = wineView(data, { lastUpdated: 'not a date' });
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(page).not.toMatch(/undefined|null|NaN|Invalid Date/);
    expect(page).not.toMatch(/aria-labelledby="(allergens|origin|producers)"/);
    expect(sectionMarkup(page, 'ingredients')).toContain('<p>water</p>');
    expect(sectionMarkup(page, 'nutrition')).toContain('<tr><th scope="row">Salt</th><td>0.2\u00a0g</td></tr>');
    expect(visibleText(page)).toContain('Version 3 GTIN');
  });

  it.each([
    ['Schwefeldioxid', 'Schwefeldioxid'],
    ['Konservierungsstoff: Sulfite', 'Sulfite'],
    ['anhydride sulfureux', 'anhydride sulfureux'],
    // "E 220" is never bold alone: the term follows it (docs/labelling.md#free-text-allergens).
    ['E 220', 'sulphites'],
    ['Hühnereiweiß', 'Hühnereiweiß'],
    ["blanc d'œuf", 'œuf'],
    // A wine: fish gelatine and isinglass are fining agents exempt by Annex II point 4(b), never emphasised as fish.
    ['Fischgelatine', undefined],
    ['colle de poisson', undefined],
    ['Magermilchpulver', 'Magermilchpulver'],
    ['Milcheiweiß', 'Milcheiweiß'],
    ['lait écrémé', 'lait'],
    ['sulfites', 'sulfites'],
    ['eggplant', undefined],
    ['Eiche (oak chips)', undefined],
    ['laitue', undefined],
  ])('emphasises the allergen in %j', (ingredient, emphasised) => {
    // Prepare
    const view = wineView({ ingredients: [ingredient] });
    // Act
    const markup = sectionMarkup(renderElabel(view, 'en'), 'ingredients') ?? '';
    // Assess
    const strong = /<strong>(.*?)<\/strong>/.exec(markup)?.[1];
    expect(strong).toBe(emphasised === undefined ? undefined : escapeHtml(emphasised));
  });
});

describe('renderElabel: escaping', () => {
  const INJECTION = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
  const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;';

  it('escapes HTML in every text field', () => {
    // Prepare
    const view = wineView(
      {
        ingredients: [`${INJECTION}1`, `sulphites ${INJECTION}2`],
        origin: { region: `${INJECTION}3`, designation: `${INJECTION}4` },
        producers: [{ name: `${INJECTION}5`, role: 'producer' }],
      },
      { name: `${INJECTION}0`, gtin: `${INJECTION}6` },
    );
    // Act
    const page = renderElabel(view, 'en');
    // Assess
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    for (const n of [0, 1, 2, 3, 4, 5, 6]) expect(page).toContain(`${ESCAPED}${n}`);
    expect(page).toContain(`<title>${ESCAPED}0 · Product information</title>`);
    expect(visibleText(page)).toContain(`${INJECTION}5`);
  });

  it('escapes the five special characters', () => {
    // Prepare
    const text = `<a href="x" title='y'>&amp;</a>`;
    // Act
    const escaped = escapeHtml(text);
    // Assess
    expect(escaped).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });
});

describe('pages load nothing and track nothing', () => {
  const pages: [string, string][] = LANGUAGES.flatMap((lang): [string, string][] => [
    [`e-label ${lang}`, renderElabel(wineView(COMPLETE_RED), lang)],
    [`not found ${lang}`, renderNotFound(lang)],
    [`bad link ${lang}`, renderBadLink(lang)],
  ]);

  it.each(pages)('%s has no scripts, links, images, frames or URLs', (_name, page) => {
    // Prepare: the rendered page.
    // Act
    const lower = page.toLowerCase();
    // Assess
    expect(lower).not.toContain('<script');
    // The one <link>: an empty data: icon, so browsers do not request /favicon.ico.
    expect(lower.match(/<link\b[^>]*>/g)).toEqual(['<link rel="icon" href="data:,">']);
    expect(lower).not.toMatch(/<(img|iframe|object|embed|form|video|audio|source)\b/);
    expect(lower).not.toMatch(/https?:\/\/|\/\/[a-z0-9]/);
    expect(lower).not.toMatch(/url\(|@import|@font-face/);
    expect(lower).not.toMatch(/\son[a-z]+=|style="/);
    expect(lower).not.toMatch(/cookie/);
  });

  it('has a CSP that allows exactly the page stylesheet', () => {
    // Prepare
    const page = renderElabel(wineView(COMPLETE_RED), 'en');
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    // Act
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    // Assess
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src 'sha256-${hash}'`);
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/base-uri 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/form-action 'none'/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|script-src|https?:/);
    expect(renderNotFound('de')).toContain(`<style>${style}</style>`);
  });
});

describe('renderNotFound and renderBadLink', () => {
  it.each([
    ['en', "This product's information is not available"],
    ['de', 'Die Informationen zu diesem Produkt sind nicht verfügbar'],
    ['fr', 'Les informations sur ce produit ne sont pas disponibles'],
  ] as const)('not found in %s', (lang, heading) => {
    // Prepare: the language.
    // Act
    const page = renderNotFound(lang);
    // Assess
    expect(page).toContain(`<html lang="${lang}">`);
    expect(page).toContain(`<h1>${escapeHtml(heading)}</h1>`);
    expect(page).toMatch(/<main>[\s\S]*<\/main>/);
    expect(page).toContain('<meta name="viewport"');
  });

  it.each([
    ['en', 'This link is not a valid product code'],
    ['de', 'Dieser Link ist kein gültiger Produktcode'],
    ['fr', "Ce lien n'est pas un code produit valide"],
  ] as const)('bad link in %s', (lang, heading) => {
    // Prepare: the language.
    // Act
    const page = renderBadLink(lang);
    // Assess
    expect(page).toContain(`<html lang="${lang}">`);
    expect(page).toContain(`<h1>${escapeHtml(heading)}</h1>`);
    expect(page).not.toContain(escapeHtml(labelText(lang, 'notFoundHeading')));
  });
});
