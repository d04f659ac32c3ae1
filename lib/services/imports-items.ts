import type * as z from 'zod';
import { eventPut } from '../data/events.ts';
import { batteryIdClaimWrites, getBatteryIdClaims, importWroteSince, readUnits, writeVersions, type BatteryIdClaim } from '../data/items.ts';
import type { TransactItem } from '../data/writes.ts';
import { jitteredPause } from '../data/errors.ts';
import { ApiError } from '../http/errors.ts';
import { identifiersOf, judgeBattery, modelDataOf, withProductIdentifier } from './battery-items.ts';
import { registrationWrites, registrySettingsForPublishing, unitIdentifier } from './registrations.ts';
import { appendOnlyRefusal } from '../domain/battery/grantee-writes.ts';
import { editRefusal } from '../domain/battery/lifecycle.ts';
import { toCurrentUnits } from '../domain/battery/units-migration.ts';
import { finishChunk, getImportChunk, settleImportJob } from '../data/imports.ts';
import type { ItemChunkRow } from '../data/import-queue.ts';
import { getProduct } from '../data/products.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { ITEM_CHUNK_MAX_BYTES, ITEM_CHUNK_ROWS, type ImportCounts, type ImportRowChange, type ImportRowError, type ItemImportMode } from '../domain/imports.ts';
import { mergePatch } from '../domain/merge-patch.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { changedItemFields, itemRowInput, NULL_CELL } from '../domain/unit-columns.ts';
import { unitSpecOf, unitStatusesOf } from '../domain/unit-data.ts';
import { nextUnitVersion, sameContent, unitValueProblem, type UnitContent, type UnitRecord } from '../domain/unit.ts';
import { formatPath } from '../http/validation.ts';

/**
 * Bulk registration of a product's serialised items (docs/import-export.md#items,
 * docs/decisions.md#bulk-registration-within-11-write-units-an-item): the rows are checked on upload
 * against the product's category; each chunk of at most ITEM_CHUNK_ROWS rows travels in its SQS
 * message, and the worker reads the chunk's items in BatchGetItem calls, writes the new and changed
 * ones each on the condition that the item is still the version its row was planned from (a new
 * item with one PutItem, one write unit for an item of at most 1 KB; a changed one in a transaction
 * with its predecessor's archive) and logs one `item.imported` event for the chunk, in the
 * transaction that adds its counts to the job. Importing the same file again changes nothing.
 */

/**
 * A row that passed its checks: what the worker writes. `lot` null removes the item's lot (merge) or
 * gives it none (replace); `data` is the row's members, nulls among them removing members (merge),
 * or the item's whole data, checked (replace); `emptiesData` empties the item's data first.
 */
export interface CheckedItemRow {
  row: number;
  serial: string;
  lot?: string | null;
  status?: string;
  data?: Record<string, unknown>;
  emptiesData?: boolean;
}

type Checked = { ok: true; value: CheckedItemRow } | { ok: false; errors: ImportRowError[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A row's data without its nulls: what a replacing row gives (a null there is no value). */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (inner === null) continue;
    Object.defineProperty(out, name, { value: isPlainObject(inner) ? withoutNulls(inner) : inner, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The row errors of a data check, one per column (the column as an items file names it). */
function dataErrors(product: Pick<ProductRecord, 'category'>, row: number, issues: readonly z.core.$ZodIssue[]): ImportRowError[] {
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
    const column = formatPath(['data', ...path]).replace(/\[(\d+)\]/g, '');
    if (seen.has(column)) continue;
    seen.add(column);
    errors.push({ row, column, message: issue.code === 'unrecognized_keys' ? `${column} is not a field of a ${product.category} item.` : `${column}: ${issue.message}` });
  }
  return errors;
}

/**
 * One row's checks against the product's category: its serial, lot, status and data (each error
 * names its column). A replacing row's data is the item's whole data and is checked whole here; a
 * merging row's members are checked for their names here and whole once merged with the stored
 * item (planItemRow), as PATCH checks its result. `nullCell` is the format's null (lib/domain/unit-columns.ts).
 */
export function checkItemRow(product: Pick<ProductRecord, 'category'>, row: number, cells: Readonly<Record<string, string>>, mode: ItemImportMode = 'merge', nullCell: string = NULL_CELL): Checked {
  const input = itemRowInput(cells, nullCell);
  const errors: ImportRowError[] = input.errors.map((e) => ({ row, ...e }));
  // The one rule of a serial and a lot, as PUT …/items/{serial} applies it (lib/domain/unit.ts).
  const serialProblem = input.serial === '' ? 'serial is required: every row names its item.' : unitValueProblem('item', input.serial);
  if (serialProblem !== undefined) errors.push({ row, column: 'serial', message: serialProblem });
  const lotProblem = typeof input.lot === 'string' ? unitValueProblem('batch', input.lot) : undefined;
  if (lotProblem !== undefined) errors.push({ row, column: 'lot', message: lotProblem });
  const statuses = unitStatusesOf(product.category);
  if (input.status !== undefined && !statuses.includes(input.status)) errors.push({ row, column: 'status', message: `status must be one of: ${statuses.join(', ')}.` });
  let data: Record<string, unknown> | undefined;
  if (input.data !== undefined) {
    const schema = unitSpecOf(product.category).data.item;
    if (mode === 'replace') {
      const parsed = schema.safeParse(withoutNulls(input.data));
      if (parsed.success) data = parsed.data;
      else errors.push(...dataErrors(product, row, parsed.error.issues));
    } else {
      // A member name the category does not know is unknown whatever the item holds; the rest waits for the merge.
      const parsed = schema.safeParse(withoutNulls(input.data));
      const unknown = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
      if (unknown.length) errors.push(...dataErrors(product, row, unknown));
      else data = input.data;
    }
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      row,
      serial: input.serial,
      ...(input.lot === undefined ? {} : { lot: input.lot }),
      ...(input.status === undefined ? {} : { status: input.status }),
      ...(data ? { data } : {}),
      ...(input.emptiesData ? { emptiesData: true } : {}),
    },
  };
}

/** The rows that pass, and the errors of those that do not (a serial named twice fails its later rows). */
export function checkItemRows(product: Pick<ProductRecord, 'category'>, rows: readonly { row: number; cells: Record<string, string> }[], mode: ItemImportMode = 'merge', nullCell: string = NULL_CELL) {
  const valid: CheckedItemRow[] = [];
  const errors: ImportRowError[] = [];
  const firstRowOf = new Map<string, number>();
  let failed = 0;
  for (const { row, cells } of rows) {
    const checked = checkItemRow(product, row, cells, mode, nullCell);
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

/** A checked row as its chunk message carries it: `[row, serial, lot, status, data]`, absent values null, then what it removes when it removes anything. */
export const toChunkRow = (row: CheckedItemRow): ItemChunkRow => {
  const removes = [...(row.lot === null ? (['lot'] as const) : []), ...(row.emptiesData ? (['data'] as const) : [])];
  const base: [number, string, string | null, string | null, Record<string, unknown> | null] = [row.row, row.serial, row.lot ?? null, row.status ?? null, row.data ?? null];
  return removes.length ? [...base, removes] : base;
};
const fromChunkRow = ([row, serial, lot, status, data, removes]: ItemChunkRow): CheckedItemRow => ({
  row,
  serial,
  ...(lot !== null ? { lot } : removes?.includes('lot') ? { lot: null } : {}),
  ...(status === null ? {} : { status }),
  ...(data === null ? {} : { data }),
  ...(removes?.includes('data') ? { emptiesData: true } : {}),
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
  | { kind: 'create' | 'update'; row: CheckedItemRow; before: UnitRecord | undefined; after: UnitRecord; also?: readonly TransactItem[] }
  | { kind: 'unchanged'; row: CheckedItemRow }
  /** Written by an earlier delivery of this same import: counted as it was then, not written again. */
  | { kind: 'done'; row: CheckedItemRow; outcome: 'created' | 'updated' }
  | { kind: 'failed'; errors: ImportRowError[] };

/**
 * The row on top of the stored item (docs/imports.md#merge-or-replace). `merge`: the row is a merge
 * patch of the item's `{lot, status, data}` (RFC 7396, as PATCH …/items/{serial} applies it): what
 * it names replaces the item's, a null removes it, the rest stays; the merged data is then checked
 * whole against the category. `replace`: the row is the item's whole content, as PUT takes it (no
 * lot, `active` and empty data where it gives none). A new item starts active with empty data.
 */
export function itemRowContent(product: Pick<ProductRecord, 'category'>, row: CheckedItemRow, stored: UnitRecord | undefined, mode: ItemImportMode): { content: UnitContent } | { errors: ImportRowError[] } {
  if (mode === 'replace') {
    return { content: { ...(typeof row.lot === 'string' ? { lot: row.lot } : {}), status: row.status ?? 'active', data: row.data ?? {} } };
  }
  const document = { ...(stored?.lot === undefined ? {} : { lot: stored.lot }), status: stored?.status ?? 'active', data: stored?.data ?? {} };
  const patch: Record<string, unknown> = {
    ...(row.lot === undefined ? {} : { lot: row.lot }),
    ...(row.status === undefined ? {} : { status: row.status }),
    ...(row.emptiesData ? { data: null } : row.data === undefined ? {} : { data: row.data }),
  };
  const merged = mergePatch(document, patch) as { lot?: string; status: string; data?: Record<string, unknown> };
  const parsed = unitSpecOf(product.category).data.item.safeParse(merged.data ?? {});
  if (!parsed.success) return { errors: dataErrors(product, row.row, parsed.error.issues) };
  return { content: { ...(merged.lot === undefined ? {} : { lot: merged.lot }), status: merged.status, data: parsed.data } };
}

/**
 * Decides one row against its stored item (`before`; undefined: none yet). `importId` (the worker's)
 * recognises an item an earlier delivery of the chunk, or an earlier attempt of this one, wrote. The
 * next version is always the stored one's number plus one (an import never lowers a version), made
 * no earlier than the stored one.
 */
function planItemRow(product: ProductRecord, row: CheckedItemRow, before: UnitRecord | undefined, now: string, mode: ItemImportMode, importId?: string, battery?: BatteryRows): ItemPlan {
  if (importId !== undefined && before?.importId === importId) return { kind: 'done', row, outcome: before.version === 1 ? 'created' : 'updated' };
  const planned = itemRowContent(product, row, before, mode);
  if ('errors' in planned) return { kind: 'failed', errors: planned.errors };
  let { content } = planned;
  // The product's category may have changed since the upload: the row is checked again against it.
  const statuses = unitStatusesOf(product.category);
  if (!statuses.includes(content.status)) return { kind: 'failed', errors: [{ row: row.row, column: 'status', message: `status must be one of: ${statuses.join(', ')}.` }] };
  let also: readonly TransactItem[] = [];
  if (battery) {
    const judged = judgeBatteryRow(product, row, before, content, battery);
    if ('error' in judged) return { kind: 'failed', errors: [judged.error] };
    ({ content, also } = judged);
  }
  if (before && sameContent(before, content)) return { kind: 'unchanged', row };
  const at = before && before.updatedAt > now ? before.updatedAt : now;
  const after = nextUnitVersion({ kind: 'item', productId: product.productId, gtin: product.gtin, value: row.serial }, before, content, at, importId);
  return { kind: before ? 'update' : 'create', row, before, after, ...(also.length ? { also } : {}) };
}

/** What a battery model's rows are judged on: the model's current data and the identifier claims the rows name (docs/battery.md#the-individual-battery). */
interface BatteryRows {
  model: unknown;
  claims: readonly BatteryIdClaim[];
  /** Where the claim writes come from (lib/data/items.ts), bound to the tenant. */
  claimWrites: (serial: string, before: unknown, after: unknown) => readonly TransactItem[];
}

/**
 * A battery row by the rules of PUT (docs/battery.md#the-individual-battery), reported per row:
 * its productIdentifier derived or checked, its passport judged today, its identifiers not another
 * battery's; the content to write with its claim writes, or the row's error naming the column.
 */
function judgeBatteryRow(product: ProductRecord, row: CheckedItemRow, before: UnitRecord | undefined, content: UnitContent, battery: BatteryRows): { content: UnitContent; also: readonly TransactItem[] } | { error: ImportRowError } {
  try {
    const derived = withProductIdentifier(product, row.serial, content);
    // As PUT: the status moves only by operations, a waste or recycled battery is not the producer's, negative events stay (docs/battery.md#a-batterys-life).
    const refusal = editRefusal(before, derived) ?? appendOnlyRefusal(before?.data, derived.data);
    if (refusal) return { error: { row: row.row, column: refusal.param, message: refusal.message } };
    judgeBattery(battery.model, derived.data, undefined);
    const taken = battery.claims.find((claim) => identifiersOf(derived.data).some((id) => id.field === claim.field && id.value.toLowerCase() === claim.value.toLowerCase()) && (claim.gtin !== product.gtin || claim.serial !== row.serial));
    if (taken) {
      return { error: { row: row.row, column: `data.generalProductInformation.${taken.field}`, message: `data.generalProductInformation.${taken.field} '${taken.value}' is already the ${taken.field} of battery '${taken.serial}' (GTIN ${taken.gtin}): each battery's is its own.` } };
    }
    return { content: derived, also: battery.claimWrites(row.serial, before?.data, derived.data) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A battery's missing elements: the message lists every one, the column names the first.
    return { error: { row: row.row, column: error.param ?? 'data', message: error.message } };
  }
}

/** The battery context of a chunk's rows (one read of the model's version, BatchGetItems of the claims their identifiers name); undefined for other categories. */
async function batteryRows(tenant: Tenant, product: ProductRecord, rows: readonly CheckedItemRow[], stored: ReadonlyMap<string, UnitRecord>, mode: ItemImportMode): Promise<BatteryRows | undefined> {
  if (product.category !== 'battery') return undefined;
  const identifiers = rows.flatMap((row) => {
    const planned = itemRowContent(product, row, stored.get(row.serial), mode);
    if ('errors' in planned) return [];
    try {
      return identifiersOf(withProductIdentifier(product, row.serial, planned.content).data);
    } catch {
      return [];
    }
  });
  const [model, claims] = await Promise.all([modelDataOf(tenant, product), getBatteryIdClaims(tenant, identifiers)]);
  return { model, claims, claimWrites: (serial, before, after) => batteryIdClaimWrites(tenant, { gtin: product.gtin, serial }, identifiersOf(before), identifiersOf(after)) };
}

/**
 * Decides each row against the product's stored items: one BatchGetItem (strongly consistent) per
 * 100 rows. `importId` (the worker's) recognises items an earlier delivery of the chunk wrote.
 */
export async function planItemRows(tenant: Tenant, product: ProductRecord, rows: readonly CheckedItemRow[], now: string, mode: ItemImportMode, importId?: string): Promise<ItemPlan[]> {
  const stored = await readUnits(tenant, 'item', product.gtin, rows.map((r) => r.serial));
  const battery = await batteryRows(tenant, product, rows, stored, mode);
  return rows.map((row) => planItemRow(product, row, stored.get(row.serial), now, mode, importId, battery));
}

/** How often a row is planned and written again after losing to a concurrent write of its item. */
const ITEM_ROW_ATTEMPTS = 5;


/** The row error of a row whose item kept changing under concurrent writes: nothing of the row was written. */
const lostRow = (row: CheckedItemRow): ImportRowError => ({
  row: row.row,
  column: 'serial',
  message: `The item '${row.serial}' changed under concurrent writes (API calls or another import) each of the ${ITEM_ROW_ATTEMPTS} times this row was written; nothing of this row was written. Import it again.`,
});

/**
 * Writes the planned creates and updates, each on the condition that its item is still the one it
 * was planned from (writeVersions, lib/data/items.ts). A row whose write lost is read again
 * (strongly consistent): written after all when this import wrote a version of it meanwhile
 * (importWroteSince), else planned again on top of what is stored now and written again, at most
 * ITEM_ROW_ATTEMPTS times in all; one that never wins is a row error. Answers the plans as they
 * ended: written ones as planned, the others as decided last (unchanged, done or failed).
 */
async function writeItemPlans(tenant: Tenant, product: ProductRecord, plans: readonly ItemPlan[], importId: string, mode: ItemImportMode): Promise<ItemPlan[]> {
  const out = [...plans];
  let pending = out.flatMap((plan, index) => (plan.kind === 'create' || plan.kind === 'update' ? [index] : []));
  // The EU registry (docs/registry.md#registrations): a new item's registration joins its write when the settings are enabled (then a transaction).
  const registry = await registrySettingsForPublishing(tenant);
  const withRegistration = (plan: Extract<ItemPlan, { kind: 'create' | 'update' }>): Extract<ItemPlan, { kind: 'create' | 'update' }> => {
    const registration = plan.before ? [] : registrationWrites(tenant, registry, [unitIdentifier(tenant, product, plan.after)], plan.after.updatedAt);
    return registration.length ? { ...plan, also: [...(plan.also ?? []), ...registration] } : plan;
  };
  for (let attempt = 1; pending.length; attempt++) {
    const writes = pending.map((index) => withRegistration(out[index] as Extract<ItemPlan, { kind: 'create' | 'update' }>));
    const outcomes = await writeVersions(tenant, writes);
    const lost = pending.filter((_, i) => outcomes[i] === 'conflict');
    if (!lost.length) break;
    const last = attempt >= ITEM_ROW_ATTEMPTS;
    if (!last) await jitteredPause(attempt, 25, 500); // at most about half a second
    const lostPlans = lost.map((index) => out[index] as Extract<ItemPlan, { kind: 'create' | 'update' }>);
    const stored = await readUnits(tenant, 'item', product.gtin, lostPlans.map((plan) => plan.row.serial));
    // The row may be written after all: by this write, cut off by the client and sent again (the second
    // attempt failing its condition on the first), or by another delivery of the same chunk.
    const written = await Promise.all(
      lostPlans.map(({ row, before }) => importWroteSince(tenant, 'item', product.gtin, row.serial, importId, before?.version ?? 0, stored.get(row.serial))),
    );
    const now = new Date().toISOString();
    // A lost battery row may have lost its identifier to another row: the claims are read again.
    const battery = await batteryRows(tenant, product, lostPlans.map((plan) => plan.row), stored, mode);
    for (const [i, index] of lost.entries()) {
      const { row, after } = lostPlans[i] as Extract<ItemPlan, { kind: 'create' | 'update' }>;
      if (written[i]) out[index] = { kind: 'done', row, outcome: after.version === 1 ? 'created' : 'updated' };
      else out[index] = last ? { kind: 'failed', errors: [lostRow(row)] } : planItemRow(product, row, stored.get(row.serial), now, mode, importId, battery);
    }
    pending = lost.filter((index) => out[index]?.kind === 'create' || out[index]?.kind === 'update');
  }
  return out;
}

/** The counts of planned rows, as a dry run reports them. */
export function countItemPlans(plans: readonly ItemPlan[]): Omit<ImportCounts, 'rows'> & { errors: ImportRowError[] } {
  const out = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] as ImportRowError[] };
  for (const plan of plans) {
    if (plan.kind === 'failed') {
      out.failed++;
      out.errors.push(...plan.errors);
    } else if (plan.kind === 'unchanged') out.unchanged++;
    else if (plan.kind === 'done') out[plan.outcome]++;
    else out[plan.kind === 'create' ? 'created' : 'updated']++;
  }
  return out;
}

/**
 * The rows of a dry run that would write, with what each changes as the columns name it (at most
 * `limit`, in row order; docs/imports.md#merge-or-replace).
 */
export function rowChangesOf(plans: readonly ItemPlan[], limit: number): ImportRowChange[] {
  const out: ImportRowChange[] = [];
  for (const plan of plans) {
    if (out.length >= limit) break;
    if (plan.kind !== 'create' && plan.kind !== 'update') continue;
    out.push({ row: plan.row.row, serial: plan.row.serial, outcome: plan.kind, changes: changedItemFields(plan.before, plan.after) });
  }
  return out.sort((a, b) => a.row - b.row);
}

/** The worker's message of an items chunk: the product, the chunk's rows and how they apply (merge when absent). */
export interface ItemChunk {
  productId: string;
  rows: readonly ItemChunkRow[];
  mode?: ItemImportMode;
}

/**
 * Imports one chunk of an items file (the worker's unit, one SQS message): the new and changed items
 * in conditional writes (writeItemPlans: a changed item's previous version archived beside it, a row
 * that loses to a concurrent write planned again, at most ITEM_ROW_ATTEMPTS times), then the chunk's
 * counts, its row errors and its one `item.imported` event in the transaction that marks it done,
 * so a redelivered chunk counts once; the items it wrote carry the import's id, so a redelivery
 * before that transaction counts them as they were written. Returns 'missing' for an unknown chunk.
 */
export async function importItemChunk(tenant: Tenant, importId: string, chunkNumber: number, message: ItemChunk): Promise<'done' | 'already' | 'missing'> {
  const chunk = await getImportChunk(tenant, importId, chunkNumber);
  if (!chunk) return 'missing';
  if (chunk.done) return 'already';
  const now = new Date().toISOString();
  // Rows uploaded before the units of DIN DKE SPEC 99100 are converted as a stored item is (docs/battery.md#units).
  const rows = message.rows.map(fromChunkRow).map((row) => (chunk.currentUnits || !row.data ? row : { ...row, data: toCurrentUnits(row.data).data }));
  const product = await getProduct(tenant, message.productId, true);
  const mode = message.mode ?? 'merge';
  const plans: ItemPlan[] = product
    ? await writeItemPlans(tenant, product, await planItemRows(tenant, product, rows, now, mode, importId), importId, mode)
    : rows.map((row) => ({ kind: 'failed', errors: [{ row: row.row, column: '', message: 'The product no longer exists.' }] }));
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
