import { jcs } from '../jcs.ts';
import { ELEMENTS } from './element-map.ts';

/**
 * What another organization may write into an owner's battery (docs/access.md#what-a-grantee-writes):
 * a grant with `write` lets a repairer, a second-life operator or a recycler record the battery's
 * condition as it finds it, nothing else. The writable elements are the element map's dynamic,
 * per-battery elements under `performanceAndDurability.batteryCondition` (Annex XIII point 4 of
 * Regulation (EU) 2023/1542: the values that change over a battery's life). Never the item's
 * `status`, `lot` or `lineage`, its identifiers, its dates or `batteryStatus` (a status changes only
 * through a lifecycle operation). `negativeEvents` is append-only: a grantee adds events, never
 * removes or rewrites one. No imports but the element map and JCS (which imports nothing): the dashboard may read it.
 */
const CONDITION = 'performanceAndDurability.batteryCondition.';

/** The element paths (relative to the item's `data`) a grantee with write may set. */
export const GRANTEE_WRITABLE: readonly string[] = ELEMENTS.filter((element) => element.dynamic && element.level === 'item' && element.path.startsWith(CONDITION)).map((element) => element.path);

/** Elements a grantee may only extend: the patch's list must begin with every entry already stored. */
export const APPEND_ONLY: readonly string[] = [`${CONDITION}negativeEvents`];

/**
 * Why a write of `next` over `stored` (one battery's data, by anyone: its owner's PUT or PATCH, an
 * items import row, a grantee's patch) would remove or rewrite a recorded negative event, or
 * undefined when it keeps every stored one, unchanged and in order, before any new one
 * (docs/battery.md#the-individual-battery: an accident stays in the battery's record for good).
 */
export function appendOnlyRefusal(stored: unknown, next: unknown): GranteeRefusal | undefined {
  for (const path of APPEND_ONLY) {
    const before = valueAt(stored, path);
    const kept = Array.isArray(before) ? before : [];
    if (kept.length === 0) continue;
    const after = valueAt(next, path);
    if (!Array.isArray(after) || after.length < kept.length || !kept.every((entry, i) => jcs(entry) === jcs(after[i]))) {
      const param = `data.${path}`;
      return { param, message: `${param} is append-only: the ${kept.length} recorded event${kept.length === 1 ? '' : 's'} stay, unchanged and first; add new ones after them.` };
    }
  }
  return undefined;
}

/** Why a patch is not the grantee's to send: the field it names (as the API's `param`) and why. */
export interface GranteeRefusal {
  param: string;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const valueAt = (data: unknown, path: string): unknown => path.split('.').reduce<unknown>((node, name) => (isObject(node) && Object.hasOwn(node, name) ? node[name] : undefined), data);

const NOT_YOURS = 'a grantee writes only the battery’s dynamic condition data (data.performanceAndDurability.batteryCondition.*, docs/access.md#what-a-grantee-writes)';

/**
 * The first member of a merge patch that a grantee may not write, given the item's stored data; or
 * undefined when the whole patch lies within what it may write. The patch's values themselves are
 * checked afterwards by the item's own schema, as the owner's patch is.
 */
export function granteePatchRefusal(patch: Record<string, unknown>, stored: unknown): GranteeRefusal | undefined {
  for (const name of Object.keys(patch)) {
    if (name !== 'data') return { param: name, message: `${name} is not yours to change: ${NOT_YOURS}.` };
  }
  if (!('data' in patch)) return undefined;
  if (!isObject(patch.data)) return { param: 'data', message: `data cannot be replaced or removed by a grantee: ${NOT_YOURS}.` };
  return walk(patch.data, '', stored);
}

function walk(node: Record<string, unknown>, prefix: string, stored: unknown): GranteeRefusal | undefined {
  for (const [name, value] of Object.entries(node)) {
    const path = `${prefix}${name}`;
    const param = `data.${path}`;
    if (GRANTEE_WRITABLE.includes(path)) {
      if (value === null) return { param, message: `${param} cannot be removed by a grantee: record a new value instead.` };
      if (APPEND_ONLY.includes(path)) {
        const before = valueAt(stored, path);
        const kept = Array.isArray(before) ? before : [];
        if (!Array.isArray(value) || value.length < kept.length || !kept.every((entry, i) => jcs(entry) === jcs(value[i]))) {
          return { param, message: `${param} is append-only: send the stored events first, unchanged, then the new ones.` };
        }
      }
      continue;
    }
    if (isObject(value) && GRANTEE_WRITABLE.some((writable) => writable.startsWith(`${path}.`))) {
      const refusal = walk(value, `${path}.`, stored);
      if (refusal) return refusal;
      continue;
    }
    const field = `data.${firstLeaf(value, path)}`;
    return { param: field, message: `${field} is not yours to change: ${NOT_YOURS}.` };
  }
  return undefined;
}

/** The path of the first member a value sets, as deep as it goes (the field a refusal names). */
function firstLeaf(value: unknown, path: string): string {
  const first = isObject(value) ? Object.keys(value)[0] : undefined;
  return first === undefined ? path : firstLeaf((value as Record<string, unknown>)[first], `${path}.${first}`);
}
