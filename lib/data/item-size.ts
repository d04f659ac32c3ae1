/**
 * DynamoDB's item size, the one model of it in this code base: what the 400 KB item limit and
 * the capacity units are counted on. The rule, as the DynamoDB developer guide ("Item sizes and
 * formats") gives it:
 *
 * - an item is the sum of its attributes: each attribute's name in UTF-8 bytes plus its value;
 * - a string is its UTF-8 bytes; a binary value its raw bytes (not base64);
 * - a number is about one byte per two significant digits plus one (leading and trailing zeros
 *   do not count);
 * - a boolean or a null is one byte;
 * - a list or a map is three bytes plus, for each element, one byte and the element (a map's
 *   element also counts its key's UTF-8 bytes, as an attribute name);
 * - a set (string, number or binary) is its elements' sizes.
 *
 * Numbers are an approximation by the guide's own words; everything else is exact. Callers that
 * must stay under a limit keep headroom (lib/domain/imports.ts, IMPORT_CHUNK_MAX_BYTES).
 */

/** DynamoDB's largest item: 400 KB (DynamoDB counts 1 KB as 1,024 bytes). */
export const DYNAMODB_MAX_ITEM_BYTES = 400 * 1024;

/**
 * The most a published version's largest item (its version item or page item, lib/data/passports.ts)
 * may take: DynamoDB's limit less 16 KiB for what the GTIN item and the `passport.published` event
 * hold beside the same passport. A tenant's corrections of legal terms are not among them: they are
 * stored once per tenant, not on a version's items (docs/labelling.md#correcting-a-term); a page
 * item names them by a digest of 50 bytes, counted here like any other attribute.
 */
export const MAX_PUBLISHED_ITEM_BYTES = DYNAMODB_MAX_ITEM_BYTES - 16 * 1024;

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Significant digits of a number: its decimal digits without sign, exponent, point, leading and trailing zeros. */
function significantDigits(value: number | bigint): number {
  const text = typeof value === 'bigint' ? value.toString() : Math.abs(value).toExponential();
  // toExponential writes one digit before the point and every significant digit after it, nothing more.
  const mantissa = (typeof value === 'bigint' ? text.replace(/^-/, '') : text.split('e')[0]!).replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.max(1, mantissa.length);
}

/** The size of a number attribute value: one byte per two significant digits, plus one. */
export const numberBytes = (value: number | bigint): number => Math.ceil(significantDigits(value) / 2) + 1;

/** The size of one attribute value (without its name), as marshalled by the document client. */
export function valueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (value instanceof Set) {
    let bytes = 0;
    for (const element of value) bytes += valueBytes(element);
    return bytes;
  }
  if (Array.isArray(value)) {
    let bytes = 3;
    for (const element of value) bytes += 1 + valueBytes(element);
    return bytes;
  }
  if (typeof value === 'object') {
    // A NumberValue of the document client (a number kept as its text) has a `value` string.
    if (value.constructor?.name === 'NumberValue' && typeof (value as { value?: unknown }).value === 'string') {
      return Math.ceil(Math.max(1, (value as { value: string }).value.replace(/[-+.]|e.*$/gi, '').replace(/^0+|0+$/g, '').length) / 2) + 1;
    }
    let bytes = 3;
    for (const [name, element] of Object.entries(value)) {
      if (element === undefined) continue;
      bytes += 1 + utf8(name) + valueBytes(element);
    }
    return bytes;
  }
  return 0;
}

/** The size of an item: each top-level attribute's name and value (an item has no map overhead of its own). */
export function itemBytes(item: Readonly<Record<string, unknown>>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    bytes += utf8(name) + valueBytes(value);
  }
  return bytes;
}
