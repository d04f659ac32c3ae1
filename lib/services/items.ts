import { eventPut } from '../data/events.ts';
import { getUnit, getUnitAt, listUnits, writeUnitVersion, type UnitFilter } from '../data/items.ts';
import { jitteredPause } from '../data/errors.ts';
import { getProduct, productHolds } from '../data/products.ts';
import { claimIdentifiers, judgeBattery, modelDataOf, requireBrandHost, withProductIdentifier, type ItemCompleteness } from './battery-items.ts';
import { appendOnlyRefusal } from '../domain/battery/grantee-writes.ts';
import { editRefusal } from '../domain/battery/lifecycle.ts';
import type { EventType } from '../domain/event-types.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { mergePatch } from '../domain/merge-patch.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitSpecOf, unitStatusesOf } from '../domain/unit-data.ts';
import { nextUnitVersion, sameContent, UNIT_PARAM, unitValueProblem, WITHDRAWN, type UnitContent, type UnitKind, type UnitRecord } from '../domain/unit.ts';
import { IMMUTABLE_UNIT_FIELDS, putBatchSchema, putItemSchema, toUnitView, type UnitInput } from '../domain/units.ts';
import { ConflictError, DuplicateError, InvalidRequestError, NotFoundError, ValidationError } from '../http/errors.ts';
import { parseBody, parseOrThrow } from '../http/validation.ts';
import { lifecycleWrites, registrationWrites, registrySettingsForPublishing, unitIdentifier } from './registrations.ts';

/**
 * Batches and serialised items under a product (docs/api.md#batches-and-items): create or replace
 * (PUT), merge a patch (PATCH), read (optionally at an instant), list. Every change is the next
 * version with its digest, written with its event in one transaction; a write that changes nothing
 * writes nothing.
 */

const NOUN: Readonly<Record<UnitKind, string>> = { batch: 'batch', item: 'item' };

/**
 * A lot or serial from the path, percent-decoded once by the gateway, by the one rule of every way in
 * (unitValueProblem, lib/domain/unit.ts): 1 to 20 characters of GS1 character set 82, not `.` or `..`
 * alone, else 422 naming it (a long segment is refused on its length, before any pattern).
 */
export function unitValueOf(kind: UnitKind, raw: string): string {
  const problem = unitValueProblem(kind, raw);
  if (problem !== undefined) {
    throw new ValidationError(problem, UNIT_PARAM[kind], "Use letters, digits and ! \" % & ' ( ) * + , - . / : ; < = > ? _ only, percent-encoded in the path where a URL needs it.");
  }
  return raw;
}

/** The record's current version, or a 404 naming its lot or serial. */
export async function requireUnit(tenant: Tenant, product: ProductRecord, kind: UnitKind, value: string): Promise<UnitRecord> {
  const unit = await getUnit(tenant, kind, product.gtin, value);
  if (!unit) {
    throw new NotFoundError(`Product '${product.productId}' has no ${NOUN[kind]} '${value}'.`, {
      param: UNIT_PARAM[kind],
      suggestion: `Register it with PUT /v1/products/{productId}/${kind === 'batch' ? 'batches' : 'items'}/{${UNIT_PARAM[kind]}}.`,
    });
  }
  return unit;
}

/** A field the body may not carry (the path names the record; the service counts versions): 422 naming it. */
function refuseImmutable(kind: UnitKind, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fixed = Object.keys(body).find((field) => Object.hasOwn(IMMUTABLE_UNIT_FIELDS, field) || (kind === 'batch' && field === 'lot'));
  if (fixed === 'lot') throw new ValidationError('lot cannot be changed: it is the path. Register the batch under its new lot instead.', 'lot');
  if (fixed) throw new ValidationError(IMMUTABLE_UNIT_FIELDS[fixed] ?? `${fixed} cannot be changed.`, fixed);
}

/** What a record holds once checked against its product's category: its status and its data (docs/api.md#the-data-of-a-batch-or-an-item). */
export function checkContent(product: Pick<ProductRecord, 'category'>, kind: UnitKind, input: UnitInput): UnitContent {
  const status = input.status ?? 'active';
  const statuses = unitStatusesOf(product.category);
  if (!statuses.includes(status)) {
    throw new ValidationError(`status must be one of: ${statuses.join(', ')}.`, 'status', `A ${product.category} ${NOUN[kind]} takes ${statuses.join(' or ')}.`);
  }
  const data = parseOrThrow(unitSpecOf(product.category).data[kind], input.data ?? {}, ['data']);
  return { ...(kind === 'item' && input.lot !== undefined ? { lot: input.lot } : {}), status, data };
}

/** Which event a new version writes: created, withdrawn (a status moved to withdrawn) or updated. */
function eventTypeOf(kind: UnitKind, before: UnitRecord | undefined, after: UnitRecord): EventType {
  if (!before) return `${kind}.created`;
  if (after.status === WITHDRAWN && before.status !== WITHDRAWN) return `${kind}.withdrawn`;
  return `${kind}.updated`;
}

/** How often a write is decided again after losing to a concurrent one. */
const ATTEMPTS = 5;


/** 409 when a write lost its race ATTEMPTS times: nothing was written, and the client may send it again. */
const keptChanging = (kind: UnitKind, value: string) =>
  new ConflictError(`The ${NOUN[kind]} '${value}' kept changing under concurrent writes (API calls, an import or a handover) while this change was written ${ATTEMPTS} times; nothing was changed.`, {
    param: UNIT_PARAM[kind],
    suggestion: `Read the ${NOUN[kind]} again and repeat the change.`,
  });

export interface UnitWrite {
  unit: UnitRecord;
  /** The record did not exist before. */
  created: boolean;
  /** A battery judged at registration: its passport's completeness report (docs/battery.md#the-individual-battery). */
  completeness?: ItemCompleteness;
}

/**
 * Writes the next version of a record from `contentOf(current)` (undefined: no record yet), with its
 * event in the same transaction, on the condition that the stored record is still `current`. A
 * content equal to the current one writes nothing. A concurrent write makes it read again and decide
 * again (the last write wins, each a version of its own), at most ATTEMPTS times: then 409.
 */
async function writeNext(
  tenant: Tenant,
  product: ProductRecord,
  kind: UnitKind,
  value: string,
  contentOf: (current: UnitRecord | undefined) => UnitContent,
  origin: Origin,
  mustExist: boolean,
  judge?: { asOf?: string; force?: boolean },
): Promise<UnitWrite> {
  const battery = product.category === 'battery' && kind === 'item';
  // A battery's passport is judged at registration on the model's current data (docs/battery.md#the-individual-battery).
  const model = battery && judge ? await modelDataOf(tenant, product) : undefined;
  // The EU registry (docs/registry.md#registrations): a new record's registration joins its first version's transaction when the settings are enabled.
  const registry = await registrySettingsForPublishing(tenant);
  for (let attempt = 1; ; attempt++) {
    const current = await getUnit(tenant, kind, product.gtin, value, true);
    if (!current && mustExist) await requireUnit(tenant, product, kind, value);
    // A new live battery needs its organization's brand domain (docs/brand-domains.md#battery-items).
    if (!current && battery && judge) await requireBrandHost(tenant, product, judge.force === true);
    const content = battery ? withProductIdentifier(product, value, contentOf(current)) : contentOf(current);
    const completeness = battery && judge ? judgeBattery(model, content.data, judge.asOf) : undefined;
    if (current && sameContent(current, content)) return { unit: current, created: false, ...(completeness ? { completeness } : {}) };
    // A battery's status moves only by operations; a waste or recycled battery is not its producer's to edit (docs/battery.md#a-batterys-life).
    const refusal = product.category === 'battery' && kind === 'item' ? (editRefusal(current, content) ?? appendOnlyRefusal(current?.data, content.data)) : undefined;
    if (refusal) throw new ConflictError(refusal.message, { param: refusal.param });
    // A battery's identifiers are its own in the organization and environment: claimed in the version's transaction.
    const claims = battery ? await claimIdentifiers(tenant, product, value, current?.data, content.data) : [];
    // Never made before the version it follows (another writer's clock may run ahead): `?at=` reads rely on the order.
    const clock = new Date().toISOString();
    const now = current && current.updatedAt > clock ? current.updatedAt : clock;
    const next = nextUnitVersion({ kind, productId: product.productId, gtin: product.gtin, value }, current, content, now);
    const event = newEvent(eventTypeOf(kind, current, next), toUnitView(next, product.qrCodeUrl), origin, now);
    const judged = completeness ? { completeness } : {};
    // An item withdrawn or reinstated deactivates or reactivates its registry entry, in the same transaction (docs/registry.md#lifecycle).
    const lifecycle = kind === 'item' && current && (current.status === WITHDRAWN) !== (next.status === WITHDRAWN) ? await lifecycleWrites(tenant, registry, product, next, next.status === WITHDRAWN, now, origin) : [];
    const registration = current ? lifecycle : registrationWrites(tenant, registry, [unitIdentifier(tenant, product, next)], now);
    // The product is still the tenant's when the version lands: a transfer's acceptance removes it (docs/transfers.md#acceptance).
    if ((await writeUnitVersion(tenant, current, next, [eventPut(tenant, event), ...claims, ...registration, productHolds(tenant, product.productId)])) === 'written') return { unit: next, created: !current, ...judged };
    if (!(await getProduct(tenant, product.productId, true))) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
    if (attempt >= ATTEMPTS) {
      // A transaction cut off by the client and sent again fails its condition on its own first attempt: then it is written.
      if ((await getUnit(tenant, kind, product.gtin, value, true))?.digest === next.digest) return { unit: next, created: !current, ...judged };
      throw keptChanging(kind, value);
    }
    await jitteredPause(attempt, 10); // about 20, 40, 80, 160 ms
  }
}

/** `PUT …/batches/{lot}` and `…/items/{serial}`: creates the record or replaces what it holds. */
export async function putUnit(tenant: Tenant, product: ProductRecord, kind: UnitKind, value: string, body: unknown, origin: Origin, options: { asOf?: string; force?: boolean } = {}): Promise<UnitWrite> {
  refuseImmutable(kind, body);
  const input: UnitInput = parseBody(kind === 'batch' ? putBatchSchema : putItemSchema, body);
  const content = checkContent(product, kind, input);
  return writeNext(tenant, product, kind, value, () => content, origin, false, options);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `PATCH`: an RFC 7396 merge patch of the record's own document (`{lot?, status, data}`), the result
 * checked as a whole. `status` cannot be removed (null); `data: null` empties the data.
 */
export async function patchUnit(
  tenant: Tenant,
  product: ProductRecord,
  kind: UnitKind,
  value: string,
  patch: unknown,
  origin: Origin,
  updatedBy?: string,
  /** Checked against the record each time the write is decided (a grantee's limits, docs/access.md#what-a-grantee-writes): it throws to refuse. */
  guard?: (current: UnitRecord | undefined) => void,
): Promise<UnitWrite> {
  if (!isObject(patch)) throw new InvalidRequestError('The merge patch must be a JSON object, such as {"status": "withdrawn"}.');
  refuseImmutable(kind, patch);
  if (patch.status === null) throw new ValidationError('status cannot be removed: set it to one of the statuses instead.', 'status');
  // The patch's own fields, checked before any record is read (its data only as a whole, after the merge).
  parseOrThrow(kind === 'batch' ? putBatchSchema : putItemSchema, { ...patch, ...(patch.lot === null ? { lot: undefined } : {}), ...(patch.data === null ? { data: undefined } : {}) });
  return writeNext(
    tenant,
    product,
    kind,
    value,
    (current) => {
      guard?.(current);
      const document = { ...(current?.lot !== undefined && kind === 'item' ? { lot: current.lot } : {}), status: current?.status ?? 'active', data: current?.data ?? {} };
      const merged = mergePatch(document, patch) as Record<string, unknown>;
      const content = checkContent(product, kind, parseOrThrow(kind === 'batch' ? putBatchSchema : putItemSchema, merged));
      return updatedBy === undefined ? content : { ...content, updatedBy };
    },
    origin,
    true,
  );
}

/** A record as it is now, or (`at`, an ISO instant) the version current then: 404 naming `at` before version 1. */
export async function readUnit(tenant: Tenant, product: ProductRecord, kind: UnitKind, value: string, at?: string): Promise<UnitRecord> {
  const current = await requireUnit(tenant, product, kind, value);
  if (at === undefined) return current;
  const version = await getUnitAt(tenant, current, Date.parse(at));
  if (!version) throw new NotFoundError(`The ${NOUN[kind]} '${value}' did not exist yet at ${at}.`, { param: 'at' });
  return version;
}

/** A page of the product's records, narrowed by `filter` (lot or serial prefix, status, an item's lot). */
export const listUnitsOf = (tenant: Tenant, product: ProductRecord, kind: UnitKind, limit: number, startingAfter?: string, filter: UnitFilter = {}) =>
  listUnits(tenant, kind, product.gtin, limit, startingAfter, filter);
