import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Passports Org');
});

describe('POST /v1/passports', () => {
  it('publishes version 1 and answers exactly passportId, productId, version, status and createdAt', async () => {
    // Prepare
    const product = await createProduct(org.live);
    // Act
    const response = await call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: RED_WINE } });
    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'passportId', 'productId', 'status', 'version']);
    expect(response.body).toMatchObject({ productId: product.productId, version: 1, status: 'published' });
    expect(response.body.passportId).toMatch(/^ps_[0-9a-z]{20}$/);
    expect(response.body.createdAt).toMatch(ISO);
  });

  it('numbers 20 concurrent publications of one product 1..20 with no gap and no duplicate', async () => {
    const product = await createProduct(org.live);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { ...RED_WINE, vintage: 2000 + i } } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(responses.map((r) => r.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const history = await call('GET', `/v1/products/${product.productId}/passports?limit=100`, { key: org.live });
    expect(history.body.data.map((p: { version: number }) => p.version)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(current.body.version).toBe(20);
    const twentieth = responses.find((r) => r.body.version === 20);
    expect(current.body.passportId).toBe(twentieth?.body.passportId);
  });

  it.each([
    [{ data: RED_WINE }, 'productId'],
    [{ productId: 'nope', data: RED_WINE }, 'productId'],
    [{ productId: '$product' }, 'data'],
    [{ productId: '$product', data: [] }, 'data'],
    [{ productId: '$product', data: { nutrition: { fatg: 1 } } }, 'data.nutrition.fatg'],
    [{ productId: '$product', data: { sparkling: true } }, 'data.sparkling'],
    [{ productId: '$product', data: { nutrition: { fatG: -1 } } }, 'data.nutrition.fatG'],
    [{ productId: '$product', data: { nutrition: { sugarsG: '4' } } }, 'data.nutrition.sugarsG'],
    // Found by the fuzzer: a denormal amount passed validation and DynamoDB refused it (a 500).
    [{ productId: '$product', data: { nutrition: { alcoholG: 5e-324 } } }, 'data.nutrition.alcoholG'],
    [{ productId: '$product', data: { allergens: { containsEgg: 'no' } } }, 'data.allergens.containsEgg'],
    [{ productId: '$product', data: { origin: { country: 'France' } } }, 'data.origin.country'],
    [{ productId: '$product', data: { origin: { country: 'XX' } } }, 'data.origin.country'],
    [{ productId: '$product', data: { vintage: 1492 } }, 'data.vintage'],
    [{ productId: '$product', data: { vintage: 2020.5 } }, 'data.vintage'],
    [{ productId: '$product', data: { colour: 'blue' } }, 'data.colour'],
    [{ productId: '$product', data: { ingredients: ['Grapes', 7] } }, 'data.ingredients[1]'],
    [{ productId: '$product', data: { producers: [{ role: 'producer' }] } }, 'data.producers[0].name'],
    [{ productId: '$product', data: { producers: [{ name: 'X', role: 'farmer' }] } }, 'data.producers[0].role'],
    [{ productId: '$product', data: RED_WINE, version: 3 }, 'version'],
    // A wine needs the full nutrition declaration (Regulation (EU) No 1169/2011 Art. 30(1)); negligible covers a nutrient (Art. 34(5)) only up to its threshold.
    [{ productId: '$product', data: { ...RED_WINE, nutrition: { ...RED_WINE.nutrition, saturatedFatG: undefined } } }, 'data.nutrition.saturatedFatG'],
    [{ productId: '$product', data: { ...RED_WINE, nutrition: undefined } }, 'data.nutrition'],
    [{ productId: '$product', data: { ...RED_WINE, nutrition: { ...RED_WINE.nutrition, negligible: ['protein', 'protein'] } } }, 'data.nutrition.negligible'],
    [{ productId: '$product', data: { ...RED_WINE, nutrition: { ...RED_WINE.nutrition, carbohydratesG: 2.5, negligible: ['carbohydrate'] } } }, 'data.nutrition.carbohydratesG'],
    [{ productId: '$product', data: { ...RED_WINE, alcoholByVolume: 13.05 } }, 'data.alcoholByVolume'],
    [{ productId: '$product', data: { ...RED_WINE, alcoholByVolume: 101 } }, 'data.alcoholByVolume'],
  ])('answers 422 for %j with param %s, and publishes nothing', async (template, param) => {
    const product = await createProduct(org.live);
    const body = JSON.parse(JSON.stringify(template).replace('$product', product.productId));
    const error = expectError(await call('POST', '/v1/passports', { key: org.live, body }), 422, 'validation_error', param);
    expect(error.message).toBeTruthy();
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });

  it('answers 404 for an unknown product and for another tenant’s product, and publishes nothing there', async () => {
    expectError(
      await call('POST', '/v1/passports', { key: org.live, body: { productId: '01900000-0000-7000-8000-000000000000', data: RED_WINE } }),
      404,
      'not_found',
      'productId',
    );
    const product = await createProduct(org.live);
    const other = await newOrg();
    expectError(await call('POST', '/v1/passports', { key: other.live, body: { productId: product.productId, data: RED_WINE } }), 404, 'not_found');
    expectError(await call('POST', '/v1/passports', { key: org.test, body: { productId: product.productId, data: RED_WINE } }), 404, 'not_found');
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
  });

  it('answers 400 for malformed JSON, 401 without a valid key, 403 without passports:write', async () => {
    const product = await createProduct(org.live);
    expectError(
      await call('POST', '/v1/passports', { key: org.live, rawBody: '{"productId":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request_error',
    );
    const body = { productId: product.productId, data: RED_WINE };
    expectError(await call('POST', '/v1/passports', { body }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/passports', { body, key: await org.revokedKey() }), 401, 'authentication_error');
    const denied = expectError(await call('POST', '/v1/passports', { body, key: await org.keyWith(['products:write', 'passports:read']) }), 403, 'permission_error');
    expect(denied.message).toContain('passports:write');
  });
});

describe('GET /v1/products/{id}/passport', () => {
  it('returns the passport read form exactly (docs/api.md), with the product’s current name', async () => {
    const product = await createProduct(org.live);
    const published = await publish(org.live, product.productId);
    await call('PATCH', `/v1/products/${product.productId}`, { key: org.live, body: { name: 'Renamed 2022' } });
    const response = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      productId: product.productId,
      passportId: published.passportId,
      name: 'Renamed 2022',
      category: 'wine',
      gtin: `0${product.gtin}`,
      data: RED_WINE,
      qrCodeUrl: product.qrCodeUrl,
      status: 'published',
      version: 1,
      lastUpdated: published.createdAt,
      publishedAt: published.createdAt,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      previousDigest: null,
      dppId: expect.stringMatching(/^dpp_[A-Za-z0-9_-]+$/),
      // The version's public backup copy (docs/backup.md#the-backup-url).
      backupUrl: `${inject('stack').backupPublicOrigin}/${org.orgId}/live/p/0${product.gtin}/1/passport.json`,
    });
  });

  it('is allowed with products:read or passports:read alone, refused with neither', async () => {
    const product = await createProduct(org.live);
    await publish(org.live, product.productId);
    const path = `/v1/products/${product.productId}/passport`;
    expect((await call('GET', path, { key: await org.keyWith(['products:read']) })).status).toBe(200);
    expect((await call('GET', path, { key: await org.keyWith(['passports:read']) })).status).toBe(200);
    const denied = expectError(await call('GET', path, { key: await org.keyWith(['suppliers:read']) }), 403, 'permission_error');
    expect(denied.message).toContain('products:read, passports:read');
    expectError(await call('GET', path), 401, 'authentication_error');
  });

  it('answers 404 before any passport, and for another organization or environment', async () => {
    const product = await createProduct(org.live);
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live }), 404, 'not_found');
    await publish(org.live, product.productId);
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: (await newOrg()).live }), 404, 'not_found');
    expectError(await call('GET', `/v1/products/${product.productId}/passport`, { key: org.test }), 404, 'not_found');
  });

  it('is untouched by product updates', async () => {
    const product = await createProduct(org.live);
    await publish(org.live, product.productId);
    await call('PATCH', `/v1/products/${product.productId}`, { key: org.live, body: { category: 'food', sku: 'X' } });
    const read = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    expect(read.body).toMatchObject({ version: 1, data: RED_WINE, category: 'food' });
  });
});

describe('GET /v1/products/{id}/passports', () => {
  it('lists versions newest first in the cursor form', async () => {
    const product = await createProduct(org.live);
    const ids: string[] = [];
    for (let v = 1; v <= 5; v++) ids.push((await publish(org.live, product.productId, { ...RED_WINE, vintage: 2010 + v })).passportId);
    const first = await call('GET', `/v1/products/${product.productId}/passports?limit=2`, { key: org.live });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['data', 'hasMore']);
    expect(first.body.data.map((p: { version: number }) => p.version)).toEqual([5, 4]);
    expect(first.body.data[0]).toEqual({
      passportId: ids[4],
      productId: product.productId,
      version: 5,
      status: 'published',
      data: { ...RED_WINE, vintage: 2015 },
      createdAt: expect.stringMatching(ISO),
      publishedAt: first.body.data[0].createdAt,
      gtin: `0${product.gtin}`,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      previousDigest: first.body.data[1].digest,
    });
    expect(first.body.hasMore).toBe(true);
    const rest = await call('GET', `/v1/products/${product.productId}/passports?limit=10&starting_after=${ids[3]}`, { key: org.live });
    expect(rest.body.data.map((p: { passportId: string }) => p.passportId)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.body.hasMore).toBe(false);
  });

  it('answers 422 for a cursor that is not one of the product’s passports, 404 for a foreign product', async () => {
    const a = await createProduct(org.live);
    const b = await createProduct(org.live);
    const pb = await publish(org.live, b.productId);
    expectError(await call('GET', `/v1/products/${a.productId}/passports?starting_after=${pb.passportId}`, { key: org.live }), 422, 'validation_error', 'starting_after');
    expectError(await call('GET', `/v1/products/${a.productId}/passports?limit=0`, { key: org.live }), 422, 'validation_error', 'limit');
    expectError(await call('GET', `/v1/products/${b.productId}/passports`, { key: (await newOrg()).live }), 404, 'not_found');
  });
});
