import { getProduct } from '../data/products.ts';
import { getPassportVersion, insertPassportVersion } from '../data/passports.ts';
import { eventPut } from '../data/events.ts';
import { labelTermsForPages } from '../data/labelling-terms.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { canonicalJson } from '../domain/json.ts';
import { energyMismatch, energyMismatchMessage, hasAtMostOneDecimal, missingDeclaration, NEGLIGIBLE_FIELD, negligibleConflicts, withComputedEnergy } from '../domain/nutrition.ts';
import { toPassportView } from '../domain/passport-view.ts';
import { nextPassportVersion } from '../domain/passport-version.ts';
import { WINE_FISH_MESSAGE, wineDeclaresFish, type PassportVersion, type PassportData } from '../domain/passport.ts';
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
 * (docs/labelling.md#energy-and-rounding); a wine's declaration must then be complete
 * (checkDeclaration). Every way of publishing (POST /v1/passports, a draft, a webhook delivery,
 * an import row) comes through here.
 */
export async function publishVersion(tenant: Tenant, product: ProductRecord, given: PassportData, options: PublishOptions): Promise<PublishResult> {
  checkNutrition(given);
  if (wineDeclaresFish(given, product.category, given.productType)) throw new ValidationError(WINE_FISH_MESSAGE, 'data.allergens.containsFish');
  const data = withComputedEnergy(given);
  checkDeclaration(data);
  const wanted = options.unlessCurrent ? canonicalJson(data) : undefined;
  // The organization's corrections of legal terms, fixed into the version's pages (docs/labelling.md#correcting-a-term).
  const labelTerms = await labelTermsForPages(tenant);
  let current: ProductRecord | undefined = product;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && current; attempt++) {
    if (wanted !== undefined && current.passportVersion) {
      const latest = await getPassportVersion(tenant, current.productId, current.passportVersion);
      if (latest && canonicalJson(latest.data) === wanted) return { passport: latest, duplicate: true };
    }
    const passport = nextPassportVersion(current, data);
    const event = newEvent('passport.published', toPassportView(current, passport), options.origin, passport.publishedAt);
    const also = [...(options.also?.(current, passport) ?? []), eventPut(tenant, event)];
    if ((await insertPassportVersion(tenant, current, passport, also, labelTerms)) === 'created') return { passport, duplicate: false };
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

/**
 * The checks of passport data across fields that the schema does not make (the document states
 * them in words; docs/labelling.md): the energy disagreement (checkEnergy); a nutrient listed in
 * `negligible` twice, or with a value above its threshold (Regulation (EU) No 1169/2011 Art.
 * 34(5); 422 naming the value, e.g. `data.nutrition.fatG`); an `alcoholByVolume` with more than
 * one decimal place (Annex XII). Publishing and saving a draft make them.
 */
export function checkNutrition(data: Pick<PassportData, 'nutrition' | 'productType' | 'alcoholByVolume'>, prefix = 'data'): void {
  const at = (path: string) => `${prefix ? `${prefix}.` : ''}${path}`;
  const negligible = data.nutrition?.negligible ?? [];
  if (new Set(negligible).size !== negligible.length) {
    throw new ValidationError(`${at('nutrition.negligible')} must not list a nutrient twice.`, at('nutrition.negligible'), 'List each nutrient once.');
  }
  const conflict = data.nutrition ? negligibleConflicts(data.nutrition)[0] : undefined;
  if (conflict) {
    throw new ValidationError(
      `${at(`nutrition.${conflict.field}`)} is ${conflict.value} g, above the ${conflict.threshold} g a negligible amount of ${conflict.nutrient} may have.`,
      at(`nutrition.${conflict.field}`),
      `Remove '${conflict.nutrient}' from negligible, or correct ${NEGLIGIBLE_FIELD[conflict.nutrient]}.`,
    );
  }
  if (typeof data.alcoholByVolume === 'number' && !hasAtMostOneDecimal(data.alcoholByVolume)) {
    throw new ValidationError(`${at('alcoholByVolume')} must have at most one decimal place (e.g. 12.5).`, at('alcoholByVolume'), 'Round the strength to one decimal place.');
  }
  checkEnergy(data, prefix);
}

/**
 * Refuses (422) to publish a wine passport whose nutrition declaration is incomplete: Regulation
 * (EU) No 1308/2013 Art. 119 (as amended by 2021/2117) makes the full Art. 30(1) declaration of
 * Regulation (EU) No 1169/2011 mandatory for wine. Names the first missing field
 * (`data.nutrition` when there is none). Read on the data as stored (energy computed), so energy
 * the nutrients give counts; a nutrient listed in `negligible` is not missing. Drafts are not
 * checked (they may be incomplete; their read form lists what is missing).
 */
export function checkDeclaration(data: Pick<PassportData, 'nutrition' | 'productType'>, prefix = 'data'): void {
  const missing = missingDeclaration(data.nutrition, data.productType);
  const first = missing[0];
  if (first === undefined) return;
  const param = `${prefix ? `${prefix}.` : ''}${first}`;
  const list = missing.map((path) => path.replace(/^nutrition\./, '')).join(', ');
  throw new ValidationError(
    first === 'nutrition'
      ? `${param} is required for a wine: the nutrition declaration (energy, fat, saturates, carbohydrate, sugars, protein, salt) is mandatory.`
      : `${param} is required for a wine: the nutrition declaration is incomplete (missing: ${list}).`,
    param,
    first === 'nutrition' || first === 'nutrition.energyKj'
      ? 'Give energy (energyKj or energyKcal, or the nutrients and alcoholG to have it computed), fatG, saturatedFatG, carbohydratesG, sugarsG, proteinG and saltG; list a nutrient in nutrition.negligible instead when its amount is negligible.'
      : 'Give the value, or list the nutrient in nutrition.negligible when its amount is negligible.',
  );
}

export const publishPassport = async (tenant: Tenant, product: ProductRecord, data: PassportData, origin: Origin): Promise<PassportVersion> =>
  (await publishVersion(tenant, product, data, { unlessCurrent: false, origin })).passport;
