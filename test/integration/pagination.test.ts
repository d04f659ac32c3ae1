import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

const TOTAL = 150;
let org: TestOrg;
let ids: string[];

beforeAll(async () => {
  org = await newOrg('Pagination Org', { sandbox: true });
  ids = [];
  // Sequential creates: ids are UUID v7, so creation order is list order.
  for (let i = 0; i < TOTAL; i++) {
    const r = await call('POST', '/v1/products', { key: org.live, body: { name: `P${i}`, category: 'food', gtin: uniqueGtin13() } });
    ids.push(r.body.productId);
  }
}, 120_000);

describe('GET /v1/products, offset form', () => {
  it('defaults to 20 items at offset 0 with total, and pages through 150 with nothing skipped or repeated', async () => {
    const first = await call('GET', '/v1/products', { key: org.live });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.products).toEqual(first.body.data);
    expect(first.body.pagination).toEqual({ total: TOTAL, limit: 20, offset: 0 });
    expect(first.body.hasMore).toBe(true);

    const seen: string[] = [];
    for (let offset = 0; ; offset += 33) {
      const page = await call('GET', `/v1/products?limit=33&offset=${offset}`, { key: org.live });
      expect(page.body.pagination).toEqual({ total: TOTAL, limit: 33, offset });
      seen.push(...page.body.data.map((p: { productId: string }) => p.productId));
      if (!page.body.hasMore) break;
    }
    expect(seen).toEqual(ids);
  });

  it('returns an empty page past the end', async () => {
    const page = await call('GET', `/v1/products?offset=${TOTAL}`, { key: org.live });
    expect(page.body).toMatchObject({ data: [], hasMore: false, pagination: { total: TOTAL, offset: TOTAL } });
  });
});

describe('GET /v1/products, cursor form', () => {
  it('defaults to 25 items and pages through 150 with starting_after, nothing skipped or repeated', async () => {
    const seen: string[] = [];
    let cursor = ids[0] as string;
    seen.push(cursor);
    for (;;) {
      const page = await call('GET', `/v1/products?starting_after=${cursor}`, { key: org.live });
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['data', 'hasMore']);
      expect(page.body.data.length).toBeLessThanOrEqual(25);
      seen.push(...page.body.data.map((p: { productId: string }) => p.productId));
      if (!page.body.hasMore) break;
      expect(page.body.data).toHaveLength(25);
      cursor = page.body.data.at(-1).productId;
    }
    expect(seen).toEqual(ids);
  });

  it('honours limit up to 100', async () => {
    const page = await call('GET', `/v1/products?starting_after=${ids[10]}&limit=100`, { key: org.live });
    expect(page.body.data).toHaveLength(100);
    expect(page.body.data[0].productId).toBe(ids[11]);
    expect(page.body.hasMore).toBe(true);
  });
});

describe('GET /v1/products, bad parameters', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['starting_after=nope', 'starting_after'],
    ['starting_after=01900000-0000-7000-8000-000000000000&offset=5', 'offset'],
  ])('answers 422 for ?%s with param %s', async (query, param) => {
    expectError(await call('GET', `/v1/products?${query}`, { key: org.live }), 422, 'validation_error', param);
  });

  it('answers 400 for an unknown query parameter', async () => {
    expectError(await call('GET', '/v1/products?page=2', { key: org.live }), 400, 'invalid_request_error', 'page');
  });
});

describe('isolation', () => {
  it('never lists another organization’s or environment’s products', async () => {
    const other = await newOrg();
    await call('POST', '/v1/products', { key: other.live, body: { name: 'Other', category: 'food', gtin: uniqueGtin13() } });
    const otherList = await call('GET', '/v1/products?limit=100', { key: other.live });
    expect(otherList.body.pagination.total).toBe(1);
    // The test environment holds only its sandbox products.
    const testList = await call('GET', '/v1/products', { key: org.test });
    expect(testList.body.pagination.total).toBe(3);
    expect(testList.body.data.every((p: { environment: string }) => p.environment === 'test')).toBe(true);
    // A cursor naming another tenant's product only positions the page; it reveals nothing of theirs.
    const cursor = await call('GET', `/v1/products?starting_after=${ids[0]}`, { key: other.live });
    expect(cursor.body.data.map((p: { tenantId: string }) => p.tenantId)).toEqual([other.orgId]);
  });
});
