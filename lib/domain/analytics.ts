import * as z from 'zod';
import { isUnitValue, UNIT_VALUE_PATTERN } from './unit.ts';
import { GRANULARITIES, type Granularity } from './enums.ts';
import { DIRECT, OTHER_REFERRER } from './referrer.ts';
import { COUNT_ONLY_OMITS, DEVICES, type Device } from './scan.ts';

/**
 * Scan analytics: day rollups (one per product and UTC day) and their aggregation into the
 * analytics object of `GET /v1/analytics/product/{productId}` (docs/api.md#endpoints). Plain functions; no I/O.
 */
export { GRANULARITIES, type Granularity };

export const DEFAULT_WINDOW_DAYS = 90;
export const MAX_WINDOW_DAYS = 366;
export const TOP_REFERRERS = 10;
/**
 * Referring hosts kept per product and day (besides `direct` and `other`): the first 50 distinct
 * hosts of the day get their own counter, every later new host counts into `other`. This bounds
 * the rollup item (50 × 253 characters at most) whatever anyone puts in a Referer header.
 */
export const MAX_REFERRER_HOSTS = 50;

/** What the aggregator last saw of a day rollup's referrer hosts (from the item itself). */
export interface KnownReferrers {
  hosts: ReadonlySet<string>;
  /** Host counters the item holds (its `referrerHosts`); never more than `MAX_REFERRER_HOSTS`. */
  count: number;
}

/** How one batch's referrer counts for one day rollup are written. */
export interface ReferrerPlan {
  /** Hosts the item already counts: plain increments, on the condition that they exist. */
  existing: Array<[string, number]>;
  /** New hosts that get a counter while room is left: each on the condition that it does not exist yet. */
  added: Array<[string, number]>;
  /** `direct`, counted apart from the hosts (every product has it; it never takes a host's place). */
  direct: number;
  /** `other`: stored `other` scans plus new hosts beyond the limit. */
  other: number;
}

/**
 * Plans a batch's referrer counts for one product-day: known hosts are incremented, new hosts take
 * the free places (most scans first, then by name), the rest fold into `other`. Exact as long as
 * `known` is what the item holds; the aggregator makes the writes conditional on it and, when an
 * item has changed since, learns its hosts from the cancelled write and plans again.
 */
export function planReferrers(counts: ReadonlyMap<string, number>, known: KnownReferrers | undefined, limit = MAX_REFERRER_HOSTS): ReferrerPlan {
  const plan: ReferrerPlan = { existing: [], added: [], direct: 0, other: 0 };
  const candidates: Array<[string, number]> = [];
  for (const [referrer, n] of counts) {
    if (referrer === DIRECT) plan.direct += n;
    else if (referrer === OTHER_REFERRER) plan.other += n;
    else if (known?.hosts.has(referrer)) plan.existing.push([referrer, n]);
    else candidates.push([referrer, n]);
  }
  candidates.sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const room = Math.max(0, limit - (known?.count ?? 0));
  plan.added = candidates.slice(0, room);
  for (const [, n] of candidates.slice(room)) plan.other += n;
  return plan;
}

/** The counts of one product on one UTC day. Bots are counted apart and never in `scans`. */
export interface DayRollup {
  day: string;
  scans: number;
  bots: number;
  devices: Record<Exclude<Device, 'bot'>, number>;
  countries: Record<string, number>;
  referrers: Record<string, number>;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` that names a real calendar day, as epoch ms at 00:00 UTC; undefined otherwise. */
export function parseDay(value: string): number | undefined {
  if (!DATE.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? undefined : ms;
}

export const formatDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const utcDay = (iso: string): string => iso.slice(0, 10);

const dateParam = (name: string) =>
  z
    .string()
    .refine((v) => parseDay(v) !== undefined, {
      error: `${name} must be a date in the form YYYY-MM-DD.`,
      params: { suggestion: `Send ${name} such as 2026-01-31 (UTC, inclusive).` },
    })
    .meta({ format: 'date', pattern: DATE.source })
    .optional();

export const analyticsQuerySchema = z.strictObject({
  start: dateParam('start'),
  end: dateParam('end'),
  granularity: z.enum(GRANULARITIES, { error: `granularity must be one of: ${GRANULARITIES.join(', ')}.` }).default('day'),
  lot: z
    .string({ error: 'lot must be a string.' })
    .refine(isUnitValue, { error: 'lot must be 1 to 20 characters of GS1 character set 82.' })
    .optional()
    .meta({
      description: "A batch's lot (1 to 20 characters of GS1 character set 82): the scans of that batch (and of the items that name it) instead of the whole product's (docs/resolver.md#batches-and-items)",
      pattern: UNIT_VALUE_PATTERN,
    }),
});

export interface Window {
  startDay: string;
  endDay: string;
}

export type WindowResult = { ok: true; window: Window } | { ok: false; param: 'start' | 'end'; message: string };

/** Resolves the window: defaults 90 days ago and today (UTC); `end` not before `start`; at most 366 days. */
export function resolveWindow(start: string | undefined, end: string | undefined, now: Date = new Date()): WindowResult {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const endMs = end === undefined ? today : (parseDay(end) ?? today);
  const startMs = start === undefined ? endMs - DEFAULT_WINDOW_DAYS * DAY_MS : (parseDay(start) ?? endMs);
  if (endMs < startMs) return { ok: false, param: 'end', message: 'end must not be before start.' };
  const days = (endMs - startMs) / DAY_MS + 1;
  if (days > MAX_WINDOW_DAYS) {
    return { ok: false, param: start === undefined ? 'end' : 'start', message: `The window may span at most ${MAX_WINDOW_DAYS} days; this one spans ${days}.` };
  }
  return { ok: true, window: { startDay: formatDay(startMs), endDay: formatDay(endMs) } };
}

/** The first day of the bucket holding `day`: the day itself, its ISO week's Monday, or the 1st of its month. */
export function bucketStart(day: string, granularity: Granularity): string {
  const ms = parseDay(day) ?? 0;
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday = 0
  return formatDay(ms - weekday * DAY_MS);
}

/** Every bucket of the window, ascending, each labelled with its first day. */
export function buckets(window: Window, granularity: Granularity): string[] {
  const out: string[] = [];
  const end = parseDay(window.endDay) ?? 0;
  for (let ms = parseDay(window.startDay) ?? 0; ms <= end; ms += DAY_MS) {
    const label = bucketStart(formatDay(ms), granularity);
    if (out.at(-1) !== label) out.push(label);
  }
  return out;
}

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

export const analyticsSchema = z
  .object({
    productId: z.uuid(),
    period: z.object({ start: z.iso.datetime(), end: z.iso.datetime() }),
    granularity: z.enum(GRANULARITIES),
    totalScans: z.int().min(0).describe('Scans by people (bots excluded)'),
    uniqueCountries: z.int().min(0),
    locations: z.record(z.string(), z.int().min(0)).describe('ISO 3166-1 alpha-2 country → scans; "unknown" when the CDN gave none'),
    topReferrers: z
      .array(z.object({ domain: z.string(), scans: z.int().min(0) }))
      .describe('Top 10 referring hosts by scans ("direct" without a referrer), then "other" with every other scan, so the scans add up to totalScans'),
    devices: z.object({ mobile: z.int().min(0), desktop: z.int().min(0), tablet: z.int().min(0) }),
    bots: z.int().min(0).describe('Scans by bots, counted apart'),
    scansByDay: z.array(z.object({ date: z.iso.date(), scans: z.int().min(0) })).describe('Every bucket of the window, ascending, labelled by its first day'),
    notCollected: z
      .array(z.enum(COUNT_ONLY_OMITS))
      .optional()
      .describe(
        'Present only for a product whose scans are counted and nothing more (a wine: category wine, or a passport with productType wine): the dimensions its scans do not record, so locations, topReferrers, devices and bots are empty and totalScans counts every scan, automated ones too (there is no device class to tell them apart)',
      ),
    notCollectedReason: z.string().optional().describe('Why those dimensions are not collected: the rule of law, cited; present with notCollected'),
  })
  .meta({ id: 'Analytics' });
export type Analytics = z.infer<typeof analyticsSchema>;

/** The top referrers by scans (then by name), then `other` with the rest of the scans when there are any. */
export function topReferrers(referrers: Record<string, number>, top = TOP_REFERRERS): Array<{ domain: string; scans: number }> {
  const ranked = Object.entries(referrers)
    .filter(([domain, scans]) => domain !== OTHER_REFERRER && scans > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const other = (referrers[OTHER_REFERRER] ?? 0) + ranked.slice(top).reduce((sum, [, scans]) => sum + scans, 0);
  return [...ranked.slice(0, top), ...(other > 0 ? [[OTHER_REFERRER, other] as const] : [])].map(([domain, scans]) => ({ domain, scans }));
}

/**
 * Why a wine's scans are counts only (docs/privacy.md): the answer's `notCollectedReason`. The words
 * in quotation marks are those of Regulation (EU) 2021/2117, Art. 1 point (32)(c) and Art. 3 point
 * (5), OJ L 435, 6.12.2021, p. 262, applicable from 8 December 2023.
 */
export const COUNT_ONLY_REASON =
  'Regulation (EU) No 1308/2013, Art. 119(4) and (5)(a), as amended by Regulation (EU) 2021/2117 (and, for aromatised wine products, Regulation (EU) No 251/2014, Art. 6a(2) and (3)(a)): on the electronic means that give a wine\'s nutrition declaration and list of ingredients "no user data shall be collected or tracked". A scan of this product\'s e-label is therefore counted per day and nothing else is recorded: no country, no device class, no referrer.';

/** What the scans of a product record (docs/privacy.md): everything, or a count only. */
export interface SummaryOptions {
  /** The product is a wine: report the counts and say which dimensions are not collected, and why. */
  countOnly?: boolean;
}

/**
 * Sums day rollups inside the window into the analytics object, every bucket present and
 * zero-filled. With `countOnly`, the scans alone: no dimension is reported, not even one a rollup
 * written before the product was a wine still holds.
 */
export function summarize(productId: string, window: Window, granularity: Granularity, rollups: readonly DayRollup[], options: SummaryOptions = {}): Analytics {
  if (options.countOnly) {
    const counts = summarize(productId, window, granularity, rollups.map((r) => ({ day: r.day, scans: r.scans, bots: 0, devices: { mobile: 0, tablet: 0, desktop: 0 }, countries: {}, referrers: {} })));
    return { ...counts, notCollected: [...COUNT_ONLY_OMITS], notCollectedReason: COUNT_ONLY_REASON };
  }
  const inWindow = rollups.filter((r) => r.day >= window.startDay && r.day <= window.endDay);
  const locations: Record<string, number> = {};
  const referrers: Record<string, number> = {};
  const devices = { mobile: 0, desktop: 0, tablet: 0 };
  const perBucket = new Map(buckets(window, granularity).map((b) => [b, 0]));
  let totalScans = 0;
  let bots = 0;
  for (const r of inWindow) {
    totalScans += r.scans;
    bots += r.bots;
    add(locations, r.countries);
    add(referrers, r.referrers);
    for (const d of DEVICES) if (d !== 'bot') devices[d] += r.devices[d];
    const bucket = bucketStart(r.day, granularity);
    perBucket.set(bucket, (perBucket.get(bucket) ?? 0) + r.scans);
  }
  return {
    productId,
    period: { start: `${window.startDay}T00:00:00.000Z`, end: `${window.endDay}T23:59:59.999Z` },
    granularity,
    totalScans,
    uniqueCountries: Object.keys(locations).filter((c) => c !== 'unknown' && (locations[c] ?? 0) > 0).length,
    locations,
    topReferrers: topReferrers(referrers),
    devices,
    bots,
    scansByDay: [...perBucket].map(([date, scans]) => ({ date, scans })),
  };
}
