import * as z from 'zod';
import { batteryItemDataSchema } from './battery/index.ts';
import type { Category } from './enums.ts';
import { plainText } from './text.ts';
import { BASE_UNIT_STATUSES, type UnitKind } from './unit.ts';

/**
 * The data a batch or an item holds, chosen by its product's category: one small registry
 * (docs/api.md#the-data-of-a-batch-or-an-item). A category listed here gets its own schemas for a
 * batch's and an item's `data`, and may add statuses to `active` and `withdrawn`; every other
 * category takes an open object within fixed bounds. A new category plugs in as a line here, not as
 * a fork of the routes: the battery passport (issue 27) adds
 * `battery: { batch: …, item: batteryItemDataSchema (lib/domain/battery/index.ts), statuses: [] }`.
 */

/**
 * DynamoDB stores numbers down to a magnitude of 1e-130 (docs/decisions.md#smaller-choices: the same
 * rule as nutrition amounts): a number is 0 or at least 0.000001 in magnitude, and at most 1e15.
 */
export const isStorableNumber = (value: number): boolean => Number.isFinite(value) && (value === 0 || (Math.abs(value) >= 1e-6 && Math.abs(value) <= 1e15));
const STORABLE = 'must be 0 or between 0.000001 and 1e15 in magnitude.';

/** A wine lot's measured value: a number from 0 to `max`. */
const measure = (field: string, max: number, description: string) =>
  z
    .number({ error: `${field} must be a number.` })
    .min(0, { error: `${field} must be 0 or more.` })
    .max(max, { error: `${field} must be at most ${max}.` })
    .refine(isStorableNumber, { error: `${field} ${STORABLE}` })
    // The document states the storable range as the refine checks it (0, or 0.000001 and more).
    .meta({ anyOf: [{ const: 0 }, { minimum: 0.000001 }] })
    .optional()
    .describe(`${description}; 0 or at least 0.000001`);

/** A wine lot's date of bottling and its analysis, as the lot's certificate of analysis gives them. */
export const wineUnitDataSchema = z
  .strictObject(
    {
      bottlingDate: z.iso
        .date({ error: 'bottlingDate must be a date such as 2025-03-14.' })
        .optional()
        .describe('The day the lot was bottled (YYYY-MM-DD)'),
      analysis: z
        .strictObject(
          {
            alcoholByVolume: measure('alcoholByVolume', 100, "The lot's actual alcoholic strength, % vol; the lot's e-label shows it in place of the passport's"),
            residualSugarGPerL: measure('residualSugarGPerL', 1000, 'Residual sugar, g/l'),
            totalAcidityGPerL: measure('totalAcidityGPerL', 100, 'Total acidity, g/l (as tartaric acid)'),
            totalSulphurDioxideMgPerL: measure('totalSulphurDioxideMgPerL', 1000, 'Total sulphur dioxide, mg/l'),
          },
          { error: 'analysis must be an object.' },
        )
        .optional()
        .describe("The lot's analysis"),
    },
    { error: 'data must be an object.' },
  )
  .meta({ id: 'WineUnitData', description: "A wine lot's (or bottle's) data: its bottling date and analysis" });

/** Bounds of the open data of a category without its own schema (docs/api.md#the-data-of-a-batch-or-an-item). */
export const OPEN_DATA_MAX_BYTES = 4096;
export const OPEN_DATA_MAX_DEPTH = 3;
export const OPEN_DATA_MAX_MEMBERS = 64;
export const OPEN_DATA_MAX_STRING = 500;
export const OPEN_DATA_MAX_ARRAY = 50;
/** A member name: letters, digits and `_`, so that a column `data.{name}.{name}` of a file names it without doubt. */
export const OPEN_DATA_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const scalar = z.union([
  plainText(z.string().max(OPEN_DATA_MAX_STRING, { error: `A text value must be at most ${OPEN_DATA_MAX_STRING} characters.` }), 'A text value'),
  z.number().refine(isStorableNumber, { error: `A number ${STORABLE}` }),
  z.boolean(),
]);

/** A member name's rule, checked beside the schema (the API reference states it in words). */
const KEY_MESSAGE = 'A member name must start with a letter and hold letters, digits and _ only (at most 64).';

/** An object of scalars, lists of scalars and (down to `depth` levels) further such objects. */
const openLevel = (depth: number): z.ZodType<Record<string, unknown>> =>
  z
    .object({}, { error: 'data must be an object.' })
    .catchall(
      depth <= 1
        ? z.union([scalar, z.array(scalar).max(OPEN_DATA_MAX_ARRAY)])
        : z.union([scalar, z.array(scalar).max(OPEN_DATA_MAX_ARRAY), z.lazy(() => openLevel(depth - 1))]),
    );

/** Members of an open object at every level together. */
function members(value: unknown): number {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 0;
  return Object.values(value).reduce<number>((sum, inner) => sum + 1 + members(inner), 0);
}

/** The path of the first member name that breaks OPEN_DATA_KEY, if one does. */
function badKey(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const [name, inner] of Object.entries(value)) {
    if (!OPEN_DATA_KEY.test(name)) return [...path, name];
    const found = badKey(inner, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

export const openUnitDataSchema = openLevel(OPEN_DATA_MAX_DEPTH)
  .superRefine((data, ctx) => {
    const bad = badKey(data);
    if (bad) ctx.addIssue({ code: 'custom', message: KEY_MESSAGE, path: bad });
    if (members(data) > OPEN_DATA_MAX_MEMBERS) {
      ctx.addIssue({ code: 'custom', message: `data may hold at most ${OPEN_DATA_MAX_MEMBERS} members at all levels together.` });
    }
    if (Buffer.byteLength(JSON.stringify(data), 'utf8') > OPEN_DATA_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `data must take at most ${OPEN_DATA_MAX_BYTES} bytes as JSON.` });
    }
  })
  .meta({
    id: 'UnitData',
    description: `A batch's or item's own data for a category without a schema of its own: an object of text (at most ${OPEN_DATA_MAX_STRING} characters), numbers (0, or 0.000001 to 1e15 in magnitude), booleans, lists of those (at most ${OPEN_DATA_MAX_ARRAY}) and nested objects, ${OPEN_DATA_MAX_DEPTH} levels deep at most, ${OPEN_DATA_MAX_MEMBERS} members and ${OPEN_DATA_MAX_BYTES} bytes of JSON at most; member names start with a letter and hold letters, digits and _`,
  });

/** What a category says of its batches and items. */
export interface UnitCategorySpec {
  /** The schema of each kind's `data`. */
  data: Readonly<Record<UnitKind, z.ZodType<Record<string, unknown>>>>;
  /** Statuses it adds to active and withdrawn (a withdrawn record's Digital Link answers 410; any other resolves). */
  statuses: readonly string[];
  /**
   * How many member names a `data.…` column of an items file may join (docs/import-export.md#items):
   * as deep as the category's item data nests before its lists.
   */
  columnDepth: number;
}

const OPEN: UnitCategorySpec = { data: { batch: openUnitDataSchema, item: openUnitDataSchema }, statuses: [], columnDepth: OPEN_DATA_MAX_DEPTH };

/** The registry: categories with their own batch and item data. */
const UNIT_CATEGORIES: Readonly<Partial<Record<Category, UnitCategorySpec>>> = {
  wine: { data: { batch: wineUnitDataSchema, item: wineUnitDataSchema }, statuses: [], columnDepth: OPEN_DATA_MAX_DEPTH },
  // A battery's own data: identifiers, dates, status and its condition over its life (docs/battery.md#model-and-item).
  // Its deepest value is data.performanceAndDurability.batteryCondition.remainingPowerCapability.remainingPowerCapabilityValue.atSoC;
  // its lists (negativeEvents, internalResistanceIncrease) are one cell of JSON each.
  battery: { data: { batch: openUnitDataSchema, item: batteryItemDataSchema }, statuses: [], columnDepth: 5 },
};

/** What `category`'s batches and items hold (the open object when it has no line of its own). */
export const unitSpecOf = (category: Category | string): UnitCategorySpec =>
  (Object.hasOwn(UNIT_CATEGORIES, category) ? UNIT_CATEGORIES[category as Category] : undefined) ?? OPEN;

/** The statuses a record of `category` may take. */
export const unitStatusesOf = (category: Category | string): readonly string[] => [...BASE_UNIT_STATUSES, ...unitSpecOf(category).statuses];

/** Every status of every category: what the API reference lists. */
export const ALL_UNIT_STATUSES: readonly [string, ...string[]] = [
  ...new Set([...BASE_UNIT_STATUSES, ...Object.values(UNIT_CATEGORIES).flatMap((spec) => spec?.statuses ?? [])]),
] as [string, ...string[]];

/** The schemas of `data` any category takes, for the API reference. */
export const anyUnitDataSchema = z.union([wineUnitDataSchema, batteryItemDataSchema, openUnitDataSchema]);
