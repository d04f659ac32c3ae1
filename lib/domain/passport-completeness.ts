import * as z from 'zod';
import { ACCESS_TIERS } from './battery/access-tiers.ts';
import { BATTERY_CATEGORIES, type BatteryCategory } from './battery/categories.ts';
import { completeness, ELEMENTS, type ElementCompleteness } from './battery/elements.ts';
import type { IsoDate } from './battery/element-map.ts';
import { CATEGORIES, type Category } from './enums.ts';
import type { ProductGranularity } from './import-columns.ts';
import { passportKindOf } from './passport-kinds.ts';

/**
 * A passport's completeness report (docs/battery.md#completeness-and-publishing): for a battery
 * passport, each element of the element map present or missing and whether the regulation requires
 * it of the battery's category on the day judged; publishing refuses exactly `missingMandatory`.
 * Other passports have no element map: their report lists what publishing would refuse as missing
 * (a wine's nutrition declaration) and no elements.
 */

/** `GET …/passport/completeness`: the draft instead of the current version, and the day to judge on. */
export const completenessQuerySchema = z.strictObject({
  draft: z
    .enum(['true', 'false'], { error: 'draft must be true or false.' })
    .optional()
    .describe('true: the report for the product\'s draft (404 when it has none) instead of its current version'),
  asOf: z.iso
    .date({ error: 'asOf must be a day such as 2027-02-18.' })
    .optional()
    .describe('The day to judge on (YYYY-MM-DD); default today (UTC). The obligations of a battery passport start on 18 February 2027 and later for some elements (docs/battery.md#dates)'),
});

/** `POST /v1/passports` and `POST …/draft/publish`: a later day to judge a battery passport on. */
export const publishQuerySchema = z.strictObject({
  asOf: z.iso
    .date({ error: 'asOf must be a day such as 2027-02-18.' })
    .optional()
    .describe(
      'Battery passports only: judge the passport on this day\'s obligations when it is later than today (UTC), e.g. the day the model\'s first batteries are placed on the market; a day before today counts as today. Ignored for other categories',
    ),
});

/**
 * `force=true`: register a live battery item although its model's QR code is on the platform's host,
 * not on a verified brand domain of the organization (docs/brand-domains.md#battery-items).
 */
export const forceQueryParam = z
  .enum(['true', 'false'], { error: 'force must be true or false.' })
  .optional()
  .describe(
    'Battery items in the live environment only: true registers the battery although its model\'s QR code is on the platform\'s host rather than on a verified brand domain of the organization (409 conflict otherwise; docs/brand-domains.md#battery-items). Ignored for other categories and in the test environment',
  );

/** `PUT …/items/{serial}`: the day to judge a battery on, and `force`. */
export const putItemQuerySchema = publishQuerySchema.extend({ force: forceQueryParam });

const SOURCES = ['passport', 'draft'] as const;
const LEVELS = ['model', 'item', 'all'] as const;
const STATUSES = ['present', 'missing'] as const;

export const completenessElementSchema = z
  .object({
    path: z.string().describe('Where the element is in the request, as a refusal\'s param names it: data.labeling.declarationOfConformity'),
    name: z.string().describe('The element in English'),
    annexXIII: z.string().nullable().describe('The point of Annex XIII of Regulation (EU) 2023/1542 it comes from, e.g. 1(r); null for an element the Annex does not list'),
    tier: z.enum(ACCESS_TIERS).describe('Who may read it (Art. 77(2)): public, legitimate_interest or authority (docs/battery.md#audiences)'),
    level: z.enum(['model', 'item']).describe('model: the passport version holds it; item: each battery holds its own'),
    status: z.enum(STATUSES),
    mandatory: z.boolean().describe('The regulation requires it of this battery category on the day judged'),
  })
  .meta({ id: 'CompletenessElement' });
export type CompletenessElement = z.infer<typeof completenessElementSchema>;

export const completenessReportSchema = z
  .object({
    productId: z.uuid(),
    category: z.enum(CATEGORIES),
    source: z.enum(SOURCES).describe('passport: the current version (or the one just published); draft: the product\'s draft'),
    version: z.int().min(1).nullable().describe('The version judged; null for a draft'),
    asOf: z.iso.date().describe('The day judged on'),
    batteryCategory: z
      .enum(BATTERY_CATEGORIES)
      .nullable()
      .describe(
        'Battery passports: data.generalProductInformation.batteryCategory. When it is missing, an element is mandatory only if it is mandatory for every category on that day (and the category itself is missing). null for other passports',
      ),
    level: z
      .enum(LEVELS)
      .nullable()
      .describe("Battery passports: the elements judged. model (the product's granularity model or batch: the version holds the model's data, each battery its own), all (granularity item: the version is one battery's passport). null for other passports"),
    complete: z.boolean().describe('Nothing mandatory is missing: publishing refuses nothing for completeness'),
    missingMandatory: z.array(z.string()).describe('What publishing refuses as missing, as the 422\'s params name it (data.labeling.declarationOfConformity; for a wine, e.g. data.nutrition.saltG)'),
    elements: z.array(completenessElementSchema).describe('Battery passports: every element judged, in the order of the element map (docs/battery.md#the-element-map); empty for other passports'),
  })
  .meta({ id: 'PassportCompleteness' });
export type CompletenessReport = z.infer<typeof completenessReportSchema>;

/** The day (UTC) of an instant, YYYY-MM-DD. */
export const dayOf = (instant: Date = new Date()): IsoDate => instant.toISOString().slice(0, 10);

/** The day publishing judges a battery passport on: today, or `asOf` when it is later. */
export const publishDay = (asOf: IsoDate | undefined, today: IsoDate = dayOf()): IsoDate => (asOf !== undefined && asOf > today ? asOf : today);

/** The elements a product's version is judged on: one battery's passport (granularity item) holds them all, a model's passport the model's. */
export const levelOf = (granularity: ProductGranularity | undefined): 'model' | 'all' => (granularity === 'item' ? 'all' : 'model');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The battery category the data states, if it states one of the four. */
export function batteryCategoryOf(data: unknown): BatteryCategory | undefined {
  const general = isRecord(data) ? data.generalProductInformation : undefined;
  const value = isRecord(general) ? general.batteryCategory : undefined;
  return typeof value === 'string' && (BATTERY_CATEGORIES as readonly string[]).includes(value) ? (value as BatteryCategory) : undefined;
}

const annexPoint = (path: string): string | null => {
  const point = ELEMENTS.find((element) => element.path === path)?.annexXIII;
  return point ? `${point.point}${point.letter ? `(${point.letter})` : ''}` : null;
};

/**
 * The battery part of a report: each element of `level` present or missing, and mandatory for the
 * data's battery category on `asOf`. Without a category, an element counts as mandatory only when
 * every category must have it that day: whatever the category turns out to be, it is missing.
 */
export function batteryCompleteness(data: unknown, { asOf, granularity }: { asOf: IsoDate; granularity: ProductGranularity | undefined }) {
  const level = levelOf(granularity);
  const batteryCategory = batteryCategoryOf(data);
  const reports = (batteryCategory ? [batteryCategory] : BATTERY_CATEGORIES).map((category) => completeness(data, { batteryCategory: category, on: asOf, level }));
  const byPath = new Map<string, ElementCompleteness>();
  for (const report of reports) {
    for (const element of report.elements) {
      const seen = byPath.get(element.path);
      byPath.set(element.path, seen ? { ...seen, mandatory: seen.mandatory && element.mandatory } : element);
    }
  }
  const elements: CompletenessElement[] = ELEMENTS.filter((element) => byPath.has(element.path)).map((element) => {
    const judged = byPath.get(element.path) as ElementCompleteness;
    return {
      path: `data.${element.path}`,
      name: element.name,
      annexXIII: annexPoint(element.path),
      tier: element.tier,
      level: element.level,
      status: judged.status,
      mandatory: judged.mandatory,
    };
  });
  const missingMandatory = elements.filter((element) => element.mandatory && element.status === 'missing').map((element) => element.path);
  return { batteryCategory: batteryCategory ?? null, level, elements, missingMandatory };
}

export interface ReportSubject {
  product: { productId: string; category: Category; granularity?: ProductGranularity };
  source: 'passport' | 'draft';
  version: number | null;
  data: unknown;
  asOf: IsoDate;
  /** What publishing other passports would refuse as missing, as `data.…` paths (lib/domain/draft.ts draftMissing). */
  generalMissing: () => string[];
}

/** The report of a version or draft, battery or not. */
export function completenessReport({ product, source, version, data, asOf, generalMissing }: ReportSubject): CompletenessReport {
  const head = { productId: product.productId, category: product.category, source, version, asOf };
  if (passportKindOf(product.category) === 'battery') {
    const battery = batteryCompleteness(data, { asOf, granularity: product.granularity });
    return { ...head, ...battery, complete: battery.missingMandatory.length === 0 };
  }
  const missingMandatory = generalMissing();
  return { ...head, batteryCategory: null, level: null, complete: missingMandatory.length === 0, missingMandatory, elements: [] };
}
