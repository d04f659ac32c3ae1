import { CsvError, parse } from 'csv-parse/sync';
import { UPI_MAX_LENGTH } from './precheck.ts';
import { illFormedText, textProblemMessage, textProblemSuggestion } from '../text.ts';

/**
 * The registry's result file, uploaded back by the user (`POST /v1/registry/results`): one row per
 * entry with what the registry made of it. The Commission's format is not public: the columns here
 * are our assumption, documented in docs/registry.md#the-result-file. Read with csv-parse within a
 * stated budget (docs/security.md#parser-budgets); a file past it, or with one bad row, is refused
 * whole, so no entry is updated from a file that is only partly understood. Pure: a refusal is a
 * value (status, message, param) the service turns into the API's error object.
 */

/** The columns a result file may have, in any order; `upi` and `status` are required. */
export const RESULT_FILE_COLUMNS = ['correlationId', 'upi', 'status', 'registryId', 'registryUri', 'errors'] as const;
export type ResultFileColumn = (typeof RESULT_FILE_COLUMNS)[number];
const REQUIRED: readonly ResultFileColumn[] = ['upi', 'status'];

/** The budget (docs/security.md#parser-budgets): bytes, data rows, one record's characters, and each cell's. */
export const MAX_RESULT_FILE_BYTES = 1024 * 1024;
export const MAX_RESULT_ROWS = 10_000;
export const MAX_RESULT_RECORD_CHARS = 16 * 1024;
export const MAX_RESULT_CELL_CHARS: Readonly<Record<ResultFileColumn, number>> = {
  correlationId: 200,
  upi: UPI_MAX_LENGTH,
  status: 20,
  registryId: 200,
  registryUri: 2048,
  errors: 8000,
};

export const RESULT_OUTCOMES = ['registered', 'rejected', 'pending'] as const;
export type ResultOutcome = (typeof RESULT_OUTCOMES)[number];

/** One row of a result file as the service applies it. */
export interface RegistryResult {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  correlationId: string | null;
  upi: string;
  outcome: ResultOutcome;
  registryId: string | null;
  registryUri: string | null;
  /** A rejection's reasons (the `errors` cell split at `|`); empty otherwise. */
  reasons: string[];
}

/** Why a file is refused: the status and words of the API's error object, `param` the column when one is at fault. */
export interface ResultFileProblem {
  status: 400 | 413 | 422;
  message: string;
  param?: string;
  suggestion?: string;
}

export type ParsedResultFile = { ok: true; results: RegistryResult[] } | { ok: false; problem: ResultFileProblem };

const refuse = (status: ResultFileProblem['status'], message: string, param?: string, suggestion?: string): ParsedResultFile => ({
  ok: false,
  problem: { status, message, ...(param ? { param } : {}), ...(suggestion ? { suggestion } : {}) },
});

const TEMPLATE = `Use the columns ${RESULT_FILE_COLUMNS.join(', ')} (docs/registry.md#the-result-file).`;

/** A refusal found while reading the header, carried out of csv-parse's callback. */
class HeaderProblem extends Error {
  constructor(readonly problem: ResultFileProblem) {
    super(problem.message);
  }
}

function checkHeader(header: string[]): string[] {
  const names = header.map((h) => h.trim());
  const unknown = names.find((n) => !(RESULT_FILE_COLUMNS as readonly string[]).includes(n));
  if (unknown !== undefined) {
    throw new HeaderProblem({ status: 422, message: `The result file has a column '${unknown.slice(0, 60)}' this service does not know.`, param: unknown.slice(0, 60) || 'columns', suggestion: TEMPLATE });
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new HeaderProblem({ status: 422, message: `The result file has the column '${twice}' twice.`, param: twice });
  const missing = REQUIRED.find((n) => !names.includes(n));
  if (missing !== undefined) throw new HeaderProblem({ status: 422, message: `The result file has no '${missing}' column.`, param: missing, suggestion: TEMPLATE });
  return names;
}

const absoluteUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * The rows of a result file, or why it is refused: 413 past the budget, 400 for a file that is not
 * UTF-8 CSV, 422 for a column or row that is wrong (the message names the row). Never throws.
 */
export function parseResultFile(input: Uint8Array | string): ParsedResultFile {
  const bytes = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (bytes > MAX_RESULT_FILE_BYTES) {
    return refuse(413, `A result file may be at most ${MAX_RESULT_FILE_BYTES} bytes; this one has ${bytes}.`, undefined, 'Send the result file of each upload on its own.');
  }
  let text: string;
  try {
    text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return refuse(400, 'The result file is not UTF-8 text.', undefined, 'Save the file as CSV in UTF-8.');
  }

  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      columns: checkHeader,
      relax_column_count: false,
      skip_empty_lines: true,
      max_record_size: MAX_RESULT_RECORD_CHARS,
      info: true,
      // One row past the budget is enough to refuse the file.
      to: MAX_RESULT_ROWS + 1,
    }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof HeaderProblem) return { ok: false, problem: error.problem };
    if (error instanceof CsvError) {
      if (error.code === 'CSV_MAX_RECORD_SIZE') return refuse(413, `A row of a result file may hold at most ${MAX_RESULT_RECORD_CHARS} characters.`);
      return refuse(400, `The result file cannot be read as CSV: ${error.message}`, undefined, 'Send the CSV file as the registry gave it: comma-separated, one header row, the same number of cells in every row.');
    }
    return refuse(400, 'The result file cannot be read as CSV.');
  }
  if (records.length > MAX_RESULT_ROWS) return refuse(413, `A result file may hold at most ${MAX_RESULT_ROWS} rows.`, undefined, 'Send the result file of each upload on its own.');
  if (records.length === 0) return refuse(422, 'The result file holds no result.', 'upi');

  const results: RegistryResult[] = [];
  const rowOf = new Map<string, number>();
  for (const { record, info } of records) {
    const row = info.lines;
    const cell = (name: ResultFileColumn): string => (record[name] ?? '').trim();
    for (const name of RESULT_FILE_COLUMNS) {
      if (cell(name).length > MAX_RESULT_CELL_CHARS[name]) return refuse(422, `Row ${row}: ${name} is longer than ${MAX_RESULT_CELL_CHARS[name]} characters.`, name);
      // What is no character at all is not stored (docs/api.md#text-and-json-rules).
      const problem = illFormedText(cell(name));
      if (problem) return refuse(422, `Row ${row}: ${textProblemMessage(name, problem)}`, name, textProblemSuggestion(problem));
    }
    const upi = cell('upi');
    if (upi === '') return refuse(422, `Row ${row}: upi is empty.`, 'upi');
    const first = rowOf.get(upi);
    if (first !== undefined) return refuse(422, `Row ${row}: the identifier ${upi.slice(0, 200)} is already in row ${first}.`, 'upi');
    rowOf.set(upi, row);
    const status = cell('status').toLowerCase();
    if (!(RESULT_OUTCOMES as readonly string[]).includes(status)) {
      return refuse(422, `Row ${row}: status must be one of ${RESULT_OUTCOMES.join(', ')}.`, 'status');
    }
    const outcome = status as ResultOutcome;
    const registryId = cell('registryId') || null;
    const registryUri = cell('registryUri') || null;
    if (registryUri !== null && !absoluteUrl(registryUri)) return refuse(422, `Row ${row}: registryUri must be an absolute URL (https://…).`, 'registryUri');
    const reasons = cell('errors')
      .split('|')
      .map((r) => r.trim())
      .filter(Boolean);
    if (outcome === 'registered' && registryId === null && registryUri === null) {
      return refuse(422, `Row ${row}: a registered entry needs its registryId or registryUri.`, 'registryId');
    }
    if (outcome === 'rejected' && reasons.length === 0) return refuse(422, `Row ${row}: a rejected entry needs its reasons in errors.`, 'errors');
    results.push({ row, correlationId: cell('correlationId') || null, upi, outcome, registryId, registryUri, reasons: outcome === 'rejected' ? reasons : [] });
  }
  return { ok: true, results };
}
