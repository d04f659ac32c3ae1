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
import type { RegistrySettings } from '../domain/registry/settings.ts';
import type { TransactItem } from '../data/writes.ts';
import { modelIdentifier, registrationWrites, registrySettingsForPublishing } from './registrations.ts';
import { canonicalHeader, columnOf, EXAMPLE_GTIN, inPeoplesWords, isExampleGtin, rowToInput } from '../domain/import-columns.ts';
import { IMPORT_ID_PATTERN, MAX_IMPORT_JSON_DEPTH, type ImportCounts, type ImportRecord, type ImportRowError } from '../domain/imports.ts';
import { canonicalJson } from '../domain/json.ts';
import { passportDataSchema, passportKindMismatch, WINE_FISH_MESSAGE, wineDeclaresFish, type PassportData, type PassportVersion } from '../domain/passport.ts';
import { batteryPassportDataSchema } from '../domain/battery/index.ts';
import { batteryCompleteness, dayOf, judgedOnWords, publishJudgedOn } from '../domain/passport-completeness.ts';
import { holdsBatteryData, PASSPORT_JSON_COLUMN } from '../domain/passport-kinds.ts';
import { depthExceededAt } from '../http/json-depth.ts';
import { energyMismatch, energyMismatchMessage, missingDeclaration, withComputedEnergy } from '../domain/nutrition.ts';
import { allergenRefusal, nutritionRefusal, type Refusal } from '../domain/passport-rules.ts';
import { isWine } from '../domain/wine.ts';
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

/** The first characters of a cell that names the row's product in an error (a name may be 200 long). */
const short = (cell: string | undefined, max: number): string | undefined => {
  const text = cell?.trim();
  return text ? (text.length > max ? `${text.slice(0, max - 1)}…` : text) : undefined;
};

/**
 * Row errors as a person reads them: each message names its column by the template's label
 * (`Country of origin must be…`, not `passport.origin.country`), and each error carries the row's
 * product, its GTIN and name cells as written (or `knownName`, the stored product's), so that the
 * row is found without counting (docs/imports.md#checks-on-upload-and-in-the-worker).
 */
export function describeRowErrors(cells: Readonly<Record<string, string>>, errors: readonly ImportRowError[], knownName?: string): ImportRowError[] {
  const gtin = short(cells[writtenHeader({ ...cells }, 'gtin')], 20);
  const name = short(cells[writtenHeader({ ...cells }, 'name')], 80) ?? short(knownName, 80);
  return errors.map((e) => ({ ...e, message: inPeoplesWords(e.column, e.message), ...(gtin ? { gtin } : {}), ...(name ? { name } : {}) }));
}

/** The error of a row that names one of GS1's example GTINs (prefix 952): the template's example row, or another example number. */
const exampleRowError = (row: number, column: string, gtin14: string): ImportRowError => ({
  row,
  column,
  message:
    gtin14.slice(1) === EXAMPLE_GTIN
      ? `This is the template's example row (GTIN ${EXAMPLE_GTIN}): delete it, an example never becomes a product.`
      : `GTIN ${gtin14.slice(1)} is one of GS1's example numbers (prefix 952, kept for documentation): no product carries it. Use the GTIN under your product's barcode.`,
});

/** One error per cell: a value can break several rules (-5 is below 0 and not a plausible amount), the first says it. */
function firstPerColumn(errors: readonly ImportRowError[]): ImportRowError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(`${e.row}\u0000${e.column}`) && seen.add(`${e.row}\u0000${e.column}`));
}

/**
 * A battery passport given whole as JSON in the `passport` column (docs/battery.md#import-and-export):
 * its data, or the row's errors (the JSON, the schema's rules naming the element, and the elements
 * mandatory on `asOf` for the row's battery category that it lacks, as publishing refuses them).
 */
function checkBatteryCell(row: number, cells: Record<string, string>, text: string, granularity: ProductRecord['granularity'], asOf: string): { data?: PassportData; errors: ImportRowError[] } {
  const column = writtenHeader(cells, PASSPORT_JSON_COLUMN);
  const refused = (message: string) => ({ errors: [{ row, column, message }] });
  // The cell's nesting is counted before JSON.parse sees it (docs/security.md#parser-budgets), as a JSON line's is.
  if (depthExceededAt(Buffer.from(text), MAX_IMPORT_JSON_DEPTH) !== undefined) return refused(`passport nests objects and arrays deeper than ${MAX_IMPORT_JSON_DEPTH} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused('passport must be a battery passport as a JSON object.');
  }
  if (!holdsBatteryData(value)) {
    return refused("passport holds no battery passport: a battery passport's JSON has one member per aspect (generalProductInformation, …); a wine's or food's passport goes in the passport.* columns.");
  }
  const parsed = batteryPassportDataSchema.safeParse(value);
  if (!parsed.success) return { errors: issuesToErrors(row, cells, parsed.error.issues, ['passport']) };
  // Judged as publishing judges it without asOf: the later of today and the day the passport becomes mandatory (docs/battery.md#the-day-judged).
  const judged = publishJudgedOn(undefined, { data: parsed.data, granularity }, asOf);
  const missing = batteryCompleteness(parsed.data, { asOf: judged.day, granularity }).missingMandatory;
  return {
    data: parsed.data,
    errors: missing.map((path) => ({ row, column: `passport.${path.replace(/^data\./, '')}`, message: `This element is mandatory for the battery's category on ${judged.day} (${judgedOnWords(judged)}; docs/battery.md#completeness-and-publishing): the passport lacks it.` })),
  };
}

/** A row's passport of the other kind than its product's category takes (a 422 of POST /v1/passports), as a row error. */
function kindError(row: number, cells: Record<string, string>, category: ProductRecord['category'], passport: PassportData | undefined): ImportRowError[] {
  const mismatch = passport === undefined ? undefined : passportKindMismatch(category, passport);
  if (!mismatch) return [];
  const column = cells[PASSPORT_JSON_COLUMN] !== undefined ? PASSPORT_JSON_COLUMN : writtenHeader(cells, 'category');
  return [{ row, column, message: `${mismatch.message} ${mismatch.suggestion}` }];
}

/** A cell lists the ingredients: the one meant is named by its place in the list (entry 1 first). */
const rowPath = (path: string): string =>
  `passport.${path.replace(/^ingredients\[(\d+)\](?:\.text\.([a-z]{2}))?$/, (_, i: string, lang?: string) => `ingredients entry ${Number(i) + 1}${lang ? ` (${lang})` : ''}`)}`;

/** The column a refusal of the publishing rules names (lib/domain/passport-rules.ts), its param under `passport`. */
const columnOfParam = (param: string): string => (param.startsWith('passport.ingredients') ? 'passport.ingredients' : columnOf(param.split('.')));

/**
 * The rules publishing makes beyond the schema (lib/services/passports.ts checkGeneralPassport,
 * lib/domain/passport-rules.ts), on a row's wine or food passport, so that the dry run says so too:
 * the energy disagreement, each column of a wine's incomplete declaration, the other value checks
 * (negligible amounts, an "of which" row without its nutrient, a wine's strength in half units), a
 * wine's fish flag and the allergens. `category` is the row's, or the stored product's when the row
 * names none (lib/domain/wine.ts).
 */
function passportRowErrors(row: number, cells: Record<string, string>, data: PassportData, category: string | undefined): ImportRowError[] {
  const errors: ImportRowError[] = [];
  const mismatch = data.nutrition ? energyMismatch(data.nutrition, data.productType, category) : undefined;
  if (mismatch) errors.push({ row, column: writtenHeader(cells, columnOf(['passport', 'nutrition', mismatch.field])), message: energyMismatchMessage(mismatch).message });
  // A wine's nutrition declaration must be complete (lib/services/passports.ts checkDeclaration): one error per missing column.
  if (!mismatch) {
    for (const path of missingDeclaration(withComputedEnergy(data, category).nutrition ?? {}, isWine(category, data.productType))) {
      const column = writtenHeader(cells, columnOf(['passport', ...path.split('.')]));
      errors.push({ row, column, message: `${column} is required for a wine: the nutrition declaration (energy, fat, saturates, carbohydrate, sugars, protein, salt) is mandatory.` });
    }
  }
  // A wine declares no fish (Annex II point 4(b); lib/services/passports.ts): refused here too, so the dry run says so.
  if (wineDeclaresFish(data, category, data.productType)) {
    errors.push({ row, column: writtenHeader(cells, columnOf(['passport', 'allergens', 'containsFish'])), message: WINE_FISH_MESSAGE });
  }
  const refused = (refusal: Refusal | undefined) => {
    if (refusal) errors.push({ row, column: writtenHeader(cells, columnOfParam(refusal.param)), message: refusal.message });
  };
  refused(nutritionRefusal(data, 'passport', category));
  // Allergens follow the ingredients (docs/labelling.md#allergens-follow-the-ingredients); a wine's free text carries its terms.
  refused(allergenRefusal(data, category, rowPath));
  return errors;
}

/** One row's checks that need no data: cells, GTIN, values. */
function checkRow(stored: StoredRow): Checked {
  const { row } = stored;
  // A battery passport comes whole, as JSON, in its own column; the other cells are the template's.
  const { [PASSPORT_JSON_COLUMN]: passportCell, ...templateCells } = stored.cells;
  const cells = stored.cells;
  const input = rowToInput(templateCells);
  const errors: ImportRowError[] = input.errors.map((e) => ({ row, column: e.column, message: e.message }));
  const productInput: Record<string, string> = { ...input.product };
  if (productInput.gtin === undefined) errors.push({ row, column: writtenHeader(cells, 'gtin'), message: 'gtin is required: every row names its product by GTIN.' });
  const product = rowProductSchema.safeParse(productInput);
  if (!product.success) errors.push(...issuesToErrors(row, cells, product.error.issues, []));
  const passport = input.passport === undefined ? undefined : passportDataSchema.safeParse(input.passport);
  if (passport && !passport.success) errors.push(...issuesToErrors(row, cells, passport.error.issues, ['passport']));
  if (passport?.success) errors.push(...passportRowErrors(row, cells, passport.data, product.success ? product.data.category : undefined));
  // A battery passport in the passport column (docs/battery.md#import-and-export), never beside the passport.* columns.
  const battery =
    passportCell === undefined || passportCell.trim() === ''
      ? undefined
      : input.passport !== undefined
        ? { errors: [{ row, column: writtenHeader(cells, PASSPORT_JSON_COLUMN), message: 'A row gives its passport either in the passport.* columns or as a battery passport in passport, not both.' }] }
        : checkBatteryCell(row, cells, passportCell, product.success ? product.data.granularity : undefined, dayOf());
  if (battery) errors.push(...battery.errors);
  const data = battery ? battery.data : passport?.success ? withComputedEnergy(passport.data, product.success ? product.data.category : undefined) : undefined;
  // Data of the other kind than the row's category takes (a battery passport for a wine, a wine's for a battery).
  if (product.success && product.data.category !== undefined && data !== undefined) errors.push(...kindError(row, cells, product.data.category, data));
  // GS1's example numbers (the template's example row) never become products (docs/imports.md#the-example-row).
  if (product.success && product.data.gtin && isExampleGtin(product.data.gtin)) errors.unshift(exampleRowError(row, writtenHeader(cells, 'gtin'), product.data.gtin));
  if (errors.length || !product.success || !product.data.gtin) return { ok: false, errors: describeRowErrors(cells, firstPerColumn(errors)) };
  // Only the fields the cells set: a default (such as granularity's) must not count as a change.
  const set = Object.fromEntries(Object.entries(product.data).filter(([field]) => field in productInput)) as RowProduct;
  return { ok: true, value: { row, gtin14: product.data.gtin, product: set, passport: data } };
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
      errors.push(...describeRowErrors(stored.cells, [{ row: stored.row, column: writtenHeader(stored.cells, 'gtin'), message: `This GTIN is also on row ${first}: a file names each product once.` }]));
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
        const errors = firstPerColumn(issuesToErrors(row.row, cells, create.error.issues, [])).map((e) => ({ ...e, message: `${e.message} (a new product)` }));
        return { kind: 'failed', errors: describeRowErrors(cells, errors) };
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
    // The stored product's category decides the passport's kind when the row names none (a battery's passport is a battery passport).
    const cells = stored.find((s) => s.row === row.row)?.cells ?? {};
    const wrongKind = row.product.category === undefined ? kindError(row.row, cells, current.category, row.passport) : [];
    if (wrongKind.length) return { kind: 'failed', errors: describeRowErrors(cells, wrongKind) };
    // A row without a category, for a product of category wine: the wine rules the row's check could not know to apply (lib/domain/wine.ts).
    const wineByProduct = row.product.category === undefined && row.passport !== undefined && !holdsBatteryData(row.passport) && isWine(current.category, undefined) && !isWine(undefined, row.passport.productType);
    const wineErrors = wineByProduct && row.passport ? passportRowErrors(row.row, cells, row.passport, current.category) : [];
    if (wineErrors.length) return { kind: 'failed', errors: describeRowErrors(cells, firstPerColumn(wineErrors)) };
    // A battery product passported by item holds all its elements on its version: judged again at its granularity.
    if (row.passport !== undefined && holdsBatteryData(row.passport) && row.product.granularity === undefined && current.granularity === 'item') {
      const judged = publishJudgedOn(undefined, { data: row.passport, granularity: 'item' }, now.slice(0, 10));
      const missing = batteryCompleteness(row.passport, { asOf: judged.day, granularity: 'item' }).missingMandatory;
      if (missing.length) {
        return { kind: 'failed', errors: describeRowErrors(cells, missing.map((path) => ({ row: row.row, column: `passport.${path.replace(/^data\./, '')}`, message: `This element is mandatory for a battery passported by item on ${judged.day} (${judgedOnWords(judged)}): the passport lacks it.` }))) };
      }
    }
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

/** A published version's registration in the EU registry, when the tenant's settings are enabled (docs/registry.md#registrations): it joins the row's transaction. */
const rowRegistration = (tenant: Tenant, registry: RegistrySettings | undefined, after: ProductRecord, passport: PassportVersion | undefined): TransactItem[] =>
  passport ? registrationWrites(tenant, registry, [modelIdentifier(tenant, after, passport.version)], passport.publishedAt) : [];

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
  // The EU registry's settings (cached): each version published gets its registration in its row's transaction.
  const registry = pending.length ? await registrySettingsForPublishing(tenant) : undefined;
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
        written = await createImportedProduct(tenant, product, passport, mark, [...rowEvents(tenant, origin, 'create', true, after, passport, now), ...rowRegistration(tenant, registry, after, passport)], labelTerms);
      } else {
        const passport = plan.passport ? nextPassportVersion(plan.current, plan.passport, now) : undefined;
        const after = { ...plan.current, ...plan.changes, updatedAt: now, ...(passport ? { passportVersion: passport.version } : {}) } as ProductRecord;
        const events = [...rowEvents(tenant, origin, 'update', Object.keys(plan.changes).length > 0, after, passport, now), ...rowRegistration(tenant, registry, after, passport)];
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
    errors.push(...describeRowErrors(stored.cells, [rowErrorOf(stored.row, 'The product changed while this row was imported; import the file again.')]));
  }
  return finishChunk(tenant, importId, chunkNumber, counts, errors, outcomes, new Date().toISOString());
}
