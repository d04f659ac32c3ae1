/**
 * RFC 7396 JSON Merge Patch: a patch object's members replace the target's, `null` removes one,
 * nested objects merge member by member, and anything else (an array, a string) replaces the
 * target whole. Members are defined, not assigned, so a `__proto__` member stays a plain member
 * (which the schema then refuses) instead of changing a prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isObject(target)) for (const [name, value] of Object.entries(target)) define(result, name, value);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else define(result, name, mergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value));
  }
  return result;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function define(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}
