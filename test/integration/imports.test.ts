import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { snapshotOrg } from '../support/snapshot.ts';
import { insertImportJob } from '../../lib/data/imports.ts';
import { zeroCounts } from '../../lib/domain/imports.ts';
import { handler as importWorker } from '../../functions/import-worker/handler.ts';
import type { Context, SQSEvent } from 'aws-lambda';

/**
 * Bulk import through HTTP and the local import pipeline (gateway → imports → fauxqs → poller →
 * import worker → DynamoDB Local), docs/imports.md.
 */
const CSV = 'text/csv';
/** The rest of a wine's declaration per 100 ml, beside each row's energy. */
const WINE_NUTRIENTS = [['fatG', '0'], ['saturatedFatG', '0'], ['carbohydratesG', '2.5'], ['sugarsG', '0.6'], ['proteinG', '0.1'], ['saltG', '0']] as const;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const NDJSON = 'application/x-ndjson';

const HEADERS = [
  'gtin',
  'name',
  'category',
  'brand',
  'passport.colour',
  'passport.vintage',
  'passport.ingredients',
  'passport.nutrition.energyKj',
  // A wine publishes only with its whole nutrition declaration (Reg. (EU) No 1308/2013 Art. 119; docs/labelling.md#which-products-are-wine).
  ...WINE_NUTRIENTS.map(([field]) => `passport.nutrition.${field}`),
  'passport.allergens.containsSulphites',
];

type Row = Record<string, string>;

const rowFor = (gtin: string, i: number): Row => ({
  gtin,
  name: `Riesling ${i}`,
  category: 'wine',
  brand: 'Weingut Import',
  'passport.colour': i % 2 ? 'white' : 'red',
  'passport.vintage': String(2000 + (i % 24)),
  'passport.ingredients': 'grapes|sulphites',
  'passport.nutrition.energyKj': String(300 + (i % 50)),
  ...Object.fromEntries(WINE_NUTRIENTS.map(([field, value]) => [`passport.nutrition.${field}`, value])),
  'passport.allergens.containsSulphites': 'true',
});

const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, i) => rowFor(uniqueGtin13(), i));
const csvOf = (rows: readonly Row[], headers = HEADERS): Buffer => Buffer.from(stringify([...rows], { header: true, columns: headers }));

async function xlsxOf(rows: readonly Row[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  sheet.addRow(HEADERS);
  for (const row of rows) sheet.addRow(HEADERS.map((h) => row[h] ?? ''));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (key: string, file: Buffer, type: string, query = '') =>
  call('POST', `/v1/imports${query}`, { key, rawBody: file, headers: { 'content-type': type } });

/** Reads the job until it is finished (the worker runs in the background), at most 90 s. */
async function finished(key: string, id: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const response = await call('GET', `/v1/imports/${id}`, { key });
    expect(response.status).toBe(200);
    if (response.body.status === 'succeeded' || response.body.status === 'failed') return response.body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${response.body.status}: ${JSON.stringify(response.body.counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function imported(key: string, file: Buffer, type: string) {
  const response = await upload(key, file, type);
  expect(response.status, response.text).toBe(202);
  expect(response.body).toEqual({ id: expect.stringMatching(/^imp_[0-9a-z]{20}$/), status: 'queued' });
  expect(response.headers.get('location')).toBe(`/v1/imports/${response.body.id}`);
  return finished(key, response.body.id);
}

async function productOf(key: string, gtin13: string) {
  const list = await call('GET', `/v1/products?q=${gtin13}`, { key });
  expect(list.status).toBe(200);
  return list.body.data as { productId: string; name: string; gtin: string }[];
}

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Imports Org');
});

describe('POST /v1/imports', () => {
  const rows = rowsOf(1000);
  const file = csvOf(rows);

  it('imports a 1,000-row CSV: every product created with its first passport version', { timeout: 120_000 }, async () => {
    const job = await imported(org.live, file, CSV);

    expect(job).toMatchObject({ status: 'succeeded', dryRun: false, format: 'csv', errors: [], errorsTruncated: false });
    expect(job.counts).toEqual({ rows: 1000, created: 1000, updated: 0, unchanged: 0, failed: 0 });
    const [product] = await productOf(org.live, rows[7]!.gtin!);
    expect(product).toMatchObject({ name: 'Riesling 7', gtin: `0${rows[7]!.gtin}` });
    const passport = await call('GET', `/v1/products/${product!.productId}/passport`, { key: org.live });
    expect(passport.body).toMatchObject({
      version: 1,
      data: { colour: 'white', vintage: 2007, ingredients: ['grapes', 'sulphites'], nutrition: { energyKj: 307 }, allergens: { containsSulphites: true } },
    });
  });

  it('imports the same file again as 1,000 unchanged rows and publishes no new version', { timeout: 120_000 }, async () => {
    const job = await imported(org.live, file, CSV);

    expect(job.counts).toEqual({ rows: 1000, created: 0, updated: 0, unchanged: 1000, failed: 0 });
    for (const i of [0, 500, 999]) {
      const [product] = await productOf(org.live, rows[i]!.gtin!);
      const history = await call('GET', `/v1/products/${product!.productId}/passports`, { key: org.live });
      expect(history.body.data.map((p: { version: number }) => p.version)).toEqual([1]);
    }
  });

  it('updates only the rows whose data changed: a new passport version for each', { timeout: 60_000 }, async () => {
    const few = rowsOf(3);
    await imported(org.live, csvOf(few), CSV);
    const changed = few.map((row, i) => (i === 1 ? { ...row, 'passport.vintage': '2019' } : row));

    const job = await imported(org.live, csvOf(changed), CSV);

    expect(job.counts).toEqual({ rows: 3, created: 0, updated: 1, unchanged: 2, failed: 0 });
    const [product] = await productOf(org.live, few[1]!.gtin!);
    const passport = await call('GET', `/v1/products/${product!.productId}/passport`, { key: org.live });
    expect(passport.body).toMatchObject({ version: 2, data: { vintage: 2019 } });
  });

  /** 50 rows, 6 of them bad in one known cell each (spreadsheet rows: the header is row 1). */
  function withBadRows(): { rows: Row[]; expected: { row: number; column: string }[] } {
    const good = rowsOf(50);
    const bad: [number, string, string][] = [
      [3, 'gtin', '4006381333932'],
      [10, 'passport.vintage', 'last year'],
      [17, 'category', 'spaceship'],
      [22, 'passport.ingredients', 'grapes|code:no-such-entry'],
      [30, 'passport.colour', 'blue'],
      [44, 'passport.nutrition.energyKj', '-5'],
    ];
    for (const [i, column, value] of bad) good[i] = { ...good[i]!, [column]: value };
    return { rows: good, expected: bad.map(([i, column]) => ({ row: i + 2, column })) };
  }

  it('reports exactly the 6 bad rows with their columns (an unknown vocabulary code among them) and imports the other 44', { timeout: 60_000 }, async () => {
    const { rows: mixed, expected } = withBadRows();

    const job = await imported(org.live, csvOf(mixed), CSV);

    expect(job.status).toBe('succeeded');
    expect(job.counts).toEqual({ rows: 50, created: 44, updated: 0, unchanged: 0, failed: 6 });
    expect(job.errors.map((e: { row: number; column: string }) => ({ row: e.row, column: e.column }))).toEqual(expected);
    expect(job.errors.every((e: { message: string }) => e.message.length > 0)).toBe(true);
    expect(await productOf(org.live, mixed[10]!.gtin!)).toEqual([]);
    expect(await productOf(org.live, mixed[11]!.gtin!)).toHaveLength(1);
  });

  it('imports an XLSX workbook of the same data with the same result', { timeout: 60_000 }, async () => {
    const { rows: mixed, expected } = withBadRows();

    const job = await imported(org.live, await xlsxOf(mixed), XLSX);

    expect(job).toMatchObject({ status: 'succeeded', format: 'xlsx' });
    expect(job.counts).toEqual({ rows: 50, created: 44, updated: 0, unchanged: 0, failed: 6 });
    expect(job.errors.map((e: { row: number; column: string }) => ({ row: e.row, column: e.column }))).toEqual(expected);
    const again = await imported(org.live, csvOf(mixed), CSV);
    expect(again.counts).toEqual({ rows: 50, created: 0, updated: 0, unchanged: 44, failed: 6 });
  });

  it('imports JSON Lines with nested passport objects flattened to the columns, vocabulary entries and translated ingredients as they were', { timeout: 60_000 }, async () => {
    const gtin = uniqueGtin13();
    const ingredients = ['grapes', { code: 'tartaric-acid' }, { text: { de: 'Eichenholzchips', en: 'oak chips' } }];
    const nutrition = { energyKj: 300, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0 };
    const line = { gtin, name: 'Sekt', category: 'wine', passport: { colour: 'white', vintage: 2021, ingredients, nutrition, allergens: { containsSulphites: false } } };

    const job = await imported(org.live, Buffer.from(`${JSON.stringify(line)}\n`), NDJSON);

    expect(job.counts).toEqual({ rows: 1, created: 1, updated: 0, unchanged: 0, failed: 0 });
    const [product] = await productOf(org.live, gtin);
    const passport = await call('GET', `/v1/products/${product!.productId}/passport`, { key: org.live });
    expect(passport.body.data).toEqual({ colour: 'white', vintage: 2021, ingredients, nutrition, allergens: { containsSulphites: false } });
  });

  it('answers a dry run with the report and writes nothing', async () => {
    const { rows: mixed, expected } = withBadRows();
    const known = rowsOf(1);
    await imported(org.test, csvOf(known), CSV);
    const before = await snapshotOrg(org.orgId);

    const response = await upload(org.test, csvOf([...mixed, known[0]!]), CSV, '?dryRun=true');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'succeeded', dryRun: true, format: 'csv', finishedAt: expect.any(String) });
    expect(response.body.counts).toEqual({ rows: 51, created: 44, updated: 0, unchanged: 1, failed: 6 });
    expect(response.body.errors.map((e: { row: number; column: string }) => ({ row: e.row, column: e.column }))).toEqual(expected);
    expect(await snapshotOrg(org.orgId)).toEqual(before);
  });

  it('refuses a file over 10,000 rows or over 5 MB with 413, and writes nothing', { timeout: 60_000 }, async () => {
    const before = await snapshotOrg(org.orgId);
    const many = Array.from({ length: 10_001 }, (_, i) => rowFor(uniqueGtin13(), i));

    expectError(await upload(org.live, csvOf(many), CSV), 413, 'invalid_request_error');
    expectError(await upload(org.live, Buffer.from(many.slice(0, 10_001).map((r) => JSON.stringify(r)).join('\n')), NDJSON), 413, 'invalid_request_error');
    const padded = Buffer.concat([csvOf(rowsOf(1)), Buffer.alloc(5 * 1024 * 1024, ' ')]);
    expectError(await upload(org.live, padded, CSV), 413, 'invalid_request_error');
    // A workbook arrives base64-encoded: over 4 MB it could not pass Lambda's 6 MB payload.
    expectError(await upload(org.live, Buffer.alloc(4 * 1024 * 1024 + 1, 1), XLSX), 413, 'invalid_request_error');
    expect(await snapshotOrg(org.orgId)).toEqual(before);
  });

  it('takes a file over the 256 KiB of JSON bodies (here a dry run of 4,000 rows, about 330 KB)', { timeout: 60_000 }, async () => {
    const file = csvOf(rowsOf(4000));
    expect(file.length).toBeGreaterThan(256 * 1024);

    const response = await upload(org.live, file, CSV, '?dryRun=true');

    expect(response.status).toBe(200);
    expect(response.body.counts).toEqual({ rows: 4000, created: 4000, updated: 0, unchanged: 0, failed: 0 });
  });

  it('refuses other media types (415), unknown columns (422 naming the header) and unreadable files (400)', async () => {
    const before = await snapshotOrg(org.orgId);

    expectError(await upload(org.live, Buffer.from('{"gtin":"1"}'), 'application/json'), 415, 'invalid_request_error', 'Content-Type');
    expectError(await upload(org.live, Buffer.from('gtin\n4006381333931\n'), 'text/plain'), 415, 'invalid_request_error', 'Content-Type');
    expectError(await upload(org.live, csvOf(rowsOf(1), [...HEADERS, 'passport.vintgae']), CSV), 422, 'validation_error', 'passport.vintgae');
    expectError(await upload(org.live, Buffer.from('gtin,name\n"4006381333931,x\n'), CSV), 400, 'invalid_request_error');
    expectError(await upload(org.live, Buffer.from('not a workbook'), XLSX), 400, 'invalid_request_error');
    expect(await snapshotOrg(org.orgId)).toEqual(before);
  });

  it('replays the first answer to a retry with the same Idempotency-Key and file: one job', { timeout: 60_000 }, async () => {
    const file = csvOf(rowsOf(2));
    const key = `import-${Date.now()}`;
    const send = () => call('POST', '/v1/imports', { key: org.live, rawBody: file, headers: { 'content-type': CSV, 'idempotency-key': key } });

    const first = await send();
    const retry = await send();

    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await finished(org.live, first.body.id)).counts).toEqual({ rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
  });

  it('needs imports:write', async () => {
    const key = await org.keyWith(['imports:read', 'products:write']);
    expectError(await upload(key, csvOf(rowsOf(1)), CSV), 403, 'permission_error');
  });
});

describe('the import worker', () => {
  const event = (importId: string, chunk: number, messageId: string): SQSEvent => ({
    Records: [
      {
        messageId,
        receiptHandle: messageId,
        body: JSON.stringify({ orgId: org.orgId, environment: 'test', importId, chunk }),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:import-chunks',
        awsRegion: 'eu-central-1',
      },
    ],
  });
  const context = { functionName: 'import-worker', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as Context;

  it('counts a chunk SQS delivers twice, at the same time and again later, once', { timeout: 60_000 }, async () => {
    // A job stored as the upload stores it, its one chunk not on the queue: the test delivers it.
    const rows = rowsOf(40).map((cells, i) => ({ row: i + 2, cells }));
    const now = new Date().toISOString();
    const importId = `imp_${Date.now().toString(36).padStart(9, '0')}redelivery0`;
    await insertImportJob(
      { importId, orgId: org.orgId, environment: 'test', status: 'queued', format: 'csv', chunks: 1, chunksDone: 0, counts: zeroCounts(40), errors: [], errorsTruncated: false, createdAt: now, updatedAt: now },
      [rows],
    );

    const answers = await Promise.all([importWorker(event(importId, 0, 'm1'), context), importWorker(event(importId, 0, 'm2'), context)]);
    const later = await importWorker(event(importId, 0, 'm3'), context);

    expect([...answers, later].map((a) => a.batchItemFailures)).toEqual([[], [], []]);
    const job = await finished(org.test, importId);
    expect(job.counts).toEqual({ rows: 40, created: 40, updated: 0, unchanged: 0, failed: 0 });
    const [product] = await productOf(org.test, rows[5]!.cells.gtin!);
    const history = await call('GET', `/v1/products/${product!.productId}/passports`, { key: org.test });
    expect(history.body.data.map((p: { version: number }) => p.version)).toEqual([1]);
  });
});

describe('GET /v1/imports', () => {
  it('lists jobs newest first in cursor pages; another organization sees none of them', { timeout: 60_000 }, async () => {
    const own = await newOrg('Imports Lister');
    const first = await upload(own.live, csvOf(rowsOf(1)), CSV);
    const second = await upload(own.live, csvOf(rowsOf(1)), CSV);

    const page = await call('GET', '/v1/imports?limit=1', { key: own.live });
    const rest = await call('GET', `/v1/imports?limit=1&starting_after=${page.body.data[0].id}`, { key: own.live });

    expect(page.body).toMatchObject({ data: [{ id: second.body.id }], hasMore: true });
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['counts', 'createdAt', 'dryRun', 'errorsTruncated', 'fileName', 'finishedAt', 'format', 'id', 'mode', 'productId', 'status', 'type']);
    expect(rest.body).toMatchObject({ data: [{ id: first.body.id }], hasMore: false });
    const other = await call('GET', '/v1/imports', { key: org.live });
    expect(other.body.data.map((j: { id: string }) => j.id)).not.toContain(first.body.id);
  });

  it("answers 404 for another organization's import id and for an unknown one", async () => {
    const other = await newOrg('Imports Other');
    const mine = await upload(org.live, csvOf(rowsOf(1)), CSV);

    expectError(await call('GET', `/v1/imports/${mine.body.id}`, { key: other.live }), 404, 'not_found', 'importId');
    expectError(await call('GET', `/v1/imports/${mine.body.id}`, { key: org.test }), 404, 'not_found', 'importId');
    expectError(await call('GET', '/v1/imports/imp_00000000000000000000', { key: org.live }), 404, 'not_found', 'importId');
    expectError(await call('GET', '/v1/imports/nope', { key: org.live }), 404, 'not_found', 'importId');
  });
});

describe('import jobs in people’s words (issue 32)', () => {
  it('keeps the uploaded file’s name on the job and in the listing, and refuses a name with a folder', async () => {
    // Prepare
    const file = csvOf(rowsOf(1));

    // Act
    const response = await upload(org.live, file, CSV, `?fileName=${encodeURIComponent('Weine Herbst 2024 (final).csv')}`);
    const job = await finished(org.live, response.body.id);
    const list = await call('GET', '/v1/imports?limit=5', { key: org.live });
    const refused = await upload(org.live, file, CSV, `?fileName=${encodeURIComponent('../etc/passwd')}`);

    // Assess
    expect(response.status, response.text).toBe(202);
    expect(job.fileName).toBe('Weine Herbst 2024 (final).csv');
    expect(list.body.data.find((j: { id: string }) => j.id === response.body.id)?.fileName).toBe('Weine Herbst 2024 (final).csv');
    expect(expectError(refused, 422, 'validation_error', 'fileName').message).toContain('without a folder');
  });

  it('names each row error’s column by the template’s label and the row’s product by GTIN and name', async () => {
    // Prepare: one good row, one with a country the schema refuses
    const [good, bad] = rowsOf(2);
    const badRow = { ...bad!, name: 'Rosso di Prova', 'passport.origin.country': 'It' };
    const headers = [...HEADERS, 'passport.origin.country'];

    // Act
    const job = await imported(org.live, csvOf([good!, badRow], headers), CSV);

    // Assess
    expect(job.counts).toMatchObject({ rows: 2, created: 1, failed: 1 });
    expect(job.errors).toEqual([
      {
        row: 3,
        column: 'passport.origin.country',
        label: 'Country of origin',
        message: expect.stringMatching(/^Country of origin must be/),
        gtin: bad!.gtin,
        name: 'Rosso di Prova',
      },
    ]);
  });

  it('refuses the template’s example row (GS1’s example GTIN), in the dry run too: it never becomes a product', async () => {
    // Prepare: the template as served, example row and all
    const template = await call('GET', '/v1/imports/template.csv', { key: org.test });
    expect(template.status).toBe(200);
    const file = Buffer.from(template.text, 'utf8');

    // Act
    const dry = await upload(org.test, file, CSV, '?dryRun=true');
    const job = await imported(org.test, file, CSV);

    // Assess
    for (const report of [dry.body, job]) {
      expect(report.counts).toEqual({ rows: 1, created: 0, updated: 0, unchanged: 0, failed: 1 });
      expect(report.status).toBe('failed');
      expect(report.errors).toHaveLength(1);
      expect(report.errors[0]).toMatchObject({ row: 2, column: 'gtin', label: 'GTIN', gtin: '9520123456788' });
      expect(report.errors[0].message).toContain("template's example row");
    }
    expect(await productOf(org.test, '9520123456788')).toEqual([]);
  });
});
