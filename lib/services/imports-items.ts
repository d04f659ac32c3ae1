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
import { ITEM_CHUNK_MAX_BYTES, ITEM_CHUNK_ROWS, type ImportCounts, type ImportRowError } from '../domain/imports.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { itemRowInput } from '../domain/unit-columns.ts';
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
  // The one rule of a serial and a lot, as PUT …/items/{serial} applies it (lib/domain/unit.ts).
  const serialProblem = input.serial === '' ? 'serial is required: every row names its item.' : unitValueProblem('item', input.serial);
  if (serialProblem !== undefined) errors.push({ row, column: 'serial', message: serialProblem });
  const lotProblem = input.lot === undefined ? undefined : unitValueProblem('batch', input.lot);
  if (lotProblem !== undefined) errors.push({ row, column: 'lot', message: lotProblem });
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
  | { kind: 'create' | 'update'; row: CheckedItemRow; before: UnitRecord | undefined; after: UnitRecord; also?: readonly TransactItem[] }
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
 * Decides one row against its stored item (`before`; undefined: none yet). `importId` (the worker's)
 * recognises an item an earlier delivery of the chunk, or an earlier attempt of this one, wrote. The
 * next version is always the stored one's number plus one (an import never lowers a version), made
 * no earlier than the stored one.
 */
function planItemRow(product: ProductRecord, row: CheckedItemRow, before: UnitRecord | undefined, now: string, importId?: string, battery?: BatteryRows): ItemPlan {
  if (importId !== undefined && before?.importId === importId) return { kind: 'done', row, outcome: before.version === 1 ? 'created' : 'updated' };
  let content = contentOf(row, before);
  // The product's category may have changed since the upload: the row is checked again against it.
  const statuses = unitStatusesOf(product.category);
  if (!statuses.includes(content.status)) return { kind: 'failed', error: { row: row.row, column: 'status', message: `status must be one of: ${statuses.join(', ')}.` } };
  let also: readonly TransactItem[] = [];
  if (battery) {
    const judged = judgeBatteryRow(product, row, before, content, battery);
    if ('error' in judged) return { kind: 'failed', error: judged.error };
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
async function batteryRows(tenant: Tenant, product: ProductRecord, rows: readonly CheckedItemRow[], stored: ReadonlyMap<string, UnitRecord>): Promise<BatteryRows | undefined> {
  if (product.category !== 'battery') return undefined;
  const identifiers = rows.flatMap((row) => {
    try {
      return identifiersOf(withProductIdentifier(product, row.serial, contentOf(row, stored.get(row.serial))).data);
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
export async function planItemRows(tenant: Tenant, product: ProductRecord, rows: readonly CheckedItemRow[], now: string, importId?: string): Promise<ItemPlan[]> {
  const stored = await readUnits(tenant, 'item', product.gtin, rows.map((r) => r.serial));
  const battery = await batteryRows(tenant, product, rows, stored);
  return rows.map((row) => planItemRow(product, row, stored.get(row.serial), now, importId, battery));
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
async function writeItemPlans(tenant: Tenant, product: ProductRecord, plans: readonly ItemPlan[], importId: string): Promise<ItemPlan[]> {
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
    const battery = await batteryRows(tenant, product, lostPlans.map((plan) => plan.row), stored);
    for (const [i, index] of lost.entries()) {
      const { row, after } = lostPlans[i] as Extract<ItemPlan, { kind: 'create' | 'update' }>;
      if (written[i]) out[index] = { kind: 'done', row, outcome: after.version === 1 ? 'created' : 'updated' };
      else out[index] = last ? { kind: 'failed', error: lostRow(row) } : planItemRow(product, row, stored.get(row.serial), now, importId, battery);
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
  const plans: ItemPlan[] = product
    ? await writeItemPlans(tenant, product, await planItemRows(tenant, product, rows, now, importId), importId)
    : rows.map((row) => ({ kind: 'failed', error: { row: row.row, column: '', message: 'The product no longer exists.' } }));
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
