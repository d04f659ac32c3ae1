import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertPassportVersion } from '../../lib/data/passports.ts';
import { getProduct } from '../../lib/data/products.ts';
import { nextPassportVersion } from '../../lib/domain/passport-version.ts';
import type { PassportData } from '../../lib/domain/passport.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { eventually } from '../support/queues.ts';

/**
 * Allergens follow the ingredients (docs/labelling.md#allergens-follow-the-ingredients): a
 * vocabulary ingredient that carries an allergen needs its flag, on every way in.
 */

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Allergen Consistency Org');
});

/** A complete nutrition declaration of a red wine per 100 ml (a wine needs one to be published). */
const DECLARED = { fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 10.4, energyKj: 348, energyKcal: 84 };
/** What the manager chose in the dashboard: sulphur dioxide from the vocabulary, "Contains sulphites" left unticked. */
const UNTICKED = {
  productType: 'wine',
  ingredients: ['Grapes', { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }],
  nutrition: DECLARED,
  allergens: { containsSulphites: false },
};

const elabel = (gtin13: string, version: number, lang: string) => call('GET', `/${org.orgId}/live/p/0${gtin13}/${version}/${lang}`);

describe('POST /v1/passports', () => {
  it('refuses sulphur dioxide without containsSulphites: 422 naming the flag and the ingredient, and publishes nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: UNTICKED } });

    // Assess
    const error = expectError(response, 422, 'validation_error', 'data.allergens.containsSulphites');
    expect(error.message).toContain('data.allergens.containsSulphites');
    expect(error.message).toContain('data.ingredients[2] "sulphur dioxide"');
    expect((await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).status).toBe(404);
  });

  it('refuses an egg fining agent of a food product whose egg flag is left out, and publishes it with the flag', async () => {
    // Prepare
    const product = await createProduct(org.live, { category: 'food' });
    const data = { productType: 'food', ingredients: ['Water', { code: 'egg-albumin' }] };

    // Act
    const refused = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data } });
    const published = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { ...data, allergens: { containsEgg: true } } } });

    // Assess
    expect(expectError(refused, 422, 'validation_error', 'data.allergens.containsEgg').message).toContain('data.ingredients[1] "egg albumin"');
    expect(published.status).toBe(201);
    expect(published.body.version).toBe(1);
  });

  it('publishes the ticked wine, and its e-label and its allergens agree', async () => {
    // Prepare
    const product = await createProduct(org.live);

    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { ...UNTICKED, allergens: { containsSulphites: true } } } });
    const page = await elabel(product.gtin, 1, 'de');

    // Assess
    expect(response.status).toBe(201);
    expect(page.text).toContain('<strong>Schwefeldioxid</strong>');
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(current.body.data.allergens).toEqual({ containsSulphites: true });
  });
});

describe('drafts', () => {
  it('saves a draft that contradicts its ingredients, and refuses to publish it, naming the flag; the draft stays', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const saved = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: UNTICKED } });

    // Act
    const response = await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live });

    // Assess
    expect(saved.status).toBe(200);
    expectError(response, 422, 'validation_error', 'data.allergens.containsSulphites');
    expect((await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live })).status).toBe(200);
    expect((await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).status).toBe(404);
  });
});

describe('imports', () => {
  const nutrition = Object.entries(DECLARED);
  const header = ['gtin', 'name', 'category', 'passport.productType', 'passport.ingredients', 'passport.allergens.containsSulphites', ...nutrition.map(([f]) => `passport.nutrition.${f}`)];
  const values = nutrition.map(([, v]) => String(v));
  const csvOf = (rows: string[][]) => `${[header, ...rows].map((r) => r.join(',')).join('\n')}\n`;

  it('refuses the row that names sulphur dioxide without the flag in a dry run, at its column, and accepts the ticked row beside it', async () => {
    // Prepare
    const key = await org.keyWith(['imports:read', 'imports:write']);
    const csv = csvOf([
      [uniqueGtin13(), 'Unticked red', 'wine', 'wine', 'Grapes|code:tartaric-acid|code:sulphur-dioxide', 'false', ...values],
      [uniqueGtin13(), 'Ticked red', 'wine', 'wine', 'Grapes|code:sulphur-dioxide', 'true', ...values],
    ]);

    // Act
    const response = await call('POST', '/v1/imports?dryRun=true', { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.counts).toMatchObject({ rows: 2, failed: 1, created: 1 });
    expect(response.body.errors).toEqual([
      expect.objectContaining({ row: 2, column: 'passport.allergens.containsSulphites', message: expect.stringContaining('"sulphur dioxide"') }),
    ]);
  });

  it('imports the ticked row and writes nothing of the unticked one', { timeout: 60_000 }, async () => {
    // Prepare
    const key = await org.keyWith(['imports:read', 'imports:write', 'products:read']);
    const [unticked, ticked] = [uniqueGtin13(), uniqueGtin13()];
    const csv = csvOf([
      [unticked, 'Unticked red', 'wine', 'wine', 'Grapes|code:sulphur-dioxide', '', ...values],
      [ticked, 'Ticked red', 'wine', 'wine', 'Grapes|code:sulphur-dioxide', 'true', ...values],
    ]);

    // Act
    const upload = await call('POST', '/v1/imports', { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(upload.status, upload.text).toBe(202);
    const job = await eventually(
      async () => {
        const read = await call('GET', `/v1/imports/${upload.body.id}`, { key });
        return read.body.status === 'queued' || read.body.status === 'running' ? undefined : read.body;
      },
      50_000,
      'the import to finish',
    );

    // Assess
    expect(job.counts).toMatchObject({ rows: 2, created: 1, failed: 1 });
    expect(job.errors).toEqual([expect.objectContaining({ row: 2, column: 'passport.allergens.containsSulphites' })]);
    expect((await call('GET', `/v1/products?q=${unticked}`, { key })).body.data).toEqual([]);
    expect((await call('GET', `/v1/products?q=${ticked}`, { key })).body.data).toHaveLength(1);
  });
});

describe('webhook deliveries', () => {
  /** A PIM that sends vocabulary codes as objects (convert: none) and the sulphites flag per product. */
  const MAPPING = {
    gtin: 'products[].ean',
    name: 'products[].title',
    ingredients: { path: 'products[].ingredients[]', convert: 'none' as const },
    'allergens.containsSulphites': 'products[].sulphites',
  };
  const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('refuses a delivery whose second product names sulphur dioxide without the flag: 422 naming the payload field, and writes neither product', async () => {
    // Prepare
    const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'custom', defaultCategory: 'food', mapping: MAPPING });
    const [first, second] = [uniqueGtin13(), uniqueGtin13()];
    const body = JSON.stringify({
      products: [
        { ean: first, title: 'Vinegar', ingredients: ['Wine vinegar', { code: 'sulphur-dioxide' }], sulphites: true },
        { ean: second, title: 'Grape juice', ingredients: ['Grape juice', { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }], sulphites: false },
      ],
    });

    // Act
    const response = await fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${created.endpoint.endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature(created.secret, body) },
      body,
    });

    // Assess
    const answer = { status: response.status, body: (await response.json()) as Record<string, any>, text: '', headers: response.headers };
    const error = expectError(answer, 422, 'validation_error', 'products[1].sulphites');
    expect(error.message).toContain('products[1].ingredients[2] "sulphur dioxide"');
    for (const gtin of [first, second]) expect((await call('GET', `/v1/products?q=${gtin}`, { key: org.live })).body.data).toEqual([]);
  });
});

describe('stored data', () => {
  it('still resolves a version stored before the rule, as it was published', async () => {
    // Prepare: written below the services, as a version published before the rule was.
    const created = await createProduct(org.live);
    const tenant = { orgId: org.orgId, environment: 'live' as const };
    const product = (await getProduct(tenant, created.productId, true))!;
    expect(await insertPassportVersion(tenant, product, nextPassportVersion(product, UNTICKED as PassportData))).toBe('created');

    // Act
    const page = await elabel(created.gtin, 1, 'de');

    // Assess
    expect(page.status).toBe(200);
    expect(page.text).toContain('<strong>Schwefeldioxid</strong>');
  });
});
