import * as z from 'zod';

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
};

const PATH = /^[A-Za-z_][\w-]*(\[\])?(\.[A-Za-z_][\w-]*(\[\])?)*$/;

export const mappingSchema = z
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
    if (!('gtin' in mapping)) {
      ctx.addIssue({ code: 'custom', path: ['gtin'], message: 'A mapping must say where the GTIN is.', params: { suggestion: 'Map gtin to the barcode field of your payload.' } });
    }
  });
export type Mapping = z.infer<typeof mappingSchema>;

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

/** Every value at `path` (arrays expanded), each with its concrete path such as `a.b[2].c`. */
export function select(root: Json, path: string, at = ''): Found[] {
  let found: Found[] = [{ value: root, at }];
  for (const segment of path.split('.')) {
    const isArray = segment.endsWith('[]');
    const key = isArray ? segment.slice(0, -2) : segment;
    const next: Found[] = [];
    for (const f of found) {
      if (typeof f.value !== 'object' || f.value === null || Array.isArray(f.value)) continue;
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
  }
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
}

export type MapResult = { ok: true; products: MappedProduct[] } | { ok: false; param: string; message: string };

const setPath = (target: Record<string, unknown>, path: string, value: unknown) => {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) target[head] = value;
  else target[head] = { ...((target[head] as Record<string, unknown>) ?? {}), [tail]: value };
};

/** Applies `mapping` to `payload`: one mapped product per GTIN found. */
export function applyMapping(payload: Json, mapping: Mapping): MapResult {
  const spec = (target: string) => {
    const entry = mapping[target];
    if (entry === undefined) return undefined;
    return typeof entry === 'string'
      ? { path: entry, convert: TARGETS[target]?.convert ?? 'none' }
      : { path: entry.path, convert: entry.convert };
  };
  const gtinSpec = spec('gtin');
  if (!gtinSpec) return { ok: false, param: 'gtin', message: 'The mapping has no gtin.' };
  const gtins = select(payload, gtinSpec.path);
  if (gtins.length === 0) return { ok: false, param: gtinSpec.path, message: `No GTIN at ${gtinSpec.path}.` };
  // Paths under the GTIN's array read the same element as the GTIN.
  const arrayPrefix = gtinSpec.path.includes('[]') ? gtinSpec.path.slice(0, gtinSpec.path.lastIndexOf('[]') + 2) : undefined;

  const products: MappedProduct[] = [];
  for (const gtin of gtins) {
    const element = arrayPrefix ? gtin.at.slice(0, gtin.at.lastIndexOf(']') + 1) : '';
    const gtinValue = convert(gtin.value, 'string');
    if (!gtinValue.ok) return { ok: false, param: gtin.at, message: `${gtin.at} ${gtinValue.message}.` };
    const mapped: MappedProduct = { gtin: String(gtinValue.value), gtinAt: gtin.at, product: {}, data: {}, producers: [], sources: {} };
    for (const target of Object.keys(mapping)) {
      if (target === 'gtin') continue;
      const s = spec(target);
      if (!s) continue;
      const values =
        arrayPrefix && element && s.path.startsWith(`${arrayPrefix}.`)
          ? select(select(payload, arrayPrefix).find((f) => f.at === element)?.value, s.path.slice(arrayPrefix.length + 1), element)
          : select(payload, s.path);
      if (values.length === 0) continue;
      const converted: unknown[] = [];
      for (const v of TARGETS[target]?.list ? values : values.slice(0, 1)) {
        const c = convert(v.value, s.convert);
        if (!c.ok) return { ok: false, param: v.at, message: `${v.at} ${c.message}.` };
        converted.push(c.value);
      }
      const first = values[0]?.at ?? s.path;
      if (target === 'producers') {
        mapped.producers = converted.map(String);
        mapped.sources['data.producers'] = s.path;
        values.forEach((v, i) => (mapped.sources[`data.producers[${i}]`] = v.at));
      } else if (target === 'name' || target === 'brand' || target === 'sku') {
        mapped.product[target] = String(converted[0]);
        mapped.sources[target] = first;
      } else if (TARGETS[target]?.list) {
        setPath(mapped.data, target, converted);
        mapped.sources[`data.${target}`] = s.path;
        values.forEach((v, i) => (mapped.sources[`data.${target}[${i}]`] = v.at));
      } else {
        setPath(mapped.data, target, converted[0]);
        mapped.sources[`data.${target}`] = first;
      }
    }
    const nutrition = mapped.data.nutrition as Record<string, number> | undefined;
    if (nutrition?.energyKj !== undefined && nutrition.energyKcal === undefined) {
      nutrition.energyKcal = Math.round(nutrition.energyKj / 4.184);
      mapped.sources['data.nutrition.energyKcal'] = mapped.sources['data.nutrition.energyKj'] ?? '';
    }
    if (mapped.producers.length) mapped.data.producers = mapped.producers.map((name) => ({ name, role: 'producer' }));
    products.push(mapped);
  }
  return { ok: true, products };
}

/**
 * The payload path a passport or product field came from: the field itself, or its nearest
 * mapped ancestor (`data.producers[0].name` → the first producer's source path).
 */
export function sourceOf(mapped: MappedProduct, field: string): string {
  for (let path = field; path; path = path.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const source = mapped.sources[path];
    if (source !== undefined) return source;
    if (!/(\.[^.[\]]+|\[\d+\])$/.test(path)) break;
  }
  return field;
}
