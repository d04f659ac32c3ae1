import * as z from 'zod';
import { forceQueryParam } from './passport-completeness.ts';
import { columnLabel } from './import-columns.ts';
import { cursorQuerySchema } from './pagination.ts';
import type { Environment } from './tenant.ts';
import { REFUSED_IN_A_LINE } from './text.ts';
import { ITEM_IMPORT_MODES, type ItemImportMode } from './item-import-modes.ts';

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
 * Rows an items file may hold (docs/import-export.md#items): a producer registers serials by the
 * hundred thousand, each row a few cells, within the same 5 MB.
 */
export const MAX_ITEM_IMPORT_ROWS = 100_000;

/** What a file imports: products with their passports (the default), or a product's serialised items. */
export const IMPORT_TYPES = ['products', 'items'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** How an items import treats a known serial: merge (the default) or replace (lib/domain/item-import-modes.ts). */
export { ITEM_IMPORT_MODES, type ItemImportMode } from './item-import-modes.ts';

/** Rows a dry run of an items import lists with the fields they change (rowChanges). */
export const MAX_ROW_CHANGES = 1000;

/** One row of an items dry run that would write: its serial, whether it creates or updates the item, and what it changes. */
export interface ImportRowChange {
  row: number;
  serial: string;
  outcome: 'create' | 'update';
  changes: string[];
}

/**
 * Rows per chunk of an items file, and the most bytes its rows may take as JSON: an items chunk's
 * rows travel in its SQS message itself (ten messages to a SendMessageBatch of at most 256 KiB),
 * so that its chunk item stays a small marker (docs/decisions.md#bulk-registration-within-11-write-units-an-item).
 */
export const ITEM_CHUNK_ROWS = 500;
export const ITEM_CHUNK_MAX_BYTES = 24 * 1024;
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

/**
 * One problem of one row: the spreadsheet row number (the header is row 1), the column's header,
 * and the product the row names (its GTIN and name cells as written, or the product's name), so
 * that a person finds it without counting rows.
 */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
  gtin?: string;
  name?: string;
}

export interface ImportRecord {
  importId: string;
  orgId: string;
  environment: Environment;
  status: ImportStatus;
  format: ImportFormat;
  /** The uploaded file's name, as the upload gave it (`fileName`), if it did. */
  fileName?: string;
  /** `items`: a product's serialised items (docs/import-export.md#items); products when absent. */
  type?: ImportType;
  /** The product an items file registers items of. */
  productId?: string;
  /** How an items import treats a known serial; absent for products and for items imports made before modes existed. */
  mode?: ItemImportMode;
  /** A dry run of an items import only (never stored): the rows that would write, with what each changes, in row order. */
  rowChanges?: ImportRowChange[];
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
    label: z.string().describe('The column in people\'s words, as the template names it (e.g. "Country of origin" for passport.origin.country); "" for the row as a whole'),
    message: z.string().describe('What is wrong, naming the column by its label'),
    gtin: z.string().nullable().describe("The row's GTIN as written (null when the row has none)"),
    name: z.string().nullable().describe("The product's name: the row's name cell, or the product's when the row names none (null when unknown)"),
  })
  .meta({ id: 'ImportRowError' });

export const importRowChangeSchema = z
  .object({
    row: z.int().min(1).describe('Row number as the spreadsheet shows it (JSON Lines: the line number)'),
    serial: z.string().describe("The row's serial"),
    outcome: z.enum(['create', 'update']).describe('create: a new item; update: the item\'s next version'),
    changes: z
      .array(z.string())
      .describe('What the row changes, as the columns name it: lot, status, and each data member added, changed or removed (data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy.stateOfCertifiedEnergyValue; a list as one)'),
  })
  .meta({ id: 'ImportRowChange' });

/** A job as the API shows it (also the answer of a dry run, which stores nothing). */
export const importJobSchema = z
  .object({
    id: z.string().regex(IMPORT_ID_PATTERN),
    status: z.enum(IMPORT_STATUSES),
    dryRun: z.boolean().describe('A dry run validated the file and wrote nothing'),
    format: z.enum(IMPORT_FORMATS),
    type: z.enum(IMPORT_TYPES).describe('products (with their passports) or items (one product\'s serialised items)'),
    productId: z.uuid().nullable().describe('The product an items import registers items of (null for products)'),
    fileName: z.string().nullable().describe('The uploaded file\'s name, as the upload gave it in fileName (null when it gave none)'),
    mode: z
      .enum(ITEM_IMPORT_MODES)
      .nullable()
      .describe('An items import: merge (a known serial keeps what its row does not name) or replace (the row is the item\'s whole content); null for products'),
    counts: countsSchema,
    errors: z.array(importRowErrorSchema).max(MAX_IMPORT_ERRORS).describe(`Row errors by row and column, at most ${MAX_IMPORT_ERRORS}`),
    errorsTruncated: z.boolean().describe('More rows failed than errors lists'),
    rowChanges: z
      .array(importRowChangeSchema)
      .max(MAX_ROW_CHANGES)
      .optional()
      .describe(`A dry run of an items import only: the rows that would create or update an item, in row order, each with the fields it changes (at most ${MAX_ROW_CHANGES}; rowChangesTruncated says when more would)`),
    rowChangesTruncated: z.boolean().optional().describe('A dry run of an items import only: more rows would write than rowChanges lists'),
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

/** The most characters of an upload's file name. */
export const MAX_FILE_NAME_LENGTH = 200;
/**
 * A file name as a person gives it: no path separator, no space at either end, nothing the text rule
 * refuses (control characters, bidi overrides that would show "cod.exe" as "exe.doc", noncharacters:
 * lib/domain/text.ts); names of dots only are refused beside it.
 */
export const FILE_NAME_PATTERN = new RegExp(`^[^/\\\\\\s${REFUSED_IN_A_LINE}](?:[^/\\\\${REFUSED_IN_A_LINE}]*[^/\\\\\\s${REFUSED_IN_A_LINE}])?$`, 'u');

export const importQuerySchema = z.strictObject({
  type: z
    .enum(IMPORT_TYPES, { error: `type must be one of: ${IMPORT_TYPES.join(', ')}.` })
    .optional()
    .describe('products (the default): products and passports by GTIN; items: the serialised items of the product productId names (CSV or JSON Lines, docs/import-export.md#items)'),
  productId: z
    .uuid({ error: 'productId must be the productId (a UUID) of a product of the organization.' })
    .optional()
    .describe('With type=items: the product whose items the file registers (required then, refused otherwise)'),
  dryRun: z
    .enum(['true', 'false'], { error: 'dryRun must be true or false.' })
    .optional()
    .describe('true: validate every row and answer the report; nothing is written'),
  force: forceQueryParam,
  mode: z
    .enum(ITEM_IMPORT_MODES, { error: `mode must be one of: ${ITEM_IMPORT_MODES.join(', ')}.` })
    .optional()
    .describe(
      'With type=items: merge (the default) changes only what each row\'s columns name on a known serial and keeps the rest, as PATCH …/items/{serial} does; replace makes each row the item\'s whole content, as PUT does (docs/imports.md#merge-or-replace). Refused for products',
    ),
  fileName: z
    .string()
    .min(1, { error: 'fileName must not be empty: leave it out when the file has no name.' })
    .max(MAX_FILE_NAME_LENGTH, { error: `fileName must be at most ${MAX_FILE_NAME_LENGTH} characters.` })
    .regex(FILE_NAME_PATTERN, { error: 'fileName must be a file name without a folder: no / or \\, no control characters or bidi overrides, no space at its start or end.' })
    .refine((name) => !/^\.+$/.test(name), { error: 'fileName must not be only dots.' })
    .optional()
    .meta({
      not: { pattern: '^\\.+$' },
      description: `The uploaded file's name (such as products.csv), shown in the job and its listing: at most ${MAX_FILE_NAME_LENGTH} characters, no / or \\, no control characters, no space at either end, not only dots`,
      example: 'products.csv',
    }),
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
    type: job.type ?? 'products',
    productId: job.productId ?? null,
    fileName: job.fileName ?? null,
    mode: job.mode ?? null,
    counts: job.counts,
    errors: sortRowErrors(job.errors)
      .slice(0, MAX_IMPORT_ERRORS)
      .map((e) => ({ row: e.row, column: e.column, label: e.column === '' ? '' : columnLabel(e.column), message: e.message, gtin: e.gtin ?? null, name: e.name ?? null })),
    errorsTruncated: job.errorsTruncated || job.errors.length > MAX_IMPORT_ERRORS,
    ...(job.rowChanges === undefined ? {} : { rowChanges: job.rowChanges.slice(0, MAX_ROW_CHANGES), rowChangesTruncated: job.rowChanges.length > MAX_ROW_CHANGES }),
    createdAt: job.createdAt,
    finishedAt: job.finishedAt ?? null,
  };
}

export function toImportSummary(job: ImportRecord): ImportJobSummary {
  const { errors: _errors, ...summary } = toImportView(job);
  return summary;
}
