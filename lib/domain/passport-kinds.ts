import { ELEMENTS } from './battery/element-map.ts';
import { filterByTier } from './battery/elements.ts';
import type { Category } from './enums.ts';

/**
 * The kinds of passport data, chosen by the product's category (docs/api.md#passport-data,
 * docs/battery.md#the-api): a battery product's passport holds the battery passport of the Battery
 * Pass data model (lib/domain/battery/), every other category the wine and food data of
 * lib/domain/passport.ts. A new kind (a textile passport) is a line here, its schema in
 * PASSPORT_DATA_SCHEMAS (lib/domain/passport.ts) and its page (functions/resolver/pages.ts).
 *
 * No zod and no npm import: the resolver and the credentials read it to give the public only what
 * is public.
 */
export const PASSPORT_KINDS = ['general', 'battery'] as const;
export type PassportKind = (typeof PASSPORT_KINDS)[number];

/** The categories whose passport data is of another kind than `general`. */
const KIND_OF_CATEGORY: Readonly<Partial<Record<Category, PassportKind>>> = { battery: 'battery' };

/** The kind of passport data a product of `category` takes. */
export const passportKindOf = (category: Category | string | undefined): PassportKind =>
  (category !== undefined && Object.hasOwn(KIND_OF_CATEGORY, category) ? KIND_OF_CATEGORY[category as Category] : undefined) ?? 'general';

/** The members of a battery passport's data: the aspects of the element map (generalProductInformation, …). */
export const BATTERY_DATA_MEMBERS: ReadonlySet<string> = new Set(ELEMENTS.map((element) => element.path.split('.')[0] as string));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether stored data holds any battery aspect (whatever the product's category says now). */
export const holdsBatteryData = (data: unknown): boolean => isRecord(data) && Object.keys(data).some((key) => BATTERY_DATA_MEMBERS.has(key));

/** Whether a version's data is a battery passport: its product is a battery, or the data holds battery aspects. */
export const isBatteryPassport = (category: Category | string | undefined, data: unknown): boolean => passportKindOf(category) === 'battery' || holdsBatteryData(data);

/**
 * What anyone may read of a published version's data (docs/battery.md#audiences): of a battery
 * passport only its public elements (Regulation (EU) 2023/1542 Art. 77(2), Annex XIII point 1),
 * nothing outside the element map; every other passport whole. The resolver's pages, its JSON
 * forms and the public credential all read a version through this. The input is not changed.
 */
export function publicPassportData<T>(category: Category | string | undefined, data: T): T {
  return isBatteryPassport(category, data) ? (filterByTier(data, 'public') as T) : data;
}

/**
 * The import and export column of a passport given whole, as JSON: a battery passport, whose
 * aspects nest too deep and too wide for the template's `passport.*` columns
 * (docs/battery.md#import-and-export). A JSON line holds it as an object.
 */
export const PASSPORT_JSON_COLUMN = 'passport';
