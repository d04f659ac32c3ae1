import { findDomainByHostname } from '../data/domains.ts';
import { batteryIdClaimWrites, getBatteryIdClaims, type BatteryIdentifier } from '../data/items.ts';
import { getPassportVersion } from '../data/passports.ts';
import type { TransactItem } from '../data/writes.ts';
import { overlayItemData } from '../domain/battery/overlay.ts';
import { parseGtinPath } from '../domain/digital-link.ts';
import { batteryCompleteness, publishDay } from '../domain/passport-completeness.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitDigitalLink, type UnitContent } from '../domain/unit.ts';
import { ConflictError, DuplicateError, ValidationError, type ErrorBody } from '../http/errors.ts';

/**
 * The individual battery (docs/battery.md#the-individual-battery): its productIdentifier derived
 * from or checked against its GTIN and serial, its two identifiers unique in the organization and
 * environment, and its passport (the model's data with its own laid over it) judged at registration
 * on every element its category requires on the day.
 */

const GENERAL = 'generalProductInformation';
const PRODUCT_IDENTIFIER = `data.${GENERAL}.productIdentifier`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const generalOf = (data: unknown): Json => (isObject(data) && isObject(data[GENERAL]) ? data[GENERAL] : {});

/** Whether `link` is a GS1 Digital Link (on any host) naming this GTIN and serial. */
function namesItem(link: string, gtin14: string, serial: string): boolean {
  let segments: string[];
  try {
    segments = new URL(link).pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return false;
  }
  const at = segments.indexOf('01');
  if (at < 0) return false;
  const parsed = parseGtinPath(segments[at + 1] ?? '', segments.slice(at + 2));
  return parsed.ok && parsed.gtin14 === gtin14 && parsed.qualifiers['21'] === serial;
}

/**
 * The content with its productIdentifier (Regulation (EU) 2023/1542 Art. 77(3), Annex XIII point
 * 4, read in secondary sources): when absent, the item's Digital Link (the item view's
 * `digitalLink`); when given, it must name this GTIN and serial (any host), else 422 naming it.
 */
export function withProductIdentifier(product: Pick<ProductRecord, 'gtin' | 'qrCodeUrl'>, serial: string, content: UnitContent, param = PRODUCT_IDENTIFIER): UnitContent {
  const general = generalOf(content.data);
  const given = general.productIdentifier;
  if (given === undefined) {
    return { ...content, data: { ...content.data, [GENERAL]: { ...general, productIdentifier: unitDigitalLink(product.qrCodeUrl, 'item', serial) } } };
  }
  if (typeof given === 'string' && namesItem(given, product.gtin, serial)) return content;
  throw new ValidationError(
    `${param} must be a Digital Link of this battery, naming GTIN ${product.gtin} and serial '${serial}' (…/01/${product.gtin}/21/${serial}); it names another.`,
    param,
    'Leave productIdentifier out: the service sets it to the battery\'s Digital Link.',
  );
}

/** The identifiers the item's data holds. */
export function identifiersOf(data: unknown): BatteryIdentifier[] {
  const general = generalOf(data);
  return (['productIdentifier', 'batteryPassportIdentifier'] as const).flatMap((field) => (typeof general[field] === 'string' && general[field] !== '' ? [{ field, value: general[field] as string }] : []));
}

/**
 * 409 `duplicate_error` when another battery of the organization and environment holds one of the
 * identifiers (case-insensitively), naming the field and that battery's serial; else the writes that
 * claim them in the item's own transaction (lib/data/items.ts batteryIdClaimWrites).
 */
export async function claimIdentifiers(tenant: Tenant, product: Pick<ProductRecord, 'gtin'>, serial: string, before: unknown, after: unknown, prefix = 'data'): Promise<TransactItem[]> {
  const identifiers = identifiersOf(after);
  const taken = (await getBatteryIdClaims(tenant, identifiers)).find((claim) => claim.gtin !== product.gtin || claim.serial !== serial);
  if (taken) {
    const param = `${prefix}.${GENERAL}.${taken.field}`;
    throw new DuplicateError(`${param} '${taken.value}' is already the ${taken.field} of battery '${taken.serial}' (GTIN ${taken.gtin}): each battery's is its own.`, {
      param,
      suggestion: `Give this battery its own ${taken.field}.`,
    });
  }
  return batteryIdClaimWrites(tenant, { gtin: product.gtin, serial }, identifiersOf(before), identifiers);
}

/** The completeness report of one battery's passport (docs/battery.md#the-individual-battery). */
export type ItemCompleteness = ReturnType<typeof batteryCompleteness> & { asOf: string; complete: boolean };

/** 422 listing every element of the battery's passport missing that its category requires on the day. */
export class IncompleteBatteryError extends ValidationError {
  constructor(readonly missing: readonly string[], asOf: string, category: string | null) {
    super(
      `This battery's passport (the model's current version with the battery's own data) lacks ${missing.length === 1 ? 'an element' : `${missing.length} elements`} mandatory for ${category ? `an ${category} battery`.replace(/^an (?![aeiou])/, 'a ') : 'every battery category'} on ${asOf}: ${missing.join(', ')}.`,
      missing[0] ?? 'data',
      'Give the battery its own elements (identifier, manufacturing date, status, condition), or publish the model\'s missing ones first; ?asOf= judges on a later day (docs/battery.md#the-individual-battery).',
    );
  }

  override toBody(): ErrorBody {
    const error = { ...super.toBody().error, params: [...this.missing] };
    return { error };
  }
}

/** The model's current data (undefined before its first version): what every battery's passport is laid over. */
export async function modelDataOf(tenant: Tenant, product: Pick<ProductRecord, 'productId' | 'passportVersion'>): Promise<unknown> {
  return product.passportVersion ? (await getPassportVersion(tenant, product.productId, product.passportVersion))?.data : undefined;
}

/**
 * Judges one battery's passport: `model` (the model's current data) with `item` laid over it, on
 * every element (`level: all`) its category requires on `asOf` (today, or a later day:
 * docs/battery.md#completeness-and-publishing). The report, or IncompleteBatteryError.
 */
export function judgeBattery(model: unknown, item: Json, asOf: string | undefined): ItemCompleteness {
  const day = publishDay(asOf);
  const view = overlayItemData(isObject(model) ? model : {}, item);
  const report = batteryCompleteness(view, { asOf: day, granularity: 'item' });
  if (report.missingMandatory.length > 0) throw new IncompleteBatteryError(report.missingMandatory, day, report.batteryCategory);
  return { ...report, asOf: day, complete: true };
}

/**
 * A live battery is registered only under its organization's verified brand domain
 * (docs/brand-domains.md#battery-items): the QR code printed on it must resolve for the battery's
 * whole life, and a link on the platform's host ties it to the platform. 409 `conflict` naming
 * `force` when the model's qrCodeUrl is not on a verified domain of the organization, unless `force`;
 * nothing to check in the test environment.
 */
export async function requireBrandHost(tenant: Tenant, product: Pick<ProductRecord, 'qrCodeUrl' | 'formerOwners'>, force: boolean): Promise<void> {
  if (force || tenant.environment !== 'live') return;
  const hostname = new URL(product.qrCodeUrl).hostname.toLowerCase();
  const domain = await findDomainByHostname(hostname);
  if (domain?.orgId === tenant.orgId && domain.status === 'verified') return;
  // A product transferred in keeps its QR code on the brand domain of the organization it came from, which points its scans here (docs/transfers.md#the-printed-qr-codes).
  if (domain?.status === 'verified' && product.formerOwners?.includes(domain.orgId)) return;
  throw new ConflictError(
    `This battery model's QR code is on the platform's host (${hostname}), not on a verified brand domain of yours: a battery's QR code must resolve for its whole life, so a live battery is registered only under your own domain.`,
    {
      param: 'force',
      suggestion: 'Verify a brand domain, make it the default and create the model again (docs/brand-domains.md#battery-items); or pass force=true to register it on the platform\'s host.',
    },
  );
}
