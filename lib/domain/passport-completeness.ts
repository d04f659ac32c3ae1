import * as z from 'zod';
import { ACCESS_TIERS } from './battery/access-tiers.ts';
import { BATTERY_CATEGORIES, PASSPORT_MANDATORY_FROM, type BatteryCategory } from './battery/categories.ts';
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

/**
 * Why a passport is judged on its day (docs/battery.md#the-day-judged): `as_of` the day the request
 * named; `today`; `mandatory_from` 18 February 2027, the day the battery passport becomes mandatory
 * (Regulation (EU) 2023/1542 Art. 77(1)); `placed_on_market` the day the passport says its battery
 * was placed on the market.
 */
export const JUDGED_ON_REASONS = ['as_of', 'today', 'mandatory_from', 'placed_on_market'] as const;
export type JudgedOnReason = (typeof JUDGED_ON_REASONS)[number];

/** `GET …/passport/completeness`: the draft instead of the current version, and the day to judge on. */
export const completenessQuerySchema = z.strictObject({
  draft: z
    .enum(['true', 'false'], { error: 'draft must be true or false.' })
    .optional()
    .describe('true: the report for the product\'s draft (404 when it has none) instead of its current version'),
  asOf: z.iso
    .date({ error: 'asOf must be a day such as 2027-02-18.' })
    .optional()
    .describe(
      'The day to judge on (YYYY-MM-DD), earlier days too, for planning. Default: for a battery passport the later of today (UTC) and 18 February 2027, when the battery passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1)), or the later day the passport says its battery was placed on the market; for other passports today. judgedOn says which (docs/battery.md#the-day-judged)',
    ),
});

/** `POST /v1/passports` and `POST …/draft/publish`: a later day to judge a battery passport on. */
export const publishQuerySchema = z.strictObject({
  asOf: z.iso
    .date({ error: 'asOf must be a day such as 2027-02-18.' })
    .optional()
    .describe(
      'Battery passports only: judge the passport on this day\'s obligations, e.g. the day the model\'s first batteries are placed on the market; a day before today counts as today. Without it a battery passport is judged on the later of today (UTC) and 18 February 2027, when the battery passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1)), or the later day the passport says its battery was placed on the market (docs/battery.md#the-day-judged). Ignored for other categories',
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

/** `PUT …/items/{serial}`: the day to judge a battery on (today by default: docs/battery.md#the-individual-battery), and `force`. */
export const putItemQuerySchema = z.strictObject({
  asOf: z.iso
    .date({ error: 'asOf must be a day such as 2027-02-18.' })
    .optional()
    .describe(
      'Battery items only: judge the battery on this day\'s obligations when it is later than today (UTC), e.g. the day it is placed on the market; a day before today counts as today, and so does no asOf (docs/battery.md#the-individual-battery). Ignored for other categories',
    ),
  force: forceQueryParam,
});

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
    judgedOn: z
      .object({
        reason: z
          .enum(JUDGED_ON_REASONS)
          .describe(
            'Why asOf is the day judged: as_of, the day the request named; today; mandatory_from, 18 February 2027, when the battery passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1)), the default for a battery passport until then; placed_on_market, the later day the passport says its battery was placed on the market (docs/battery.md#the-day-judged)',
          ),
        words: z.string().describe('The same in English words: "judged as on 18 Feb 2027, when the passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1))"'),
      })
      .describe('Why the report judges on asOf'),
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

/** The day a battery item is judged on at registration: today, or `asOf` when it is later (docs/battery.md#the-individual-battery). */
export const publishDay = (asOf: IsoDate | undefined, today: IsoDate = dayOf()): IsoDate => (asOf !== undefined && asOf > today ? asOf : today);

export interface JudgedOn {
  day: IsoDate;
  reason: JudgedOnReason;
}

const isDay = (value: unknown): value is IsoDate => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value);

/** A battery passport as the day it is judged on depends on it: its data and its product's granularity. */
export interface JudgedPassport {
  data: unknown;
  granularity?: ProductGranularity | undefined;
}

/**
 * The day a battery passport says its battery was placed on the market, if it says one: the Battery
 * Pass data model has no such element, so the only statement of it is the measurement taken at the
 * placing on the market (`performanceAndDurability.measuredPerformance`, occasion
 * `placing_on_market`, an extension of the data model: its `lastUpdate` day), and only where the
 * version is one battery's passport (granularity item): a model's version describes no one
 * battery. Our reading, not the regulation's (docs/battery.md#the-day-judged).
 */
export function placedOnMarketOf({ data, granularity }: JudgedPassport): IsoDate | undefined {
  if (granularity !== 'item') return undefined;
  const performance = isRecord(data) ? data.performanceAndDurability : undefined;
  const measured = isRecord(performance) ? performance.measuredPerformance : undefined;
  if (!Array.isArray(measured)) return undefined;
  const days = measured.flatMap((entry) => (isRecord(entry) && entry.occasion === 'placing_on_market' && isDay(entry.lastUpdate) ? [entry.lastUpdate.slice(0, 10)] : []));
  return days.sort()[0];
}

/**
 * The day a battery passport is judged on when the request names none (docs/battery.md#the-day-judged):
 * the latest of today, 18 February 2027 (PASSPORT_MANDATORY_FROM: from then every LMT, industrial
 * above 2 kWh and electric vehicle battery placed on the market or put into service needs its
 * passport, Regulation (EU) 2023/1542 Art. 77(1)) and the day the passport says its battery was
 * placed on the market. So a passport is never called complete for a day on which nothing is due
 * yet; of equal days the more specific reason is given (placed on the market, then mandatory from).
 */
export function defaultJudgedOn(passport: JudgedPassport, today: IsoDate = dayOf()): JudgedOn {
  const placed = placedOnMarketOf(passport);
  const candidates: JudgedOn[] = [
    ...(placed ? [{ day: placed, reason: 'placed_on_market' as const }] : []),
    { day: PASSPORT_MANDATORY_FROM, reason: 'mandatory_from' },
    { day: today, reason: 'today' },
  ];
  return candidates.reduce((latest, next) => (next.day > latest.day ? next : latest));
}

/**
 * The day publishing judges a passport on (docs/battery.md#completeness-and-publishing): a battery
 * passport (`battery`; undefined for any other passport, judged today) on `asOf` when the request
 * names one (a day before today counts as today: a passport is never judged on a day that has
 * passed), else on defaultJudgedOn.
 */
export function publishJudgedOn(asOf: IsoDate | undefined, battery: JudgedPassport | undefined, today: IsoDate = dayOf()): JudgedOn {
  if (!battery) return { day: today, reason: 'today' };
  if (asOf !== undefined) return asOf > today ? { day: asOf, reason: 'as_of' } : { day: today, reason: 'today' };
  return defaultJudgedOn(battery, today);
}

/** The day a completeness report judges on: `asOf` as named (an earlier day too, for planning), else as publishing would. */
export function reportJudgedOn(asOf: IsoDate | undefined, battery: JudgedPassport | undefined, today: IsoDate = dayOf()): JudgedOn {
  if (asOf !== undefined) return { day: asOf, reason: 'as_of' };
  return publishJudgedOn(undefined, battery, today);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A day as people write it: 18 Feb 2027. */
export const dayInWords = (day: IsoDate): string => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1] ?? ''} ${day.slice(0, 4)}`;

/** The judged day in words, as the report and the dashboard say it: "judged as on 18 Feb 2027, when the passport becomes mandatory". */
export function judgedOnWords({ day, reason }: JudgedOn): string {
  const on = `judged as on ${dayInWords(day)}`;
  switch (reason) {
    case 'mandatory_from':
      return `${on}, when the passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1))`;
    case 'placed_on_market':
      return `${on}, when the passport says the battery was placed on the market`;
    case 'today':
      return `${on}, today`;
    default:
      return `${on}, the day asked for`;
  }
}

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
  /** Why `asOf` (reportJudgedOn, publishJudgedOn); without it, `today` when asOf is today, else `as_of`. */
  judgedOn?: JudgedOn;
  /** What publishing other passports would refuse as missing, as `data.…` paths (lib/domain/draft.ts draftMissing). */
  generalMissing: () => string[];
}

/** The report of a version or draft, battery or not. */
export function completenessReport({ product, source, version, data, asOf, judgedOn, generalMissing }: ReportSubject): CompletenessReport {
  const judged: JudgedOn = judgedOn?.day === asOf ? judgedOn : { day: asOf, reason: asOf === dayOf() ? 'today' : 'as_of' };
  const head = { productId: product.productId, category: product.category, source, version, asOf, judgedOn: { reason: judged.reason, words: judgedOnWords(judged) } };
  if (passportKindOf(product.category) === 'battery') {
    const battery = batteryCompleteness(data, { asOf, granularity: product.granularity });
    return { ...head, ...battery, complete: battery.missingMandatory.length === 0 };
  }
  const missingMandatory = generalMissing();
  return { ...head, batteryCategory: null, level: null, complete: missingMandatory.length === 0, missingMandatory, elements: [] };
}
