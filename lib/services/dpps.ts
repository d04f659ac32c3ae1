import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal.ts';
import { db } from '../data/client.ts';
import { findDomainByHostname } from '../data/domains.ts';
import { eventPut } from '../data/events.ts';
import { getUnit, getUnitAt } from '../data/items.ts';
import { getOrganization } from '../data/organizations.ts';
import { getPassportVersionAt, getPublicView } from '../data/passports.ts';
import { getProduct } from '../data/products.ts';
import { dppIdOf, parseDppId, type DppRef } from '../domain/access.ts';
import { audiencesOf, canRead, tierOfAudiences, tierOfReader, type Audience } from '../domain/battery/access-tiers.ts';
import { elementAt, filterByTier, restrictedElementsFor } from '../domain/battery/elements.ts';
import { overlayItemData, type BatteryItemData, type BatteryPassportData } from '../domain/battery/index.ts';
import { granteePatchRefusal } from '../domain/battery/grantee-writes.ts';
import { valueAt } from '../domain/battery/paths.ts';
import { parseGtinPath } from '../domain/digital-link.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { isBatteryPassport } from '../domain/passport-kinds.ts';
import type { PassportVersion } from '../domain/passport.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitDigitalLink, type UnitRecord } from '../domain/unit.ts';
import { toUnitView } from '../domain/units.ts';
import { InvalidRequestError, NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { accessOf, readsPublicOnly, type ReaderAccess } from './access-grants.ts';
import { patchUnit } from './items.ts';
import { config } from '../config.ts';

/**
 * The read API of EN 18222 (docs/access.md#reads): a passport by its DPP id, by product identifier
 * (a Digital Link or a GTIN), at a date, several at once, one element; each answer holds the elements
 * the caller may read (lib/services/access-grants.ts accessOf) under the EN 18223 header fields the
 * service has. Every read of restricted elements by another organization is logged in the owner's
 * event log (`passport.accessed`); reads of public data are not.
 */

const notFound = (param: string) => new NotFoundError('No passport with this id (or none you may know of).', { param });

interface Found {
  ref: DppRef;
  product: ProductRecord;
  passport: PassportVersion;
  unit?: UnitRecord;
  access: ReaderAccess;
}

/** How a reader reads an owner's product: accessOf for the platform's credentials, another rule for an inspector (readDppWith). */
type AccessRule = (owner: Tenant, productId: string) => Promise<ReaderAccess>;

/** The passport a DPP id names, at `at` (epoch ms) or now, with the caller's access to it; 404 for anything else. */
async function find(principal: Principal | undefined, dppId: string, at?: number, param = 'dppId', accessFor: AccessRule = (owner, productId) => accessOf(principal, owner, productId)): Promise<Found> {
  const ref = parseDppId(dppId);
  if (!ref) throw notFound(param);
  const view = await getPublicView(ref.tenant, ref.gtin14);
  if (!view?.passport) throw notFound(param);
  const product = await getProduct(ref.tenant, view.productId);
  if (!product) throw notFound(param);
  const passport = at === undefined ? view.passport : await getPassportVersionAt(ref.tenant, product.productId, at);
  if (!passport) throw new NotFoundError('The passport had no published version yet at that date.', { param: 'date' });
  let unit: UnitRecord | undefined;
  if (ref.unit) {
    const current = await getUnit(ref.tenant, ref.unit.kind, ref.gtin14, ref.unit.value);
    unit = current && at !== undefined ? await getUnitAt(ref.tenant, current, at) : current;
    if (!unit) throw current ? new NotFoundError('The record had no version yet at that date.', { param: 'date' }) : notFound(param);
  }
  const access = await accessFor(ref.tenant, product.productId);
  return { ref, product, passport, ...(unit ? { unit } : {}), access };
}

/** The data the caller may read: a battery's elements of its audiences (the item's laid over the model's); any other passport whole. */
function visibleData(found: Found): { data: Record<string, unknown>; restricted: string[] } {
  const model = found.passport.data as Record<string, unknown>;
  const battery = isBatteryPassport(found.product.category, model);
  const whole = battery && found.unit?.kind === 'item' ? overlayItemData(model as BatteryPassportData, found.unit.data as BatteryItemData) : model;
  if (!battery || found.access.reader === 'owner') return { data: whole as Record<string, unknown>, restricted: [] };
  return readerView(whole, found.access);
}

/**
 * What a reader other than the owner receives of a battery's data, and the restricted elements in
 * it (what the owner's log records): one filter, the element map's audiences, for every read.
 */
function readerView(whole: unknown, access: ReaderAccess): { data: Record<string, unknown>; restricted: string[] } {
  const data = filterByTier(whole, access.reader) as Record<string, unknown>;
  const restricted = restrictedElementsFor(access.reader)
    .filter((element) => valueAt(data, element.path) !== undefined)
    .map((element) => element.path);
  return { data, restricted };
}

/** The schema a passport's data follows, as EN 18223 asks (`dppSchemaVersion`, `contentSpecificationIds`). */
function schemaOf(found: Found): { version: string; specifications: string[] } {
  return isBatteryPassport(found.product.category, found.passport.data)
    ? { version: 'batterypass-1.2', specifications: ['urn:battery-pass:data-model:1.2', 'eu:reg:2023/1542:annex-xiii'] }
    : { version: `${found.product.category}-1`, specifications: [`urn:product-passport:${found.product.category}:1`] };
}

/** Logs a read of restricted elements by another organization in the owner's log (docs/access.md#what-is-logged). */
async function recordAccess(found: Pick<Found, 'ref' | 'product' | 'access'>, dppId: string, elements: readonly string[], requestId: string): Promise<void> {
  if (elements.length === 0 || found.access.via === 'owner' || !found.access.orgId) return;
  const organization = await getOrganization(found.access.orgId);
  const origin: Origin = { actor: { type: 'organization', id: found.access.orgId, ...(organization ? { name: organization.name } : {}) }, requestId };
  const object = {
    object: 'passport_access',
    dppId,
    productId: found.product.productId,
    reader: {
      orgId: found.access.orgId,
      tier: tierOfReader(found.access.reader),
      audiences: audiencesOf(found.access.reader),
      via: found.access.via,
      ...(found.access.grantId ? { grantId: found.access.grantId, grantIds: found.access.grantIds ?? [found.access.grantId] } : {}),
      ...(found.access.caller ?? {}),
    },
    elements,
  };
  await db().send(new TransactWriteCommand({ TransactItems: [eventPut(found.ref.tenant, newEvent('passport.accessed', object, origin))] }));
}

/** A passport as the read API answers it: the EN 18223 header fields, then the data the caller may read. */
function answer(found: Found, data: Record<string, unknown>) {
  const dppId = dppIdOf(found.ref);
  const schema = schemaOf(found);
  const unit = found.unit;
  return {
    object: 'dpp',
    digitalProductPassportId: dppId,
    uniqueProductIdentifier: unit ? unitDigitalLink(found.product.qrCodeUrl, unit.kind, unit.kind === 'batch' ? (unit.lot ?? '') : (unit.serial ?? '')) : found.product.qrCodeUrl,
    granularity: unit ? unit.kind : (found.product.granularity ?? 'model'),
    dppSchemaVersion: schema.version,
    dppStatus: found.product.status === 'withdrawn' || unit?.status === 'withdrawn' ? 'inactive' : 'active',
    lastUpdate: unit && Date.parse(unit.updatedAt) > Date.parse(found.passport.createdAt) ? unit.updatedAt : found.passport.createdAt,
    economicOperatorId: found.product.economicOperatorId ?? null,
    facilityId: found.product.facilityId ?? null,
    contentSpecificationIds: schema.specifications,
    accessTier: tierOfReader(found.access.reader),
    audiences: audiencesOf(found.access.reader),
    name: found.product.name,
    category: found.product.category,
    gtin: found.product.gtin,
    version: found.passport.version,
    digest: found.passport.digest,
    ...(unit ? { unit: { kind: unit.kind, ...(unit.lot === undefined ? {} : { lot: unit.lot }), ...(unit.serial === undefined ? {} : { serial: unit.serial }), version: unit.version, digest: unit.digest, status: unit.status } } : {}),
    data,
  };
}

export type DppAnswer = ReturnType<typeof answer>;

/** `GET /v1/dpps/{dppId}` and `GET /v1/dppsByIdAndDate/{dppId}?date=`. */
export async function readDpp(principal: Principal | undefined, dppId: string, requestId: string, at?: number, param = 'dppId'): Promise<DppAnswer> {
  const found = await find(principal, dppId, at, param);
  const { data, restricted } = visibleData(found);
  await recordAccess(found, dppIdOf(found.ref), restricted, requestId);
  return answer(found, data);
}

/**
 * A passport read by a reader the platform's credentials do not name, an inspector of a trusted
 * authority (lib/services/inspections.ts): found and filtered as every read is, with `accessFor`'s
 * access; the caller logs the read, naming the inspector. Answers the owner and the restricted
 * elements read beside the answer.
 */
export async function readDppWith(accessFor: (owner: Tenant) => ReaderAccess, dppId: string): Promise<{ dpp: DppAnswer; owner: Tenant; productId: string; restricted: string[] }> {
  const found = await find(undefined, dppId, undefined, 'dppId', async (owner) => accessFor(owner));
  const { data, restricted } = visibleData(found);
  return { dpp: answer(found, data), owner: found.ref.tenant, productId: found.product.productId, restricted };
}

/** Identifiers a request without credentials may name in one `POST /v1/dppsByProductIds` (docs/access.md#reads). */
export const ANONYMOUS_BATCH_MAX = 10;

/** One entry of `POST /v1/dppsByProductIds`: the passport an identifier names, or its error. */
export type DppBatchEntry = { productIdentifier: string; dpp: DppAnswer } | { productIdentifier: string; error: ReturnType<NotFoundError['toBody']>['error'] };

/**
 * `POST /v1/dppsByProductIds` (docs/access.md#reads): each distinct identifier once, in the order
 * first named (a repeated identifier is read and answered once); several identifiers of one
 * passport read it once; without credentials at most ANONYMOUS_BATCH_MAX identifiers. A reader of
 * restricted elements is logged once per passport and request, with every element it read.
 */
export async function readDpps(principal: Principal | undefined, identifiers: readonly string[], requestId: string): Promise<DppBatchEntry[]> {
  const distinct = [...new Set(identifiers)];
  if (!principal && distinct.length > ANONYMOUS_BATCH_MAX) {
    throw new ValidationError(
      `Without credentials a request reads at most ${ANONYMOUS_BATCH_MAX} passports; this one names ${distinct.length} identifiers.`,
      'productIds',
      'Send an API key to read up to 100 at once, or split the list.',
    );
  }
  const reads = new Map<string, Promise<{ found: Found; data: Record<string, unknown>; restricted: string[] }>>();
  const entries: DppBatchEntry[] = [];
  for (const productIdentifier of distinct) {
    try {
      const dppId = await dppIdOfIdentifier(principal, productIdentifier);
      if (!dppId) throw new NotFoundError('No passport for this product identifier.', { param: 'productIdentifier' });
      let read = reads.get(dppId);
      if (!read) {
        read = find(principal, dppId, undefined, 'productIdentifier').then((found) => ({ found, ...visibleData(found) }));
        reads.set(dppId, read);
      }
      const { found, data } = await read;
      entries.push({ productIdentifier, dpp: answer(found, data) });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      entries.push({ productIdentifier, error: error.toBody().error });
    }
  }
  for (const [dppId, read] of reads) {
    const outcome = await read.catch(() => undefined);
    if (outcome) await recordAccess(outcome.found, dppId, outcome.restricted, requestId);
  }
  return entries;
}

/**
 * The DPP id a product identifier names (docs/access.md#reads): a Digital Link on the platform's
 * path form (`…/{orgId}/{env}/01/{gtin}[/10/{lot}][/21/{serial}]`) or on a verified brand domain
 * (`https://{host}/01/{gtin}…`, the live environment), or a bare GTIN, which names a product of the
 * caller's own organization. Undefined when it names nothing.
 */
export async function dppIdOfIdentifier(principal: Principal | undefined, identifier: string): Promise<string | undefined> {
  if (identifier.length > 2048) return undefined;
  if (/^\d{8,14}$/.test(identifier)) {
    if (!principal) return undefined;
    const parsed = parseGtinPath(identifier);
    return parsed.ok ? dppIdOf({ tenant: principal.tenant, gtin14: parsed.gtin14 }) : undefined;
  }
  let url: URL;
  try {
    url = new URL(identifier);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  let segments: string[];
  try {
    segments = url.pathname.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  let tenant: Tenant | undefined;
  const at01 = segments.indexOf('01');
  if (at01 === 2 && /^org_[0-9A-Za-z]{1,64}$/.test(segments[0] ?? '') && (segments[1] === 'live' || segments[1] === 'test')) {
    tenant = { orgId: segments[0] as string, environment: segments[1] };
  } else if (at01 === 0) {
    const claim = await findDomainByHostname(url.hostname.toLowerCase());
    if (claim?.status === 'verified') tenant = { orgId: claim.orgId, environment: 'live' };
  }
  if (!tenant || at01 < 0) return undefined;
  const parsed = parseGtinPath(segments[at01 + 1] ?? '', segments.slice(at01 + 2));
  if (!parsed.ok) return undefined;
  const serial = parsed.qualifiers['21'];
  const lot = parsed.qualifiers['10'];
  const unit = serial !== undefined ? { kind: 'item' as const, value: serial } : lot !== undefined ? { kind: 'batch' as const, value: lot } : undefined;
  return dppIdOf({ tenant, gtin14: parsed.gtin14, ...(unit ? { unit } : {}) });
}

/** `GET /v1/dpps/{dppId}/elements/{elementPath}`: one element, 403 naming its audiences when the caller is not among them. */
export async function readElement(principal: Principal | undefined, dppId: string, elementPath: string, requestId: string) {
  const found = await find(principal, dppId);
  const battery = isBatteryPassport(found.product.category, found.passport.data);
  const element = battery ? elementAt(elementPath) : undefined;
  const audiences: readonly Audience[] = element?.audiences ?? ['public'];
  if (elementPath.length > 300 || !/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/.test(elementPath) || (battery && !element)) {
    throw new NotFoundError(`'${elementPath.slice(0, 100)}' is not an element of this passport.`, { param: 'elementPath' });
  }
  if (!canRead(found.access.reader, audiences)) {
    throw new PermissionError(
      `The element ${elementPath} is read by: ${audiences.join(', ')} (the ${tierOfAudiences(audiences)} tier); you read this passport as: ${audiencesOf(found.access.reader).join(', ')}.`,
      { suggestion: "Ask the passport's owner for access: POST /v1/access-requests with the purpose you need it for (docs/access.md#access-requests)." },
    );
  }
  const { data } = visibleData(found);
  const value = valueAt(data, elementPath);
  if (value === undefined) throw new NotFoundError(`The passport has no value for ${elementPath}.`, { param: 'elementPath' });
  const canonicalId = dppIdOf(found.ref);
  if (!audiences.includes('public')) await recordAccess(found, canonicalId, [elementPath], requestId);
  return { object: 'dpp_element', digitalProductPassportId: canonicalId, elementPath, tier: tierOfAudiences(audiences), audiences: [...audiences], value };
}

/**
 * `PATCH /v1/dpps/{dppId}`: a merge patch of an item's data by its owner or a grantee with write
 * access (docs/access.md#grants), checked as the item's own PATCH checks it; the version names the
 * grantee (`updatedBy`) and the owner's event its organization.
 */
export async function patchDppItem(principal: Principal, dppId: string, patch: unknown, origin: Origin, checkMediaType: () => void = () => undefined) {
  // An item's data may be written before its product's first passport version is published.
  const ref = parseDppId(dppId);
  const view = ref ? await getPublicView(ref.tenant, ref.gtin14) : undefined;
  const product = ref && view ? await getProduct(ref.tenant, view.productId) : undefined;
  if (!ref || !product) throw notFound('dppId');
  const unit = ref.unit ? await getUnit(ref.tenant, ref.unit.kind, ref.gtin14, ref.unit.value) : undefined;
  const access = await accessOf(principal, ref.tenant, product.productId);
  if (ref.unit && !unit) throw notFound('dppId');
  const found = { ref, product, ...(unit ? { unit } : {}), access };
  if (!found.unit || found.unit.kind !== 'item') {
    if (readsPublicOnly(access) && access.via !== 'grant') throw notFound('dppId');
    throw new ValidationError('Only an item’s passport (a serialised item’s DPP id) takes a patch here.', 'dppId');
  }
  if (!found.access.write) {
    if (readsPublicOnly(found.access) && found.access.via !== 'grant') throw notFound('dppId');
    throw new PermissionError('Your access to this passport does not include writing its dynamic data.', { suggestion: 'Ask its owner for a grant with write (docs/access.md#grants).' });
  }
  checkMediaType();
  const other = found.access.via !== 'owner' ? found.access.orgId : undefined;
  if (other) {
    // A grantee writes the battery's dynamic condition data and nothing else (docs/access.md#what-a-grantee-writes).
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new InvalidRequestError('The merge patch must be a JSON object, such as {"data": {…}}.');
  }
  // Judged before anything else (a field that is not the grantee's is 403 before the item's own rules),
  // and again against the item as each write attempt reads it, so that an append-only list is checked
  // against what is stored at that moment, not at the first read.
  const guard = other
    ? (current: UnitRecord | undefined) => {
        const refusal = granteePatchRefusal(patch as Record<string, unknown>, current?.data ?? {});
        if (refusal) throw new PermissionError(refusal.message, { param: refusal.param, suggestion: "Ask the passport's owner to change it." });
      }
    : undefined;
  guard?.(found.unit);
  const actorOrigin: Origin = other ? { actor: { type: 'organization', id: other, ...(await nameOf(other)) }, requestId: origin.requestId } : origin;
  const written = await patchUnit(found.ref.tenant, found.product, 'item', found.unit.serial ?? '', patch, actorOrigin, other, guard);
  const item = toUnitView(written.unit, found.product.qrCodeUrl, found.ref.tenant, config().backupPublicOrigin);
  if (!other) return item;
  // The answer is a read by another organization: only its audiences' elements, logged as any restricted read.
  const battery = isBatteryPassport(found.product.category, item.data);
  const { data, restricted } = battery ? readerView(item.data, found.access) : { data: item.data, restricted: [] };
  await recordAccess(found, dppIdOf(found.ref), restricted, origin.requestId ?? '');
  return { ...item, data };
}

const nameOf = async (orgId: string): Promise<{ name?: string }> => {
  const organization = await getOrganization(orgId);
  return organization ? { name: organization.name } : {};
};

export { dppIdOf };
