import type { LabelTerms } from '../domain/labelling-term.ts';
import type { PassportData, PassportVersion } from '../domain/passport.ts';
import type { Category } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { gtinSk, hostnameClaimKey, passportVersionSk, tenantPk, versionPageSk, type ItemKey } from './keys.ts';

/**
 * The reads behind a public page: a GTIN's public view, a version's page, a hostname's claim. The
 * logic is written once over a `GetItem` function, so that the resolver can run it on the small
 * AWS JSON client (lib/data/scan-reads.ts) and the API on the SDK's document client
 * (lib/data/passports.ts, lib/data/domains.ts): docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk.
 */

/** Reads one item by its key (an eventually consistent GetItem); undefined when there is none. */
export type GetItem = (key: ItemKey) => Promise<Record<string, unknown> | undefined>;

/** A passport version item (or the copy of one on a GTIN or page item) as the domain type. */
export function passportFromItem(item: Record<string, unknown>): PassportVersion {
  return {
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
  /** A version page's corrections of legal terms, as the organization had them when the version was published (docs/labelling.md#correcting-a-term). */
  labelTerms?: LabelTerms;
}

function toPublicView(item: Record<string, unknown>): PublicView {
  return {
    productId: String(item.productId),
    name: String(item.name),
    category: item.category as Category,
    gtin: String(item.gtin),
    qrCodeUrl: String(item.qrCodeUrl),
    ...(item.passport ? { passport: passportFromItem(item.passport as Record<string, unknown>) } : {}),
    ...(item.withdrawn === true ? { withdrawn: true } : {}),
    ...(typeof item.labelTerms === 'object' && item.labelTerms !== null && !Array.isArray(item.labelTerms) ? { labelTerms: item.labelTerms as LabelTerms } : {}),
  };
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
  /** The claim on a hostname (one GetItem): which organization's domain it is, and whether it is verified. */
  findDomainByHostname(hostname: string): Promise<HostnameClaim | undefined>;
}

export function publicReads(getItem: GetItem): PublicReads {
  const getPublicView = async (tenant: Tenant, gtin14: string) => {
    const item = await getItem({ PK: tenantPk(tenant), SK: gtinSk(gtin14) });
    return item ? toPublicView(item) : undefined;
  };
  const getPassportVersion = async (tenant: Tenant, productId: string, version: number) => {
    const item = await getItem({ PK: tenantPk(tenant), SK: passportVersionSk(productId, version) });
    return item ? passportFromItem(item) : undefined;
  };
  return {
    getPublicView,
    getPassportVersion,
    async getVersionPage(tenant, gtin14, version) {
      const item = await getItem({ PK: tenantPk(tenant), SK: versionPageSk(gtin14, version) });
      if (item) {
        const page = toPublicView(item);
        return page.passport ? { ...page, passport: page.passport } : undefined;
      }
      const view = await getPublicView(tenant, gtin14);
      const current = view?.passport;
      if (!view || !current || version > current.version) return undefined;
      const passport = version === current.version ? current : await getPassportVersion(tenant, view.productId, version);
      return passport ? { ...view, passport } : undefined;
    },
    async findDomainByHostname(hostname) {
      const item = await getItem(hostnameClaimKey(hostname));
      if (!item || typeof item.orgId !== 'string' || typeof item.domainId !== 'string') return undefined;
      return { orgId: item.orgId, domainId: item.domainId, status: item.status === 'verified' ? 'verified' : 'pending' };
    },
  };
}
