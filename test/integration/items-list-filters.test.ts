import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/**
 * The filters of a product's item and batch lists, through HTTP (docs/api.md#batches-and-items): a
 * serial or lot prefix, a status, an item's lot, combined, in cursor pages without a skip or a
 * repeat, and 422 naming each bad filter. The dashboard's search and status filter use them
 * (docs/dashboard.md#batches-and-items).
 */

interface Unit {
  serial?: string;
  lot: string | null;
  status: string;
}
type Page = { data: Unit[]; hasMore: boolean };

let org: TestOrg;
let product: CreatedProduct;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const items = (query: string) => call<Page>('GET', `/v1/products/${product.productId}/items?${query}`, { key: org.live });

/** Every page of a list, following starting_after with pages of `limit`. */
async function allPages(query: string, limit: number): Promise<{ serials: string[]; pages: number }> {
  const serials: string[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await items(`${query}&limit=${limit}${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`);
    expect(page.status, page.text).toBe(200);
    pages++;
    serials.push(...page.body.data.map((unit) => unit.serial ?? ''));
    if (!page.body.hasMore) return { serials, pages };
    after = page.body.data.at(-1)?.serial;
  }
}

beforeAll(async () => {
  // Prepare: 12 items, A-01…A-08 in lot L1 and B-01…B-04 in lot L2; A-02, A-05, A-07 and B-03 withdrawn; two batches
  org = await newOrg('Item Filters');
  product = await createProduct(org.live, { name: 'Serialised pack', category: 'food', granularity: 'item' });
  const serials = [...Array.from({ length: 8 }, (_, i) => `A-0${i + 1}`), ...Array.from({ length: 4 }, (_, i) => `B-0${i + 1}`)];
  for (const serial of serials) {
    const put = await call('PUT', `/v1/products/${product.productId}/items/${serial}`, { key: org.live, body: { lot: serial.startsWith('A') ? 'L1' : 'L2' } });
    if (put.status !== 201) throw new Error(`register ${serial}: ${put.status} ${put.text}`);
  }
  for (const serial of ['A-02', 'A-05', 'A-07', 'B-03']) {
    const patch = await call('PATCH', `/v1/products/${product.productId}/items/${serial}`, { key: org.live, headers: MERGE, body: { status: 'withdrawn' } });
    if (patch.status !== 200) throw new Error(`withdraw ${serial}: ${patch.status} ${patch.text}`);
  }
  for (const lot of ['L1', 'L2', 'X9']) await call('PUT', `/v1/products/${product.productId}/batches/${lot}`, { key: org.live, body: {} });
});

describe('the item and batch lists filter by prefix, status and lot', () => {
  it('keeps the serials that start with the prefix, in order, in pages without a skip or a repeat', async () => {
    // Act
    const prefixed = await allPages('prefix=A-0', 3);
    const none = await items('prefix=C');

    // Assess
    expect(prefixed).toEqual({ serials: ['A-01', 'A-02', 'A-03', 'A-04', 'A-05', 'A-06', 'A-07', 'A-08'], pages: 3 });
    expect(none.body).toEqual({ data: [], hasMore: false });
  });

  it('keeps one status, alone and with a prefix or a lot, in pages without a skip or a repeat', async () => {
    // Act
    const withdrawn = await allPages('status=withdrawn', 2);
    const activeA = await allPages('status=active&prefix=A', 2);
    const activeL2 = await allPages('status=active&lot=L2', 25);
    const lot1 = await allPages('lot=L1', 5);

    // Assess
    expect(withdrawn.serials).toEqual(['A-02', 'A-05', 'A-07', 'B-03']);
    expect(withdrawn.pages).toBe(2);
    expect(activeA.serials).toEqual(['A-01', 'A-03', 'A-04', 'A-06', 'A-08']);
    expect(activeL2.serials).toEqual(['B-01', 'B-02', 'B-04']);
    expect(lot1.serials).toHaveLength(8);
  });

  it('reads a cursor before the prefix as the start and one after it as the end', async () => {
    // Act
    const before = await items('prefix=B&starting_after=A-08');
    const after = await items('prefix=A&starting_after=B-01');

    // Assess
    expect(before.body.data.map((unit) => unit.serial)).toEqual(['B-01', 'B-02', 'B-03', 'B-04']);
    expect(after.body).toEqual({ data: [], hasMore: false });
  });

  it('filters batches by lot prefix and status', async () => {
    // Act
    const batches = await call<Page>('GET', `/v1/products/${product.productId}/batches?prefix=L&status=active`, { key: org.live });

    // Assess
    expect(batches.status, batches.text).toBe(200);
    expect(batches.body.data.map((batch) => batch.lot)).toEqual(['L1', 'L2']);
  });

  it('refuses a bad filter with 422 naming it, and lot on batches with 400', async () => {
    // Act
    const badPrefix = await items(`prefix=${encodeURIComponent('A 1')}`);
    const longPrefix = await items(`prefix=${'A'.repeat(21)}`);
    const badStatus = await items('status=lost');
    const badLot = await items(`lot=${encodeURIComponent('L 1')}`);
    const lotOnBatches = await call('GET', `/v1/products/${product.productId}/batches?lot=L1`, { key: org.live });

    // Assess
    expectError(badPrefix, 422, 'validation_error', 'prefix');
    expectError(longPrefix, 422, 'validation_error', 'prefix');
    expectError(badStatus, 422, 'validation_error', 'status');
    expectError(badLot, 422, 'validation_error', 'lot');
    expectError(lotOnBatches, 400, 'invalid_request_error', 'lot');
  });
});
