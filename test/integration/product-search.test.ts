import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/** `GET /v1/products?q=`: a name substring in any letter case, or a GTIN prefix. */
let org: TestOrg;
let riesling: CreatedProduct;
let rieslingSpat: CreatedProduct;
let merlot: CreatedProduct;

beforeAll(async () => {
  org = await newOrg('Search Winery');
  riesling = await createProduct(org.live, { name: 'Riesling Kabinett 2023' });
  merlot = await createProduct(org.live, { name: 'Merlot 2021' });
  rieslingSpat = await createProduct(org.live, { name: 'Mosel RIESLING Spätlese' });
});

const ids = (body: { data: { productId: string }[] }) => body.data.map((p) => p.productId);

describe('GET /v1/products?q=', () => {
  it('finds products by name in any letter case, with the total and offset pages of the matches', async () => {
    // Act
    const all = await call('GET', '/v1/products?q=rIeSlInG', { key: org.live });
    const first = await call('GET', '/v1/products?q=riesling&limit=1', { key: org.live });
    const second = await call('GET', '/v1/products?q=riesling&limit=1&offset=1', { key: org.live });
    // Assess
    expect(all.status, all.text).toBe(200);
    expect(ids(all.body)).toEqual([riesling.productId, rieslingSpat.productId]);
    expect(all.body.pagination).toEqual({ total: 2, limit: 20, offset: 0 });
    expect(first.body).toMatchObject({ pagination: { total: 2 }, hasMore: true });
    expect(ids(first.body)).toEqual([riesling.productId]);
    expect(second.body.hasMore).toBe(false);
    expect(ids(second.body)).toEqual([rieslingSpat.productId]);
  });

  it('finds a product by a GTIN prefix as printed (GTIN-13) or as GTIN-14, and pages matches by cursor', async () => {
    // Act
    const printed = await call('GET', `/v1/products?q=${merlot.gtin.slice(0, 10)}`, { key: org.live });
    const gtin14 = await call('GET', `/v1/products?q=0${merlot.gtin}`, { key: org.live });
    const afterFirst = await call('GET', `/v1/products?q=riesling&starting_after=${riesling.productId}`, { key: org.live });
    const none = await call('GET', '/v1/products?q=Chardonnay', { key: org.live });
    // Assess
    expect(ids(printed.body)).toContain(merlot.productId);
    expect(ids(gtin14.body)).toEqual([merlot.productId]);
    expect(afterFirst.body).toEqual({ data: [expect.objectContaining({ productId: rieslingSpat.productId })], hasMore: false });
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 }, hasMore: false });
  });

  it('never finds another tenant’s products', async () => {
    // Prepare
    const other = await newOrg('Other Search Winery');
    await createProduct(other.live, { name: 'Riesling of another organization' });
    // Act
    const mine = await call('GET', '/v1/products?q=another', { key: org.live });
    const test = await call('GET', '/v1/products?q=riesling', { key: org.test });
    // Assess
    expect(mine.body.data).toEqual([]);
    expect(test.body.data).toEqual([]);
  });

  it('answers 422 (param q) for an empty or over-long q', async () => {
    // Act + Assess
    expectError(await call('GET', '/v1/products?q=', { key: org.live }), 422, 'validation_error', 'q');
    expectError(await call('GET', '/v1/products?q=%20%20', { key: org.live }), 422, 'validation_error', 'q');
    expectError(await call('GET', `/v1/products?q=${'a'.repeat(101)}`, { key: org.live }), 422, 'validation_error', 'q');
  });
});
