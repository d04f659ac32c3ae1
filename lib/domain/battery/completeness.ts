import type { BatteryCategory } from './categories.ts';
import { ELEMENTS, type BatteryElement, type ElementPath, type IsoDate } from './element-map.ts';
import { valueAt } from './paths.ts';

/**
 * Which elements a battery passport has, and which of the missing ones the regulation requires on a
 * given day for the battery's category (docs/battery.md#completeness). Publishing refuses a passport
 * only for `missingMandatory`; everything else is reported.
 */
export interface ElementCompleteness {
  path: ElementPath;
  status: 'present' | 'missing';
  /** The regulation requires it of this category on this day. */
  mandatory: boolean;
}

export interface CompletenessReport {
  elements: ElementCompleteness[];
  /** The mandatory elements that are missing, in the map's order. */
  missingMandatory: ElementPath[];
}

export interface CompletenessOptions {
  batteryCategory: BatteryCategory;
  /** The day to judge on (`YYYY-MM-DD`; a longer ISO timestamp is cut to its day). */
  on: IsoDate;
  /**
   * Which elements to judge: `model` those a passport version holds, `item` those of one battery,
   * `all` (default) both, for the item's view (the model data with the item's data laid over it).
   */
  level?: 'model' | 'item' | 'all';
}

/** True when the element must be present for this category on this day. */
export function isMandatory(element: BatteryElement, batteryCategory: BatteryCategory, on: IsoDate): boolean {
  const obligation = element.obligations[batteryCategory];
  return obligation?.kind === 'mandatory' && on.slice(0, 10) >= obligation.from;
}

/** The report for `data` (a passport's data, an item's data, or the item's view). An element counts as present when it has any value, an empty list included. */
export function completeness(data: unknown, { batteryCategory, on, level = 'all' }: CompletenessOptions): CompletenessReport {
  const elements = ELEMENTS.filter((element) => level === 'all' || element.level === level).map(
    (element): ElementCompleteness => ({
      path: element.path,
      status: valueAt(data, element.path) === undefined ? 'missing' : 'present',
      mandatory: isMandatory(element, batteryCategory, on),
    }),
  );
  return { elements, missingMandatory: elements.filter((e) => e.mandatory && e.status === 'missing').map((e) => e.path) };
}
