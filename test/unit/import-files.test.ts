import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_JSON_DEPTH, MAX_IMPORT_ROWS, MAX_XLSX_ENTRIES, MAX_XLSX_INFLATED_BYTES } from '../../lib/domain/imports.ts';
import { ApiError } from '../../lib/http/errors.ts';
import { formatOf, parseImportFile } from '../../lib/services/import-files.ts';
import { templateXlsx } from '../../lib/services/templates.ts';
import { runOfZeros, templateEntries, templateReaching, zipOf, type RawEntry } from '../support/workbooks.ts';

/** Reading an upload into rows (lib/services/import-files.ts; docs/imports.md#the-upload). */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; param?: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, ...(error.param ? { param: error.param } : {}) };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseImportFile', () => {
  it('reads a CSV with a byte-order mark and CRLF lines, numbering rows as a spreadsheet does (blank lines keep their numbers)', async () => {
    // Prepare
    const csv = '\uFEFFgtin,name,category\r\n4006381333931,"Riesling, trocken",wine\r\n\r\n96385074,Saft,food\r\n';

    // Act
    const file = await parseImportFile(Buffer.from(csv), 'text/csv; charset=utf-8');

    // Assess
    expect(file.format).toBe('csv');
    expect(file.headers).toEqual(['gtin', 'name', 'category']);
    expect(file.rows).toEqual([
      { row: 2, cells: { gtin: '4006381333931', name: 'Riesling, trocken', category: 'wine' } },
      { row: 4, cells: { gtin: '96385074', name: 'Saft', category: 'food' } },
    ]);
  });

  it('flattens JSON Lines: nested objects to dotted headers, producers numbered from 1, value arrays joined with |', async () => {
    // Prepare
    const line = { gtin: '4006381333931', passport: { vintage: 2023, ingredients: ['grapes', 'E220'], producers: [{ name: 'Weingut', role: 'producer' }], allergens: { containsSulphites: true } } };

    // Act
    const file = await parseImportFile(Buffer.from(`\n${JSON.stringify(line)}\n`), 'application/x-ndjson');

    // Assess
    expect(file.rows).toEqual([
      {
        row: 2,
        cells: {
          gtin: '4006381333931',
          'passport.vintage': '2023',
          'passport.ingredients': 'grapes|E220',
          'passport.producers.1.name': 'Weingut',
          'passport.producers.1.role': 'producer',
          'passport.allergens.containsSulphites': 'true',
        },
      },
    ]);
  });

  it('reads the first worksheet of a workbook, cells as text, headers in row 1', async () => {
    // Prepare
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('First');
    sheet.addRow(['gtin', 'name', 'passport.vintage']);
    sheet.addRow([4006381333931, 'Riesling', 2023]);
    workbook.addWorksheet('Second').addRow(['ignored']);

    // Act
    const file = await parseImportFile(Buffer.from(await workbook.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');

    // Assess
    expect(file.rows).toEqual([{ row: 2, cells: { gtin: '4006381333931', name: 'Riesling', 'passport.vintage': '2023' } }]);
  });

  it('refuses another media type (415), a row with more cells than the header (400), an unknown header (422 naming it), no gtin column (422)', async () => {
    expect(() => formatOf('application/json')).toThrow(ApiError);
    expect(await refusal(parseImportFile(Buffer.from('gtin\n1\n'), undefined))).toEqual({ status: 415, param: 'Content-Type' });
    expect(await refusal(parseImportFile(Buffer.from('gtin,name\n1,2,3\n'), 'text/csv'))).toEqual({ status: 400 });
    expect(await refusal(parseImportFile(Buffer.from('gtin,Name \n1,2\n'), 'text/csv'))).toEqual({ status: 422, param: 'Name' });
    expect(await refusal(parseImportFile(Buffer.from('name\nx\n'), 'text/csv'))).toEqual({ status: 422, param: 'gtin' });
    expect(await refusal(parseImportFile(Buffer.from('[1]\n'), 'application/x-ndjson'))).toEqual({ status: 400 });
  });
});

/*
 * The parsers' budgets and the review's reproductions (docs/security.md): a workbook whose data
 * reaches row 1,048,576, a zip bomb (honest and lying), JSON Lines nested 200,000 deep, and for
 * each parser an input just over its budget.
 */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A workbook of `rows` data rows under the header `gtin`. */
async function workbookOf(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  sheet.addRow(['gtin']);
  for (let i = 0; i < rows; i++) sheet.addRow(['4006381333931']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The largest growth of rss and of heap + external memory while `run` runs, sampled every 2 ms. */
async function growthDuring(run: () => Promise<unknown>): Promise<{ rss: number; heap: number }> {
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed + before.external;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed + now.external);
  };
  const timer = setInterval(sample, 2);
  try {
    await run();
  } finally {
    clearInterval(timer);
    sample();
  }
  return { rss: rss - before.rss, heap: heap - (before.heapUsed + before.external) };
}

const MB = 1024 * 1024;

describe('attacks on the import parsers (docs/security.md)', () => {
  it('attack: a workbook with one cell at row 1,048,576 is refused with 413 naming the row limit within 1 s', async () => {
    // Prepare
    const tall = await templateReaching(1_048_576);
    expect(tall.length).toBeLessThan(20_000);

    // Act
    const started = performance.now();
    const refused = await refusalOf(parseImportFile(tall, XLSX_TYPE));
    const elapsed = performance.now() - started;

    // Assess
    expect(refused).toEqual({ status: 413, message: `A file may hold at most ${MAX_IMPORT_ROWS} rows.` });
    expect(elapsed).toBeLessThan(1000);
  });

  it('attack: a workbook of 50,000 rows is refused with 413 within 1 s', { timeout: 60_000 }, async () => {
    // Prepare
    const wide = await workbookOf(50_000);

    // Act
    const started = performance.now();
    const refused = await refusalOf(parseImportFile(wide, XLSX_TYPE));
    const elapsed = performance.now() - started;

    // Assess
    expect(refused.status).toBe(413);
    expect(refused.message).toContain(String(MAX_IMPORT_ROWS));
    expect(elapsed).toBeLessThan(1000);
  });

  it('attack: a 300 MB-inflating entry in a workbook of under 1 MB is refused with 413, the process growing by less than 64 MB', { timeout: 60_000 }, async () => {
    // Prepare
    const bomb = zipOf([...(await templateEntries()), await runOfZeros('xl/media/image1.bin', 300 * MB)]);
    expect(bomb.length).toBeLessThan(MB);
    await parseImportFile(await templateXlsx(), XLSX_TYPE); // every module loaded before measuring

    // Act
    let refused: { status: number; message: string } | undefined;
    const growth = await growthDuring(async () => {
      refused = await refusalOf(parseImportFile(bomb, XLSX_TYPE));
    });

    // Assess
    expect(refused?.status).toBe(413);
    expect(refused?.message).toContain('xl/media/image1.bin');
    expect(growth.rss).toBeLessThan(64 * MB);
    expect(growth.heap).toBeLessThan(64 * MB);
  });

  it('attack: a zip bomb whose central directory says 1 KB is caught while inflating (400), the process growing by less than 64 MB', { timeout: 60_000 }, async () => {
    // Prepare
    const honest = await runOfZeros('xl/media/image1.bin', 300 * MB);
    const bomb = zipOf([...(await templateEntries()), { ...honest, size: 1024 }]);
    await parseImportFile(await templateXlsx(), XLSX_TYPE);

    // Act
    let refused: { status: number; message: string } | undefined;
    const growth = await growthDuring(async () => {
      refused = await refusalOf(parseImportFile(bomb, XLSX_TYPE));
    });

    // Assess
    expect(refused?.status).toBe(400);
    expect(refused?.message).toContain('xl/media/image1.bin');
    expect(growth.rss).toBeLessThan(64 * MB);
    expect(growth.heap).toBeLessThan(64 * MB);
  });

  it('attack: a JSON line nested 200,000 deep is refused with 400 naming the line, not a 500', async () => {
    // Prepare
    const deep = `{"gtin":"4006381333931"}\n${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}\n`;

    // Act
    const refused = await refusalOf(parseImportFile(Buffer.from(deep), 'application/x-ndjson'));

    // Assess
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/^Line 2 /);
  });
});

describe('each parser refuses an input just over its budget (docs/security.md)', () => {
  const csvRows = (rows: number): Buffer => Buffer.from(`gtin\n${'4006381333931\n'.repeat(rows)}`);
  const ndjsonRows = (rows: number): Buffer => Buffer.from('{"gtin":"4006381333931"}\n'.repeat(rows));

  it('CSV: MAX_IMPORT_ROWS rows are read, one more is 413', async () => {
    expect((await parseImportFile(csvRows(MAX_IMPORT_ROWS), 'text/csv')).rows).toHaveLength(MAX_IMPORT_ROWS);
    expect((await refusalOf(parseImportFile(csvRows(MAX_IMPORT_ROWS + 1), 'text/csv'))).status).toBe(413);
  });

  it('CSV and JSON Lines: a file one byte over MAX_IMPORT_BYTES is 413', async () => {
    // Prepare
    const csv = Buffer.concat([Buffer.from('gtin\n4006381333931\n'), Buffer.alloc(MAX_IMPORT_BYTES, '\n')]).subarray(0, MAX_IMPORT_BYTES + 1);
    const ndjson = Buffer.concat([Buffer.from('{"gtin":"4006381333931"}\n'), Buffer.alloc(MAX_IMPORT_BYTES, '\n')]).subarray(0, MAX_IMPORT_BYTES + 1);

    // Act
    const refused = [await refusalOf(parseImportFile(csv, 'text/csv')), await refusalOf(parseImportFile(ndjson, 'application/x-ndjson'))];

    // Assess
    expect(refused.map((r) => r.status)).toEqual([413, 413]);
  });

  it('CSV: a header row of MAX_IMPORT_COLUMNS + 1 columns is 413', async () => {
    const header = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => (i ? `c${i}` : 'gtin')).join(',');
    expect(await refusalOf(parseImportFile(Buffer.from(`${header}\n`), 'text/csv'))).toMatchObject({ status: 413 });
  });

  it('JSON Lines: MAX_IMPORT_ROWS lines are read, one more is 413', async () => {
    expect((await parseImportFile(ndjsonRows(MAX_IMPORT_ROWS), 'application/x-ndjson')).rows).toHaveLength(MAX_IMPORT_ROWS);
    expect((await refusalOf(parseImportFile(ndjsonRows(MAX_IMPORT_ROWS + 1), 'application/x-ndjson'))).status).toBe(413);
  });

  it(`JSON Lines: nesting ${MAX_IMPORT_JSON_DEPTH} deep is read (its header then checked), one level deeper is 400 naming the line`, async () => {
    // Prepare
    const nested = (depth: number): Buffer => Buffer.from(`{"gtin":"4006381333931"}\n${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}\n`);

    // Act
    const atBudget = await refusalOf(parseImportFile(nested(MAX_IMPORT_JSON_DEPTH), 'application/x-ndjson'));
    const over = await refusalOf(parseImportFile(nested(MAX_IMPORT_JSON_DEPTH + 1), 'application/x-ndjson'));

    // Assess
    expect(atBudget.status).toBe(422); // read, then its header a.a.a… is not a column
    expect(over.status).toBe(400);
    expect(over.message).toMatch(/^Line 2 /);
  });

  it('XLSX: MAX_IMPORT_ROWS rows are read, one more is 413', { timeout: 60_000 }, async () => {
    expect((await parseImportFile(await workbookOf(MAX_IMPORT_ROWS), XLSX_TYPE)).rows).toHaveLength(MAX_IMPORT_ROWS);
    expect((await refusalOf(parseImportFile(await workbookOf(MAX_IMPORT_ROWS + 1), XLSX_TYPE))).status).toBe(413);
  });

  it('XLSX: a workbook inflating to one byte over MAX_XLSX_INFLATED_BYTES is 413, one of more than MAX_XLSX_ENTRIES entries is 413', { timeout: 60_000 }, async () => {
    // Prepare
    const entries = await templateEntries();
    const inflated = entries.reduce((sum, e) => sum + e.size, 0);
    const over = zipOf([...entries, await runOfZeros('xl/media/image1.bin', MAX_XLSX_INFLATED_BYTES - inflated + 1)]);
    const atBudget = zipOf([...entries, await runOfZeros('xl/media/image1.bin', MAX_XLSX_INFLATED_BYTES - inflated)]);
    const empty: RawEntry = { name: '', method: 0, data: Buffer.alloc(0), crc: 0, size: 0 };
    const many = zipOf([...entries, ...Array.from({ length: MAX_XLSX_ENTRIES + 1 - entries.length }, (_, i) => ({ ...empty, name: `docProps/custom${i}.xml` }))]);

    // Act
    const refusedOver = await refusalOf(parseImportFile(over, XLSX_TYPE));
    const read = await parseImportFile(atBudget, XLSX_TYPE);
    const refusedMany = await refusalOf(parseImportFile(many, XLSX_TYPE));

    // Assess
    expect(refusedOver.status).toBe(413);
    expect(read.rows).toHaveLength(1);
    expect(refusedMany.status).toBe(413);
  });

  it(`XLSX: a row reaching column ${MAX_IMPORT_COLUMNS + 1} (here XFD, 16,384) is 413 without walking its cells`, async () => {
    // Prepare
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Products');
    sheet.getCell('A1').value = 'gtin';
    for (let r = 2; r <= 200; r++) {
      sheet.getCell(`A${r}`).value = '4006381333931';
      sheet.getCell(`XFD${r}`).value = 'x';
    }
    const wide = Buffer.from(await workbook.xlsx.writeBuffer());

    // Act
    const started = performance.now();
    const refused = await refusalOf(parseImportFile(wide, XLSX_TYPE));

    // Assess
    expect(refused).toEqual({ status: 413, message: `A file may hold at most ${MAX_IMPORT_COLUMNS} columns; row 2 reaches column 16384.` });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
