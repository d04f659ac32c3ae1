import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Batches and serialised items under a product, through HTTP (docs/api.md#batches-and-items):
 * create, read, replace, merge-patch, list in cursor pages, the digest chain of an item's versions
 * and `?at=`, the lot and serial syntax (422 naming the field), another organization's item (404),
 * the QR code and the events each change writes.
 */

interface UnitView {
  object: 'item' | 'batch';
  productId: string;
  gtin: string;
  serial?: string;
  lot: string | null;
  status: string;
  data: Record<string, unknown>;
  version: number;
  digest: string;
  previousDigest: string | null;
  createdAt: string;
  updatedAt: string;
  digitalLink: string;
}

let org: TestOrg;
let wine: CreatedProduct;
let food: CreatedProduct;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const itemPath = (product: CreatedProduct, serial: string) => `/v1/products/${product.productId}/items/${encodeURIComponent(serial)}`;
const batchPath = (product: CreatedProduct, lot: string) => `/v1/products/${product.productId}/batches/${encodeURIComponent(lot)}`;

/** A version's digest as an outsider computes it from what the API shows (RFC 8785 with the `canonicalize` package). */
function independentDigest(unit: UnitView): string {
  const signed = {
    data: unit.data,
    gtin: unit.gtin,
    lot: unit.lot,
    previousDigest: unit.previousDigest,
    productId: unit.productId,
    ...(unit.object === 'item' ? { serial: unit.serial } : {}),
    status: unit.status,
    updatedAt: unit.updatedAt,
    version: unit.version,
  };
  return `sha256:${createHash('sha256').update(canonicalize(signed) ?? '', 'utf8').digest('hex')}`;
}

beforeAll(async () => {
  org = await newOrg('Items');
  wine = await createProduct(org.live, { name: 'Riesling by lot', granularity: 'batch' });
  food = await createProduct(org.live, { name: 'Serialised jam', category: 'food', granularity: 'item' });
});

describe('items: create, read, replace, patch', () => {
  it('registers an item with its lot and data (201, Location), answers its Digital Link on the product’s link, and reads it back', async () => {
    // Prepare
    const serial = 'SN-0001/A';
    // Act
    const created = await call<UnitView>('PUT', itemPath(food, serial), { key: org.live, body: { lot: 'L2026-03', data: { colourBatch: 'amber', weightG: 250 } } });
    const read = await call<UnitView>('GET', itemPath(food, serial), { key: org.live });
    // Assess
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(itemPath(food, serial));
    expect(created.body).toMatchObject({
      object: 'item',
      serial,
      lot: 'L2026-03',
      status: 'active',
      data: { colourBatch: 'amber', weightG: 250 },
      version: 1,
      previousDigest: null,
      gtin: `0${food.gtin}`,
      digitalLink: `${food.qrCodeUrl}/21/SN-0001%2FA`,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('replaces an item with PUT (200, version 2) and writes nothing for a PUT that changes nothing', async () => {
    // Prepare
    const serial = 'SN-REPLACE';
    await call('PUT', itemPath(food, serial), { key: org.live, body: { data: { weightG: 250 } } });
    // Act
    const replaced = await call<UnitView>('PUT', itemPath(food, serial), { key: org.live, body: { data: { weightG: 260 } } });
    const again = await call<UnitView>('PUT', itemPath(food, serial), { key: org.live, body: { data: { weightG: 260 } } });
    // Assess
    expect([replaced.status, replaced.body.version, replaced.body.data]).toEqual([200, 2, { weightG: 260 }]);
    expect([again.status, again.body.version, again.body.digest]).toEqual([200, 2, replaced.body.digest]);
  });

  it('merges a patch (application/merge-patch+json): members replace, null removes, objects merge; another media type is 415', async () => {
    // Prepare
    const lot = 'LOT-PATCH';
    await call('PUT', batchPath(wine, lot), { key: org.live, body: { data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.5, residualSugarGPerL: 4 } } } });
    // Act
    const plain = await call('PATCH', batchPath(wine, lot), { key: org.live, body: { data: { analysis: { totalAcidityGPerL: 6.1 } } } });
    const patched = await call<UnitView>('PATCH', batchPath(wine, lot), { key: org.live, body: { data: { analysis: { totalAcidityGPerL: 6.1, residualSugarGPerL: null } } }, headers: MERGE });
    // Assess
    expectError(plain, 415, 'invalid_request_error');
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ object: 'batch', lot, version: 2, data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.5, totalAcidityGPerL: 6.1 } } });
    expect((patched.body.data.analysis as Record<string, unknown>).residualSugarGPerL).toBeUndefined();
  });

  it('checks a wine lot’s data against the wine schema and names the field (422), storing nothing', async () => {
    // Act
    const badNumber = await call('PUT', batchPath(wine, 'LOT-BAD'), { key: org.live, body: { data: { analysis: { alcoholByVolume: 'twelve' } } } });
    const unknown = await call('PUT', batchPath(wine, 'LOT-BAD'), { key: org.live, body: { data: { vintage: 2024 } } });
    const badStatus = await call('PUT', batchPath(wine, 'LOT-BAD'), { key: org.live, body: { status: 'recalled' } });
    const read = await call('GET', batchPath(wine, 'LOT-BAD'), { key: org.live });
    // Assess
    expectError(badNumber, 422, 'validation_error', 'data.analysis.alcoholByVolume');
    expectError(unknown, 422, 'validation_error', 'data.vintage');
    expectError(badStatus, 422, 'validation_error', 'status');
    expectError(read, 404, 'not_found', 'lot');
  });

  it('refuses fields the service owns (serial, version, digest) with a 422 naming them', async () => {
    // Act
    const serial = await call('PUT', itemPath(food, 'SN-OWN'), { key: org.live, body: { serial: 'OTHER' } });
    const version = await call('PUT', itemPath(food, 'SN-OWN'), { key: org.live, body: { version: 7 } });
    const lotOfBatch = await call('PUT', batchPath(wine, 'LOT-OWN'), { key: org.live, body: { lot: 'OTHER' } });
    // Assess
    expectError(serial, 422, 'validation_error', 'serial');
    expectError(version, 422, 'validation_error', 'version');
    expectError(lotOfBatch, 422, 'validation_error', 'lot');
  });
});

describe('lot and serial syntax (GS1 AI 10 and 21)', () => {
  it.each([
    ['a serial of 21 characters', 'item', 'S'.repeat(21), 'serial'],
    ['a serial with a space', 'item', 'SN 1', 'serial'],
    ['a serial with a character outside set 82 (é)', 'item', 'SNé', 'serial'],
    ['a serial with #', 'item', 'SN#1', 'serial'],
    ['a lot with ~', 'batch', 'LOT~1', 'lot'],
    ['a lot of 5,000 characters', 'batch', 'L'.repeat(5_000), 'lot'],
  ] as const)('answers %s with 422 naming the field, and stores nothing', async (_label, kind, value, param) => {
    // Act
    const path = kind === 'item' ? itemPath(food, value) : batchPath(wine, value);
    const put = await call('PUT', path, { key: org.live, body: {} });
    const get = await call('GET', path, { key: org.live });
    // Assess
    expectError(put, 422, 'validation_error', param);
    expectError(get, 422, 'validation_error', param);
  });

  it('takes the whole of character set 82, percent-decoded once (a / and a % in a serial)', async () => {
    // Act
    const created = await call<UnitView>('PUT', itemPath(food, `A/%"!'()*+,-.:;<=>?_`), { key: org.live, body: {} });
    // Assess
    expect(created.status, created.text).toBe(201);
    expect(created.body.serial).toBe(`A/%"!'()*+,-.:;<=>?_`);
  });

  it('names an item’s bad lot (422, param lot)', async () => {
    const response = await call('PUT', itemPath(food, 'SN-LOT'), { key: org.live, body: { lot: 'LOT 1' } });
    expectError(response, 422, 'validation_error', 'lot');
  });
});

describe('lists in cursor pages', () => {
  it('lists 500 items in serial order, page by page, with no item skipped or repeated', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Five hundred', category: 'food', granularity: 'item' });
    const serials = Array.from({ length: 500 }, (_, i) => `S${String(i).padStart(5, '0')}`);
    const pending = [...serials];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let serial = pending.shift(); serial !== undefined; serial = pending.shift()) {
          const response = await call('PUT', itemPath(product, serial), { key: org.live, body: {} });
          if (response.status !== 201) throw new Error(`put ${serial}: ${response.status} ${response.text}`);
        }
      }),
    );
    // Act
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 20; page++) {
      const response = await call<{ data: UnitView[]; hasMore: boolean }>(
        'GET',
        `/v1/products/${product.productId}/items?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
        { key: org.live },
      );
      expect(response.status, response.text).toBe(200);
      seen.push(...response.body.data.map((item) => item.serial ?? ''));
      if (!response.body.hasMore) break;
      after = response.body.data.at(-1)?.serial;
    }
    // Assess
    expect(seen).toEqual(serials);
  }, 60_000);

  it('lists a product’s batches, and refuses a cursor that is no lot (422)', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Batches', granularity: 'batch' });
    for (const lot of ['L3', 'L1', 'L2']) await call('PUT', batchPath(product, lot), { key: org.live, body: {} });
    // Act
    const first = await call<{ data: UnitView[]; hasMore: boolean }>('GET', `/v1/products/${product.productId}/batches?limit=2`, { key: org.live });
    const rest = await call<{ data: UnitView[]; hasMore: boolean }>('GET', `/v1/products/${product.productId}/batches?limit=2&starting_after=L2`, { key: org.live });
    const bad = await call('GET', `/v1/products/${product.productId}/batches?starting_after=${encodeURIComponent('L 2')}`, { key: org.live });
    // Assess
    expect([first.body.data.map((b) => b.lot), first.body.hasMore]).toEqual([['L1', 'L2'], true]);
    expect([rest.body.data.map((b) => b.lot), rest.body.hasMore]).toEqual([['L3'], false]);
    expectError(bad, 422, 'validation_error', 'starting_after');
  });
});

describe('versions: the digest chain and ?at=', () => {
  it('chains an item’s three versions by digest (recomputed independently) and reads each with ?at=', async () => {
    // Prepare
    const serial = 'SN-CHAIN';
    const v1 = await call<UnitView>('PUT', itemPath(food, serial), { key: org.live, body: { lot: 'L1', data: { cycles: 1 } } });
    const v2 = await call<UnitView>('PATCH', itemPath(food, serial), { key: org.live, body: { data: { cycles: 2 } }, headers: MERGE });
    const v3 = await call<UnitView>('PATCH', itemPath(food, serial), { key: org.live, body: { status: 'withdrawn' }, headers: MERGE });
    // Act
    const at = await Promise.all(
      [v1, v2, v3].map((v) => call<UnitView>('GET', `${itemPath(food, serial)}?at=${encodeURIComponent(v.body.updatedAt)}`, { key: org.live })),
    );
    const before = await call('GET', `${itemPath(food, serial)}?at=${encodeURIComponent(new Date(Date.parse(v1.body.updatedAt) - 1000).toISOString())}`, { key: org.live });
    // Assess
    const versions = [v1.body, v2.body, v3.body];
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3]);
    for (const [i, version] of versions.entries()) {
      expect(version.digest).toBe(independentDigest(version));
      expect(version.previousDigest).toBe(i === 0 ? null : versions[i - 1]?.digest);
      expect(at[i]?.body).toEqual(version);
    }
    expect(v3.body.status).toBe('withdrawn');
    expectError(before, 404, 'not_found', 'at');
  });
});

describe('QR codes', () => {
  it('draws an item’s Digital Link as SVG, and answers 404 for an unregistered serial', async () => {
    // Prepare
    await call('PUT', itemPath(food, 'SN-QR'), { key: org.live, body: {} });
    // Act
    const qr = await call('GET', `${itemPath(food, 'SN-QR')}/qr?size=128`, { key: org.live });
    const missing = await call('GET', `${itemPath(food, 'SN-NONE')}/qr`, { key: org.live });
    // Assess
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/svg+xml');
    expect(qr.text).toMatch(/^<svg[^>]*viewBox/);
    expectError(missing, 404, 'not_found', 'serial');
  });
});

describe('isolation and scopes', () => {
  it("answers 404 for another organization's item (and for its own test environment), changing nothing", async () => {
    // Prepare
    await call('PUT', itemPath(food, 'SN-MINE'), { key: org.live, body: { data: { secret: 'value' } } });
    const other = await newOrg('Items elsewhere');
    // Act
    const read = await call('GET', itemPath(food, 'SN-MINE'), { key: other.live });
    const write = await call('PUT', itemPath(food, 'SN-MINE'), { key: other.live, body: { status: 'withdrawn' } });
    const testEnv = await call('GET', itemPath(food, 'SN-MINE'), { key: org.test });
    const list = await call('GET', `/v1/products/${food.productId}/items`, { key: other.live });
    const mine = await call<UnitView>('GET', itemPath(food, 'SN-MINE'), { key: org.live });
    // Assess
    for (const response of [read, write, testEnv, list]) {
      expectError(response, 404, 'not_found', 'productId');
      expect(response.text).not.toContain('value');
    }
    expect(mine.body.status).toBe('active');
  });

  it('reads with products:read or passports:read and writes with products:write only (403 otherwise)', async () => {
    // Prepare
    const reader = await org.keyWith(['passports:read']);
    const writer = await org.keyWith(['passports:write']);
    await call('PUT', itemPath(food, 'SN-SCOPE'), { key: org.live, body: {} });
    // Act
    const read = await call('GET', itemPath(food, 'SN-SCOPE'), { key: reader });
    const write = await call('PUT', itemPath(food, 'SN-SCOPE'), { key: writer, body: { status: 'withdrawn' } });
    // Assess
    expect(read.status).toBe(200);
    expectError(write, 403, 'permission_error');
  });
});

describe('events', () => {
  it('logs item.created, item.updated and item.withdrawn with the item after each change, and nothing for a change of nothing', async () => {
    // Prepare
    const serial = 'SN-EVENTS';
    const before = await call<{ data: { id: string }[] }>('GET', '/v1/events?limit=1', { key: org.live });
    const since = before.body.data[0]?.id;
    // Act
    await call('PUT', itemPath(food, serial), { key: org.live, body: {} });
    await call('PUT', itemPath(food, serial), { key: org.live, body: { data: { a: 1 } } });
    await call('PUT', itemPath(food, serial), { key: org.live, body: { data: { a: 1 } } });
    await call('PATCH', itemPath(food, serial), { key: org.live, body: { status: 'withdrawn' }, headers: MERGE });
    // Assess: each event is written in its change's transaction (docs/lifecycle.md#event-log), so it is there at once.
    const events = await call<{ data: { id: string; type: string; data: { object: UnitView } }[] }>('GET', '/v1/events?limit=20', { key: org.live });
    const fresh = events.body.data.filter((e) => since === undefined || e.id > since).filter((e) => e.data.object.serial === serial).reverse();
    expect(fresh.map((e) => [e.type, e.data.object.version])).toEqual([
      ['item.created', 1],
      ['item.updated', 2],
      ['item.withdrawn', 3],
    ]);
  });
});
