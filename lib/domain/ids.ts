import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random characters from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Product ids are UUID v7, so they sort by creation time. */
export const newProductId = (): string => uuidv7();

/** Short prefixed ids (`org_…`, `key_…`, `ps_…`, `sup_…`): lower-case, URL- and label-safe. */
export const newPrefixedId = (prefix: string, length = 20): string => `${prefix}_${randomString(length, BASE36)}`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A prefixed id that sorts by creation time (millisecond timestamp, then randomness), so a query
 * over such ids lists oldest first: `sup_0mhx3k2a1b…`.
 */
export const newSortableId = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36).padStart(9, '0')}${randomString(11, BASE36)}`;
