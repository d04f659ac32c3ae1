import { stringify } from 'csv-stringify/sync';

/** The media type of the CSV the API writes (the template and the export, docs/import-export.md). */
export const CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * Rows under `headers` as CSV (RFC 4180: comma, CRLF, fields quoted when needed), the header row
 * first. A cell neutralised against formulas (`'=…`, lib/domain/import-columns.ts#neutraliseCell)
 * is always quoted.
 */
export function toCsv(headers: readonly string[], rows: readonly Record<string, string>[]): string {
  return stringify(
    rows.map((row) => headers.map((header) => row[header] ?? '')),
    { header: true, columns: headers.map((header) => ({ key: header, header })), record_delimiter: 'windows', quoted_match: /^'+[=+\-@\t\r]/ },
  );
}
