import * as z from 'zod';
import { energyUnits, KJ_PER_KCAL } from './nutrition.ts';

/**
 * Webhook field mappings: which field of a source payload feeds which passport or product field.
 *
 * A mapping is an object from a target (a passport or product field, such as `name`,
 * `nutrition.energyKj` or `ingredients`) to a source path in the payload, either as a string or as
 * `{ path, convert }`. Paths use dots for objects and `[]` for arrays: `entity.attributes.barcode[].barcode_number`.
 * The array of the `gtin` path is the per-product array: other paths under the same array read the
 * same element (`barcode[].vintage_year` belongs to `barcode[].barcode_number`).
 */
export const CONVERSIONS = {
  /** The value as it is. */
  none: 'the value as it is',
  /** A number from a number or a string such as "12,5" or "12.5 g". */
  number: 'a number from a number or a numeric string ("12,5", "12.5 g")',
  /** An integer, the same way. */
  integer: 'an integer from a number or a numeric string',
  /** true/false from a boolean, "yes"/"no", "true"/"false", 1/0. */
  boolean: 'true or false from a boolean, "yes"/"no", "true"/"false" or 1/0',
  /** A trimmed string from a string or number. */
  string: 'a trimmed string',
  /** Upper-case text, for country codes. */
  upper: 'upper-case text (country codes)',
  /** Alcohol by volume (% vol) to grams of alcohol per 100 ml (× 0.789 g/ml, ethanol's density). */
  abvToGramsPer100ml: 'alcohol by volume in % to grams of alcohol per 100 ml (× 0.789)',
  /** A point in time, as milliseconds since the epoch, from an ISO 8601 date-time or epoch seconds or milliseconds. */
  timestamp: 'a point in time from an ISO 8601 date-time, or epoch seconds or milliseconds',
} as const;
export type Conversion = keyof typeof CONVERSIONS;

/** Passport and product fields a mapping may fill, with the conversion each gets by default. */
export const TARGETS: Readonly<Record<string, { list?: boolean; convert: Conversion }>> = {
  gtin: { convert: 'string' },
  name: { convert: 'string' },
  brand: { convert: 'string' },
  sku: { convert: 'string' },
  productType: { convert: 'string' },
  colour: { convert: 'string' },
  vintage: { convert: 'integer' },
  ingredients: { list: true, convert: 'string' },
  'nutrition.energyKj': { convert: 'number' },
  'nutrition.energyKcal': { convert: 'number' },
  'nutrition.fatG': { convert: 'number' },
  'nutrition.saturatedFatG': { convert: 'number' },
  'nutrition.carbohydratesG': { convert: 'number' },
  'nutrition.sugarsG': { convert: 'number' },
  'nutrition.proteinG': { convert: 'number' },
  'nutrition.saltG': { convert: 'number' },
  'nutrition.alcoholG': { convert: 'number' },
  'allergens.containsSulphites': { convert: 'boolean' },
  'allergens.containsEgg': { convert: 'boolean' },
  'allergens.containsFish': { convert: 'boolean' },
  'allergens.containsMilk': { convert: 'boolean' },
  'origin.country': { convert: 'upper' },
  'origin.region': { convert: 'string' },
  'origin.designation': { convert: 'string' },
  /** Producer names: each becomes a producer of the passport and a supplier, created or reused by name. */
  producers: { list: true, convert: 'string' },
  /** When the source last changed the product: a delivery older than the published data is refused as stale. */
  updatedAt: { convert: 'timestamp' },
  /** The source's revision number of the product, the same way (preferred over updatedAt when both are there). */
  revision: { convert: 'integer' },
};

/** Targets that say how new the delivery is; they feed the stale check, not the passport. */
const WATERMARK_TARGETS = ['revision', 'updatedAt'] as const;
type WatermarkTarget = (typeof WATERMARK_TARGETS)[number];

/**
 * Where common sources put the update time or revision, tried in this order when a mapping names
 * neither `revision` nor `updatedAt` (Contentful's `sys`, Strapi's `entry`, the sample's
 * `entity.attributes`); a value there that does not convert is ignored.
 */
export const WATERMARK_CANDIDATES: ReadonlyArray<readonly [WatermarkTarget, string]> = [
  ['revision', 'sys.revision'],
  ['revision', 'entity.sys.revision'],
  ['revision', 'entity.revision'],
  ['revision', 'revision'],
  ['updatedAt', 'sys.updatedAt'],
  ['updatedAt', 'entity.sys.updatedAt'],
  ['updatedAt', 'entity.attributes.updated_at'],
  ['updatedAt', 'entity.attributes.updatedAt'],
  ['updatedAt', 'entity.updated_at'],
  ['updatedAt', 'entity.updatedAt'],
  ['updatedAt', 'entry.updatedAt'],
  ['updatedAt', 'updated_at'],
  ['updatedAt', 'updatedAt'],
];

/** Mapping keys that name no field but an object's prototype machinery; JSON.parse makes `__proto__` an own key that zod's record drops without a word. */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

const PATH = /^[A-Za-z_][\w-]*(\[\])?(\.[A-Za-z_][\w-]*(\[\])?)*$/;

const refuseReservedKeys = (value: unknown, ctx: { issues: z.core.$ZodRawIssue[] }): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  for (const key of Object.keys(value)) {
    if (key.split('.').some((part) => RESERVED_KEYS.includes(part))) {
      ctx.issues.push({
        code: 'custom',
        path: [key],
        input: value,
        message: `'${key}' is not a field a mapping can fill.`,
        params: { suggestion: `Map to one of: ${Object.keys(TARGETS).join(', ')}.` },
      });
    }
  }
  return value;
};

const mappingRecordSchema = z
  .record(
    z.string(),
    z.union([
      z.string().regex(PATH, { error: 'a source path must look like entity.attributes.barcode[].barcode_number' }),
      z.strictObject({
        path: z.string().regex(PATH, { error: 'a source path must look like entity.attributes.barcode[].barcode_number' }),
        convert: z.enum(Object.keys(CONVERSIONS) as [Conversion, ...Conversion[]], {
          error: `convert must be one of: ${Object.keys(CONVERSIONS).join(', ')}`,
        }),
      }),
    ]),
  )
  .superRefine((mapping, ctx) => {
    for (const target of Object.keys(mapping)) {
      if (!Object.hasOwn(TARGETS, target)) {
        ctx.addIssue({
          code: 'custom',
          path: [target],
          message: `'${target}' is not a field a mapping can fill.`,
          params: { suggestion: `Map to one of: ${Object.keys(TARGETS).join(', ')}.` },
        });
      }
    }
    if (!Object.hasOwn(mapping, 'gtin')) {
      ctx.addIssue({ code: 'custom', path: ['gtin'], message: 'A mapping must say where the GTIN is.', params: { suggestion: 'Map gtin to the barcode field of your payload.' } });
    }
  });

/** A mapping as saved: every target a known field, and `__proto__` and the like refused rather than dropped. */
export const mappingSchema = z.preprocess(refuseReservedKeys, mappingRecordSchema);
export type Mapping = z.infer<typeof mappingRecordSchema>;

/** The headless-CMS default: the customer's sample mapping (docs/api.md#webhooks-from-a-product-information-system). */
export const HEADLESS_CMS_MAPPING: Mapping = {
  gtin: 'entity.attributes.barcode[].barcode_number',
  name: 'entity.attributes.product_name',
  vintage: 'entity.attributes.barcode[].vintage_year',
  ingredients: 'entity.attributes.list_of_ingredient[].ingredient_name',
  'allergens.containsSulphites': 'entity.attributes.contains_sulfites',
  'allergens.containsEgg': 'entity.attributes.contains_egg',
  'allergens.containsFish': 'entity.attributes.contains_fish',
  'allergens.containsMilk': 'entity.attributes.contains_milk',
  'nutrition.energyKj': 'entity.attributes.energy_value_kj',
  'nutrition.energyKcal': 'entity.attributes.energy_value_kcal',
  'nutrition.fatG': 'entity.attributes.fat',
  'nutrition.saturatedFatG': 'entity.attributes.saturated_fat',
  'nutrition.carbohydratesG': 'entity.attributes.carbohydrates',
  'nutrition.sugarsG': 'entity.attributes.sugars',
  'nutrition.proteinG': 'entity.attributes.protein',
  'nutrition.saltG': 'entity.attributes.salt',
  'nutrition.alcoholG': { path: 'entity.attributes.alcohol_content_by_volume', convert: 'abvToGramsPer100ml' },
  'origin.country': 'entity.attributes.product_country',
  'origin.region': 'entity.attributes.product_region',
  producers: 'entity.attributes.producer[].name',
};

type Json = unknown;

/** A value found in the payload, with the concrete path it was found at (for error messages). */
export interface Found {
  value: Json;
  at: string;
}

/** Work counters of a mapping run, for tests and benchmarks: every payload node a path visits counts once. */
export interface MapStats {
  visited: number;
}

/**
 * Every value at `path` (arrays expanded), each with its concrete path such as `a.b[2].c`. Keys
 * are looked up as the payload's own properties only (`constructor` is no path into Object).
 */
export function select(root: Json, path: string, at = '', stats?: MapStats): Found[] {
  let found: Found[] = [{ value: root, at }];
  for (const segment of path.split('.')) {
    const isArray = segment.endsWith('[]');
    const key = isArray ? segment.slice(0, -2) : segment;
    const next: Found[] = [];
    for (const f of found) {
      if (stats) stats.visited++;
      if (typeof f.value !== 'object' || f.value === null || Array.isArray(f.value) || !Object.hasOwn(f.value, key)) continue;
      const child = (f.value as Record<string, Json>)[key];
      const childAt = f.at ? `${f.at}.${key}` : key;
      if (child === undefined || child === null) continue;
      if (isArray) {
        if (Array.isArray(child)) child.forEach((item, i) => next.push({ value: item, at: `${childAt}[${i}]` }));
      } else {
        next.push({ value: child, at: childAt });
      }
    }
    found = next;
  }
  return found;
}

export type Converted = { ok: true; value: Json } | { ok: false; message: string };

function toNumber(value: Json): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(-?\d+(?:[.,]\d+)?)\s*[^\d]*$/.exec(value);
  return match?.[1] === undefined ? undefined : Number(match[1].replace(',', '.'));
}

/** ISO 8601 with a date and a time (offset optional), or epoch seconds (below 10^11) or milliseconds. */
function toTimestamp(value: Json): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? (value < 1e11 ? value * 1000 : value) : undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

export function convert(value: Json, conversion: Conversion): Converted {
  switch (conversion) {
    case 'none':
      return { ok: true, value };
    case 'number': {
      const n = toNumber(value);
      return n === undefined ? { ok: false, message: 'is not a number' } : { ok: true, value: n };
    }
    case 'integer': {
      const n = toNumber(value);
      return n === undefined || !Number.isInteger(n) ? { ok: false, message: 'is not a whole number' } : { ok: true, value: n };
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      const text = String(value).trim().toLowerCase();
      if (['true', 'yes', '1', 'y'].includes(text)) return { ok: true, value: true };
      if (['false', 'no', '0', 'n'].includes(text)) return { ok: true, value: false };
      return { ok: false, message: 'is not true or false' };
    }
    case 'string':
    case 'upper': {
      if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, message: 'is not text' };
      const text = String(value).trim();
      return { ok: true, value: conversion === 'upper' ? text.toUpperCase() : text };
    }
    case 'abvToGramsPer100ml': {
      const abv = toNumber(value);
      if (abv === undefined || abv < 0 || abv > 100) return { ok: false, message: 'is not an alcohol content in % vol' };
      return { ok: true, value: Math.round(abv * 0.789 * 100) / 100 };
    }
    case 'timestamp': {
      const ms = toTimestamp(value);
      return ms === undefined ? { ok: false, message: 'is not a date-time (ISO 8601) or epoch time' } : { ok: true, value: ms };
    }
  }
}

/** How new a delivery's data is, by the source's own account: a revision number or an update time (epoch ms). */
export interface Watermark {
  kind: 'revision' | 'time';
  value: number;
  /** The payload path it was read at. */
  at: string;
}

/** One product the payload describes: its product fields, its passport data, and where each value came from. */
export interface MappedProduct {
  gtin: string;
  gtinAt: string;
  product: { name?: string; brand?: string; sku?: string };
  data: Record<string, unknown>;
  producers: string[];
  /** Passport data path (`data.nutrition.fatG`) or product field → the payload path it came from. */
  sources: Record<string, string>;
  /** List fields (`data.ingredients`) → the payload path of each element, shared by the products of a delivery. */
  listSources: Record<string, readonly string[]>;
  watermark?: Watermark;
}

export type MapResult =
  | { ok: true; products: MappedProduct[] }
  | { ok: false; param: string; message: string; /** Set when the payload names more products than allowed: how many. */ tooMany?: number };

export interface MapOptions {
  /** Refuse, before mapping anything else, a payload naming more products than this. */
  maxProducts?: number;
  stats?: MapStats;
}

const setPath = (target: Record<string, unknown>, path: string, value: unknown) => {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) target[head] = value;
  else target[head] = { ...((target[head] as Record<string, unknown>) ?? {}), [tail]: value };
};

/** A target's values, converted: found once for the whole payload, or once per product element. */
interface TargetValues {
  values: Found[];
  converted: unknown[];
}

type Step = { ok: true; result: TargetValues } | { ok: false; param: string; message: string };

function convertAll(target: string, conversion: Conversion, values: Found[], lenient = false): Step {
  const converted: unknown[] = [];
  for (const v of TARGETS[target]?.list ? values : values.slice(0, 1)) {
    const c = convert(v.value, conversion);
    if (!c.ok) return lenient ? { ok: true, result: { values: [], converted: [] } } : { ok: false, param: v.at, message: `${v.at} ${c.message}.` };
    converted.push(c.value);
  }
  return { ok: true, result: { values, converted } };
}

/**
 * Applies `mapping` to `payload`: one mapped product per GTIN found. The work is linear in the
 * payload: the products are counted (and refused beyond `maxProducts`) before anything else is
 * mapped, a path outside the per-product array is selected and converted once for all products,
 * and a path inside it reads only its own product's element.
 */
export function applyMapping(payload: Json, mapping: Mapping, options: MapOptions = {}): MapResult {
  const { stats } = options;
  const spec = (target: string) => {
    const entry = Object.hasOwn(mapping, target) ? mapping[target] : undefined;
    if (entry === undefined) return undefined;
    return typeof entry === 'string' ? { path: entry, convert: TARGETS[target]?.convert ?? 'none' } : { path: entry.path, convert: entry.convert };
  };
  const gtinSpec = spec('gtin');
  if (!gtinSpec) return { ok: false, param: 'gtin', message: 'The mapping has no gtin.' };
  const gtins = select(payload, gtinSpec.path, '', stats);
  if (gtins.length === 0) return { ok: false, param: gtinSpec.path, message: `No GTIN at ${gtinSpec.path}.` };
  if (options.maxProducts !== undefined && gtins.length > options.maxProducts) {
    return { ok: false, param: gtinSpec.path, message: `${gtinSpec.path} names ${gtins.length} products.`, tooMany: gtins.length };
  }
  // Paths under the GTIN's array read the same element as the GTIN.
  const arrayPrefix = gtinSpec.path.includes('[]') ? gtinSpec.path.slice(0, gtinSpec.path.lastIndexOf('[]') + 2) : undefined;
  const elements = arrayPrefix ? new Map(select(payload, arrayPrefix, '', stats).map((f) => [f.at, f.value])) : undefined;

  // Targets that read the same values for every product: selected and converted once.
  const targets = Object.keys(mapping).filter((t) => t !== 'gtin' && spec(t) !== undefined);
  if (!WATERMARK_TARGETS.some((t) => targets.includes(t))) targets.push(...WATERMARK_TARGETS);
  const perElement = (path: string) => arrayPrefix !== undefined && path.startsWith(`${arrayPrefix}.`);
  const shared = new Map<string, TargetValues>();
  for (const target of targets) {
    const s = spec(target);
    if (s && perElement(s.path)) continue;
    if (s) {
      const step = convertAll(target, s.convert, select(payload, s.path, '', stats));
      if (!step.ok) return step;
      shared.set(target, step.result);
      continue;
    }
    // A watermark target the mapping does not name: the first common place that holds one.
    for (const [candidateTarget, path] of WATERMARK_CANDIDATES) {
      if (candidateTarget !== target) continue;
      const step = convertAll(target, TARGETS[target]?.convert ?? 'none', select(payload, path, '', stats), true);
      if (step.ok && step.result.converted.length) {
        shared.set(target, step.result);
        break;
      }
    }
  }
  const sharedSources = new Map<string, readonly string[]>();
  for (const [target, { values }] of shared) if (TARGETS[target]?.list) sharedSources.set(target, values.map((v) => v.at));

  const products: MappedProduct[] = [];
  for (const gtin of gtins) {
    const element = arrayPrefix ? gtin.at.slice(0, gtin.at.lastIndexOf(']') + 1) : '';
    const gtinValue = convert(gtin.value, 'string');
    if (!gtinValue.ok) return { ok: false, param: gtin.at, message: `${gtin.at} ${gtinValue.message}.` };
    const mapped: MappedProduct = { gtin: String(gtinValue.value), gtinAt: gtin.at, product: {}, data: {}, producers: [], sources: {}, listSources: {} };
    for (const target of targets) {
      let found = shared.get(target);
      const s = spec(target);
      if (!found && s && element && perElement(s.path) && arrayPrefix) {
        const step = convertAll(target, s.convert, select(elements?.get(element), s.path.slice(arrayPrefix.length + 1), element, stats));
        if (!step.ok) return step;
        found = step.result;
      }
      if (!found || found.values.length === 0) continue;
      const { values, converted } = found;
      const first = values[0]?.at ?? s?.path ?? '';
      if (target === 'revision' || target === 'updatedAt') {
        if (target === 'revision' || !mapped.watermark) mapped.watermark = { kind: target === 'revision' ? 'revision' : 'time', value: Number(converted[0]), at: first };
      } else if (target === 'producers') {
        mapped.producers = converted.map(String);
        mapped.sources['data.producers'] = s?.path ?? first;
        mapped.listSources['data.producers'] = sharedSources.get(target) ?? values.map((v) => v.at);
      } else if (target === 'name' || target === 'brand' || target === 'sku') {
        mapped.product[target] = String(converted[0]);
        mapped.sources[target] = first;
      } else if (TARGETS[target]?.list) {
        setPath(mapped.data, target, converted);
        mapped.sources[`data.${target}`] = s?.path ?? first;
        mapped.listSources[`data.${target}`] = sharedSources.get(target) ?? values.map((v) => v.at);
      } else {
        setPath(mapped.data, target, converted[0]);
        mapped.sources[`data.${target}`] = first;
      }
    }
    const nutrition = mapped.data.nutrition as Record<string, number> | undefined;
    if (nutrition?.energyKj !== undefined && nutrition.energyKcal === undefined) {
      // With the Annex XIV kcal factors when the nutrients allow, else converted (lib/domain/nutrition.ts energyUnits).
      const productType = typeof mapped.data.productType === 'string' ? mapped.data.productType : undefined;
      nutrition.energyKcal = Math.round(energyUnits(nutrition, productType)?.kcal ?? nutrition.energyKj / KJ_PER_KCAL);
      mapped.sources['data.nutrition.energyKcal'] = mapped.sources['data.nutrition.energyKj'] ?? '';
    }
    if (mapped.producers.length) mapped.data.producers = mapped.producers.map((name) => ({ name, role: 'producer' }));
    products.push(mapped);
  }
  return { ok: true, products };
}

const LAST_STEP = /(\.[^.[\]]+|\[\d+\])$/;

/**
 * The payload path a passport or product field came from: the field itself, or its nearest
 * mapped ancestor (`data.producers[0].name` → the first producer's source path).
 */
export function sourceOf(mapped: MappedProduct, field: string): string {
  for (let path = field; path; path = path.replace(LAST_STEP, '')) {
    const source = Object.hasOwn(mapped.sources, path) ? mapped.sources[path] : undefined;
    if (source !== undefined) return source;
    const item = /^(.*)\[(\d+)\]$/.exec(path);
    const listed = item?.[1] !== undefined && Object.hasOwn(mapped.listSources, item[1]) ? mapped.listSources[item[1]]?.[Number(item[2])] : undefined;
    if (listed !== undefined) return listed;
    if (!LAST_STEP.test(path)) break;
  }
  return field;
}
