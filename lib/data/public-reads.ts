import { inCurrentUnits } from '../domain/battery/units-migration.ts';
import type { LabelTerms } from '../domain/labelling-term.ts';
import { isLang, type Lang } from '../domain/labelling/languages.ts';
import type { PassportData, PassportVersion } from '../domain/passport.ts';
import type { Category, ProductGranularity } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitFromItem, type UnitKind, type UnitPageRef, type UnitRecord } from '../domain/unit.ts';
import { batchSk, batchVersionSk, gtinSk, hostnameClaimKey, itemSk, itemVersionSk, labelTermSnapshotSk, passportVersionSk, tenantPk, versionPageSk, type ItemKey } from './keys.ts';

/**
 * The reads behind a public page: a GTIN's public view, a version's page, a hostname's claim. The
 * logic is written once over a `GetItem` function, so that the resolver can run it on the small
 * AWS JSON client (lib/data/scan-reads.ts) and the API on the SDK's document client
 * (lib/data/passports.ts, lib/data/domains.ts): docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk.
 */

/** Reads one item by its key (an eventually consistent GetItem); undefined when there is none. */
export type GetItem = (key: ItemKey) => Promise<Record<string, unknown> | undefined>;

/**
 * Reads up to 100 items by their keys in one call (an eventually consistent BatchGetItem), in any
 * order, the missing ones left out: the scan of a serial or lot reads the GTIN item and the record
 * together (docs/resolver.md#batches-and-items).
 */
export type BatchGetItems = (keys: readonly ItemKey[]) => Promise<Record<string, unknown>[]>;

/**
 * A passport version item (or the copy of one on a GTIN or page item) as the domain type, battery
 * data stored in older units converted (lib/domain/battery/units-migration.ts).
 */
export function passportFromItem(item: Record<string, unknown>): PassportVersion {
  const version: PassportVersion = {
    passportId: String(item.passportId),
    productId: String(item.productId),
    version: Number(item.version),
    status: 'published',
    data: (item.data ?? {}) as PassportData,
    createdAt: String(item.createdAt),
    publishedAt: String(item.publishedAt ?? item.createdAt),
    digest: String(item.digest ?? ''),
    previousDigest: typeof item.previousDigest === 'string' ? item.previousDigest : null,
    gtin: String(item.gtin ?? ''),
  };
  return inCurrentUnits(version, item.dataUnits);
}

/** What the resolver reads for a scan: the GTIN item's public view. */
export interface PublicView {
  productId: string;
  name: string;
  category: Category;
  gtin: string;
  qrCodeUrl: string;
  passport?: PassportVersion;
  /** The producer withdrew the product: its Digital Link answers 410 (docs/lifecycle.md#withdrawal). */
  withdrawn?: boolean;
  /** What one passport covers (`model` when absent): at `item` or `batch`, an unregistered serial or lot is a 404. */
  granularity?: ProductGranularity;
  /**
   * A version page's corrections of legal terms, as the organization had them when the version was
   * published (docs/labelling.md#correcting-a-term): on page items written before the corrections
   * were stored once per tenant, and filled in from `labelTermSet` by the pages that show them.
   */
  labelTerms?: LabelTerms;
  /** The digest of the set of corrections the version was published with (its `LABELTERMSET#{digest}` item): getLabelTermSet reads it. */
  labelTermSet?: string;
  /** A version page's languages, when its organization offered only those signed off as it was published (docs/labelling.md#sign-off); absent: all 24. */
  labelLanguages?: Lang[];
  /**
   * The product was transferred to this organization (docs/transfers.md#the-printed-qr-codes): the
   * GTIN item is a pointer, with no view or passport of its own; the resolver reads the GTIN in the
   * new owner's tenant instead.
   */
  movedTo?: string;
  /** A transfer moving the product into this organization (docs/transfers.md): the view is there already, the product not yet. */
  reservedBy?: string;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `terms` of a set item of corrections (lib/data/labelling-terms.ts), undefined when it has none. */
export const labelTermsFromItem = (item: Record<string, unknown>): LabelTerms | undefined => (isMap(item.terms) ? (item.terms as LabelTerms) : undefined);

/**
 * A GTIN item as the public view, or undefined for an item that holds none: a receiving
 * organization's reservation of the GTIN while a transferred product moves in (docs/transfers.md).
 */
const viewOf = (item: Record<string, unknown> | undefined): PublicView | undefined => (item && typeof item.productId === 'string' ? toPublicView(item) : undefined);

function toPublicView(item: Record<string, unknown>): PublicView {
  if (typeof item.movedTo === 'string') {
    // A pointer to the product's new owner: no view or passport of its own.
    return { productId: String(item.productId), name: '', category: 'wine', gtin: String(item.gtin), qrCodeUrl: '', movedTo: item.movedTo };
  }
  return {
    productId: String(item.productId),
    name: String(item.name),
    category: item.category as Category,
    gtin: String(item.gtin),
    qrCodeUrl: String(item.qrCodeUrl),
    ...(item.passport ? { passport: passportFromItem(item.passport as Record<string, unknown>) } : {}),
    ...(item.withdrawn === true ? { withdrawn: true } : {}),
    ...(item.granularity === 'batch' || item.granularity === 'item' || item.granularity === 'model' ? { granularity: item.granularity } : {}),
    ...(isMap(item.labelTerms) ? { labelTerms: item.labelTerms as LabelTerms } : {}),
    ...(typeof item.labelTermSet === 'string' ? { labelTermSet: item.labelTermSet } : {}),
    ...(Array.isArray(item.labelLanguages) ? { labelLanguages: item.labelLanguages.filter(isLang) } : {}),
    ...(typeof item.reservedBy === 'string' ? { reservedBy: item.reservedBy } : {}),
  };
}

/** A version's page item (as the table's stream brings it) as its pages read it; undefined without its passport version. */
export function versionPageFromItem(item: Record<string, unknown>): (PublicView & { passport: PassportVersion }) | undefined {
  const page = toPublicView(item);
  return page.passport ? { ...page, passport: page.passport } : undefined;
}

/** Who claims a hostname, and whether the claim is verified. */
export interface HostnameClaim {
  orgId: string;
  domainId: string;
  status: 'pending' | 'verified';
}

export interface PublicReads {
  /** The public view of a GTIN, in one read: the resolver's whole data access for a scan. */
  getPublicView(tenant: Tenant, gtin14: string): Promise<PublicView | undefined>;
  /**
   * One published version of a GTIN with the product's public fields as they were when it was
   * published: what the version's immutable pages show. One GetItem; versions published before the
   * page items existed have none, and are read from the GTIN item (the current version, with the
   * current public fields) and, for an older version, its version item.
   */
  getVersionPage(tenant: Tenant, gtin14: string, version: number): Promise<(PublicView & { passport: PassportVersion }) | undefined>;
  getPassportVersion(tenant: Tenant, productId: string, version: number): Promise<PassportVersion | undefined>;
  /**
   * A set of corrections of legal terms by its digest (a version page's `labelTermSet`; one GetItem
   * of at most MAX_TERM_OVERRIDES_BYTES of texts): docs/labelling.md#correcting-a-term.
   */
  getLabelTermSet(tenant: Tenant, digest: string): Promise<LabelTerms | undefined>;
  /** The claim on a hostname (one GetItem): which organization's domain it is, and whether it is verified. */
  findDomainByHostname(hostname: string): Promise<HostnameClaim | undefined>;
  /**
   * A scan of a Digital Link that names a lot or a serial: the GTIN's public view and the batch and
   * item it names, in one BatchGetItem (docs/resolver.md#batches-and-items).
   */
  getScanView(tenant: Tenant, gtin14: string, named: { lot?: string; serial?: string }): Promise<ScanView>;
  /**
   * A batch's or item's immutable page: the passport version's page and the record's version, in one
   * BatchGetItem of the page, the record and its archived version (a version published before page
   * items existed is read as getVersionPage reads it, with more calls).
   */
  getUnitPage(tenant: Tenant, gtin14: string, version: number, ref: UnitPageRef): Promise<{ page: PublicView & { passport: PassportVersion }; unit: UnitRecord } | undefined>;
}

/** What a scan of a lot or serial reads: the GTIN's view, and the batch and item as stored (absent when not registered). */
export interface ScanView {
  view?: PublicView;
  batch?: UnitRecord;
  item?: UnitRecord;
}

const unitSkOf = (kind: UnitKind, gtin14: string, value: string): string => (kind === 'batch' ? batchSk(gtin14, value) : itemSk(gtin14, value));

export function publicReads(getItem: GetItem, batchGetItems?: BatchGetItems): PublicReads {
  // Without a batch read (the API functions, which never serve scans), the same keys one GetItem each.
  const batchGet: BatchGetItems =
    batchGetItems ?? (async (keys) => (await Promise.all(keys.map(getItem))).flatMap((item, i) => (item ? [{ ...item, ...keys[i] }] : [])));
  /** The item of `key` among a batch read's answer (which comes in any order). */
  const find = (items: readonly Record<string, unknown>[], key: ItemKey) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const getPublicView = async (tenant: Tenant, gtin14: string) => {
    return viewOf(await getItem({ PK: tenantPk(tenant), SK: gtinSk(gtin14) }));
  };
  const getPassportVersion = async (tenant: Tenant, productId: string, version: number) => {
    const item = await getItem({ PK: tenantPk(tenant), SK: passportVersionSk(productId, version) });
    return item ? passportFromItem(item) : undefined;
  };
  const getVersionPage: PublicReads['getVersionPage'] = async (tenant, gtin14, version) => {
    const item = await getItem({ PK: tenantPk(tenant), SK: versionPageSk(gtin14, version) });
    if (item) return versionPageFromItem(item);
    const view = await getPublicView(tenant, gtin14);
    const current = view?.passport;
    if (!view || !current || version > current.version) return undefined;
    const passport = version === current.version ? current : await getPassportVersion(tenant, view.productId, version);
    return passport ? { ...view, passport } : undefined;
  };
  return {
    getPublicView,
    getPassportVersion,
    getVersionPage,
    async getScanView(tenant, gtin14, named) {
      const pk = tenantPk(tenant);
      const gtinKey = { PK: pk, SK: gtinSk(gtin14) };
      const batchKey = named.lot === undefined ? undefined : { PK: pk, SK: batchSk(gtin14, named.lot) };
      const itemKey = named.serial === undefined ? undefined : { PK: pk, SK: itemSk(gtin14, named.serial) };
      const items = await batchGet([gtinKey, ...(batchKey ? [batchKey] : []), ...(itemKey ? [itemKey] : [])]);
      const view = viewOf(find(items, gtinKey));
      const batch = batchKey ? unitFromItem(find(items, batchKey), 'batch') : undefined;
      const item = itemKey ? unitFromItem(find(items, itemKey), 'item') : undefined;
      return { ...(view ? { view } : {}), ...(batch ? { batch } : {}), ...(item ? { item } : {}) };
    },
    async getUnitPage(tenant, gtin14, version, ref) {
      const pk = tenantPk(tenant);
      const pageKey = { PK: pk, SK: versionPageSk(gtin14, version) };
      const currentKey = { PK: pk, SK: unitSkOf(ref.kind, gtin14, ref.value) };
      const archivedKey = { PK: pk, SK: ref.kind === 'batch' ? batchVersionSk(gtin14, ref.value, ref.unitVersion) : itemVersionSk(gtin14, ref.value, ref.unitVersion) };
      const items = await batchGet([pageKey, currentKey, archivedKey]);
      const current = unitFromItem(find(items, currentKey), ref.kind);
      const unit = current?.version === ref.unitVersion ? current : unitFromItem(find(items, archivedKey), ref.kind);
      if (!unit || unit.version !== ref.unitVersion || unit.gtin !== gtin14) return undefined;
      const pageItem = find(items, pageKey);
      const page = (pageItem && versionPageFromItem(pageItem)) ?? (await getVersionPage(tenant, gtin14, version));
      return page ? { page, unit } : undefined;
    },
    async getLabelTermSet(tenant, digest) {
      const item = await getItem({ PK: tenantPk(tenant), SK: labelTermSnapshotSk(digest) });
      return item && labelTermsFromItem(item);
    },
    async findDomainByHostname(hostname) {
      const item = await getItem(hostnameClaimKey(hostname));
      if (!item || typeof item.orgId !== 'string' || typeof item.domainId !== 'string') return undefined;
      return { orgId: item.orgId, domainId: item.domainId, status: item.status === 'verified' ? 'verified' : 'pending' };
    },
  };
}
