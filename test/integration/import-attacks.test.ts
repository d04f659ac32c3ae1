import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newOrg, type ApiResponse, type TestOrg } from '../support/api.ts';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../lib/domain/imports.ts';

/**
 * The review's reproductions against the import parsers, through HTTP against the local stack
 * (docs/security.md, docs/security.md#parser-budgets): the handlers run in the gateway's process,
 * so a parser that blocks or exhausts it takes `/health` down with it.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let key: string;

beforeAll(async () => {
  const org: TestOrg = await newOrg('Import Attacks Org');
  key = await org.keyWith(['imports:read', 'imports:write']);
  // The first upload of the run loads the imports function's modules; time only the refusals after it.
  const started = performance.now();
  expect((await upload(Buffer.from('gtin\n4006381333931\n'), 'text/csv')).status).toBe(200);
  console.log(`first upload (warm-up): ${(performance.now() - started).toFixed(0)} ms`);
});

const upload = (file: Buffer, type: string): Promise<ApiResponse> =>
  call('POST', '/v1/imports?dryRun=true', { key, rawBody: file, headers: { 'content-type': type } });

/** The import template as the API serves it, with one more cell at column A of `row`. */
async function templateReaching(row: number): Promise<Buffer> {
  const template = await fetch(`${baseUrl()}/v1/imports/template.xlsx`, { headers: { authorization: `Bearer ${key}` } });
  expect(template.status).toBe(200);
  const bytes = Buffer.from(await template.arrayBuffer());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  workbook.worksheets[0]!.getCell(`A${row}`).value = 'x';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Sends `file` and, while it is in flight, asks /health again and again; the upload's time and the slowest /health. */
async function uploadWhileProbingHealth(file: Buffer, type: string): Promise<{ response: ApiResponse; uploadMs: number; slowestHealthMs: number; probes: number }> {
  const started = performance.now();
  let settled = false;
  const uploading = upload(file, type).finally(() => {
    settled = true;
  });
  const uploadMs = uploading.then(() => performance.now() - started);
  let slowestHealthMs = 0;
  let probes = 0;
  do {
    const asked = performance.now();
    const health = await fetch(`${baseUrl()}/health`);
    await health.text();
    expect(health.status).toBe(200);
    slowestHealthMs = Math.max(slowestHealthMs, performance.now() - asked);
    probes++;
  } while (!settled);
  return { response: await uploading, uploadMs: await uploadMs, slowestHealthMs, probes };
}

describe('attacks on POST /v1/imports (docs/security.md#parser-budgets)', () => {
  it('attack: tall.xlsx (the template plus one cell at row 1,048,576) is refused within 1 s while /health answers within 200 ms', { timeout: 60_000 }, async () => {
    // Prepare
    const tall = await templateReaching(1_048_576);
    expect(tall.length).toBeLessThan(20_000);

    // Act
    const { response, uploadMs, slowestHealthMs, probes } = await uploadWhileProbingHealth(tall, XLSX);

    // Assess
    const error = expectError(response, 413, 'invalid_request_error');
    expect(error.message).toBe(`A file may hold at most ${MAX_IMPORT_ROWS} rows.`);
    expect(uploadMs).toBeLessThan(1000);
    expect(probes).toBeGreaterThan(0);
    expect(slowestHealthMs).toBeLessThan(200);
    console.log(`tall.xlsx refused in ${uploadMs.toFixed(0)} ms; slowest of ${probes} /health: ${slowestHealthMs.toFixed(0)} ms`);
  });

  it('attack: a workbook of 50,000 rows is refused within 1 s while /health answers within 200 ms', { timeout: 60_000 }, async () => {
    // Prepare
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Products');
    sheet.addRow(['gtin']);
    for (let i = 0; i < 50_000; i++) sheet.addRow(['4006381333931']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());

    // Act
    const { response, uploadMs, slowestHealthMs } = await uploadWhileProbingHealth(file, XLSX);

    // Assess
    expectError(response, 413, 'invalid_request_error');
    expect(uploadMs).toBeLessThan(1000);
    expect(slowestHealthMs).toBeLessThan(200);
    console.log(`50,000-row workbook refused in ${uploadMs.toFixed(0)} ms; slowest /health: ${slowestHealthMs.toFixed(0)} ms`);
  });

  it('attack: a JSON line nested 200,000 deep answers 400 naming the line, not 500', async () => {
    // Prepare
    const deep = Buffer.from(`{"gtin":"4006381333931"}\n${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}\n`);

    // Act
    const response = await upload(deep, 'application/x-ndjson');

    // Assess
    const error = expectError(response, 400, 'invalid_request_error');
    expect(error.message).toMatch(/^Line 2 nests objects and arrays deeper than 32 levels/);
  });

  it('a CSV or JSON Lines upload one byte over the route body limit (MAX_IMPORT_BYTES) is 413', { timeout: 30_000 }, async () => {
    // Prepare
    const csv = Buffer.concat([Buffer.from('gtin\n4006381333931\n'), Buffer.alloc(MAX_IMPORT_BYTES, '\n')]).subarray(0, MAX_IMPORT_BYTES + 1);
    const ndjson = Buffer.concat([Buffer.from('{"gtin":"4006381333931"}\n'), Buffer.alloc(MAX_IMPORT_BYTES, '\n')]).subarray(0, MAX_IMPORT_BYTES + 1);

    // Act
    const responses = [await upload(csv, 'text/csv'), await upload(ndjson, 'application/x-ndjson')];

    // Assess
    for (const response of responses) expect(expectError(response, 413, 'invalid_request_error').message).toBe(`The request body exceeds ${MAX_IMPORT_BYTES} bytes.`);
  });
});
