import { canRead, type AccessTier, type Reader } from './access-tiers.ts';
import { ELEMENTS, type BatteryElement, type ElementPath } from './element-map.ts';
import { covers, pickPaths } from './paths.ts';

/**
 * The battery element map (lib/domain/battery/element-map.ts) and what readers of each tier may see
 * of a passport (docs/battery.md#audiences).
 */
export { ELEMENTS, type AnnexXiiiPoint, type BatteryElement, type ElementPath, type IsoDate, type Obligation } from './element-map.ts';
export { completeness, isMandatory, type CompletenessOptions, type CompletenessReport, type ElementCompleteness } from './completeness.ts';
export { ACCESS_TIERS, READERS, canRead, type AccessTier, type Reader } from './access-tiers.ts';

const BY_PATH: ReadonlyMap<string, BatteryElement> = new Map(ELEMENTS.map((element) => [element.path, element]));

/** The element at exactly this path, or undefined. */
export const elementAt = (path: string): BatteryElement | undefined => BY_PATH.get(path);

/** The element a path lies in (`labeling.labels[0].labelingSymbol` → `labeling.labels`), or undefined. */
export const elementOf = (path: string): BatteryElement | undefined => ELEMENTS.find((element) => covers(element.path, path));

/** The elements a reader of `reader` may see: those of its tier and of every lower one; the owner sees all. */
export const elementsFor = (reader: Reader): BatteryElement[] => ELEMENTS.filter((element) => canRead(reader, element.tier));

/** The elements of exactly this tier. */
export const elementsOfTier = (tier: AccessTier): BatteryElement[] => ELEMENTS.filter((element) => element.tier === tier);

/**
 * A copy of a battery passport's data (or an item's data, or the item's view) with only the
 * elements a reader of `reader` may see; aspects with none of them are left out. The input is not
 * changed, and nothing outside the element map is copied.
 */
export function filterByTier<T>(data: T, reader: Reader): Partial<T> {
  return pickPaths(data, elementsFor(reader).map((element) => element.path as ElementPath)) as Partial<T>;
}
