import { InvalidRequestError } from './errors.ts';
import { rawBody } from './raw-body.ts';
import type { HttpMiddleware } from './types.ts';

/**
 * How deep a JSON request body may nest: objects and arrays inside each other (docs/security.md#parser-budgets).
 * The deepest body the API takes is a passport's translated ingredient text (`data.ingredients[n].text.de`:
 * 4 levels); 32 leaves room for any honest client and bounds every recursive walk of a parsed body
 * (zod, the merge patch, the webhook mapping, RFC 8785 canonicalisation) far below the stack's limit.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * The byte offset at which a JSON text first nests deeper than `max`, or undefined. One pass over
 * the bytes with no recursion and no allocation (strings are skipped, escapes included), so it is
 * safe on any input before JSON.parse sees it; the syntax itself is left to the parser.
 */
export function depthExceededAt(bytes: Uint8Array, max = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > max) return i;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return undefined;
}

/** The 400 for a body nested past the budget, naming the byte where it went too deep. */
export function tooDeep(offset: number, max = MAX_JSON_DEPTH, what = 'The JSON body'): InvalidRequestError {
  return new InvalidRequestError(`${what} nests objects and arrays deeper than ${max} levels (at byte ${offset}).`, {
    suggestion: `Send a flatter document: at most ${max} levels of objects and arrays.`,
  });
}

/**
 * Refuses a JSON body nested deeper than MAX_JSON_DEPTH with 400, before it is parsed. Register it
 * after captureRawBody (it reads the captured bytes) and before the JSON body parser.
 */
export function jsonDepthLimit(max = MAX_JSON_DEPTH): HttpMiddleware {
  return {
    before: ({ event }) => {
      const offset = depthExceededAt(rawBody(event), max);
      if (offset !== undefined) throw tooDeep(offset, max);
    },
  };
}
