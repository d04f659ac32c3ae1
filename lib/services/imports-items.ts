import { eventPut } from '../data/events.ts';
import { archivedItem, currentItem, putInBulk, readUnits } from '../data/items.ts';
import { finishChunk, getImportChunk, settleImportJob } from '../data/imports.ts';
import type { ItemChunkRow } from '../data/import-queue.ts';
import { getProduct } from '../data/products.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { ITEM_CHUNK_MAX_BYTES, ITEM_CHUNK_ROWS, type ImportCounts, type ImportRowError } from '../domain/imports.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { itemRowInput } from '../domain/unit-columns.ts';
import { unitSpecOf, unitStatusesOf } from '../domain/unit-data.ts';
import { isUnitValue, nextUnitVersion, sameContent, type UnitContent, type UnitRecord } from '../domain/unit.ts';
import { formatPath } from '../http/validation.ts';

/**
 * Bulk registration of a product's serialised items (docs/import-export.md#items,
 * docs/decisions.md#bulk-registration-within-11-write-units-an-item): the rows are checked on upload
 * against the product's category; each chunk of at most ITEM_CHUNK_ROWS rows travels in its SQS
 * message, and the worker reads the chunk's items in BatchGetItem calls, writes the new and changed
 * ones with BatchWriteItem (one write unit for an item of at most 1 KB) and logs one `item.imported`
 * event for the chunk, in the transaction that adds its counts to the job. Importing the same file
 * again changes nothing.
 */

/** A row that passed its checks: what the worker writes. */
export interface CheckedItemRow {
  row: number;
  serial: string;
  lot?: string;
  status?: string;
  data?: Record<string, unknown>;
}

type Checked = { ok: true; value: CheckedItemRow } | { ok: false; errors: ImportRowError[] };

/** One row's checks against the product's category: its serial, lot, status and data (each error names its column). */
export function checkItemRow(product: Pick<ProductRecord, 'category'>, row: number, cells: Readonly<Record<string, string>>): Checked {
  const input = itemRowInput(cells);
  const errors: ImportRowError[] = input.errors.map((e) => ({ row, ...e }));
  if (!isUnitValue(input.serial)) {
    errors.push({ row, column: 'serial', message: input.serial === '' ? 'serial is required: every row names its item.' : 'serial must be 1 to 20 characters of GS1 character set 82 (AI 21).' });
  }
  if (input.lot !== undefined && !isUnitValue(input.lot)) errors.push({ row, column: 'lot', message: 'lot must be 1 to 20 characters of GS1 character set 82 (AI 10).' });
  const statuses = unitStatusesOf(product.category);
  if (input.status !== undefined && !statuses.includes(input.status)) errors.push({ row, column: 'status', message: `status must be one of: ${statuses.join(', ')}.` });
  let data: Record<string, unknown> | undefined;
  if (input.data !== undefined) {
    const parsed = unitSpecOf(product.category).data.item.safeParse(input.data);
    if (parsed.success) data = parsed.data;
    else {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
        const column = formatPath(['data', ...path]).replace(/\[(\d+)\]/g, '');
        if (seen.has(column)) continue;
        seen.add(column);
        errors.push({ row, column, message: issue.code === 'unrecognized_keys' ? `${column} is not a field of a ${product.category} item.` : `${column}: ${issue.message}` });
      }
    }
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: { row, serial: input.serial, ...(input.lot === undefined ? {} : { lot: input.lot }), ...(input.status === undefined ? {} : { status: input.status }), ...(data ? { data } : {}) },
  };
}

/** The rows that pass, and the errors of those that do not (a serial named twice fails its later rows). */
export function checkItemRows(product: Pick<ProductRecord, 'category'>, rows: readonly { row: number; cells: Record<string, string> }[]) {
  const valid: CheckedItemRow[] = [];
  const errors: ImportRowError[] = [];
  const firstRowOf = new Map<string, number>();
  let failed = 0;
  for (const { row, cells } of rows) {
    const checked = checkItemRow(product, row, cells);
    if (!checked.ok) {
      failed++;
      errors.push(...checked.errors);
      continue;
    }
    const first = firstRowOf.get(checked.value.serial);
    if (first !== undefined) {
      failed++;
      errors.push({ row, column: 'serial', message: `This serial is also on row ${first}: a file names each item once.` });
      continue;
    }
    firstRowOf.set(checked.value.serial, row);
    valid.push(checked.value);
  }
  return { valid, errors, failed };
}

/** A checked row as its chunk message carries it: `[row, serial, lot, status, data]`, absent values null. */
export const toChunkRow = (row: CheckedItemRow): ItemChunkRow => [row.row, row.serial, row.lot ?? null, row.status ?? null, row.data ?? null];
const fromChunkRow = ([row, serial, lot, status, data]: ItemChunkRow): CheckedItemRow => ({
  row,
  serial,
  ...(lot === null ? {} : { lot }),
  ...(status === null ? {} : { status }),
  ...(data === null ? {} : { data }),
});

/** Rows split into chunks of at most ITEM_CHUNK_ROWS rows and ITEM_CHUNK_MAX_BYTES of JSON, or the first row too large alone. */
export function planItemChunks(rows: readonly CheckedItemRow[]): { ok: true; chunks: ItemChunkRow[][] } | { ok: false; row: number; bytes: number } {
  const chunks: ItemChunkRow[][] = [];
  let current: ItemChunkRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const compact = toChunkRow(row);
    const size = Buffer.byteLength(JSON.stringify(compact), 'utf8') + 1;
    if (size > ITEM_CHUNK_MAX_BYTES) return { ok: false, row: row.row, bytes: size };
    if (current.length >= ITEM_CHUNK_ROWS || bytes + size > ITEM_CHUNK_MAX_BYTES) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(compact);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return { ok: true, chunks };
}

/** What importing a row does, decided against the stored item. */
export type ItemPlan =
  | { kind: 'create' | 'update'; row: CheckedItemRow; before: UnitRecord | undefined; after: UnitRecord }
  | { kind: 'unchanged'; row: CheckedItemRow }
  /** Written by an earlier delivery of this same import: counted as it was then, not written again. */
  | { kind: 'done'; row: CheckedItemRow; outcome: 'created' | 'updated' }
  | { kind: 'failed'; error: ImportRowError };

/**
 * The row on top of the stored item: an empty lot or status cell leaves the item's, data cells (when
 * the row fills any) replace its data; a new item is active with empty data unless the row says otherwise.
 */
function contentOf(row: CheckedItemRow, stored: UnitRecord | undefined): UnitContent {
  const lot = row.lot ?? stored?.lot;
  return { ...(lot === undefined ? {} : { lot }), status: row.status ?? stored?.status ?? 'active', data: row.data ?? stored?.data ?? {} };
}

/**
 * Decides each row against the product's stored items: one BatchGetItem (strongly consistent) per
 * 100 rows. `importId` (the worker's) recognises items an earlier delivery of the chunk wrote.
 */
export async function planItemRows(tenant: Tenant, product: ProductRecord, rows: readonly CheckedItemRow[], now: string, importId?: string): Promise<ItemPlan[]> {
  const stored = await readUnits(tenant, 'item', product.gtin, rows.map((r) => r.serial));
  const statuses = unitStatusesOf(product.category);
  return rows.map((row): ItemPlan => {
    const before = stored.get(row.serial);
    if (importId !== undefined && before?.importId === importId) return { kind: 'done', row, outcome: before.version === 1 ? 'created' : 'updated' };
    const content = contentOf(row, before);
    // The product's category may have changed since the upload: the row is checked again against it.
    if (!statuses.includes(content.status)) return { kind: 'failed', error: { row: row.row, column: 'status', message: `status must be one of: ${statuses.join(', ')}.` } };
    if (before && sameContent(before, content)) return { kind: 'unchanged', row };
    const after = nextUnitVersion({ kind: 'item', productId: product.productId, gtin: product.gtin, value: row.serial }, before, content, now, importId);
    return { kind: before ? 'update' : 'create', row, before, after };
  });
}

/** The counts of planned rows, as a dry run reports them. */
export function countItemPlans(plans: readonly ItemPlan[]): Omit<ImportCounts, 'rows'> & { errors: ImportRowError[] } {
  const out = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] as ImportRowError[] };
  for (const plan of plans) {
    if (plan.kind === 'failed') {
      out.failed++;
      out.errors.push(plan.error);
    } else if (plan.kind === 'unchanged') out.unchanged++;
    else if (plan.kind === 'done') out[plan.outcome]++;
    else out[plan.kind === 'create' ? 'created' : 'updated']++;
  }
  return out;
}

/** The worker's message of an items chunk: the product and the chunk's rows. */
export interface ItemChunk {
  productId: string;
  rows: readonly ItemChunkRow[];
}

/**
 * Imports one chunk of an items file (the worker's unit, one SQS message): the new and changed items
 * in BatchWriteItem calls (a changed item's previous version archived beside it), then the chunk's
 * counts, its row errors and its one `item.imported` event in the transaction that marks it done,
 * so a redelivered chunk counts once; the items it wrote carry the import's id, so a redelivery
 * before that transaction counts them as they were written. Returns 'missing' for an unknown chunk.
 */
export async function importItemChunk(tenant: Tenant, importId: string, chunkNumber: number, message: ItemChunk): Promise<'done' | 'already' | 'missing'> {
  const chunk = await getImportChunk(tenant, importId, chunkNumber);
  if (!chunk) return 'missing';
  if (chunk.done) return 'already';
  const now = new Date().toISOString();
  const rows = message.rows.map(fromChunkRow);
  const product = await getProduct(tenant, message.productId, true);
  const plans: ItemPlan[] = product
    ? await planItemRows(tenant, product, rows, now, importId)
    : rows.map((row) => ({ kind: 'failed', error: { row: row.row, column: '', message: 'The product no longer exists.' } }));
  const writes = plans.flatMap((plan) =>
    plan.kind === 'create' || plan.kind === 'update' ? [currentItem(tenant, plan.after), ...(plan.before ? [archivedItem(tenant, plan.before)] : [])] : [],
  );
  await putInBulk(writes);
  const counted = countItemPlans(plans);
  const serials = (kind: 'create' | 'update', outcome: 'created' | 'updated') =>
    plans.flatMap((plan) => ((plan.kind === kind || (plan.kind === 'done' && plan.outcome === outcome)) && 'row' in plan ? [plan.row.serial] : []));
  const created = serials('create', 'created');
  const updated = serials('update', 'updated');
  // The import's worker is the system's own work, in the name of the upload's request (docs/lifecycle.md#event-log).
  const origin: Origin = { actor: { type: 'system', id: importId }, requestId: chunk.requestId };
  const summary =
    product && (created.length || updated.length)
      ? [
          eventPut(
            tenant,
            newEvent(
              'item.imported',
              { object: 'item_import', importId, chunk: chunkNumber, productId: product.productId, gtin: product.gtin, created, updated, unchanged: counted.unchanged, failed: counted.failed },
              origin,
              now,
            ),
          ),
        ]
      : [];
  const { errors, ...counts } = counted;
  const result = await finishChunk(tenant, importId, chunkNumber, counts, errors, 0, new Date().toISOString(), summary);
  await settleImportJob(tenant, importId, new Date().toISOString());
  return result === 'done' ? 'done' : 'already';
}
