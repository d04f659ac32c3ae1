import yauzl from 'yauzl';
import { MAX_IMPORT_ROWS, MAX_XLSX_ENTRIES, MAX_XLSX_INFLATED_BYTES } from '../domain/imports.ts';
import { ApiError, InvalidRequestError } from '../http/errors.ts';

/**
 * The zip of an uploaded workbook, checked before exceljs sees it (docs/security.md#parser-budgets).
 * exceljs inflates every entry of the zip, also those it ignores, and MAX_XLSX_BYTES bounds only
 * the compressed bytes; so this reads the central directory first (at most MAX_XLSX_ENTRIES
 * entries, their declared sizes together at most MAX_XLSX_INFLATED_BYTES), then inflates every
 * entry as a stream that is thrown away, counting the bytes it really gives: an entry that gives
 * more than it declared stops at once (yauzl's validateEntrySizes), and so does the whole once it
 * passes the budget. Nothing is kept but counts, so the check costs a few stream buffers of memory.
 *
 * The worksheets' rows are counted on the way: a sheet with a row past MAX_IMPORT_ROWS + 1 is
 * refused here, before exceljs builds it.
 */

export const tooManyRows = (): ApiError =>
  new ApiError(413, 'invalid_request_error', `A file may hold at most ${MAX_IMPORT_ROWS} rows.`, {
    suggestion: `Split the file into files of at most ${MAX_IMPORT_ROWS} rows.`,
  });

const notAWorkbook = (detail?: string): InvalidRequestError =>
  new InvalidRequestError(`The file is not an Excel workbook (.xlsx)${detail ? `: ${detail}` : ''}.`, {
    suggestion: 'Save the workbook as .xlsx (Excel 2007 or later).',
  });

const inflatesTooMuch = (name: string): ApiError =>
  new ApiError(413, 'invalid_request_error', `The workbook inflates to more than ${MAX_XLSX_INFLATED_BYTES} bytes (at its entry ${name}).`, {
    suggestion: 'Send a workbook of the import template: one sheet of rows, without embedded pictures or other files.',
  });

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
/** A row element that holds cells (a self-closing `<row …/>` holds none), and its row number. */
const ROW_TAG = /<row(?=[\s>])[^>]*>/g;
const ROW_NUMBER = /\sr\s*=\s*["'](\d+)["']/;
/** A tag cut by the end of a chunk waits for the next one, up to this many characters. */
const MAX_CARRY = 4096;

/**
 * Counts the row elements of a worksheet's XML as it inflates: refuses a row numbered past
 * MAX_IMPORT_ROWS + 1 (the header is row 1), or more rows than that. Rows that hold only formatted
 * empty cells count too: exceljs builds them all the same. A tag this scan misses (one longer
 * than MAX_CARRY) is still caught after loading by the rows exceljs reports (import-files.ts).
 */
class RowCounter {
  private carry = '';
  private rows = 0;

  push(chunk: Buffer): void {
    let text = this.carry + chunk.toString('latin1');
    const cut = text.lastIndexOf('<');
    this.carry = '';
    if (cut >= 0 && text.indexOf('>', cut) < 0 && text.length - cut <= MAX_CARRY) {
      this.carry = text.slice(cut);
      text = text.slice(0, cut);
    }
    for (const [tag] of text.matchAll(ROW_TAG)) {
      if (tag.endsWith('/>')) continue;
      this.rows++;
      const number = ROW_NUMBER.exec(tag);
      if (this.rows > MAX_IMPORT_ROWS + 1 || (number && Number(number[1]) > MAX_IMPORT_ROWS + 1)) throw tooManyRows();
    }
  }
}

/** Inflates one entry into nothing, counting its bytes against what is left of the budget; returns the bytes it gave. */
async function drain(zip: yauzl.ZipFile, entry: yauzl.Entry, left: number): Promise<number> {
  let stream;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw notAWorkbook(`its entry ${entry.fileName} cannot be read`);
  }
  const rows = WORKSHEET.test(entry.fileName) ? new RowCounter() : undefined;
  let inflated = 0;
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      inflated += bytes.length;
      if (inflated > left) throw inflatesTooMuch(entry.fileName);
      rows?.push(bytes);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The entry gave more (or fewer) bytes than it declared, or its data is not deflate.
    throw notAWorkbook(`its entry ${entry.fileName} is damaged`);
  } finally {
    stream.destroy();
  }
  return inflated;
}

/** Refuses a workbook's zip past its budgets: 413 for too many entries or bytes inflated (or rows), 400 for a damaged zip. */
export async function checkWorkbookZip(bytes: Buffer): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true });
  } catch {
    throw notAWorkbook();
  }
  try {
    if (zip.entryCount > MAX_XLSX_ENTRIES) {
      throw new ApiError(413, 'invalid_request_error', `A workbook may hold at most ${MAX_XLSX_ENTRIES} files in its zip; this one holds ${zip.entryCount}.`, {
        suggestion: 'Send a workbook of the import template: one sheet of rows, without embedded pictures or other files.',
      });
    }
    // The central directory first: the sizes the entries declare.
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        declared += entry.uncompressedSize;
        if (declared > MAX_XLSX_INFLATED_BYTES) throw inflatesTooMuch(entry.fileName);
        entries.push(entry);
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw notAWorkbook();
    }
    // Then the bytes they really inflate to (declared sizes can lie).
    let inflated = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      inflated += await drain(zip, entry, MAX_XLSX_INFLATED_BYTES - inflated);
    }
  } finally {
    zip.close();
  }
}
