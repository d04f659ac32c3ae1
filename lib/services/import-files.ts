import { CsvError, parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { StoredRow } from '../data/imports.ts';
import { checkHeaders, ingredientCell } from '../domain/import-columns.ts';
import { holdsBatteryData, PASSPORT_JSON_COLUMN } from '../domain/passport-kinds.ts';
import { IMPORT_MEDIA_TYPES, MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_JSON_DEPTH, MAX_IMPORT_ROWS, MAX_ITEM_IMPORT_ROWS, MAX_XLSX_BYTES, type ImportFormat } from '../domain/imports.ts';
import { ApiError, InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../http/errors.ts';
import { duplicateKey, jsonBodyProblem } from '../http/json-depth.ts';
import { checkWorkbookZip, tooManyRows } from './xlsx-guard.ts';

/**
 * Reading an uploaded file into rows (docs/imports.md): CSV with csv-parse, XLSX with exceljs (the
 * first worksheet), JSON Lines one object per line. Every row is its cells by header as written
 * and its row number as a spreadsheet shows it (the header is row 1; JSON Lines: the line number).
 */
export interface ParsedFile {
  format: ImportFormat;
  headers: string[];
  rows: StoredRow[];
}

const ACCEPTED = Object.values(IMPORT_MEDIA_TYPES);

/** The format of a Content-Type header; 415 for any other media type. */
export function formatOf(contentType: string | undefined): ImportFormat {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const format = (Object.keys(IMPORT_MEDIA_TYPES) as ImportFormat[]).find((f) => IMPORT_MEDIA_TYPES[f] === mediaType);
  if (!format) {
    throw new UnsupportedMediaTypeError(
      mediaType ? `Files of type ${mediaType} cannot be imported.` : 'The upload has no Content-Type.',
      ACCEPTED,
    );
  }
  return format;
}

const tooManyColumns = (where: string): ApiError =>
  new ApiError(413, 'invalid_request_error', `A file may hold at most ${MAX_IMPORT_COLUMNS} columns; ${where}.`, {
    suggestion: 'Use the columns of the template (GET /v1/imports/template.csv).',
  });

const blank = (cells: Record<string, string>): boolean => Object.values(cells).every((cell) => cell.trim() === '');

/** The rows a file may hold: MAX_IMPORT_ROWS for products, MAX_ITEM_IMPORT_ROWS for an items file (docs/security.md#parser-budgets). */
const rowBudgetError = (maxRows: number): ApiError =>
  maxRows === MAX_IMPORT_ROWS
    ? tooManyRows()
    : new ApiError(413, 'invalid_request_error', `An items file may hold at most ${maxRows} rows.`, { suggestion: `Split the file into files of at most ${maxRows} rows.` });

function parseCsv(bytes: Buffer, maxRows = MAX_IMPORT_ROWS): { headers: string[]; rows: StoredRow[] } {
  let headers: string[] = [];
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(bytes, {
      bom: true,
      columns: (header: string[]) => {
        if (header.length > MAX_IMPORT_COLUMNS) throw tooManyColumns(`the header row has ${header.length}`);
        headers = header.map((h) => h.trim());
        return headers;
      },
      relax_column_count: false,
      skip_empty_lines: true,
      info: true,
      // One row past the limit is enough to refuse the file.
      to: maxRows + 1,
    }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof CsvError) {
      throw new InvalidRequestError(`The CSV file cannot be read: ${error.message}`, {
        suggestion: 'Save the file as CSV (comma-separated, UTF-8) with one header row and the same number of cells in every row.',
      });
    }
    throw error;
  }
  if (records.length > maxRows) throw rowBudgetError(maxRows);
  return { headers, rows: records.filter((r) => !blank(r.record)).map((r) => ({ row: r.info.lines, cells: r.record })) };
}

/**
 * The first worksheet's rows (docs/security.md#parser-budgets): the zip is checked first
 * (xlsx-guard.ts: entries, inflated bytes, rows), and only the rows and cells the sheet really
 * holds are visited (exceljs keeps them sparse), never every number up to its last row or column.
 */
async function parseXlsx(bytes: Buffer): Promise<{ headers: string[]; rows: StoredRow[] }> {
  if (bytes.length > MAX_XLSX_BYTES) throw new PayloadTooLargeError(MAX_XLSX_BYTES);
  await checkWorkbookZip(bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new InvalidRequestError('The file is not an Excel workbook (.xlsx).', { suggestion: 'Save the workbook as .xlsx (Excel 2007 or later).' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new InvalidRequestError('The workbook has no worksheet.', { suggestion: 'Put the rows on the first worksheet, the headers in row 1.' });
  // A row's cellCount is its last cell's column: past MAX_IMPORT_COLUMNS the row is refused before its cells are walked.
  const widthOf = (row: ExcelJS.Row, r: number): number => {
    if (row.cellCount > MAX_IMPORT_COLUMNS) throw tooManyColumns(`row ${r} reaches column ${row.cellCount}`);
    return row.cellCount;
  };
  const headerRow = sheet.getRow(1);
  const width = widthOf(headerRow, 1);
  /** Headers by column, in column order; a column with an empty header is not read. */
  const headerAt = new Map<number, string>();
  headerRow.eachCell((cell, c) => {
    const header = cell.text.trim();
    if (header !== '') headerAt.set(c, header);
  });
  const rows: StoredRow[] = [];
  sheet.eachRow((row, r) => {
    if (r === 1) return;
    // eachRow visits only the rows the sheet holds (with a value: includeEmpty is false).
    if (r > MAX_IMPORT_ROWS + 1) throw tooManyRows();
    widthOf(row, r);
    const texts = new Map<number, string>();
    row.eachCell((cell, c) => {
      const text = cell.text;
      if (c > width && text.trim() !== '') {
        throw new InvalidRequestError(`Row ${r} has a value in column ${c}, which has no header.`, { suggestion: 'Give every column a header in row 1, or remove the value.' });
      }
      texts.set(c, text);
    });
    const cells: Record<string, string> = {};
    for (const [c, header] of headerAt) cells[header] = texts.get(c) ?? '';
    if (!blank(cells)) rows.push({ row: r, cells });
  });
  if (rows.length > MAX_IMPORT_ROWS) throw tooManyRows();
  return { headers: [...headerAt.values()], rows };
}

const cellText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);

/**
 * A JSON Lines object to cells under the template's headers: nested objects are flattened with
 * dots (`{"passport": {"vintage": 2023}}` is `passport.vintage`), an array of objects is numbered
 * from 1 (`passport.producers.1.name`), an array of values is joined with `|`, and the ingredients
 * are one cell as the template writes them (lib/domain/import-columns.ts#ingredientCell).
 */
function flatten(value: Record<string, unknown>, prefix: string, out: Record<string, string>, nullCell?: string): void {
  for (const [key, inner] of Object.entries(value)) {
    const header = prefix ? `${prefix}.${key}` : key;
    if (header === PASSPORT_JSON_COLUMN && holdsBatteryData(inner)) {
      // A battery passport stays whole, one cell of JSON (docs/battery.md#import-and-export): its aspects nest too deep and too wide for the template's columns.
      out[header] = JSON.stringify(inner);
    } else if (header.startsWith('data.') && Array.isArray(inner)) {
      // An items file's data (docs/import-export.md#items): a list is one cell of JSON, as the items export writes it.
      out[header] = JSON.stringify(inner);
    } else if (header === 'passport.ingredients' && Array.isArray(inner)) {
      // One cell, as the template writes it: vocabulary entries as code:{code}, translated text as JSON.
      out[header] = inner.map(ingredientCell).join('|');
    } else if (Array.isArray(inner) && inner.some((v) => v !== null && typeof v === 'object')) {
      inner.forEach((entry, i) => {
        if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) flatten(entry as Record<string, unknown>, `${header}.${i + 1}`, out);
        else out[`${header}.${i + 1}`] = cellText(entry);
      });
    } else if (Array.isArray(inner)) {
      out[header] = inner.map(cellText).join('|');
    } else if (inner !== null && typeof inner === 'object') {
      flatten(inner as Record<string, unknown>, header, out, nullCell);
    } else {
      // An items file's null removes a value (docs/imports.md#merge-or-replace): its own cell, not an empty one.
      out[header] = inner === null && nullCell !== undefined ? nullCell : cellText(inner);
    }
  }
}

function parseNdjson(bytes: Buffer, maxRows = MAX_IMPORT_ROWS, nullCell?: string): { headers: string[]; rows: StoredRow[] } {
  const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const rows: StoredRow[] = [];
  const headers = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    if (rows.length >= maxRows) throw rowBudgetError(maxRows);
    // One pass over the line, no recursion (lib/http/json-depth.ts), before JSON.parse and flatten (which recurses once a level) see it:
    // its nesting, and no key twice in one object (JSON.parse would keep the last, unseen).
    const problem = jsonBodyProblem(Buffer.from(line), MAX_IMPORT_JSON_DEPTH);
    if (problem?.kind === 'depth') {
      throw new InvalidRequestError(`Line ${index + 1} nests objects and arrays deeper than ${MAX_IMPORT_JSON_DEPTH} levels.`, {
        suggestion: `Write each line as the template's fields: at most ${MAX_IMPORT_JSON_DEPTH} levels of objects and arrays.`,
      });
    }
    if (problem) throw duplicateKey(problem, `Line ${index + 1}`);
    let value: unknown;
    try {
      // Also a RangeError of the engine on some input nested past its own limit: still this line's fault.
      value = JSON.parse(line);
    } catch {
      throw new InvalidRequestError(`Line ${index + 1} is not valid JSON.`, { suggestion: 'Write one JSON object per line (JSON Lines).' });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidRequestError(`Line ${index + 1} is not a JSON object.`, { suggestion: 'Write one JSON object per line (JSON Lines).' });
    }
    const cells: Record<string, string> = {};
    flatten(value as Record<string, unknown>, '', cells, nullCell);
    if (Object.keys(cells).length > MAX_IMPORT_COLUMNS) throw tooManyColumns(`line ${index + 1} has ${Object.keys(cells).length} fields`);
    for (const header of Object.keys(cells)) headers.add(header);
    if (headers.size > MAX_IMPORT_COLUMNS) throw tooManyColumns(`the lines up to line ${index + 1} have ${headers.size} different fields`);
    rows.push({ row: index + 1, cells });
  }
  return { headers: [...headers], rows };
}

/**
 * The rows of an items file (docs/import-export.md#items): CSV or JSON Lines only, at most
 * MAX_ITEM_IMPORT_ROWS of them within the same 5 MB; the headers are checked by the caller; a JSON
 * Lines `null` becomes `nullCell` (lib/domain/unit-columns.ts NULL_LINE_CELL) when given. 415 for
 * another media type (a workbook too), 413 past a budget, 400 for a file that cannot be read.
 */
export function parseItemsFile(bytes: Buffer, contentType: string | undefined, nullCell?: string): ParsedFile {
  const format = formatOf(contentType);
  if (format === 'xlsx') {
    throw new UnsupportedMediaTypeError('An items file is CSV or JSON Lines.', [IMPORT_MEDIA_TYPES.csv, IMPORT_MEDIA_TYPES.ndjson]);
  }
  if (bytes.length === 0) throw new InvalidRequestError('The file is empty.', { suggestion: 'Send the file as the request body.' });
  if (bytes.length > MAX_IMPORT_BYTES) throw new PayloadTooLargeError(MAX_IMPORT_BYTES);
  const { headers, rows } = format === 'csv' ? parseCsv(bytes, MAX_ITEM_IMPORT_ROWS) : parseNdjson(bytes, MAX_ITEM_IMPORT_ROWS, nullCell);
  if (rows.length === 0) throw new InvalidRequestError('The file has no data rows.', { suggestion: 'Put one item per row under the header row.' });
  return { format, headers, rows };
}

/**
 * The rows of an upload, with its headers checked: 415 for another media type, 413 past a budget
 * (docs/security.md#parser-budgets: bytes, rows, columns, a workbook's inflated bytes), 400 for a
 * file that cannot be read (or JSON Lines nested too deep), 422 naming a header that is not a
 * column (or a missing `gtin` column).
 */
export async function parseImportFile(bytes: Buffer, contentType: string | undefined): Promise<ParsedFile> {
  const format = formatOf(contentType);
  if (bytes.length === 0) throw new InvalidRequestError('The file is empty.', { suggestion: 'Send the file as the request body.' });
  // The route's body limit (lib/api/routes.ts) already holds this; kept here so the parsers never depend on it.
  if (bytes.length > MAX_IMPORT_BYTES) throw new PayloadTooLargeError(MAX_IMPORT_BYTES);
  const { headers, rows } = format === 'csv' ? parseCsv(bytes) : format === 'xlsx' ? await parseXlsx(bytes) : parseNdjson(bytes);
  // The passport column holds a battery passport as JSON (docs/battery.md#import-and-export); the template's columns are checked.
  const [headerError] = checkHeaders(headers.filter((header) => header.trim() !== PASSPORT_JSON_COLUMN));
  if (headerError) throw new ValidationError(headerError.message, headerError.column, 'Use the headers of the template (GET /v1/imports/template.csv).');
  if (!headers.some((h) => h.trim() === 'gtin')) {
    throw new ValidationError('The file has no gtin column: every row names its product by GTIN.', 'gtin', 'Add a gtin column (see the template).');
  }
  if (rows.length === 0) throw new InvalidRequestError('The file has no data rows.', { suggestion: 'Put one product per row under the header row.' });
  return { format, headers, rows };
}
