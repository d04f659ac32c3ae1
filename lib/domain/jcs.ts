/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the one serialization of a JSON value that every
 * party computes alike, so a digest over it can be recomputed by anyone (docs/lifecycle.md#digest-chain).
 *
 * - Objects: members sorted by their names' UTF-16 code units (RFC 8785 §3.2.3), which is how
 *   JavaScript compares strings; members whose value is `undefined` are not JSON and are left out.
 * - Strings and numbers: ECMAScript's JSON.stringify, which is exactly what RFC 8785 §3.2.2
 *   prescribes (shortest round-trip number form, minimal string escaping).
 * - No white space.
 * Values JSON cannot carry (NaN, Infinity, functions, bigint) are refused.
 */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS cannot represent a non-finite number.');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : jcs(item))).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${jcs(member)}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`JCS cannot represent a ${typeof value}.`);
}
