/**
 * Dotted paths into plain JSON objects (`circularity.safetyMeasures.extinguishingAgent`): read one,
 * copy a chosen set into a new object, list the leaves. Element paths go through objects only,
 * never into arrays; leaf paths name array entries as `[0]`. No imports.
 */
type Json = unknown;

const isRecord = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted path of objects, or undefined. Own properties only. */
export function valueAt(data: Json, path: string): Json {
  let node: Json = data;
  for (const key of path.split('.')) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** A deep copy of a JSON value. */
export const copyJson = <T>(value: T): T => structuredClone(value);

/**
 * A new object with the values at `paths` of `source`, each copied, on the objects that lead to
 * them; paths `source` does not have are left out, and so are objects left empty.
 */
export function pickPaths(source: Json, paths: Iterable<string>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const path of paths) {
    const value = valueAt(source, path);
    if (value === undefined) continue;
    setAt(out, path, copyJson(value));
  }
  return out;
}

/** Sets `value` at a dotted path of `target`, making the objects on the way. Mutates `target`. */
export function setAt(target: Record<string, Json>, path: string, value: Json): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (!isRecord(next)) {
      const made: Record<string, Json> = {};
      Object.defineProperty(node, key, { value: made, enumerable: true, writable: true, configurable: true });
      node = made;
    } else node = next;
  }
  Object.defineProperty(node, keys.at(-1) as string, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Every leaf of a JSON value as a path: object keys joined by dots, array entries as `[i]`
 * (`circularity.recycledContent[0].recycledMaterial`). An empty object or array is a leaf itself.
 */
export function leafPaths(value: Json, prefix = ''): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [prefix];
    return value.flatMap((entry, index) => leafPaths(entry, `${prefix}[${index}]`));
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return [prefix];
    return keys.flatMap((key) => leafPaths(value[key], prefix === '' ? key : `${prefix}.${key}`));
  }
  return [prefix];
}

/** True when `path` is `prefix` or lies under it (`a.b` covers `a.b`, `a.b.c` and `a.b[0]`, not `a.bc`). */
export const covers = (prefix: string, path: string): boolean =>
  path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
