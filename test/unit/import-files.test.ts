import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http/errors.ts';
import { formatOf, parseImportFile } from '../../lib/services/import-files.ts';

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
