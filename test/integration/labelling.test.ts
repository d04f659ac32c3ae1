import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { text } from '../../lib/domain/labelling/texts.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish } from '../support/fixtures.ts';

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Labelling Org');
});

/** Nutrients of a red wine per 100 ml: 2.6 × 17 + 0.1 × 17 + 10.4 × 29 = 347.5 kJ; 2.6 × 4 + 0.1 × 4 + 10.4 × 7 = 83.6 kcal. */
const WINE_NUTRIENTS = { fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 10.4 };
/** The same with its energy declared: a complete declaration, stored as given (a wine needs one to be published). */
const DECLARED = { ...WINE_NUTRIENTS, energyKj: 348, energyKcal: 84 };

/** The e-label page of a product's version in one language (the resolver's immutable page). */
const elabel = (productGtin: string, version: number, lang: string) => call('GET', `/${org.orgId}/live/p/0${productGtin}/${version}/${lang}`);

describe('GET /v1/vocabulary/ingredients', () => {
  it('lists every code with its category, E-number, allergen and its name in the 24 languages, without authentication, cacheable for a day', async () => {
    // Act
    const response = await call('GET', '/v1/vocabulary/ingredients');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const entries = response.body.data as { code: string; category: { id: string; names: Record<string, string> } | null; eNumber: string | null; allergen: string | null; names: Record<string, string> }[];
    expect(entries.length).toBeGreaterThan(20);
    const tartaric = entries.find((entry) => entry.code === 'tartaric-acid');
    expect(tartaric).toMatchObject({ eNumber: 'E 334', allergen: null, category: { id: 'acidityRegulator' } });
    expect(Object.keys(tartaric?.names ?? {}).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(tartaric?.category?.names ?? {}).sort()).toEqual([...LANGUAGES].sort());
    expect(entries.find((entry) => entry.code === 'potassium-metabisulphite')?.allergen).toBe('sulphites');
    expect(new Set(entries.map((entry) => entry.code)).size).toBe(entries.length);
  });
});

describe('passport ingredients from the vocabulary and as translated text', () => {
  it('accepts codes and translated text beside plain strings, stores them as given, and the e-label shows them in its language under their category', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const ingredients = ['Grapes', { code: 'tartaric-acid' }, { code: 'potassium-metabisulphite' }, { text: { en: 'oak chips', de: 'Eichenholzstücke' } }];

    // Act
    const published = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', ingredients, labelLanguage: 'de', nutrition: DECLARED, allergens: { containsSulphites: true } } } });
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const german = await elabel(product.gtin, 1, 'de');
    const french = await elabel(product.gtin, 1, 'fr');

    // Assess
    expect(published.status).toBe(201);
    expect(current.body.data).toEqual({ productType: 'wine', ingredients, labelLanguage: 'de', nutrition: DECLARED, allergens: { containsSulphites: true } });
    expect(german.status).toBe(200);
    // Each category's group ends with a semicolon (docs/labelling.md#order-of-the-list).
    expect(german.text).toContain('<p>Grapes, Säureregulatoren: Weinsäure; Konservierungsstoffe und Antioxidationsmittel: Kaliummetabisulfit (<strong>Sulfite</strong>); Eichenholzstücke</p>');
    expect(german.text).toContain('Eichenholzstücke');
    expect(french.text).toContain('<span lang="en">oak chips</span>'); // no French given: English, marked as such
  });

  it.each([
    [[{ code: 'grapes' }, 'water', { code: 'unicorn-tears' }], 'data.ingredients[2].code'],
    [[{ code: 42 }], 'data.ingredients[0].code'],
    [[{ text: { en: 'oak', xx: 'oak' } }], 'data.ingredients[0].text.xx'],
    [[{ text: {} }], 'data.ingredients[0].text'],
    [[{ text: { de: '   ' } }], 'data.ingredients[0].text.de'],
    [[{ code: 'grapes', text: { en: 'grapes' } }], 'data.ingredients[0]'],
    [[{}], 'data.ingredients[0]'],
  ])('refuses %j with 422 naming %s, and publishes nothing', async (ingredients, param) => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { ingredients } } });

    // Assess
    expectError(response, 422, 'validation_error', param);
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });

  it('refuses a label language outside the 24 with 422 naming data.labelLanguage', async () => {
    const product = await createProduct(org.live);
    expectError(await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { labelLanguage: 'ja' } } }), 422, 'validation_error', 'data.labelLanguage');
  });
});

describe('substitutable additives (Reg. (EU) 2019/33 Art. 48a(5))', () => {
  it('publishes a run of two marked acidity regulators; the German page lists them as "enthält … und/oder …"', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const ingredients = [{ code: 'grapes' }, { code: 'tartaric-acid', substitutable: true }, { code: 'malic-acid', substitutable: true }];

    // Act
    const published = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', ingredients, nutrition: DECLARED } } });
    const german = await elabel(product.gtin, 1, 'de');

    // Assess
    expect(published.status).toBe(201);
    expect(german.text).toContain('<p>Trauben, Säureregulatoren: enthält Weinsäure und/oder Äpfelsäure</p>');
  });

  it('refuses a mark standing alone with 422 naming data.ingredients[1].substitutable, and writes nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const ingredients = [{ code: 'grapes' }, { code: 'tartaric-acid', substitutable: true }, { code: 'gum-arabic' }];

    // Act
    const refused = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', ingredients, nutrition: DECLARED } } });

    // Assess
    expectError(refused, 422, 'validation_error', 'data.ingredients[1].substitutable');
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });
});

describe('energy on publish', () => {
  it('computes 348 kJ / 84 kcal for a wine whose nutrition omits energy, marks them calculated, and the page says so', async () => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    await publish(org.live, product.productId, { productType: 'wine', nutrition: WINE_NUTRIENTS });
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const page = await elabel(product.gtin, 1, 'en');

    // Assess
    expect(current.body.data.nutrition).toEqual({ ...WINE_NUTRIENTS, energyKj: 348, energyKcal: 84, energyCalculated: true });
    expect(page.text).toContain(`348\u00a0kJ / 84\u00a0kcal (${text('en', 'energyEstimated')})`);
  });

  it('refuses a declared energy that disagrees clearly (84 kJ: a kcal figure typed as kJ) with 422 naming data.nutrition.energyKj, and publishes nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', nutrition: { ...WINE_NUTRIENTS, energyKj: 84 } } } });

    // Assess
    const error = expectError(response, 422, 'validation_error', 'data.nutrition.energyKj');
    expect(error.message).toContain('348 kJ');
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });

  it('keeps a declared energy within 20 % of the computed one as declared (a laboratory value)', async () => {
    const product = await createProduct(org.live);
    await publish(org.live, product.productId, { productType: 'wine', nutrition: { ...WINE_NUTRIENTS, energyKj: 318 } });
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(current.body.data.nutrition).toEqual({ ...WINE_NUTRIENTS, energyKj: 318 });
  });
});

describe('the nutrition declaration of a wine (Regulation (EU) No 1169/2011 Art. 30(1), 34(5); Annex XII)', () => {
  it('refuses to publish a wine without saturates with 422 naming data.nutrition.saturatedFatG, and without nutrition naming data.nutrition; nothing is written', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const { saturatedFatG: _gone, ...incomplete } = DECLARED;

    // Act
    const withoutSaturates = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', nutrition: incomplete } } });
    const withoutNutrition = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', vintage: 2022 } } });

    // Assess
    expectError(withoutSaturates, 422, 'validation_error', 'data.nutrition.saturatedFatG');
    expectError(withoutNutrition, 422, 'validation_error', 'data.nutrition');
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });

  it('publishes a wine whose negligible nutrients cover the missing ones; the page shows the statement under the table and the strength outside it', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const nutrition = { energyKj: 348, carbohydratesG: 2.6, sugarsG: 0.6, alcoholG: 10.4, negligible: ['fat', 'saturates', 'protein', 'salt'] };

    // Act
    await publish(org.live, product.productId, { productType: 'wine', nutrition, alcoholByVolume: 12.5 });
    const page = await elabel(product.gtin, 1, 'de');

    // Assess
    expect(page.status).toBe(200);
    expect(page.text).toContain('</table>\n<p>Enthält geringfügige Mengen von Fett, gesättigten Fettsäuren, Eiweiß und Salz</p>');
    expect(page.text).toContain('<p class="meta">alc 12,5\u00a0%\u00a0vol</p>'); // "alc": Annex XII and Reg. (EU) 2019/33 Art. 44
    expect(page.text).not.toContain('<th scope="row">Fett</th>');
    expect(page.text).not.toContain('<th scope="row">Alkohol</th>');
  });

  it('refuses a negligible nutrient above its threshold (422 naming data.nutrition.fatG) and an alcoholByVolume of two decimals (422 naming data.alcoholByVolume)', async () => {
    const product = await createProduct(org.live);
    const above = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', nutrition: { ...DECLARED, fatG: 0.6, negligible: ['fat'] } } } });
    expectError(above, 422, 'validation_error', 'data.nutrition.fatG');
    const strength = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'wine', nutrition: DECLARED, alcoholByVolume: 12.25 } } });
    expectError(strength, 422, 'validation_error', 'data.alcoholByVolume');
  });

  it('keeps an incomplete draft, lists what is missing, and refuses to publish it (422 naming the field; the draft stays)', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const { saturatedFatG: _gone, saltG: _salt, ...incomplete } = DECLARED;

    // Act
    const saved = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: { productType: 'wine', nutrition: incomplete } } });
    const read = await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live });
    const published = await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live });
    const patched = await call('PATCH', `/v1/products/${product.productId}/draft`, {
      key: org.live,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { data: { nutrition: { saturatedFatG: 0, negligible: ['salt'] } } },
    });

    // Assess
    expect(saved.status).toBe(200);
    expect(read.body.missing).toEqual(['data.nutrition.saturatedFatG', 'data.nutrition.saltG']);
    expectError(published, 422, 'validation_error', 'data.nutrition.saturatedFatG');
    expect((await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live })).status).toBe(200);
    expect(patched.status).toBe(200);
    expect(patched.body.missing).toEqual([]);
    expect((await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live })).status).toBe(201);
  });
});

describe('POST /v1/nutrition/calculate', () => {
  it('computes the energy with a key of any scope: 12 % vol → 9.47 g alcohol; with 2.6 g carbohydrate and 0.1 g protein 321 kJ / 77 kcal', async () => {
    // Prepare
    const key = await org.keyWith(['analytics:read']);

    // Act
    const response = await call('POST', '/v1/nutrition/calculate', { key, body: { nutrition: { fatG: 0, carbohydratesG: 2.6, proteinG: 0.1 }, alcoholPercentVol: 12, productType: 'wine' } });

    // Assess: 9.47 × 29 + 2.7 × 17 = 274.6 + 45.9 = 320.5 kJ → 321; 9.47 × 7 + 2.7 × 4 = 66.3 + 10.8 = 77.1 kcal.
    expect(response.status).toBe(200);
    expect(response.body.nutrition).toEqual({ fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 9.47, energyKj: 321, energyKcal: 77, energyCalculated: true });
    expect(response.body.sources).toEqual({ energyKj: 'calculated', energyKcal: 'calculated', alcoholG: 'calculated' });
    expect(response.body.computed.energyKj).toBeCloseTo(320.53, 2);
  });

  it('keeps declared energy, says where each figure comes from, and answers null when the nutrients do not suffice', async () => {
    const declared = await call('POST', '/v1/nutrition/calculate', { key: org.live, body: { nutrition: { ...WINE_NUTRIENTS, energyKj: 318 } } });
    expect(declared.body.sources).toEqual({ energyKj: 'declared', energyKcal: 'absent', alcoholG: 'declared' });
    expect(declared.body.nutrition.energyKj).toBe(318);
    const partial = await call('POST', '/v1/nutrition/calculate', { key: org.live, body: { nutrition: { sugarsG: 3 }, productType: 'wine' } });
    expect(partial.body).toEqual({ nutrition: { sugarsG: 3 }, sources: { energyKj: 'absent', energyKcal: 'absent', alcoholG: 'absent' }, computed: null, disagreement: null });
  });

  it('answers 422 naming nutrition.energyKj for a clear disagreement, 422 naming the field for a bad value, 401 without a key', async () => {
    const typedAsKcal = await call('POST', '/v1/nutrition/calculate', { key: org.live, body: { nutrition: { ...WINE_NUTRIENTS, energyKj: 3480 } } });
    expect(typedAsKcal.status).toBe(200);
    expect(typedAsKcal.body.disagreement).toMatchObject({ field: 'energyKj', declaredKj: 3480 });
    expectError(await call('POST', '/v1/nutrition/calculate', { key: org.live, body: { nutrition: { fatG: -1 } } }), 422, 'validation_error', 'nutrition.fatG');
    expectError(await call('POST', '/v1/nutrition/calculate', { key: org.live, body: { nutrition: {}, alcoholPercentVol: 120 } }), 422, 'validation_error', 'alcoholPercentVol');
    expectError(await call('POST', '/v1/nutrition/calculate', { body: { nutrition: {} } }), 401, 'authentication_error');
  });
});

describe('the language of the page a scan opens', () => {
  const scan = (qrCodeUrl: string, acceptLanguage?: string) =>
    fetch(`${baseUrl()}${new URL(qrCodeUrl).pathname}`, { redirect: 'manual', headers: { accept: 'text/html', ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) } });

  it('is Accept-Language’s when it names one of the 24, else the product’s label language, else English', async () => {
    // Prepare
    const polish = await createProduct(org.live);
    await publish(org.live, polish.productId, { productType: 'wine', labelLanguage: 'pl', nutrition: DECLARED });
    const plain = await createProduct(org.live);
    await publish(org.live, plain.productId, { productType: 'wine', nutrition: DECLARED });

    // Act
    const located = async (qrCodeUrl: string, acceptLanguage?: string) => (await scan(qrCodeUrl, acceptLanguage)).headers.get('location') ?? '';

    // Assess
    expect(await located(polish.qrCodeUrl, 'cs-CZ,cs;q=0.9')).toMatch(/\/1\/cs$/);
    expect(await located(polish.qrCodeUrl, 'ja')).toMatch(/\/1\/pl$/);
    expect(await located(polish.qrCodeUrl)).toMatch(/\/1\/pl$/);
    expect(await located(plain.qrCodeUrl, 'ja')).toMatch(/\/1\/en$/);
    expect(await located(plain.qrCodeUrl, 'el')).toMatch(/\/1\/el$/);
  });

  it('lists a link per language, with hreflang, in the linkset', async () => {
    const product = await createProduct(org.live);
    await publish(org.live, product.productId, { productType: 'wine', nutrition: DECLARED });
    const response = await fetch(`${baseUrl()}${new URL(product.qrCodeUrl).pathname}?linkType=linkset`);
    const body = (await response.json()) as { linkset: Record<string, { hreflang?: string[] }[]>[] };
    const pip = body.linkset[0]?.['https://gs1.org/voc/pip'] ?? [];
    expect(pip.flatMap((link) => link.hreflang ?? [])).toEqual([...LANGUAGES]);
  });
});
