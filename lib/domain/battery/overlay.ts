import { ELEMENTS } from './element-map.ts';
import { copyJson, setAt, valueAt } from './paths.ts';

/** The paths of the elements each battery holds itself (level `item`), in the map's order. */
export const ITEM_ELEMENT_PATHS: readonly string[] = ELEMENTS.filter((element) => element.level === 'item').map((element) => element.path);

/**
 * What an item may hold in place of its model's value, per plant (Art. 7(1), Annex VI Part A(3);
 * docs/battery.md#model-and-item): the manufacturing place, and the carbon footprint as one block
 * (the footprint of one plant, never mixed with another's member by member). The element map marks
 * the elements these cover `perPlant` (test/unit/battery-elements.test.ts).
 */
export const PER_PLANT_PATHS: readonly string[] = ['generalProductInformation.manufacturingPlace', 'carbonFootprint'];

/**
 * One battery's view of its passport (docs/battery.md#model-and-item): a copy of the model data
 * (the passport version) with every element the item's data has laid over it, element by element:
 * an item's value replaces the model's whole (a list is not merged, a plant's carbon footprint
 * replaces the model's whole aspect). Neither input is changed.
 */
export function overlayItemData<M extends object, I extends object>(model: M, item: I): M {
  const view = copyJson(model) as Record<string, unknown>;
  for (const path of [...PER_PLANT_PATHS, ...ITEM_ELEMENT_PATHS]) {
    const value = valueAt(item, path);
    if (value !== undefined) setAt(view, path, copyJson(value));
  }
  return view as M;
}
