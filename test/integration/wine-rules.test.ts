import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

/**
 * One rule says which product is a wine (lib/domain/wine.ts): its category or its productType. Both
 * ways in, through HTTP: the declaration a wine must publish with, the page per 100 ml, and the
 * wine allergen rules of the list of ingredients (docs/labelling.md#which-products-are-wine).
 */

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Wine Rules Org');
});

/** A complete nutrition declaration of a white wine per 100 ml. */
const DECLARED = { energyKj: 318, energyKcal: 76, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 9.9 };
const NBSP = '\u00a0';

const publish = (productId: string, data: Record<string, unknown>) => call('POST', '/v1/passports', { key: org.live, body: { productId, data } });
const page = (gtin13: string, version: number, lang: string) => call('GET', `/${org.orgId}/live/p/0${gtin13}/${version}/${lang}`);

describe('a product of category wine without productType is a wine', () => {
  it('publishes only with its nutrition declaration: 422 naming data.nutrition, then data.nutrition.fatG; then 201, and the page is per 100 ml', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'wine' });

    // Act
    const bare = await publish(product.productId, { vintage: 2023 });
    const energyOnly = await publish(product.productId, { vintage: 2023, nutrition: { energyKj: 318 } });
    const complete = await publish(product.productId, { vintage: 2023, nutrition: DECLARED });
    const shown = await page(product.gtin, 1, 'en');

    // Assess
    expectError(bare, 422, 'validation_error', 'data.nutrition');
    expectError(energyOnly, 422, 'validation_error', 'data.nutrition.fatG');
    expect(complete.status, complete.text).toBe(201);
    expect(complete.body.version).toBe(1);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<caption>Average values per 100${NBSP}ml</caption>`);
  });

  it('a draft of it lists the declaration as missing', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'wine' });

    // Act
    const saved = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: { vintage: 2023 } } });

    // Assess
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.missing).toEqual(['data.nutrition']);
  });
});

describe('productType wine under category food is a wine', () => {
  it('publishes only with its declaration, and its page is per 100 ml, never per 100 g', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'food' });

    // Act
    const bare = await publish(product.productId, { productType: 'wine' });
    const complete = await publish(product.productId, { productType: 'wine', nutrition: DECLARED });
    const shown = await page(product.gtin, 1, 'de');

    // Assess
    expectError(bare, 422, 'validation_error', 'data.nutrition');
    expect(complete.status, complete.text).toBe(201);
    expect(shown.text).toContain(`pro 100${NBSP}ml`);
    expect(shown.text).not.toContain(`100${NBSP}g`);
  });
});

describe('the allergens of a wine\'s list of ingredients', () => {
  it('refuses a flag no ingredient carries (422 naming it), a free-text E 220 without its term (422 naming the ingredient) and a negligible fat with saturates (422 naming saturates); nothing is published', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'wine' });
    const base = { productType: 'wine', nutrition: DECLARED, ingredients: [{ code: 'grapes' }, { code: 'sulphur-dioxide' }], allergens: { containsSulphites: true } };

    // Act
    const flag = await publish(product.productId, { ...base, allergens: { containsSulphites: true, containsEgg: true } });
    const e220 = await publish(product.productId, { ...base, ingredients: [{ code: 'grapes' }, 'E 220'] });
    const saturates = await publish(product.productId, { ...base, nutrition: { ...DECLARED, fatG: 0, saturatedFatG: 0.05, negligible: ['fat'] } });

    // Assess
    expect(expectError(flag, 422, 'validation_error', 'data.allergens.containsEgg').message).toContain('no ingredient of the list carries egg');
    expect(expectError(e220, 422, 'validation_error', 'data.ingredients[1]').message).toContain('E 220');
    expectError(saturates, 422, 'validation_error', 'data.nutrition.saturatedFatG');
    expect((await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).status).toBe(404);
  });

  it('publishes "E 220 (sulphites)" and the flags its list carries; the page shows them in the list and no allergen box', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'wine' });
    const data = { nutrition: DECLARED, ingredients: [{ code: 'grapes' }, 'E 220 (sulphites)', { code: 'egg-albumin' }], allergens: { containsSulphites: true, containsEgg: true } };

    // Act
    const published = await publish(product.productId, data);
    const shown = await page(product.gtin, 1, 'en');

    // Assess
    expect(published.status, published.text).toBe(201);
    expect(shown.text).toContain('E 220 (<strong>sulphites</strong>)');
    expect(shown.text).toContain('<strong>egg albumin</strong>');
    expect(shown.text).not.toContain('aria-labelledby="allergens"');
  });
});

describe('imports', () => {
  it('a dry run refuses the row of a category-wine product without productType that lacks its declaration, at the column', async () => {
    // Prepare
    const key = await org.keyWith(['imports:read', 'imports:write']);
    const csv = `gtin,name,category,passport.vintage\n${uniqueGtin13()},Weißwein,wine,2023\n`;

    // Act
    const response = await call('POST', '/v1/imports?dryRun=true', { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.counts).toMatchObject({ rows: 1, failed: 1 });
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ row: 2, column: 'passport.nutrition.energyKj' })]));
  });
});
