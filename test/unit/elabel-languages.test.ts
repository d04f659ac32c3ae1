import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtml, renderElabel, renderWithdrawn } from '../../functions/resolver/page/elabel.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { text, type TextKey } from '../../lib/domain/labelling/texts.ts';
import { categoryById, ingredientByCode } from '../../lib/domain/labelling/vocabulary.ts';
import { apiGatewayEvent, CONTEXT, GTIN, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';
import { FULL_WINE, fullWineView } from '../support/wine-label.ts';

/** A fixed text as the page writes it (no-break spaces: U+00A0 in "100 ml", the narrow U+202F before French ":"; HTML-escaped). */
const onPage = (lang: Lang, key: TextKey, vars?: Parameters<typeof text>[2]) =>
  escapeHtml(text(lang, key, vars).replace(/(\d) (?=(?:ml|g)\b)/g, '$1\u00a0').replace(/[ \u00a0](?=[:;!?](?:\s|$))/g, '\u202f'));

/** The fixed texts a full wine label shows, with the element each stands in (the page's own markup). */
function expectedElements(lang: Lang): [TextKey, string][] {
  const per = text(lang, 'per100ml');
  return [
    ['pageKicker', `<p class="kicker">${onPage(lang, 'pageKicker')}</p>`],
    ['ingredients', `<h2 id="ingredients">${onPage(lang, 'ingredients')}</h2>`],
    ['nutrition', `<h2 id="nutrition">${onPage(lang, 'nutrition')}</h2>`],
    ['nutritionCaption', `<caption>${escapeHtml(text(lang, 'nutritionCaption', { per }))}</caption>`],
    ['nutrientColumn', `<th scope="col">${onPage(lang, 'nutrientColumn')}</th>`],
    ['per100ml', `<th scope="col">${escapeHtml(per)}</th>`],
    ...(['energy', 'fat', 'carbohydrate', 'protein', 'salt'] as const).map((key): [TextKey, string] => [key, `<tr><th scope="row">${onPage(lang, key)}</th>`]),
    ...(['saturates', 'sugars'] as const).map((key): [TextKey, string] => [key, `<tr class="sub"><th scope="row">${onPage(lang, key)}</th>`]),
    ['origin', `<h2 id="origin">${onPage(lang, 'origin')}</h2>`],
    ...(['country', 'region', 'designation'] as const).map((key): [TextKey, string] => [key, `<dt>${onPage(lang, key)}</dt>`]),
    ['producers', `<h2 id="producers">${onPage(lang, 'producers')}</h2>`],
    ...(['role_producer', 'role_bottler', 'role_importer'] as const).map((key): [TextKey, string] => [key, `<span>${onPage(lang, key)}</span>`]),
    ['wineColour_red', `<span>${onPage(lang, 'wineColour_red')}</span>`],
    ['vintage', `<span>${onPage(lang, 'vintage', { year: '2019' })}</span>`],
    ['otherLanguages', `<h2 id="languages">${onPage(lang, 'otherLanguages')}</h2>`],
    ['gtin', `<p>${onPage(lang, 'gtin')} <span class="gtin"`],
  ];
}

describe('the e-label of a full wine label in each of the 24 languages', () => {
  it.each(LANGUAGES)('%s: every fixed text in its own language, none of them English unless the language writes it so', (lang) => {
    // Act
    const page = renderElabel(fullWineView(), lang);

    // Assess
    expect(page).toContain(`<html lang="${lang}">`);
    for (const [key, element] of expectedElements(lang)) expect(page, `${lang}: ${key}`).toContain(element);
    if (lang !== 'en') {
      for (const [key, element] of expectedElements('en')) {
        if (text(lang, key) === text('en', key)) continue; // the same word in both languages (GTIN, Region, …)
        expect(page, `${lang}: ${key} in English`).not.toContain(element);
      }
    }
    // The list carries every allergen flagged: no "Contains:" box beside it (Reg. (EU) No 1169/2011 Art. 21(1)).
    expect(page).not.toContain('aria-labelledby="allergens"');
  });

  it.each(LANGUAGES)('%s: without a list of ingredients, "Contains: …" says the allergens, and never fish on a wine', (lang) => {
    // Act
    const page = renderElabel(fullWineView({ data: { ...FULL_WINE, ingredients: [] } }), lang);

    // Assess: the stored label says containsFish, which a wine never prints (Reg. (EU) No 1169/2011 Annex II point 4(b)).
    const contained = (['sulphites', 'egg'] as const).map((allergen) => text(lang, `allergen_${allergen}`)).join(', ');
    expect(page).toContain(`<h2 id="allergens">${onPage(lang, 'allergens')}</h2>`);
    expect(page).toContain(`<strong>${onPage(lang, 'contains', { list: contained })}</strong>`);
    expect(page).not.toContain(escapeHtml(text(lang, 'allergen_fish')));
  });

  it.each(LANGUAGES)('%s: the ingredients in the page language, each additive after its category, allergens in bold, free text in the best language', (lang) => {
    // Prepare
    const name = (code: string) => escapeHtml(ingredientByCode(code)?.names[lang] ?? '');
    const category = (id: string) => escapeHtml(categoryById(id)?.names[lang] ?? '');
    const oak = lang === 'de' ? 'Eichenholzstücke' : lang === 'fr' ? 'copeaux de chêne' : lang === 'en' ? 'oak chips' : '<span lang="en">oak chips</span>';

    // Act
    const page = renderElabel(fullWineView(), lang);

    // Assess: one sentence, in the order given, the two acidity regulators together; each category's
    // group ends with a semicolon, its name in lower case mid-list (German nouns keep their capital),
    // French with a narrow no-break space before ":" and ";".
    const space = lang === 'fr' ? '\u202f' : '';
    const group = (id: string, items: string) => {
      const named = category(id);
      return `${lang === 'de' ? named : named.charAt(0).toLocaleLowerCase(lang) + named.slice(1)}${space}: ${items}`;
    };
    const sentence = [
      `${name('grapes')}, `,
      `${name('rectified-concentrated-grape-must')}, `,
      `${group('acidityRegulator', `${name('tartaric-acid')}, ${name('malic-acid')}`)}${space}; `,
      `${group('preservativeAntioxidant', `${name('potassium-metabisulphite')} (<strong>${onPage(lang, 'allergen_sulphites')}</strong>), <strong>${name('lysozyme')}</strong>`)}${space}; `,
      `${group('stabilisingAgent', name('gum-arabic'))}${space}; `,
      `${oak}, `,
      group('packagingGas', name('nitrogen')),
    ].join('');
    expect(page).toContain(`<p>${sentence}</p>`);
  });

  it.each(LANGUAGES)('%s: links to the other 23 languages, each in its own language', (lang) => {
    // Act
    const page = renderElabel(fullWineView(), lang);

    // Assess
    const links = [...page.matchAll(/<a href="([a-z]{2})" hreflang="([a-z]{2})" lang="([a-z]{2})">([^<]+)<\/a>/g)];
    expect(links.map((link) => link[1])).toEqual(LANGUAGES.filter((other) => other !== lang));
    for (const link of links) {
      expect(link[2]).toBe(link[1]);
      expect(link[3]).toBe(link[1]);
      expect(link[4]).toBe(escapeHtml(text(link[1] as Lang, 'languageName')));
    }
    expect(page).not.toMatch(/<script/i);
  });

  it('renders Greek in the Greek script and Bulgarian in Cyrillic', () => {
    // Act
    const greek = renderElabel(fullWineView(), 'el');
    const bulgarian = renderElabel(fullWineView(), 'bg');

    // Assess: the headings are in the language's script, not Latin letters.
    const headings = (page: string) => [...page.matchAll(/<h2 id="[a-z]+">([^<]+)<\/h2>/g)].map((match) => match[1] ?? '');
    expect(headings(greek)).toHaveLength(5); // ingredients, nutrition, origin, producers, languages: no allergen box beside the list
    for (const heading of headings(greek)) expect(heading).toMatch(/^[\p{Script=Greek}\s,.:()-]+$/u);
    for (const heading of headings(bulgarian)) expect(heading).toMatch(/^[\p{Script=Cyrillic}\s,.:()-]+$/u);
    expect(greek).toContain(escapeHtml(ingredientByCode('tartaric-acid')?.names.el ?? 'missing'));
    expect(greek).toMatch(/\p{Script=Greek}/u);
    expect(bulgarian).toMatch(/Франция/u); // the origin country through Intl, in Bulgarian
  });

  it('has the withdrawn page texts in every language (the 410 page)', () => {
    for (const lang of LANGUAGES) {
      const page = renderWithdrawn(lang);
      expect(page).toContain(`<html lang="${lang}">`);
      expect(page).toContain(`<h1>${onPage(lang, 'withdrawnHeading')}</h1>`);
    }
  });

  it('falls back for free text: the page language, then English, then the first given', () => {
    // Prepare
    const view = fullWineView({ data: { ingredients: [{ text: { de: 'Eiche', it: 'quercia' } }, { text: { it: 'rovere', pl: 'dąb' } }] } });

    // Act and assess
    expect(renderElabel(view, 'de')).toContain('<p>Eiche, <span lang="it">rovere</span></p>');
    expect(renderElabel(view, 'pl')).toContain('<p><span lang="de">Eiche</span>, dąb</p>');
    expect(renderElabel({ ...view, data: { ingredients: [{ text: { en: 'oak', it: 'quercia' } }] } }, 'sv')).toContain('<p><span lang="en">oak</span></p>');
  });
});

describe('a version page in each of the 24 languages', () => {
  let handler: Handler;
  beforeAll(async () => {
    ({ handler } = await loadResolver());
  });
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
  });

  it.each(LANGUAGES)('%s: Content-Language and <html lang> name the language of the URL', async (lang) => {
    // Prepare
    const publicFields = { productId: PRODUCT_ID, name: 'Château Lumière Pauillac 2019', category: 'wine', gtin: GTIN, qrCodeUrl: `https://id.example.com/${ORG}/live/01/${GTIN}` };
    const passport = { passportId: 'ps_1', productId: PRODUCT_ID, version: 1, status: 'published', data: FULL_WINE, createdAt: '2026-11-01T00:00:00.000Z' };
    ddb.on('GetItem').resolves({ Item: { ...publicFields, passport } });
    const event = apiGatewayEvent({
      route: '/{orgId}/{environment}/p/{gtin}/{version}/{page}',
      path: `/${ORG}/live/p/${GTIN}/1/${lang}`,
      headers: { host: 'id.example.com', 'accept-language': 'en' },
      pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN, version: '1', page: lang },
    });

    // Act
    const result = await handler(event, CONTEXT);

    // Assess: the URL's language wins over Accept-Language.
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Language']).toBe(lang);
    expect(String(result.body)).toContain(`<html lang="${lang}">`);
  });
});

describe('the Irish page (docs/labelling.md#irish)', () => {
  it('says the English text is authoritative while its legal terms are not all confirmed, and no other language does', () => {
    // Act
    const irish = renderElabel(fullWineView(), 'ga');
    const others = LANGUAGES.filter((lang) => lang !== 'ga').map((lang) => [lang, renderElabel(fullWineView(), lang)] as const);

    // Assess
    expect(irish).toContain(`<p class="meta">${escapeHtml(text('ga', 'englishAuthoritative'))}</p>`);
    expect(others.filter(([lang, page]) => page.includes(escapeHtml(text(lang, 'englishAuthoritative'))))).toEqual([]);
  });
});
