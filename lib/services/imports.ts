import type * as z from 'zod';
import { config } from '../config.ts';
import { getDefaultDomain } from '../data/domains.ts';
import { eventPut } from '../data/events.ts';
import { labelTermsForPages } from '../data/labelling-terms.ts';
import {
  createImportedProduct,
  finishChunk,
  getImportChunk,
  getImportJob,
  listImportJobs,
  readGtinViews,
  readProducts,
  settleImportJob,
  updateImportedProduct,
  type GtinView,
  type RowMark,
  type StoredRow,
} from '../data/imports.ts';
import { digitalLinkUri } from '../domain/digital-link.ts';
import { brandDigitalLinkUri } from '../domain/domain.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newProductId } from '../domain/ids.ts';
import { nextPassportVersion } from '../domain/passport-version.ts';
import { canonicalHeader, columnOf, rowToInput } from '../domain/import-columns.ts';
import { IMPORT_ID_PATTERN, type ImportCounts, type ImportRecord, type ImportRowError } from '../domain/imports.ts';
import { canonicalJson } from '../domain/json.ts';
import { passportDataSchema, WINE_FISH_MESSAGE, wineDeclaresFish, type PassportData, type PassportVersion } from '../domain/passport.ts';
import { energyMismatch, energyMismatchMessage, missingDeclaration, withComputedEnergy } from '../domain/nutrition.ts';
import { toPassportView } from '../domain/passport-view.ts';
import { createProductSchema, toProductView, type ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { NotFoundError } from '../http/errors.ts';

/**
 * Bulk import (docs/imports.md). The upload is parsed and every row checked on its own (its cells,
 * its GTIN, its values against the product and passport schemas, a GTIN named twice); the rows
 * that pass are stored in chunks and queued, one SQS message per chunk; the worker upserts each
 * row's product by GTIN and publishes a passport version only when the data differs from the
 * current one, so importing the same file again changes nothing.
 */

/** The product fields a row may set, validated like a create (every field optional here). */
const rowProductSchema = createProductSchema.partial();
type RowProduct = z.infer<typeof rowProductSchema>;

/** A row that passed the checks that need no data: what the worker writes. */
interface CheckedRow {
  row: number;
  gtin14: string;
  /** The fields the row's cells set (an empty cell leaves the field as it is). */
  product: RowProduct;
  passport: PassportData | undefined;
}

type Checked = { ok: true; value: CheckedRow } | { ok: false; errors: ImportRowError[] };

/** The header as the file writes it, for a column of the template. */
const writtenHeader = (cells: Record<string, string>, column: string): string =>
  Object.keys(cells).find((written) => canonicalHeader(written) === column) ?? column;

function issuesToErrors(row: number, cells: Record<string, string>, issues: readonly z.core.$ZodIssue[], prefix: string[]): ImportRowError[] {
  return issues.map((issue) => {
    const path = issue.code === 'unrecognized_keys' ? [...prefix, ...issue.path, issue.keys[0] ?? ''] : [...prefix, ...issue.path];
    const column = columnOf(path as (string | number)[]);
    const message = issue.code === 'unrecognized_keys' ? `${column} is not a field this service knows.` : issue.message;
    return { row, column: writtenHeader(cells, column), message };
  });
}

/** One error per cell: a value can break several rules (-5 is below 0 and not a plausible amount), the first says it. */
function firstPerColumn(errors: readonly ImportRowError[]): ImportRowError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(`${e.row}\u0000${e.column}`) && seen.add(`${e.row}\u0000${e.column}`));
}

/** One row's checks that need no data: cells, GTIN, values. */
function checkRow(stored: StoredRow): Checked {
  const { row, cells } = stored;
  const input = rowToInput(cells);
  const errors: ImportRowError[] = input.errors.map((e) => ({ row, column: e.column, message: e.message }));
  const productInput: Record<string, string> = { ...input.product };
  if (productInput.gtin === undefined) errors.push({ row, column: writtenHeader(cells, 'gtin'), message: 'gtin is required: every row names its product by GTIN.' });
  const product = rowProductSchema.safeParse(productInput);
  if (!product.success) errors.push(...issuesToErrors(row, cells, product.error.issues, []));
  const passport = input.passport === undefined ? undefined : passportDataSchema.safeParse(input.passport);
  if (passport && !passport.success) errors.push(...issuesToErrors(row, cells, passport.error.issues, ['passport']));
  const mismatch = passport?.success && passport.data.nutrition ? energyMismatch(passport.data.nutrition, passport.data.productType) : undefined;
  if (mismatch) errors.push({ row, column: writtenHeader(cells, columnOf(['passport', 'nutrition', mismatch.field])), message: energyMismatchMessage(mismatch).message });
  // A wine's nutrition declaration must be complete (lib/services/passports.ts checkDeclaration): one error per missing column.
  if (passport?.success && !mismatch) {
    for (const path of missingDeclaration(withComputedEnergy(passport.data).nutrition ?? {}, passport.data.productType)) {
      const column = writtenHeader(cells, columnOf(['passport', ...path.split('.')]));
      errors.push({ row, column, message: `${column} is required for a wine: the nutrition declaration (energy, fat, saturates, carbohydrate, sugars, protein, salt) is mandatory.` });
    }
  }
  // A wine declares no fish (Annex II point 4(b); lib/services/passports.ts): refused here too, so the dry run says so.
  if (passport?.success && wineDeclaresFish(passport.data, product.success ? product.data.category : undefined, passport.data.productType)) {
    errors.push({ row, column: writtenHeader(cells, columnOf(['passport', 'allergens', 'containsFish'])), message: WINE_FISH_MESSAGE });
  }
  if (errors.length || !product.success || !product.data.gtin) return { ok: false, errors: firstPerColumn(errors) };
  // Only the fields the cells set: a default (such as granularity's) must not count as a change.
  const set = Object.fromEntries(Object.entries(product.data).filter(([field]) => field in productInput)) as RowProduct;
  return { ok: true, value: { row, gtin14: product.data.gtin, product: set, passport: passport?.success ? withComputedEnergy(passport.data) : undefined } };
}

/** The rows that pass, and the errors of those that do not (a GTIN named twice fails its later rows). */
export function checkRows(rows: readonly StoredRow[]): { valid: StoredRow[]; errors: ImportRowError[]; failed: number } {
  const valid: StoredRow[] = [];
  const errors: ImportRowError[] = [];
  const firstRowOf = new Map<string, number>();
  let failed = 0;
  for (const stored of rows) {
    const checked = checkRow(stored);
    if (!checked.ok) {
      failed++;
      errors.push(...checked.errors);
      continue;
    }
    const first = firstRowOf.get(checked.value.gtin14);
    if (first !== undefined) {
      failed++;
      errors.push({ row: stored.row, column: writtenHeader(stored.cells, 'gtin'), message: `This GTIN is also on row ${first}: a file names each product once.` });
      continue;
    }
    firstRowOf.set(checked.value.gtin14, stored.row);
    valid.push(stored);
  }
  return { valid, errors, failed };
}

/** What importing a row does, decided against the tenant's data. */
export type Plan =
  | { kind: 'create'; row: CheckedRow; product: Omit<ProductRecord, 'qrCodeUrl'> }
  | { kind: 'update'; row: CheckedRow; current: ProductRecord; changes: Record<string, unknown>; passport: PassportData | undefined }
  | { kind: 'unchanged'; row: CheckedRow }
  | { kind: 'failed'; errors: ImportRowError[] };

/** Product fields a row compares and writes (gtin is the key, never written to an existing product). */
function productChanges(current: ProductRecord, product: RowProduct): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(product)) {
    if (field === 'gtin' || value === undefined) continue;
    if ((current as unknown as Record<string, unknown>)[field] !== value) changes[field] = value;
  }
  return changes;
}

/**
 * Decides each checked row against the tenant's data: two BatchGetItem calls per 100 rows (the
 * GTIN items with their current passports, then the existing products).
 */
export async function planRows(tenant: Tenant, stored: readonly StoredRow[], now: string): Promise<Plan[]> {
  const checked = stored.map(checkRow);
  const rows = checked.flatMap((c) => (c.ok ? [c.value] : []));
  const views = await readGtinViews(tenant, rows.map((r) => r.gtin14));
  const products = await readProducts(tenant, [...views.values()].map((v) => v.productId));
  return checked.map((c): Plan => {
    if (!c.ok) return { kind: 'failed', errors: c.errors };
    const row = c.value;
    const view: GtinView | undefined = views.get(row.gtin14);
    const current = view ? products.get(view.productId) : undefined;
    if (!view || !current) {
      const create = createProductSchema.safeParse({ ...row.product, gtin: row.gtin14 });
      if (!create.success) {
        const cells = stored.find((s) => s.row === row.row)?.cells ?? {};
        return { kind: 'failed', errors: firstPerColumn(issuesToErrors(row.row, cells, create.error.issues, [])).map((e) => ({ ...e, message: `${e.message} (a new product)` })) };
      }
      const { gtin, ...fields } = create.data;
      return {
        kind: 'create',
        row,
        // As createProduct (lib/services/products.ts) stores it: granularity `model` unless the row says otherwise.
        product: { ...fields, granularity: fields.granularity ?? 'model', gtin, productId: newProductId(), ...tenant, createdAt: now, updatedAt: now, passportVersion: 0 } as Omit<ProductRecord, 'qrCodeUrl'>,
      };
    }
    const changes = productChanges(current, row.product);
    const passportChanged = row.passport !== undefined && canonicalJson(row.passport) !== canonicalJson(view.passport?.data ?? null);
    if (!Object.keys(changes).length && !passportChanged) return { kind: 'unchanged', row };
    return { kind: 'update', row, current, changes, passport: passportChanged ? row.passport : undefined };
  });
}

const rowErrorOf = (row: number, message: string): ImportRowError => ({ row, column: '', message });

/** The counts of a planned chunk, as a dry run reports them. */
export function countPlans(plans: readonly Plan[]): Omit<ImportCounts, 'rows'> & { errors: ImportRowError[] } {
  const out = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] as ImportRowError[] };
  for (const plan of plans) {
    if (plan.kind === 'failed') {
      out.failed++;
      out.errors.push(...plan.errors);
    } else out[plan.kind === 'create' ? 'created' : plan.kind === 'update' ? 'updated' : 'unchanged']++;
  }
  return out;
}

export async function requireImport(tenant: Tenant, importId: string): Promise<ImportRecord> {
  const job = IMPORT_ID_PATTERN.test(importId) ? await getImportJob(tenant, importId) : undefined;
  if (!job) throw new NotFoundError(`No import with id '${importId}'.`, { param: 'importId' });
  return job;
}

export const listImports = (tenant: Tenant, limit: number, startingAfter?: string) => listImportJobs(tenant, limit, startingAfter);

/** The qrCodeUrl of the chunk's new products (as lib/services/products.ts gives one): one read of the default domain per chunk. */
async function qrCodeUrlMaker(tenant: Tenant): Promise<(gtin14: string) => string> {
  const brand = tenant.environment === 'live' ? await getDefaultDomain(tenant.orgId) : undefined;
  return (gtin14) => (brand ? brandDigitalLinkUri(brand.hostname, gtin14) : digitalLinkUri(config().resolverOrigin, tenant, gtin14));
}



/**
 * The events of one imported row (docs/lifecycle.md#event-log), for the row's own transaction:
 * `product.created` for a new product, `product.updated` when its product fields changed, and
 * `passport.published` for a new version. `after` is the product as the row leaves it.
 */
function rowEvents(tenant: Tenant, origin: Origin, kind: 'create' | 'update', fieldsChanged: boolean, after: ProductRecord, passport: PassportVersion | undefined, now: string) {
  return [
    ...(kind === 'create' ? [newEvent('product.created', toProductView(after), origin, now)] : []),
    ...(kind === 'update' && fieldsChanged ? [newEvent('product.updated', toProductView(after), origin, now)] : []),
    ...(passport ? [newEvent('passport.published', toPassportView(after, passport), origin, passport.publishedAt)] : []),
  ].map((event) => eventPut(tenant, event));
}

/** How often a row is decided again when a concurrent write changed its product first. */
const ROW_ATTEMPTS = 3;

/**
 * Imports one chunk (the worker's unit, one SQS message). Rows whose writes a previous delivery
 * already made are taken from the chunk's recorded outcomes, so a redelivered chunk neither
 * writes nor counts them twice; the chunk's counts reach the job in the transaction that marks it
 * done, so they are added once. Returns 'missing' for a chunk or job that does not exist.
 */
export async function importChunk(tenant: Tenant, importId: string, chunkNumber: number): Promise<'done' | 'already' | 'missing'> {
  for (let pass = 1; ; pass++) {
    const result = await importChunkOnce(tenant, importId, chunkNumber);
    if (result !== 'stale') {
      if (result !== 'missing') await settleImportJob(tenant, importId, new Date().toISOString());
      return result;
    }
    if (pass >= ROW_ATTEMPTS) throw new Error(`Import ${importId} chunk ${chunkNumber} kept changing under another delivery`);
  }
}

/** One pass over a chunk; 'stale' when another delivery of it wrote rows meanwhile (counted again then). */
async function importChunkOnce(tenant: Tenant, importId: string, chunkNumber: number): Promise<'done' | 'already' | 'missing' | 'stale'> {
  const chunk = await getImportChunk(tenant, importId, chunkNumber);
  if (!chunk) return 'missing';
  if (chunk.done) return 'already';
  const now = new Date().toISOString();
  const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const errors: ImportRowError[] = [];
  const pending: StoredRow[] = [];
  let outcomes = 0;
  for (const row of chunk.rows) {
    const recorded = chunk.outcomes[String(row.row)];
    if (recorded) {
      counts[recorded]++;
      outcomes++;
    } else pending.push(row);
  }
  const qrCodeUrl = pending.length ? await qrCodeUrlMaker(tenant) : () => '';
  // The organization's corrected legal terms, copied onto every version this chunk publishes (docs/labelling.md#correcting-a-term).
  const labelTerms = pending.length ? await labelTermsForPages(tenant) : undefined;
  // The import's worker is the system's own work, in the name of the upload's request.
  const origin: Origin = { actor: { type: 'system', id: importId }, requestId: chunk.requestId };
  let todo = pending;
  for (let attempt = 1; todo.length && attempt <= ROW_ATTEMPTS; attempt++) {
    const retry: StoredRow[] = [];
    const plans = await planRows(tenant, todo, now);
    for (const [i, plan] of plans.entries()) {
      const stored = todo[i]!;
      const mark: RowMark = { importId, chunk: chunkNumber, row: stored.row };
      if (plan.kind === 'failed') {
        counts.failed++;
        errors.push(...plan.errors);
        continue;
      }
      if (plan.kind === 'unchanged') {
        counts.unchanged++;
        continue;
      }
      let written: 'created' | 'updated' | 'exists' | 'conflict' | 'chunk-done';
      if (plan.kind === 'create') {
        const product: ProductRecord = { ...plan.product, qrCodeUrl: qrCodeUrl(plan.product.gtin) };
        const passport = plan.row.passport ? nextPassportVersion(product, plan.row.passport, now) : undefined;
        const after: ProductRecord = { ...product, passportVersion: passport ? passport.version : 0 };
        written = await createImportedProduct(tenant, product, passport, mark, rowEvents(tenant, origin, 'create', true, after, passport, now), labelTerms);
      } else {
        const passport = plan.passport ? nextPassportVersion(plan.current, plan.passport, now) : undefined;
        const after = { ...plan.current, ...plan.changes, updatedAt: now, ...(passport ? { passportVersion: passport.version } : {}) } as ProductRecord;
        const events = rowEvents(tenant, origin, 'update', Object.keys(plan.changes).length > 0, after, passport, now);
        written = await updateImportedProduct(tenant, plan.current, plan.changes, passport, now, mark, events, labelTerms);
      }
      // Another delivery of this message finished the chunk: its counts stand.
      if (written === 'chunk-done') return 'already';
      if (written === 'created' || written === 'updated') {
        counts[written]++;
        outcomes++;
      } else retry.push(stored);
    }
    todo = retry;
  }
  for (const stored of todo) {
    counts.failed++;
    errors.push(rowErrorOf(stored.row, 'The product changed while this row was imported; import the file again.'));
  }
  return finishChunk(tenant, importId, chunkNumber, counts, errors, outcomes, new Date().toISOString());
}
