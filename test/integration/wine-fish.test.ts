import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct } from '../support/fixtures.ts';

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Wine Fish Org');
});

/** A complete nutrition declaration of a red wine per 100 ml (a wine needs one to be published). */
const DECLARED = { fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 10.4, energyKj: 348, energyKcal: 84 };

describe('fish in wine (Regulation (EU) No 1169/2011 Annex II point 4(b))', () => {
  it('refuses to publish a wine that declares fish with 422 naming data.allergens.containsFish, and publishes nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    const response = await call('POST', '/v1/passports', {
      key: org.live,
      body: { productId: product.productId, data: { productType: 'wine', nutrition: DECLARED, allergens: { containsSulphites: true, containsFish: true } } },
    });

    // Assess
    const error = expectError(response, 422, 'validation_error', 'data.allergens.containsFish');
    expect(error.message).toContain('Annex II point 4(b)');
    const read = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(read.status).toBe(404);
  });

  it('publishes a food product that declares fish', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'food' });

    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { productType: 'food', allergens: { containsFish: true } } } });

    // Assess
    expect(response.status).toBe(201);
  });
});

describe('fish in wine, in an import', () => {
  it('refuses a wine row that declares fish in the dry run, naming the column, and imports the food row beside it', async () => {
    // Prepare
    const key = await org.keyWith(['imports:read', 'imports:write']);
    const nutrition = Object.entries(DECLARED);
    const header = ['gtin', 'name', 'category', 'passport.productType', 'passport.allergens.containsFish', ...nutrition.map(([f]) => `passport.nutrition.${f}`)];
    const values = nutrition.map(([, v]) => String(v));
    const csv = [header, ['4006381333931', 'Fined red', 'wine', 'wine', 'true', ...values], ['96385074', 'Fish soup', 'food', 'food', 'true', ...values]].map((r) => r.join(',')).join('\n');

    // Act
    const response = await call('POST', '/v1/imports?dryRun=true', { key, rawBody: `${csv}\n`, headers: { 'content-type': 'text/csv' } });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.counts).toMatchObject({ rows: 2, failed: 1, created: 1 });
    expect(response.body.errors).toEqual([expect.objectContaining({ row: 2, column: 'passport.allergens.containsFish', message: expect.stringContaining('Annex II point 4(b)') })]);
  });
});
