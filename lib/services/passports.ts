import { getProduct } from '../data/products.ts';
import { getPassportVersion, insertPassportVersion, largestVersionItemBytes } from '../data/passports.ts';
import { listUnits } from '../data/items.ts';
import { MAX_PUBLISHED_ITEM_BYTES } from '../data/item-size.ts';
import { eventPut } from '../data/events.ts';
import { labelTermsForPages } from '../data/labelling-terms.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { canonicalJson } from '../domain/json.ts';
import { missingDeclaration, withComputedEnergy } from '../domain/nutrition.ts';
import { allergenRefusal, nutritionRefusal, type Refusal } from '../domain/passport-rules.ts';
import { toPassportView } from '../domain/passport-view.ts';
import { nextPassportVersion } from '../domain/passport-version.ts';
import { passportDataSchemaFor, passportKindMismatch, WINE_FISH_MESSAGE, wineDeclaresFish, type PassportVersion, type PassportData } from '../domain/passport.ts';
import { batteryCompleteness, completenessReport, judgedOnWords, publishJudgedOn, type CompletenessReport } from '../domain/passport-completeness.ts';
import { passportKindOf } from '../domain/passport-kinds.ts';
import { isWine } from '../domain/wine.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { TransactItem } from '../data/webhook-deliveries.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorBody } from '../http/errors.ts';
import { modelIdentifier, registrationWrites, registrySettingsForPublishing } from './registrations.ts';
import { parseOrThrow } from '../http/validation.ts';

const MAX_ATTEMPTS = 50;

export interface PublishResult {
  passport: PassportVersion;
  duplicate: boolean;
  stale?: boolean;
  /** A battery passport's completeness report, as judged when it was published (docs/battery.md#completeness-and-publishing). */
  completeness?: CompletenessReport;
}

export interface PublishOptions {
  /** Who publishes: the `passport.published` event, written in the version's own transaction, names them. */
  origin: Origin;
  /** Data equal to the current version's is not published again: the current version comes back as a duplicate. */
  unlessCurrent: boolean;
  /** Items written in the version's own transaction (a delivery's ledger entry, a watermark). */
  also?: (current: ProductRecord, passport: PassportVersion) => TransactItem[];
  /** The version publishes the product's draft: the product's hasDraft mark goes in the same write (docs/dashboard.md#passport-status). */
  clearsDraft?: boolean;
  /** After a lost race, before retrying: an answer that settles the publication instead (it may throw). */
  settle?: (current: ProductRecord) => Promise<PublishResult | undefined>;
  /** A battery passport is judged on this day's obligations when it is later than today (`?asOf=`, docs/battery.md#completeness-and-publishing). */
  asOf?: string;
}

/**
 * A battery passport that lacks elements the regulation requires on the day judged: a 422 whose
 * `param` names the first and `params` every one, as `data.…` paths in the element map's order.
 */
export class MissingElementsError extends ValidationError {
  constructor(readonly missing: readonly string[], description: string) {
    super(
      `The battery passport lacks ${missing.length === 1 ? 'an element' : `${missing.length} elements`} mandatory for ${description}: ${missing.join(', ')}.`,
      missing[0] ?? 'data',
      'Add them and publish again; GET /v1/products/{productId}/passport/completeness?draft=true reports a draft element by element (docs/battery.md#completeness-and-publishing).',
    );
  }

  override toBody(): ErrorBody {
    const error = { ...super.toBody().error, params: [...this.missing] };
    return { error };
  }
}

/**
 * Refuses (422 naming `data`) data of the other kind than the product's category takes, then
 * validates it against its kind's schema (lib/domain/passport-kinds.ts): a 422 naming the field.
 * `prefix` is where the data sits in the request.
 */
export function validatePassportData(product: Pick<ProductRecord, 'category'>, data: unknown, prefix = 'data'): PassportData {
  checkPassportKind(product, data, prefix);
  return parseOrThrow(passportDataSchemaFor(product.category), data, prefix ? [prefix] : []);
}

/** A 422 naming `data` when the data is of the other kind than the product's category takes. */
export function checkPassportKind(product: Pick<ProductRecord, 'category'>, data: unknown, prefix = 'data'): void {
  const mismatch = passportKindMismatch(product.category, data);
  if (mismatch) throw new ValidationError(mismatch.message, prefix || 'data', mismatch.suggestion);
}

/**
 * Refuses (MissingElementsError) a battery passport that lacks an element mandatory for its battery
 * category on `asOf` (docs/battery.md#completeness-and-publishing); nothing else of the report
 * refuses it. A passport without a battery category is held to what every category must have.
 */
export function checkBatteryCompleteness(product: Pick<ProductRecord, 'granularity'>, data: PassportData, asOf: string, why?: string): void {
  const report = batteryCompleteness(data, { asOf, granularity: product.granularity });
  if (report.missingMandatory.length === 0) return;
  const category = report.batteryCategory ? `${/^[aeiou]/.test(report.batteryCategory) ? 'an' : 'a'} ${report.batteryCategory} battery` : 'every battery category';
  throw new MissingElementsError(report.missingMandatory, `${category} on ${asOf}${why ? ` (${why})` : ''}`);
}

const batteryCategoryIn = (data: unknown): unknown => ((data as { generalProductInformation?: { batteryCategory?: unknown } } | undefined)?.generalProductInformation ?? {}).batteryCategory;

/**
 * Refuses (409 naming `data.generalProductInformation.batteryCategory`) a version that changes the
 * battery category of a model that already has batteries: each battery's passport is read through
 * the model's current version, so the change would relabel every one of them
 * (docs/battery.md#model-and-item). One read of the current version, and only when the category
 * changes, one Query of at most one item.
 */
async function checkCategoryFixed(tenant: Tenant, product: ProductRecord, given: PassportData): Promise<void> {
  if (!product.passportVersion) return;
  const current = await getPassportVersion(tenant, product.productId, product.passportVersion);
  const before = batteryCategoryIn(current?.data);
  const after = batteryCategoryIn(given);
  if (before === undefined || before === after) return;
  const { units } = await listUnits(tenant, 'item', product.gtin, 1);
  if (units.length === 0) return;
  throw new ConflictError(
    `data.generalProductInformation.batteryCategory cannot change from '${String(before)}' to '${String(after)}': this model already has batteries registered (item ${units[0]?.serial ?? ''}), whose passports would all change category.`,
    {
      param: 'data.generalProductInformation.batteryCategory',
      suggestion: `Publish the data with batteryCategory '${String(before)}', or create another product for the other category.`,
    },
  );
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
  checkPassportKind(product, given);
  // A battery passport (docs/battery.md#completeness-and-publishing): judged on its mandatory elements, answered with its report; no legal terms on its pages.
  // Without asOf it is judged on the later of today and the day the passport becomes mandatory (docs/battery.md#the-day-judged).
  const judgedOn = passportKindOf(product.category) === 'battery' ? publishJudgedOn(options.asOf, { data: given, granularity: product.granularity }) : undefined;
  const battery = judgedOn ? { asOf: judgedOn.day, judgedOn } : undefined;
  if (battery) {
    checkBatteryCompleteness(product, given, battery.asOf, judgedOnWords(battery.judgedOn));
    await checkCategoryFixed(tenant, product, given);
  } else checkGeneralPassport(given, product.category);
  const data = battery ? given : withComputedEnergy(given, product.category);
  const wanted = options.unlessCurrent ? canonicalJson(data) : undefined;
  // The organization's corrections of legal terms, fixed into the version's pages by their set's digest (docs/labelling.md#correcting-a-term).
  const labelTermSet = battery ? undefined : await labelTermsForPages(tenant);
  // The EU registry (docs/registry.md#registrations): when the tenant's settings are enabled, the model's registration joins the version's transaction.
  const registry = await registrySettingsForPublishing(tenant);
  const completeness = (passport: PassportVersion) =>
    battery && { completeness: completenessReport({ product, source: 'passport', version: passport.version, data: passport.data, asOf: battery.asOf, judgedOn: battery.judgedOn, generalMissing: () => [] }) };
  let current: ProductRecord | undefined = product;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && current; attempt++) {
    if (wanted !== undefined && current.passportVersion) {
      const latest = await getPassportVersion(tenant, current.productId, current.passportVersion);
      if (latest && canonicalJson(latest.data) === wanted) return { passport: latest, duplicate: true, ...completeness(latest) };
    }
    const passport = nextPassportVersion(current, data);
    // The largest item the version writes must fit DynamoDB's (lib/data/item-size.ts): a 422, never a 500.
    const bytes = largestVersionItemBytes(tenant, current, passport, labelTermSet);
    if (bytes > MAX_PUBLISHED_ITEM_BYTES) {
      throw new ValidationError(
        `data is too large to publish: the version's stored item would take ${bytes.toLocaleString('en')} bytes, over the ${MAX_PUBLISHED_ITEM_BYTES.toLocaleString('en')} bytes a published version may take.`,
        'data',
        'Shorten the passport data (free texts, translations of ingredients).',
      );
    }
    const event = newEvent('passport.published', toPassportView(current, passport), options.origin, passport.publishedAt);
    const also = [...(options.also?.(current, passport) ?? []), eventPut(tenant, event), ...registrationWrites(tenant, registry, [modelIdentifier(tenant, current, passport.version)], passport.publishedAt)];
    if ((await insertPassportVersion(tenant, current, passport, also, labelTermSet, options.clearsDraft === true)) === 'created') return { passport, duplicate: false, ...completeness(passport) };
    const settled = await options.settle?.(current);
    if (settled) return settled;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * attempt)));
    current = await getProduct(tenant, product.productId, true);
  }
  if (!current) throw new NotFoundError(`No product with id '${product.productId}'.`, { param: 'productId' });
  throw new Error(`Could not publish a passport version for ${product.productId} after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Every rule a wine or food passport must pass to be published, beyond its schema (each below):
 * the figures (checkNutrition), a wine's fish flag, the allergens (checkAllergens) and a wine's
 * complete declaration (checkDeclaration, read with the energy computed). `category` is the
 * product's: with productType it says whether the product is a wine (lib/domain/wine.ts).
 * Publishing makes them on every way in; a webhook delivery makes them before it writes anything.
 */
export function checkGeneralPassport(data: PassportData, category: string | undefined, prefix = 'data'): void {
  const at = (path: string) => `${prefix ? `${prefix}.` : ''}${path}`;
  checkNutrition(data, prefix, category);
  if (wineDeclaresFish(data, category, data.productType)) throw new ValidationError(WINE_FISH_MESSAGE, at('allergens.containsFish'));
  checkAllergens(data, category, prefix);
  checkDeclaration(withComputedEnergy(data, category), prefix, category);
}

/** Throws a refusal of lib/domain/passport-rules.ts as the 422 it is. */
function refuse(refusal: Refusal | undefined): void {
  if (refusal) throw new ValidationError(refusal.message, refusal.param, refusal.suggestion);
}

/**
 * The checks of passport data across fields that the schema does not make (lib/domain/passport-rules.ts
 * nutritionRefusal: the energy disagreement, negligible amounts, an "of which" row without its
 * nutrient, the strength's decimals and a wine's half units); `category` is the product's, when
 * known. Publishing and saving a draft make them.
 */
export function checkNutrition(data: Pick<PassportData, 'nutrition' | 'productType' | 'alcoholByVolume'>, prefix = 'data', category?: string): void {
  refuse(nutritionRefusal(data, prefix, category));
}

/**
 * Refuses (422) data naming a vocabulary ingredient that carries an allergen whose flag is not set
 * (docs/labelling.md#allergens-follow-the-ingredients), and for a wine free text naming a source of
 * an allergen without its term or a flag that no ingredient carries (lib/domain/passport-rules.ts
 * allergenRefusal). Publishing checks them, like a wine's fish flag; drafts are not checked (they
 * are saved as they are). `prefix` is where the data sits, or a function naming a path as the
 * client knows it (a webhook's payload).
 */
export function checkAllergens(data: Pick<PassportData, 'ingredients' | 'allergens' | 'productType' | 'labelLanguage'>, category?: string, prefix: string | ((path: string) => string) = 'data'): void {
  refuse(allergenRefusal(data, category, prefix));
}

/**
 * Refuses (422) to publish a wine passport (the product's category or the data's productType,
 * lib/domain/wine.ts) whose nutrition declaration is incomplete: Regulation (EU) No 1308/2013
 * Art. 119 (as amended by 2021/2117) makes the full Art. 30(1) declaration of Regulation (EU) No
 * 1169/2011 mandatory for wine. Names the first missing field
 * (`data.nutrition` when there is none). Read on the data as stored (energy computed), so energy
 * the nutrients give counts; a nutrient listed in `negligible` is not missing. Drafts are not
 * checked (they may be incomplete; their read form lists what is missing).
 */
export function checkDeclaration(data: Pick<PassportData, 'nutrition' | 'productType'>, prefix = 'data', category?: string): void {
  const missing = missingDeclaration(data.nutrition, isWine(category, data.productType));
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
