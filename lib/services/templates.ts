import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, IMPORT_HEADERS } from '../domain/import-columns.ts';
import { toCsv } from './csv.ts';

/**
 * The import template (docs/import-export.md#the-template): one header row with every column of
 * lib/domain/import-columns.ts in order, and one row of example values.
 */

export { CSV_TYPE } from './csv.ts';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const exampleRow = (): Record<string, string> => Object.fromEntries(IMPORT_COLUMNS.map((column) => [column.header, column.example]));

export function templateCsv(): string {
  return toCsv(IMPORT_HEADERS, [exampleRow()]);
}

/**
 * Columns whose values are digits that must stay text in a spreadsheet: a GTIN's leading zero, a
 * GLN or a commodity code would otherwise become a number (and lose zeros, or turn into 4.0E+12).
 */
const TEXT_COLUMNS = new Set(['gtin', 'sku', 'economicOperatorId', 'facilityId', 'commodityCode']);

/** The template as an Excel workbook: one sheet, the header row bold and frozen, every cell text. */
export async function templateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'product-passport';
  const sheet = workbook.addWorksheet('Products', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = IMPORT_COLUMNS.map((column) => ({
    header: column.header,
    key: column.header,
    width: Math.min(Math.max(column.header.length, column.example.length) + 2, 40),
    ...(TEXT_COLUMNS.has(column.header) ? { style: { numFmt: '@' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  IMPORT_COLUMNS.forEach((column, i) => {
    sheet.getRow(1).getCell(i + 1).note = column.describe;
  });
  sheet.addRow(exampleRow());
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
