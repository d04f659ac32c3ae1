import { getProduct } from '../data/products.ts';
import { getPassportVersion, insertPassportVersion } from '../data/passports.ts';
import { eventPut } from '../data/events.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { canonicalJson } from '../domain/json.ts';
import { energyMismatch, energyMismatchMessage, withComputedEnergy } from '../domain/nutrition.ts';
import { toPassportView } from '../domain/passport-view.ts';
import { nextPassportVersion } from '../domain/passport-version.ts';
import type { PassportVersion, PassportData } from '../domain/passport.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { TransactItem } from '../data/webhook-deliveries.ts';
import { NotFoundError, ValidationError } from '../http/errors.ts';

const MAX_ATTEMPTS = 50;

export interface PublishResult {
  passport: PassportVersion;
  duplicate: boolean;
  stale?: boolean;
}

export interface PublishOptions {
  /** Who publishes: the `passport.published` event, written in the version's own transaction, names them. */
  origin: Origin;
  /** Data equal to the current version's is not published again: the current version comes back as a duplicate. */
  unlessCurrent: boolean;
  /** Items written in the version's own transaction (a delivery's ledger entry, a watermark). */
  also?: (current: ProductRecord, passport: PassportVersion) => TransactItem[];
  /** After a lost race, before retrying: an answer that settles the publication instead (it may throw). */
  settle?: (current: ProductRecord) => Promise<PublishResult | undefined>;
}

/**
 * Publishes `data` as the product's next version (n + 1). Concurrent publishers retry on a fresh
 * read until each gets its own version, so versions have no gaps and no duplicates. With
 * `unlessCurrent`, data equal to the current version's is not published again: the current version
 * comes back as a duplicate (and of two concurrent callers with the same data, the one that loses
 * the race finds its data already current). Nutrition without energy gets it computed first
 * (docs/labelling.md#energy-and-rounding).
 */
export async function publishVersion(tenant: Tenant, product: ProductRecord, given: PassportData, options: PublishOptions): Promise<PublishResult> {
  checkEnergy(given);
  const data = withComputedEnergy(given);
  const wanted = options.unlessCurrent ? canonicalJson(data) : undefined;
  let current: ProductRecord | undefined = product;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && current; attempt++) {
    if (wanted !== undefined && current.passportVersion) {
      const latest = await getPassportVersion(tenant, current.productId, current.passportVersion);
      if (latest && canonicalJson(latest.data) === wanted) return { passport: latest, duplicate: true };
    }
    const passport = nextPassportVersion(current, data);
    const event = newEvent('passport.published', toPassportView(current, passport), options.origin, passport.publishedAt);
    const also = [...(options.also?.(current, passport) ?? []), eventPut(tenant, event)];
    if ((await insertPassportVersion(tenant, current, passport, also)) === 'created') return { passport, duplicate: false };
    const settled = await options.settle?.(current);
    if (settled) return settled;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * attempt)));
    current = await getProduct(tenant, product.productId, true);
  }
  if (!current) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
  throw new Error(`Could not publish a passport version for ${product.productId} after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Refuses (422) a declared energy that disagrees clearly with what the nutrients give: more than
 * 20 % and 10 kJ apart (docs/labelling.md#energy-and-rounding). A rule across fields, so it is
 * checked here rather than in the schema; `prefix` is where the data sits in the request.
 */
export function checkEnergy(data: Pick<PassportData, 'nutrition' | 'productType'>, prefix = 'data'): void {
  const mismatch = data.nutrition && energyMismatch(data.nutrition, data.productType);
  if (!mismatch) return;
  const { message, suggestion } = energyMismatchMessage(mismatch);
  throw new ValidationError(message, `${prefix ? `${prefix}.` : ''}nutrition.${mismatch.field}`, suggestion);
}

export const publishPassport = async (tenant: Tenant, product: ProductRecord, data: PassportData, origin: Origin): Promise<PassportVersion> =>
  (await publishVersion(tenant, product, data, { unlessCurrent: false, origin })).passport;
