import { canRead, type Audience, type Reader } from './access-tiers.ts';
import { ELEMENTS, type BatteryElement, type ElementPath } from './element-map.ts';
import { covers, pickPaths } from './paths.ts';

/**
 * The battery element map (lib/domain/battery/element-map.ts) and what each reader may see of a
 * passport (docs/battery.md#audiences): an element reaches a reader when the element's audiences and
 * the reader's meet; the owner sees everything. Every read path of the service takes its view of a
 * battery passport through filterByTier (the EN 18222 reads, the public page, JSON, linkset and
 * credential through publicPassportData, the public copy of the backup), so this is the one table.
 */
export { ELEMENTS, type AnnexXiiiPoint, type BatteryElement, type ElementPath, type IsoDate, type Obligation } from './element-map.ts';
export { completeness, isMandatory, type CompletenessOptions, type CompletenessReport, type ElementCompleteness } from './completeness.ts';
export {
  ACCESS_TIERS,
  AUDIENCES,
  AUDIENCES_OF_POINT,
  PURPOSES,
  READERS,
  audiencesOf,
  canRead,
  tierOfReader,
  type AccessTier,
  type Audience,
  type NamedReader,
  type Purpose,
  type Reader,
} from './access-tiers.ts';

const BY_PATH: ReadonlyMap<string, BatteryElement> = new Map(ELEMENTS.map((element) => [element.path, element]));

/** The element at exactly this path, or undefined. */
export const elementAt = (path: string): BatteryElement | undefined => BY_PATH.get(path);

/** The element a path lies in (`labeling.labels[0].labelingSymbol` → `labeling.labels`), or undefined. */
export const elementOf = (path: string): BatteryElement | undefined => ELEMENTS.find((element) => covers(element.path, path));

/** The elements a reader may see: those one of its audiences reads; the owner all. */
export const elementsFor = (reader: Reader): BatteryElement[] => ELEMENTS.filter((element) => canRead(reader, element.audiences));

/** The elements one audience reads. */
export const elementsOfAudience = (audience: Audience): BatteryElement[] => ELEMENTS.filter((element) => element.audiences.includes(audience));

/** The restricted elements (not public) a reader sees: what a read by another organization is logged with. */
export const restrictedElementsFor = (reader: Reader): BatteryElement[] => elementsFor(reader).filter((element) => !element.audiences.includes('public'));

/**
 * A copy of a battery passport's data (or an item's data, or the item's view) with only the
 * elements `reader` may see; aspects with none of them are left out. The input is not changed, and
 * nothing outside the element map is copied.
 */
export function filterByTier<T>(data: T, reader: Reader): Partial<T> {
  return pickPaths(data, elementsFor(reader).map((element) => element.path as ElementPath)) as Partial<T>;
}
