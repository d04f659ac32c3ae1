import { config } from '../config.ts';
import { eventPut } from '../data/events.ts';
import { getUnit, listUnits } from '../data/items.ts';
import { getProduct, listProductsAfter } from '../data/products.ts';
import { getRegistration, insertRegistrationIfAbsent, listRegistrations, registrationChange, registrationPut, storedRegistrationIds, type RegistrationFilter } from '../data/registrations.ts';
import { getRegistrySettings, markOperatorVerified, putRegistrySettings } from '../data/registry-settings.ts';
import { parseReoId } from '../domain/registry/operator.ts';
import { logger } from '../http/logger.ts';
import { writeIfFirstHolds, type TransactItem } from '../data/writes.ts';
import { passportBackupUrl, unitBackupUrl } from '../domain/backup.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import type { ProductRecord } from '../domain/product.ts';
import { lifecycleChange } from '../domain/registry/outbox.ts';
import { isResubmittable, resubmitted } from '../domain/registry/resubmit.ts';
import type { RegistrationRecord } from '../domain/registry/registration.ts';
import {
  createRegistrationsSchema,
  MAX_REGISTRATIONS_PER_CALL,
  newRegistration,
  putRegistrySettingsSchema,
  toRegistrationView,
  toRegistrySettingsView,
  type CreatedRegistrations,
  type PublishedIdentifier,
  type RegistrySettings,
} from '../domain/registry/settings.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitDigitalLink, unitValue, type UnitKind, type UnitRecord } from '../domain/unit.ts';
import { ConflictError, NotFoundError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { changeRegistration } from './registry-checks.ts';

/**
 * Registrations in the EU registry (docs/registry.md#settings, docs/registry.md#registrations): a
 * tenant's settings; the `pending_checks` registration each publication adds to its own transaction
 * when the settings are enabled; the missing ones created on demand; the reads.
 */

// ---- Settings -------------------------------------------------------------------------------------

/** How long a process keeps a tenant's settings (docs/registry.md#settings): a change reaches other functions' publications within this. */
export const SETTINGS_CACHE_MS = 10_000;
const cache = new Map<string, { settings: RegistrySettings | undefined; until: number }>();
const cacheKey = (tenant: Tenant): string => `${tenant.orgId}#${tenant.environment}`;

/** The tenant's settings, read at most once per SETTINGS_CACHE_MS per process: what every publication asks. */
export async function cachedRegistrySettings(tenant: Tenant, now = Date.now()): Promise<RegistrySettings | undefined> {
  const hit = cache.get(cacheKey(tenant));
  if (hit && hit.until > now) return hit.settings;
  const settings = await getRegistrySettings(tenant);
  if (cache.size > 10_000) cache.clear();
  cache.set(cacheKey(tenant), { settings, until: now + SETTINGS_CACHE_MS });
  return settings;
}

export const readRegistrySettings = (tenant: Tenant): Promise<RegistrySettings | undefined> => getRegistrySettings(tenant);

/** `PUT /v1/registry/settings`: the whole settings, each field checked (422 naming it), written with `registry.settings.updated`. */
export async function saveRegistrySettings(tenant: Tenant, body: unknown, origin: Origin): Promise<RegistrySettings> {
  const input = parseBody(putRegistrySettingsSchema, body);
  const now = new Date().toISOString();
  // The operator's verification at the registry holds while the operator stays the same (docs/registry.md#settings).
  const before = await getRegistrySettings(tenant);
  const sameOperator = before !== undefined && before.operator.scheme === input.operator.scheme && before.operator.identifier === input.operator.identifier;
  const settings: RegistrySettings = {
    enabled: input.enabled,
    operator: input.operator,
    facilities: input.facilities,
    commodityCode: input.commodityCode,
    submission: input.submission ?? 'files',
    ...(input.sealCertificate ? { sealCertificate: input.sealCertificate } : {}),
    ...(sameOperator && before.operatorVerifiedAt ? { operatorVerifiedAt: before.operatorVerifiedAt } : {}),
    updatedAt: now,
  };
  await putRegistrySettings(tenant, settings, [eventPut(tenant, newEvent('registry.settings.updated', toRegistrySettingsView(tenant.environment, settings), origin, now))]);
  cache.set(cacheKey(tenant), { settings, until: Date.now() + SETTINGS_CACHE_MS });
  return settings;
}

/** The operators this process has marked verified already (or tried to): one conditional update per tenant and operator at most. */
const verifiedSeen = new Set<string>();

/**
 * The registry took an entry naming `reoId`: its operator is verified there (it registers only
 * verified operators, docs/registry.md#settings). Marks the settings once, when they still name that
 * operator; later calls in this process write nothing.
 */
export async function noteOperatorVerified(tenant: Tenant, reoId: string, at: string): Promise<void> {
  const key = `${cacheKey(tenant)}#${reoId}`;
  const operator = parseReoId(reoId);
  if (verifiedSeen.has(key) || !operator) return;
  verifiedSeen.add(key);
  try {
    if (await markOperatorVerified(tenant, operator, at)) cache.delete(cacheKey(tenant));
  } catch (error) {
    verifiedSeen.delete(key);
    logger().warn('Could not mark the operator verified; the next registration tries again', { error: error instanceof Error ? error.message : String(error) });
  }
}

// ---- Creation on publication ----------------------------------------------------------------------

/** The public copy's origin, when the service keeps one (docs/backup.md#the-public-copy): a backupURL starts with it. */
const backupOrigin = (): string | undefined => config().backupPublicOrigin;

/** A model's identifier: the product's Digital Link, its backup copy the version's. */
export const modelIdentifier = (tenant: Tenant, product: ProductRecord, version: number): PublishedIdentifier => {
  const origin = backupOrigin();
  return { granularity: 'MODEL', digitalLink: product.qrCodeUrl, backupURL: origin ? passportBackupUrl(origin, tenant, product.gtin, version) : '', productId: product.productId, gtin: product.gtin };
};

/** A batch's or an item's identifier: its Digital Link, its backup copy the record's version's. */
export const unitIdentifier = (tenant: Tenant, product: ProductRecord, unit: UnitRecord): PublishedIdentifier => {
  const origin = backupOrigin();
  const value = unitValue(unit);
  return {
    granularity: unit.kind === 'batch' ? 'BATCH' : 'ITEM',
    digitalLink: unitDigitalLink(product.qrCodeUrl, unit.kind, value),
    backupURL: origin ? unitBackupUrl(origin, tenant, unit.gtin, unit.kind, value, unit.version) : '',
    productId: product.productId,
    gtin: product.gtin,
    // An item names its lot where it has one: its batch is the link it waits for (docs/registry.md#the-outbox).
    ...(unit.kind === 'batch' ? { lot: value } : { serial: value, ...(unit.lot === undefined ? {} : { lot: unit.lot }) }),
  };
};

/**
 * What a publication adds to its transaction: a new registration of each identifier it publishes,
 * written only where none exists (registrationPut), when the tenant's settings are enabled; nothing
 * otherwise. `settings` is what registrySettingsForPublishing read once before the publication.
 */
export function registrationWrites(tenant: Tenant, settings: RegistrySettings | undefined, identifiers: readonly PublishedIdentifier[], now: string): TransactItem[] {
  if (!settings?.enabled) return [];
  return identifiers.map((identifier) => registrationPut(tenant, newRegistration(tenant, settings, identifier, now)));
}

/** The settings a publication goes by: one cached read (docs/registry.md#registrations). */
export const registrySettingsForPublishing = (tenant: Tenant): Promise<RegistrySettings | undefined> => cachedRegistrySettings(tenant);

// ---- Lifecycle ------------------------------------------------------------------------------------

/**
 * What an item's withdrawal or recycling (`deactivate` true) or reinstatement (false) adds to its
 * version's transaction (docs/registry.md#lifecycle): its registration one version on, on the
 * condition that it is still the one read (lifecycleChange); in files, marked at once, with its
 * event. Nothing when registration is off, the item has no registration, or nothing changes.
 */
export async function lifecycleWrites(tenant: Tenant, settings: RegistrySettings | undefined, product: ProductRecord, unit: UnitRecord, deactivate: boolean, now: string, origin: Origin): Promise<TransactItem[]> {
  if (!settings?.enabled || unit.kind !== 'item') return [];
  const { registrationId } = newRegistration(tenant, settings, unitIdentifier(tenant, product, unit), now);
  const current = await getRegistration(tenant, registrationId);
  const after = current && lifecycleChange(current, deactivate, settings.submission, now);
  if (!current || !after) return [];
  const writes = [registrationChange(tenant, current, after)];
  if (after.status === current.status) return writes;
  const event = after.status === 'deactivated' ? 'registry.registration.deactivated' : 'registry.registration.registered';
  return [...writes, eventPut(tenant, newEvent(event, toRegistrationView(after), origin, now))];
}

// ---- On demand ------------------------------------------------------------------------------------

/** The settings, enabled: else 409 naming `enabled`. */
async function requireEnabled(tenant: Tenant): Promise<RegistrySettings> {
  const settings = await getRegistrySettings(tenant);
  if (!settings?.enabled) {
    throw new ConflictError('Registration in the EU registry is not enabled for this environment.', {
      param: 'enabled',
      suggestion: 'Save the operator identity, facilities and commodity code with enabled: true (PUT /v1/registry/settings), then call again.',
    });
  }
  return settings;
}

/** The product's identifiers with a published passport: its model, then its batches and items, a page at a time. */
async function* identifiersOf(tenant: Tenant, product: ProductRecord): AsyncGenerator<PublishedIdentifier[]> {
  if (!product.passportVersion) return;
  yield [modelIdentifier(tenant, product, product.passportVersion)];
  for (const kind of ['batch', 'item'] as const satisfies readonly UnitKind[]) {
    let after: string | undefined;
    do {
      const page = await listUnits(tenant, kind, product.gtin, 100, after);
      if (page.units.length) yield page.units.map((unit) => unitIdentifier(tenant, product, unit));
      const last = page.units.at(-1);
      after = page.hasMore && last ? unitValue(last) : undefined;
    } while (after);
  }
}

/** The products a call names, each once, in the order named: 404 naming the first unknown (as `productIds[n]`). */
async function namedProducts(tenant: Tenant, productIds: readonly string[]): Promise<ProductRecord[]> {
  const products: ProductRecord[] = [];
  for (const [index, productId] of productIds.entries()) {
    const product = await getProduct(tenant, productId);
    if (!product) throw new NotFoundError(`No product with id '${productId}' in this environment.`, { param: `productIds[${index}]` });
    if (!products.some((one) => one.productId === productId)) products.push(product);
  }
  return products;
}

/** The named products, or every product of the tenant in creation order, a page at a time. */
async function* productsOf(tenant: Tenant, named: readonly ProductRecord[] | undefined): AsyncGenerator<ProductRecord> {
  if (named) {
    yield* named;
    return;
  }
  let after: string | undefined;
  do {
    const page = await listProductsAfter(tenant, 100, after);
    yield* page.products;
    after = page.hasMore ? page.products.at(-1)?.productId : undefined;
  } while (after);
}

/**
 * `POST /v1/registry/registrations`: the missing registrations of the products' published passports,
 * batches and items, `pending_checks`, at most MAX_REGISTRATIONS_PER_CALL a call (`hasMore`: call
 * again). Which exist is read first (BatchGetItem); each missing one is one conditional PutItem, so a
 * publication racing this call writes it once. One `registry.registrations.created` event when any was created.
 */
export async function createMissingRegistrations(tenant: Tenant, body: unknown, origin: Origin): Promise<CreatedRegistrations> {
  const input = parseBody(createRegistrationsSchema, body);
  if ('items' in input) return createUnitRegistrations(tenant, input.items, origin);
  // The products first: a product of another tenant is a 404 whatever this tenant's settings are (no oracle).
  const named = 'productIds' in input ? await namedProducts(tenant, input.productIds) : undefined;
  const settings = await requireEnabled(tenant);
  const now = new Date().toISOString();
  let created = 0;
  let existing = 0;
  let hasMore = false;
  const createdIds: string[] = [];
  outer: for await (const product of productsOf(tenant, named)) {
    for await (const identifiers of identifiersOf(tenant, product)) {
      const records = identifiers.map((identifier) => newRegistration(tenant, settings, identifier, now));
      const stored = await storedRegistrationIds(tenant, records.map((record) => record.registrationId));
      for (const record of records) {
        if (stored.has(record.registrationId)) {
          existing++;
          continue;
        }
        if (created >= MAX_REGISTRATIONS_PER_CALL) {
          hasMore = true;
          break outer;
        }
        if ((await insertRegistrationIfAbsent(tenant, record)) === 'created') {
          created++;
          if (createdIds.length < 100) createdIds.push(record.registrationId);
        } else existing++;
      }
    }
  }
  const answer: CreatedRegistrations = { object: 'registration_creation', created, existing, hasMore };
  if (created > 0) {
    const event = newEvent('registry.registrations.created', { ...answer, registrationIds: createdIds }, origin, now);
    await writeIfFirstHolds([eventPut(tenant, event)]);
  }
  return answer;
}

/**
 * The registrations of named batches and items (`{items: [{productId, serial} | {productId, lot}]}`):
 * each record read first (404 naming `items[n].serial` or `.lot` for one this environment does not
 * have, before anything is written), then each missing registration written with one conditional
 * PutItem, as for products.
 */
async function createUnitRegistrations(tenant: Tenant, items: readonly ({ productId: string; serial: string } | { productId: string; lot: string })[], origin: Origin): Promise<CreatedRegistrations> {
  const products = new Map<string, ProductRecord>();
  const identifiers: PublishedIdentifier[] = [];
  for (const [index, item] of items.entries()) {
    const product = products.get(item.productId) ?? (await getProduct(tenant, item.productId));
    if (!product) throw new NotFoundError(`No product with id '${item.productId}' in this environment.`, { param: `items[${index}].productId` });
    products.set(product.productId, product);
    const [kind, value] = 'serial' in item ? (['item', item.serial] as const) : (['batch', item.lot] as const);
    const unit = await getUnit(tenant, kind, product.gtin, value);
    if (!unit) throw new NotFoundError(`Product '${product.productId}' has no ${kind} '${value}'.`, { param: `items[${index}].${kind === 'item' ? 'serial' : 'lot'}` });
    identifiers.push(unitIdentifier(tenant, product, unit));
  }
  const settings = await requireEnabled(tenant);
  const now = new Date().toISOString();
  const records = identifiers.map((identifier) => newRegistration(tenant, settings, identifier, now));
  const stored = await storedRegistrationIds(tenant, records.map((record) => record.registrationId));
  const createdIds: string[] = [];
  let existing = 0;
  for (const record of records) {
    if (stored.has(record.registrationId) || createdIds.includes(record.registrationId)) existing++;
    else if ((await insertRegistrationIfAbsent(tenant, record)) === 'created') createdIds.push(record.registrationId);
    else existing++;
  }
  const answer: CreatedRegistrations = { object: 'registration_creation', created: createdIds.length, existing, hasMore: false };
  if (createdIds.length > 0) await writeIfFirstHolds([eventPut(tenant, newEvent('registry.registrations.created', { ...answer, registrationIds: createdIds }, origin, now))]);
  return answer;
}

// ---- Reads ----------------------------------------------------------------------------------------

export async function readRegistration(tenant: Tenant, registrationId: string): Promise<RegistrationRecord> {
  const record = await getRegistration(tenant, registrationId);
  if (!record) throw new NotFoundError(`No registration with id '${registrationId}'.`, { param: 'registrationId' });
  return record;
}

export const listRegistrationsOf = (tenant: Tenant, filter: RegistrationFilter, limit: number, startingAfter?: string) =>
  listRegistrations(tenant, filter, { limit, ...(startingAfter === undefined ? {} : { cursor: startingAfter }) });

// ---- Fix and resubmit -----------------------------------------------------------------------------

/**
 * `POST /v1/registry/registrations/{registrationId}/resubmit` (docs/registry.md#fix-and-resubmit): a
 * `rejected` or `pending_checks` registration goes back to `pending_checks` without reasons, its
 * entry following the settings as they are now (resubmitted), so that it is checked again: the
 * outbox takes it from the table's stream, or the next upload file does. One write conditional on the
 * record's `version`, with `registry.registration.resubmitted` in the same transaction; a record
 * already so (nothing to write) is answered as it is, without an event. 404 for no registration of
 * the id in this environment; 409 naming `status` for any other status, naming `enabled` when
 * registration is off.
 */
export async function resubmitRegistration(tenant: Tenant, registrationId: string, origin: Origin): Promise<RegistrationRecord> {
  const record = await readRegistration(tenant, registrationId);
  if (!isResubmittable(record.status)) throw notResubmittable(record);
  const settings = await requireEnabled(tenant);
  const now = new Date().toISOString();
  const written = await changeRegistration(
    tenant,
    record,
    (current) => (isResubmittable(current.status) ? (resubmitted(current, settings, now) ?? 'unchanged') : 'skip'),
    (after) => [eventPut(tenant, newEvent('registry.registration.resubmitted', toRegistrationView(after), origin, now))],
  );
  if (written.outcome !== 'skipped') return written.record;
  // Changed under us as often as the write was tried: gone, moved on (the outbox took it), or still changing.
  if (!written.record) throw new NotFoundError(`No registration with id '${registrationId}'.`, { param: 'registrationId' });
  if (!isResubmittable(written.record.status)) throw notResubmittable(written.record);
  throw new ConflictError('The registration changed while it was being resubmitted.', { param: 'registrationId', suggestion: 'Read it again and resubmit it if it is still rejected or held.' });
}

function notResubmittable(record: RegistrationRecord): ConflictError {
  return new ConflictError(`The registration is ${record.status}: only a rejected registration, or one the pre-checks hold (pending_checks), is resubmitted.`, {
    param: 'status',
    suggestion:
      record.status === 'ready' || record.status === 'submitted'
        ? 'It is on its way to the registry already: wait for the registry to answer.'
        : 'A registered or deactivated entry is not sent again by a resubmission.',
  });
}
