import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { decodeQrSvg } from '../support/qr.ts';
import { publish, RED_WINE } from '../support/fixtures.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Products Org');
});

async function createProduct(key: string, overrides: Record<string, unknown> = {}) {
  const gtin = uniqueGtin13();
  const response = await call('POST', '/v1/products', {
    key,
    body: { name: 'Château Test 2021', category: 'wine', gtin, brand: 'Château Test', sku: 'CT-21', ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return { ...response.body, gtin: String(overrides.gtin ?? gtin) } as { productId: string; qrCodeUrl: string; createdAt: string; gtin: string };
}

describe('POST /v1/products', () => {
  it('creates a product and answers exactly productId, qrCodeUrl and createdAt', async () => {
    // Prepare
    const gtin = uniqueGtin13();
    // Act
    const response = await call('POST', '/v1/products', {
      key: org.live,
      body: { name: 'Riesling', category: 'wine', gtin },
    });
    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'productId', 'qrCodeUrl']);
    expect(response.body.productId).toMatch(UUID);
    expect(response.body.createdAt).toMatch(ISO);
    expect(response.body.qrCodeUrl).toMatch(new RegExp(`/${org.orgId}/live/01/0${gtin}$`));
    expect(response.headers.get('location')).toBe(`/v1/products/${response.body.productId}`);
    expect(response.headers.get('request-id')).toBeTruthy();
  });

  it('normalizes GTIN-8, GTIN-12 and GTIN-14 to GTIN-14', async () => {
    for (const [input, expected] of [
      ['96385074', '00000096385074'],
      ['036000291452', '00036000291452'],
      ['10012345678902', '10012345678902'],
    ] as const) {
      const other = await newOrg();
      const created = await call('POST', '/v1/products', { key: other.live, body: { name: 'N', category: 'food', gtin: input } });
      expect(created.status, created.text).toBe(201);
      const read = await call('GET', `/v1/products/${created.body.productId}`, { key: other.live });
      expect(read.body.gtin).toBe(expected);
    }
  });

  it('answers 409 duplicate_error with param gtin for a GTIN the tenant already has, in any length', async () => {
    const first = await createProduct(org.live);
    const again = await call('POST', '/v1/products', { key: org.live, body: { name: 'Again', category: 'wine', gtin: first.gtin } });
    expectError(again, 409, 'duplicate_error', 'gtin');
    const padded = await call('POST', '/v1/products', { key: org.live, body: { name: 'Again', category: 'wine', gtin: `0${first.gtin}` } });
    expectError(padded, 409, 'duplicate_error', 'gtin');
  });

  it('lets exactly one of 10 concurrent creates of one GTIN win', async () => {
    const gtin = uniqueGtin13();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', '/v1/products', { key: org.live, body: { name: `Racer ${i}`, category: 'wine', gtin } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const list = await call('GET', '/v1/products?limit=100', { key: org.live });
    expect(list.body.data.filter((p: { gtin: string }) => p.gtin === `0${gtin}`)).toHaveLength(1);
  });

  it('allows the same GTIN in another organization and in the other environment', async () => {
    const { gtin } = await createProduct(org.live);
    const other = await newOrg();
    expect((await call('POST', '/v1/products', { key: other.live, body: { name: 'X', category: 'wine', gtin } })).status).toBe(201);
    expect((await call('POST', '/v1/products', { key: org.test, body: { name: 'X', category: 'wine', gtin } })).status).toBe(201);
  });

  it.each([
    [{ category: 'wine', gtin: '4006381333931' }, 'name'],
    [{ name: '   ', category: 'wine', gtin: '4006381333931' }, 'name'],
    [{ name: 42, category: 'wine', gtin: '4006381333931' }, 'name'],
    [{ name: 'x'.repeat(201), category: 'wine', gtin: '4006381333931' }, 'name'],
    [{ name: 'N', gtin: '4006381333931' }, 'category'],
    [{ name: 'N', category: 'spirits', gtin: '4006381333931' }, 'category'],
    [{ name: 'N', category: 'wine' }, 'gtin'],
    [{ name: 'N', category: 'wine', gtin: '4006381333932' }, 'gtin'],
    [{ name: 'N', category: 'wine', gtin: '40063813339' }, 'gtin'],
    [{ name: 'N', category: 'wine', gtin: '4006381A33931' }, 'gtin'],
    [{ name: 'N', category: 'wine', gtin: 4006381333931 }, 'gtin'],
    [{ name: 'N', category: 'wine', gtin: '4006381333931', brand: 7 }, 'brand'],
    [{ name: 'N', category: 'wine', gtin: '4006381333931', sku: 'x'.repeat(65) }, 'sku'],
    [{ name: 'N', category: 'wine', gtin: '4006381333931', colour: 'red' }, 'colour'],
  ])('answers 422 validation_error for %j with param %s, and stores nothing', async (body, param) => {
    const fresh = await newOrg();
    const response = await call('POST', '/v1/products', { key: fresh.live, body });
    const error = expectError(response, 422, 'validation_error', param);
    expect(error.message).toBeTruthy();
    expect(error.suggestion).toBeTruthy();
    const list = await call('GET', '/v1/products', { key: fresh.live });
    expect(list.body.pagination.total).toBe(0);
  });

  it('answers 400 invalid_request_error for malformed JSON, a non-object body and a non-JSON content type', async () => {
    expectError(
      await call('POST', '/v1/products', { key: org.live, rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request_error',
    );
    expectError(await call('POST', '/v1/products', { key: org.live, body: ['x'] }), 400, 'invalid_request_error');
    expectError(
      await call('POST', '/v1/products', { key: org.live, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      400,
      'invalid_request_error',
    );
  });

  it('answers 413 for a body over 256 KiB', async () => {
    const response = await call('POST', '/v1/products', {
      key: org.live,
      body: { name: 'x'.repeat(300 * 1024), category: 'wine', gtin: '4006381333931' },
    });
    expectError(response, 413, 'invalid_request_error');
  });

  it('answers 401 for a missing, malformed, unknown or revoked key, and 403 without products:write', async () => {
    const body = { name: 'N', category: 'wine', gtin: uniqueGtin13() };
    expectError(await call('POST', '/v1/products', { body }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/products', { body, headers: { authorization: 'Basic abc' } }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/products', { body, key: 'sk_live_short' }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/products', { body, key: `sk_live_${'A'.repeat(32)}` }), 401, 'authentication_error');
    expectError(await call('POST', '/v1/products', { body, key: await org.revokedKey() }), 401, 'authentication_error');
    const readOnly = await org.keyWith(['products:read']);
    const denied = expectError(await call('POST', '/v1/products', { body, key: readOnly }), 403, 'permission_error');
    expect(denied.message).toContain('products:write');
  });
});

describe('GET /v1/products/{id}', () => {
  it('returns the product read form with exact fields', async () => {
    const created = await createProduct(org.live);
    const response = await call('GET', `/v1/products/${created.productId}`, { key: org.live });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      productId: created.productId,
      internalId: created.productId,
      tenantId: org.orgId,
      environment: 'live',
      gtin: `0${created.gtin}`,
      name: 'Château Test 2021',
      category: 'wine',
      brand: 'Château Test',
      sku: 'CT-21',
      economicOperatorId: null,
      facilityId: null,
      commodityCode: null,
      granularity: 'model',
      qrCodeUrl: created.qrCodeUrl,
      links: [
        { href: created.qrCodeUrl, rel: 'gs1:pip', type: 'text/html' },
        { href: `${created.qrCodeUrl}?linkType=linkset`, rel: 'linkset', type: 'application/linkset+json' },
      ],
      status: 'active',
      withdrawnAt: null,
      withdrawalReason: null,
      passport: { status: 'none', version: null, draft: false },
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
  });

  it('answers 404 not_found for an unknown id, a malformed id, and another tenant’s product', async () => {
    const created = await createProduct(org.live);
    expectError(await call('GET', '/v1/products/01900000-0000-7000-8000-000000000000', { key: org.live }), 404, 'not_found');
    expectError(await call('GET', '/v1/products/not-a-uuid', { key: org.live }), 404, 'not_found');
    const other = await newOrg();
    const foreign = await call('GET', `/v1/products/${created.productId}`, { key: other.live });
    expectError(foreign, 404, 'not_found');
    expect(foreign.text).not.toContain(created.gtin);
    expectError(await call('GET', `/v1/products/${created.productId}`, { key: org.test }), 404, 'not_found');
  });

  it('answers 401 without a key and 403 without products:read', async () => {
    const created = await createProduct(org.live);
    expectError(await call('GET', `/v1/products/${created.productId}`), 401, 'authentication_error');
    const writeOnly = await org.keyWith(['products:write']);
    expectError(await call('GET', `/v1/products/${created.productId}`, { key: writeOnly }), 403, 'permission_error');
  });
});

describe('PATCH /v1/products/{id}', () => {
  it('updates only the fields sent, clears sku with null, and moves updatedAt', async () => {
    const created = await createProduct(org.live);
    const response = await call('PATCH', `/v1/products/${created.productId}`, {
      key: org.live,
      body: { name: 'Renamed', sku: null },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['product']);
    const product = response.body.product;
    expect(product).toMatchObject({ name: 'Renamed', sku: null, brand: 'Château Test', category: 'wine', gtin: `0${created.gtin}` });
    expect(product.updatedAt >= product.createdAt).toBe(true);
    const read = await call('GET', `/v1/products/${created.productId}`, { key: org.live });
    expect(read.body).toEqual(product);
  });

  it.each([
    [{ gtin: '4006381333931' }, 'gtin'],
    [{ name: '' }, 'name'],
    [{ category: 'spirits' }, 'category'],
    [{ brand: null }, 'brand'],
    [{ color: 'red' }, 'color'],
    [{ qrCodeUrl: 'https://evil.example/' }, 'qrCodeUrl'],
  ])('answers 422 for %j with param %s and changes nothing', async (body, param) => {
    const created = await createProduct(org.live);
    const before = await call('GET', `/v1/products/${created.productId}`, { key: org.live });
    expectError(await call('PATCH', `/v1/products/${created.productId}`, { key: org.live, body }), 422, 'validation_error', param);
    const after = await call('GET', `/v1/products/${created.productId}`, { key: org.live });
    expect(after.body).toEqual(before.body);
  });

  it('answers a field named like an Object.prototype member as an unknown field, with a readable message', async () => {
    const created = await createProduct(org.live);
    for (const field of ['constructor', 'toString', '__proto__']) {
      const body = JSON.parse(`{"${field}": "x"}`);
      const response = await call('PATCH', `/v1/products/${created.productId}`, { key: org.live, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const error = expectError(response, 422, 'validation_error', field);
      expect(error.message, field).toBe(`Unknown field '${field}'.`);
    }
  });

  it('answers 404 for another tenant’s product and leaves it unchanged, 400 for bad JSON, 403 without products:write', async () => {
    const created = await createProduct(org.live);
    const other = await newOrg();
    expectError(await call('PATCH', `/v1/products/${created.productId}`, { key: other.live, body: { name: 'Hijack' } }), 404, 'not_found');
    expectError(await call('PATCH', `/v1/products/${created.productId}`, { key: org.test, body: { name: 'Hijack' } }), 404, 'not_found');
    expect((await call('GET', `/v1/products/${created.productId}`, { key: org.live })).body.name).toBe('Château Test 2021');
    expectError(
      await call('PATCH', `/v1/products/${created.productId}`, { key: org.live, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request_error',
    );
    expectError(
      await call('PATCH', `/v1/products/${created.productId}`, { key: await org.keyWith(['products:read']), body: { name: 'x' } }),
      403,
      'permission_error',
    );
    expectError(await call('PATCH', `/v1/products/${created.productId}`, { body: { name: 'x' } }), 401, 'authentication_error');
  });
});

describe('the ESPR identifiers of a product', () => {
  const identifiers = { economicOperatorId: 'DE123456789012345', facilityId: '4006381000017', commodityCode: '22042111', granularity: 'batch' };

  it('stores the identifiers given at creation and returns them in the read form', async () => {
    // Prepare
    const created = await createProduct(org.live, identifiers);

    // Act
    const read = await call('GET', `/v1/products/${created.productId}`, { key: org.live });

    // Assess
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(identifiers);
  });

  it('changes identifiers with PATCH, removes one with null, and keeps the others', async () => {
    // Prepare
    const created = await createProduct(org.live, identifiers);

    // Act
    const response = await call('PATCH', `/v1/products/${created.productId}`, {
      key: org.live,
      body: { facilityId: null, commodityCode: '220421', granularity: 'item' },
    });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.product).toMatchObject({ economicOperatorId: 'DE123456789012345', facilityId: null, commodityCode: '220421', granularity: 'item' });
    const read = await call('GET', `/v1/products/${created.productId}`, { key: org.live });
    expect(read.body).toEqual(response.body.product);
  });

  it.each([
    [{ economicOperatorId: 'de123456789' }, 'economicOperatorId'],
    [{ economicOperatorId: 'DE1234567890123456' }, 'economicOperatorId'],
    [{ economicOperatorId: '12345' }, 'economicOperatorId'],
    [{ facilityId: '4006381000016' }, 'facilityId'],
    [{ facilityId: '400638100001' }, 'facilityId'],
    [{ commodityCode: '22.04.21' }, 'commodityCode'],
    [{ commodityCode: '22042' }, 'commodityCode'],
    [{ commodityCode: '22042111000' }, 'commodityCode'],
    [{ granularity: 'lot' }, 'granularity'],
    [{ granularity: null }, 'granularity'],
  ])('refuses %j at creation and in a PATCH with 422 naming %s, and writes nothing', async (body, param) => {
    // Prepare
    const gtin = uniqueGtin13();
    const existing = await createProduct(org.live);
    const before = await call('GET', `/v1/products/${existing.productId}`, { key: org.live });

    // Act
    const created = await call('POST', '/v1/products', { key: org.live, body: { name: 'N', category: 'wine', gtin, ...body } });
    const patched = await call('PATCH', `/v1/products/${existing.productId}`, { key: org.live, body });

    // Assess
    expectError(created, 422, 'validation_error', param);
    expectError(patched, 422, 'validation_error', param);
    const list = await call('GET', `/v1/products?q=${gtin}`, { key: org.live });
    expect(list.body.data).toEqual([]);
    const after = await call('GET', `/v1/products/${existing.productId}`, { key: org.live });
    expect(after.body).toEqual(before.body);
  });
});

describe('GET /v1/products/{id}/qr', () => {
  it('returns an SVG whose QR code decodes to the product’s qrCodeUrl', async () => {
    const created = await createProduct(org.live);
    const response = await call('GET', `/v1/products/${created.productId}/qr`, { key: org.live });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.text.startsWith('<svg')).toBe(true);
    expect(decodeQrSvg(response.text)).toBe(created.qrCodeUrl);
  });

  it('honours size and margin, and validates them', async () => {
    const created = await createProduct(org.live);
    const big = await call('GET', `/v1/products/${created.productId}/qr?size=512&margin=2`, { key: org.live });
    expect(big.text).toContain('viewBox="0 0 512 512"');
    expect(decodeQrSvg(big.text, 2)).toBe(created.qrCodeUrl);
    expectError(await call('GET', `/v1/products/${created.productId}/qr?size=10`, { key: org.live }), 422, 'validation_error', 'size');
    expectError(await call('GET', `/v1/products/${created.productId}/qr?colour=red`, { key: org.live }), 400, 'invalid_request_error', 'colour');
  });

  it('answers 404 for another tenant’s product, 401 without a key', async () => {
    const created = await createProduct(org.live);
    expectError(await call('GET', `/v1/products/${created.productId}/qr`, { key: (await newOrg()).live }), 404, 'not_found');
    expectError(await call('GET', `/v1/products/${created.productId}/qr`), 401, 'authentication_error');
  });
});

describe('the gateway', () => {
  it('answers 404 not_found for an unknown path and 405 with Allow for a wrong method', async () => {
    expectError(await call('GET', '/v1/nothing-here', { key: org.live }), 404, 'not_found');
    const response = await call('DELETE', '/v1/products', { key: org.live });
    expectError(response, 405, 'invalid_request_error');
    expect(response.headers.get('allow')).toBe('POST, GET');
  });

  it('answers /health', async () => {
    const response = await call('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('authentication and scopes on every products endpoint', () => {
  const endpoints = (productId: string) =>
    [
      ['POST', '/v1/products', { name: 'N', category: 'wine', gtin: '96385074' }, 'products:write'],
      ['GET', '/v1/products', undefined, 'products:read'],
      ['GET', `/v1/products/${productId}`, undefined, 'products:read'],
      ['PATCH', `/v1/products/${productId}`, { name: 'N' }, 'products:write'],
      ['GET', `/v1/products/${productId}/qr`, undefined, 'products:read'],
    ] as const;

  it('answers 401 without a key, with a malformed, unknown or revoked key, and 403 without the scope', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const revoked = await org.revokedKey();
    const wrongScope = await org.keyWith(['suppliers:read', 'suppliers:write']);
    for (const [method, path, body, scope] of endpoints(product.productId)) {
      // Act and assess
      for (const key of [undefined, 'sk_live_tooShort', `sk_test_${'Z'.repeat(32)}`, revoked]) {
        expectError(await call(method, path, { ...(key ? { key } : {}), ...(body ? { body } : {}) }), 401, 'authentication_error');
      }
      const denied = expectError(await call(method, path, { key: wrongScope, ...(body ? { body } : {}) }), 403, 'permission_error');
      expect(denied.message).toContain(scope);
    }
  });
});

describe('the passport status of each product (docs/dashboard.md#passport-status)', () => {
  it('lists none, draft, published vN (with a draft waiting) and withdrawn without reading any passport, and follows a draft to its publication', async () => {
    // Prepare: five products in five states, in an organization of their own
    const own = await newOrg('Passport Status Org');
    const none = await createProduct(own.live);
    const drafted = await createProduct(own.live);
    const published = await createProduct(own.live);
    const newer = await createProduct(own.live);
    const withdrawn = await createProduct(own.live);
    expect((await call('PUT', `/v1/products/${drafted.productId}/draft`, { key: own.live, body: { data: RED_WINE } })).status).toBe(200);
    await publish(own.live, published.productId);
    await publish(own.live, newer.productId);
    await publish(own.live, newer.productId, { ...RED_WINE, vintage: 2021 });
    expect((await call('PUT', `/v1/products/${newer.productId}/draft`, { key: own.live, body: { data: { ...RED_WINE, vintage: 2023 } } })).status).toBe(200);
    await publish(own.live, withdrawn.productId);
    expect((await call('POST', `/v1/products/${withdrawn.productId}/withdraw`, { key: own.live, body: { reason: 'Recalled' } })).status).toBe(200);

    // Act
    const list = await call('GET', '/v1/products?limit=100', { key: own.live });

    // Assess
    expect(list.status).toBe(200);
    const statusOf = new Map((list.body.data as { productId: string; passport: unknown }[]).map((p) => [p.productId, p.passport]));
    expect(statusOf.get(none.productId)).toEqual({ status: 'none', version: null, draft: false });
    expect(statusOf.get(drafted.productId)).toEqual({ status: 'draft', version: null, draft: true });
    expect(statusOf.get(published.productId)).toEqual({ status: 'published', version: 1, draft: false });
    expect(statusOf.get(newer.productId)).toEqual({ status: 'published', version: 2, draft: true });
    expect(statusOf.get(withdrawn.productId)).toEqual({ status: 'withdrawn', version: 1, draft: false });

    // Act: the draft is published; the other one is discarded
    expect((await call('POST', `/v1/products/${drafted.productId}/draft/publish`, { key: own.live })).status).toBe(201);
    expect((await call('DELETE', `/v1/products/${newer.productId}/draft`, { key: own.live })).status).toBe(200);

    // Assess: the one read of each product says so
    expect((await call('GET', `/v1/products/${drafted.productId}`, { key: own.live })).body.passport).toEqual({ status: 'published', version: 1, draft: false });
    expect((await call('GET', `/v1/products/${newer.productId}`, { key: own.live })).body.passport).toEqual({ status: 'published', version: 2, draft: false });
  });
});

describe('text and JSON the API refuses (docs/api.md#text-and-json-rules)', () => {
  it('attack: a product name with ESC, BEL or U+202E is refused with 422 naming name', async () => {
    // Prepare: a terminal escape that clears the screen, a bell, and a right-to-left override
    const own = await newOrg();
    const names = ['Riesling\u001b[2J\u001b[H', 'Riesling\u0007', 'Riesling \u202Egnilseir'];

    for (const name of names) {
      // Act
      const response = await call('POST', '/v1/products', { key: own.live, body: { name, category: 'wine', gtin: uniqueGtin13() } });

      // Assess
      const error = expectError(response, 422, 'validation_error', 'name');
      expect(error.message).toMatch(/^name must not contain/);
    }
    // Assess: the rename is refused the same way, and nothing was written
    const product = await createProduct(own.live);
    expectError(await call('PATCH', `/v1/products/${product.productId}`, { key: own.live, body: { brand: 'Brand\u009b31m' } }), 422, 'validation_error', 'brand');
    const list = await call('GET', '/v1/products?limit=100', { key: own.live });
    expect((list.body.data as { name: string; brand?: string }[]).map((p) => [p.name, p.brand])).toEqual([['Château Test 2021', 'Château Test']]);
  });

  it('takes honest multilingual names: accents, emoji, Arabic, Hebrew, CJK', async () => {
    // Prepare
    const own = await newOrg();
    const name = 'Château Ü 🍷 نبيذ أحمر יין אדום 赤ワイン 红葡萄酒';

    // Act
    const created = await createProduct(own.live, { name });

    // Assess
    expect((await call('GET', `/v1/products/${created.productId}`, { key: own.live })).body.name).toBe(name);
  });

  it('attack: a body with a duplicate key is refused with 400 naming the key, and nothing is written', async () => {
    // Prepare: the second name would win with JSON.parse, unseen by whoever checked the first
    const own = await newOrg();
    const gtin = uniqueGtin13();
    const bodies = [
      `{"name":"Riesling","category":"wine","gtin":"${gtin}","name":"Evil"}`,
      `{"name":"Riesling","category":"wine","gtin":"${gtin}","\\u006eame":"Evil"}`,
    ];

    for (const rawBody of bodies) {
      // Act
      const response = await call('POST', '/v1/products', { key: own.live, rawBody, headers: { 'content-type': 'application/json' } });

      // Assess
      const error = expectError(response, 400, 'invalid_request_error', 'name');
      expect(error.message).toContain("'name'");
    }
    const list = await call('GET', `/v1/products?q=${gtin}`, { key: own.live });
    expect(list.body.data).toEqual([]);
  });
});
