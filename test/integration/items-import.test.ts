import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Bulk registration of items (docs/import-export.md#items) through HTTP: `POST /v1/imports?type=items`
 * with a dry run, row errors, an idempotent re-import and one `item.imported` event per chunk; and
 * the items export with Digital Links, which imports back unchanged.
 */

interface Job {
  id: string;
  status: string;
  type: string;
  productId: string | null;
  counts: { rows: number; created: number; updated: number; unchanged: number; failed: number };
  errors: Array<{ row: number; column: string; message: string }>;
}

let org: TestOrg;
let product: CreatedProduct;

const upload = (csv: string, query: string, contentType = 'text/csv') =>
  call('POST', `/v1/imports?type=items&${query}`, { key: org.live, rawBody: csv, headers: { 'content-type': contentType } });

/** The job once its worker has finished every chunk (polled with a bound). */
async function finished(id: string): Promise<Job> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await call<Job>('GET', `/v1/imports/${id}`, { key: org.live });
    if (job.body.status === 'succeeded' || job.body.status === 'failed') return job.body;
    if (Date.now() > deadline) throw new Error(`import ${id} did not finish: ${job.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `W${String(from + i).padStart(6, '0')},L${(from + i) % 3},,12.${(from + i) % 10},2025-03-14`).join('\n');
const HEADER = 'serial,lot,status,data.analysis.alcoholByVolume,data.bottlingDate';

beforeAll(async () => {
  org = await newOrg('Items import');
  product = await createProduct(org.live, { name: 'Imported bottles', granularity: 'item' });
});

describe('importing items', () => {
  it('reports a dry run (created counts, row errors by column) and writes nothing', async () => {
    // Prepare
    const csv = `${HEADER}\nDRY1,L1,,12.5,2025-03-14\nDRY 2,L1,,12.5,2025-03-14\nDRY3,L1,,twelve,2025-03-14\nDRY1,L2,,,\n`;
    // Act
    const dry = await upload(csv, `productId=${product.productId}&dryRun=true`);
    const read = await call('GET', `/v1/products/${product.productId}/items/DRY1`, { key: org.live });
    // Assess
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, type: 'items', productId: product.productId, counts: { rows: 4, created: 1, updated: 0, unchanged: 0, failed: 3 } });
    expect((dry.body as Job).errors.map((e) => [e.row, e.column])).toEqual([
      [3, 'serial'],
      [4, 'data.analysis.alcoholByVolume'],
      [5, 'serial'],
    ]);
    expectError(read, 404, 'not_found', 'serial');
  });

  it('registers 1,200 items in chunks with one item.imported event per chunk, and a second import of the same file changes nothing', async () => {
    // Prepare
    const csv = `${HEADER}\n${rows(1_200)}\n`;
    const before = await call<{ data: { id: string }[] }>('GET', '/v1/events?limit=1', { key: org.live });
    // Act
    const first = await upload(csv, `productId=${product.productId}`);
    const job = await finished(first.body.id);
    const again = await finished((await upload(csv, `productId=${product.productId}`)).body.id);
    const item = await call('GET', `/v1/products/${product.productId}/items/W000007`, { key: org.live });
    // Assess
    expect(first.status, first.text).toBe(202);
    expect(job.counts).toEqual({ rows: 1_200, created: 1_200, updated: 0, unchanged: 0, failed: 0 });
    expect(again.counts).toEqual({ rows: 1_200, created: 0, updated: 0, unchanged: 1_200, failed: 0 });
    expect(item.body).toMatchObject({ serial: 'W000007', lot: 'L1', status: 'active', version: 1, data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.7 } } });
    const events = await call<{ data: { id: string; type: string; actor: { type: string; id: string }; requestId: string | null; data: { object: { created: string[] } } }[] }>(
      'GET',
      '/v1/events?limit=100&type=item.imported',
      { key: org.live },
    );
    const mine = events.body.data.filter((e) => e.actor.id === first.body.id);
    // One event a chunk: a chunk holds at most 500 rows, so at least three for 1,200 rows, each naming its own.
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.every((e) => e.data.object.created.length <= 500)).toBe(true);
    expect(mine.flatMap((e) => e.data.object.created).sort()).toEqual(Array.from({ length: 1_200 }, (_, i) => `W${String(i).padStart(6, '0')}`));
    expect(mine.every((e) => e.actor.type === 'system' && e.requestId === first.headers.get('request-id'))).toBe(true);
    // No event per item: the chunk's summary stands for them (docs/api.md#bulk-registration).
    const perItem = await call<{ data: unknown[] }>('GET', '/v1/events?limit=100&type=item.created', { key: org.live });
    expect(perItem.body.data.filter((e) => (e as { id: string }).id > (before.body.data[0]?.id ?? ''))).toEqual([]);
  }, 90_000);

  it('updates an item whose row changed (version 2) and leaves the others, taking JSON Lines too', async () => {
    // Prepare
    const ndjson = ['{"serial":"W000001","lot":"L1","data":{"analysis":{"alcoholByVolume":13},"bottlingDate":"2025-03-14"}}', '{"serial":"W000002","status":"withdrawn"}'].join('\n');
    // Act
    const job = await finished((await upload(ndjson, `productId=${product.productId}`, 'application/x-ndjson')).body.id);
    const one = await call('GET', `/v1/products/${product.productId}/items/W000001`, { key: org.live });
    const two = await call('GET', `/v1/products/${product.productId}/items/W000002`, { key: org.live });
    // Assess
    expect(job.counts).toEqual({ rows: 2, created: 0, updated: 2, unchanged: 0, failed: 0 });
    expect(one.body).toMatchObject({ version: 2, lot: 'L1', data: { analysis: { alcoholByVolume: 13 } } });
    // An empty lot and no data cells leave the item's own: only the status changed.
    expect(two.body).toMatchObject({ version: 2, status: 'withdrawn', lot: 'L2', data: { analysis: { alcoholByVolume: 12.2 } } });
  }, 60_000);

  it('refuses a file without a serial column, an unknown column, a workbook, and an unknown, missing or foreign product (the export too)', async () => {
    // Act
    const noSerial = await upload('lot\nL1\n', `productId=${product.productId}`);
    const unknown = await upload('serial,colour\nS1,red\n', `productId=${product.productId}`);
    const workbook = await upload('serial\nS1\n', `productId=${product.productId}`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const missing = await upload('serial\nS1\n', 'productId=00000000-0000-4000-8000-000000000000');
    const noProduct = await call('POST', '/v1/imports?type=items', { key: org.live, rawBody: 'serial\nS1\n', headers: { 'content-type': 'text/csv' } });
    const other = await newOrg('Items import elsewhere');
    const foreign = await call('POST', `/v1/imports?type=items&productId=${product.productId}`, { key: other.live, rawBody: 'serial\nS1\n', headers: { 'content-type': 'text/csv' } });
    const foreignExport = await call('GET', `/v1/exports/items?productId=${product.productId}`, { key: other.live });
    // Assess
    expectError(noSerial, 422, 'validation_error', 'serial');
    expectError(unknown, 422, 'validation_error', 'colour');
    expectError(workbook, 415, 'invalid_request_error');
    expectError(missing, 404, 'not_found', 'productId');
    expectError(noProduct, 422, 'validation_error', 'productId');
    expectError(foreign, 404, 'not_found', 'productId');
    expectError(foreignExport, 404, 'not_found', 'productId');
    expect(foreignExport.text).not.toContain('W000');
  });
});

describe('lots and serials . and .. (issue 37, finding 7)', () => {
  it("attack: a bulk import of serials '.' and '..' is refused row by row, as PUT refuses them", async () => {
    // Prepare: the two dot segments as serials and as a lot, beside rows that are fine (a dot inside a value is)
    const dotted = await createProduct(org.live, { name: 'Dotted bottles', granularity: 'item' });
    const csv = `serial,lot\n.,L1\n..,L1\nDOT.OK,L1\nDOT2,..\n...,L1\n`;
    const path = (serial: string) => `/v1/products/${dotted.productId}/items/${serial}`;
    // Act
    const dry = await upload(csv, `productId=${dotted.productId}&dryRun=true`);
    const job = await finished((await upload(csv, `productId=${dotted.productId}`)).body.id);
    const puts = await Promise.all(['.', '..', '%2E', '%2E%2E'].map((serial) => call('PUT', path(serial), { key: org.live, body: { lot: 'L1' } })));
    const dotLot = await call('PUT', path('DOT3'), { key: org.live, body: { lot: '..' } });
    const listed = await call<{ data: { serial: string }[] }>('GET', `/v1/products/${dotted.productId}/items?limit=100`, { key: org.live });
    // Assess: each refused row names its column, the others are registered
    for (const report of [dry.body as Job, job]) {
      expect(report.counts).toMatchObject({ rows: 5, created: 2, failed: 3 });
      expect(report.errors.map((e) => [e.row, e.column])).toEqual([
        [2, 'serial'],
        [3, 'serial'],
        [5, 'lot'],
      ]);
      expect(report.errors[0]?.message).toContain("cannot be '.' alone");
    }
    // PUT never registers them either: a URL path cannot carry a dot segment (405: the path is the collection's)
    for (const put of puts) expect(put.status, put.text).toBe(405);
    expectError(dotLot, 422, 'validation_error', 'lot');
    expect(listed.body.data.map((item) => item.serial)).toEqual(['...', 'DOT.OK']);
  }, 60_000);
});

describe('exporting items', () => {
  it('lists serials with their Digital Links in pages (Link: rel="next"), and a CSV page imports back unchanged', async () => {
    // Act
    const first = await call('GET', `/v1/exports/items?productId=${product.productId}&limit=1000`, { key: org.live });
    const next = first.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? '';
    const second = await call('GET', next, { key: org.live });
    const back = await finished((await upload(first.text, `productId=${product.productId}`)).body.id);
    // Assess
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = first.text.trim().split('\r\n');
    expect(lines[0]).toBe('serial,lot,status,digitalLink,data.analysis.alcoholByVolume,data.bottlingDate');
    expect(lines[1]).toBe(`W000000,L0,active,${product.qrCodeUrl}/21/W000000,12,2025-03-14`);
    expect(lines).toHaveLength(1_001);
    expect(second.text.trim().split('\r\n')).toHaveLength(1 + 200);
    expect(second.headers.get('link')).toBeNull();
    expect(back.counts).toEqual({ rows: 1_000, created: 0, updated: 0, unchanged: 1_000, failed: 0 });
  }, 60_000);
});
