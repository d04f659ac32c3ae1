import * as z from 'zod';
import { cursorQuerySchema } from './pagination.ts';
import type { Environment } from './tenant.ts';

/**
 * Bulk import jobs (docs/imports.md): a file of rows, validated on upload, stored in chunks of at
 * most IMPORT_CHUNK_ROWS rows and IMPORT_CHUNK_MAX_BYTES bytes (one SQS message each), imported by
 * the worker.
 */
export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_FORMATS = ['csv', 'xlsx', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The media types of the upload, by format. */
export const IMPORT_MEDIA_TYPES: Readonly<Record<ImportFormat, string>> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ndjson: 'application/x-ndjson',
};

/** The largest upload (the route's maxBodyBytes, lib/api/routes.ts). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/**
 * The largest workbook: API Gateway passes a binary body to Lambda base64-encoded (4/3 larger),
 * and a synchronous invocation carries at most 6 MB.
 */
export const MAX_XLSX_BYTES = 4 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
/**
 * Columns a file may have (cells per row): the template's 39 with all 20 producers are 90, so 200
 * bounds the work per row without refusing any honest file (docs/security.md#parser-budgets).
 */
export const MAX_IMPORT_COLUMNS = 200;
/**
 * How deep a JSON Lines object may nest (objects and arrays inside each other): the template's
 * deepest field, a translated ingredient (`passport.ingredients[n].text.de`), is 5 levels.
 */
export const MAX_IMPORT_JSON_DEPTH = 32;
/** Entries a workbook's zip may hold: one written by Excel or exceljs has 10 to 30. */
export const MAX_XLSX_ENTRIES = 256;
/**
 * Bytes a workbook's zip may inflate to, all entries together (and so any one entry), checked
 * against the sizes the zip declares and again while inflating: a full 10,000-row sheet of the
 * template's 39 columns inflates to about 22 MB.
 */
export const MAX_XLSX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Rows per chunk: a chunk is one SQS message and one worker run. */
export const IMPORT_CHUNK_ROWS = 100;
/**
 * The most bytes one chunk item (`IMPORTCHUNK#…`, lib/data/imports.ts) may take as DynamoDB counts
 * them (lib/data/item-size.ts), with room already kept for every row's outcome and the done
 * marker the worker adds: 300 KiB, three quarters of DynamoDB's 400 KB item. The other 100 KiB is
 * headroom for the model (its number sizes are approximate). A chunk ends at IMPORT_CHUNK_ROWS rows
 * or before this budget, whichever comes first; a row that alone exceeds it is refused on upload.
 */
export const IMPORT_CHUNK_MAX_BYTES = 300 * 1024;
/** Row errors kept on a job; further ones are counted (counts.failed) but not listed. */
export const MAX_IMPORT_ERRORS = 1000;

export interface ImportCounts {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export const zeroCounts = (rows = 0): ImportCounts => ({ rows, created: 0, updated: 0, unchanged: 0, failed: 0 });

/** One problem of one row: the spreadsheet row number (the header is row 1) and the column's header. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

export interface ImportRecord {
  importId: string;
  orgId: string;
  environment: Environment;
  status: ImportStatus;
  format: ImportFormat;
  /** Chunks queued, and chunks the worker has finished. */
  chunks: number;
  chunksDone: number;
  counts: ImportCounts;
  errors: ImportRowError[];
  /** More rows failed than `errors` lists. */
  errorsTruncated: boolean;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/**
 * A finished job's status: `failed` when no row could be imported, else `succeeded` (rows that
 * failed are counted in counts.failed and listed in errors; the others are imported).
 */
export const finalStatus = (counts: ImportCounts): ImportStatus => (counts.rows > 0 && counts.failed >= counts.rows ? 'failed' : 'succeeded');

/** Row errors in reading order: by row, then column. */
export const sortRowErrors = (errors: readonly ImportRowError[]): ImportRowError[] =>
  [...errors].sort((a, b) => a.row - b.row || (a.column < b.column ? -1 : a.column > b.column ? 1 : 0));

export const IMPORT_ID_PATTERN = /^imp_[0-9a-z]{20}$/;

const countsSchema = z.object({
  rows: z.int().min(0).describe('Data rows in the file'),
  created: z.int().min(0).describe('Rows that created a product'),
  updated: z.int().min(0).describe('Rows that changed a product or published a new passport version'),
  unchanged: z.int().min(0).describe('Rows equal to what the product and its current passport already hold'),
  failed: z.int().min(0).describe('Rows not imported; errors lists why'),
});

export const importRowErrorSchema = z
  .object({
    row: z.int().min(1).describe('Row number as the spreadsheet shows it: the header is row 1, the first data row row 2 (JSON Lines: the line number)'),
    column: z.string().describe('The column header as written in the file ("" for the row as a whole)'),
    message: z.string(),
  })
  .meta({ id: 'ImportRowError' });

/** A job as the API shows it (also the answer of a dry run, which stores nothing). */
export const importJobSchema = z
  .object({
    id: z.string().regex(IMPORT_ID_PATTERN),
    status: z.enum(IMPORT_STATUSES),
    dryRun: z.boolean().describe('A dry run validated the file and wrote nothing'),
    format: z.enum(IMPORT_FORMATS),
    counts: countsSchema,
    errors: z.array(importRowErrorSchema).max(MAX_IMPORT_ERRORS).describe(`Row errors by row and column, at most ${MAX_IMPORT_ERRORS}`),
    errorsTruncated: z.boolean().describe('More rows failed than errors lists'),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJob = z.infer<typeof importJobSchema>;

/**
 * A job in the listing: everything but its row errors (up to 1,000 a job would make a page of 100
 * jobs too large for one answer); GET /v1/imports/{importId} has them.
 */
export const importJobSummarySchema = importJobSchema.omit({ errors: true }).meta({ id: 'ImportJobSummary' });
export type ImportJobSummary = z.infer<typeof importJobSummarySchema>;

export const queuedImportSchema = z
  .object({ id: z.string().regex(IMPORT_ID_PATTERN), status: z.literal('queued') })
  .meta({ id: 'QueuedImport' });

export const importQuerySchema = z.strictObject({
  dryRun: z
    .enum(['true', 'false'], { error: 'dryRun must be true or false.' })
    .optional()
    .describe('true: validate every row and answer the report; nothing is written'),
});

/** `GET /v1/imports`: newest first, in cursor pages. */
export const importListQuerySchema = cursorQuerySchema(
  'id (imp_…)',
  z.string().regex(IMPORT_ID_PATTERN, { error: 'starting_after must be the id (imp_…) of the last import of the previous page.' }),
);

export function toImportView(job: ImportRecord, dryRun = false): ImportJob {
  return {
    id: job.importId,
    status: job.status,
    dryRun,
    format: job.format,
    counts: job.counts,
    errors: sortRowErrors(job.errors).slice(0, MAX_IMPORT_ERRORS),
    errorsTruncated: job.errorsTruncated || job.errors.length > MAX_IMPORT_ERRORS,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt ?? null,
  };
}

export function toImportSummary(job: ImportRecord): ImportJobSummary {
  const { errors: _errors, ...summary } = toImportView(job);
  return summary;
}
