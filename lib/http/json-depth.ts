import { InvalidRequestError } from './errors.ts';
import { rawBody } from './raw-body.ts';
import type { HttpMiddleware } from './types.ts';
import { formatPath } from './validation.ts';

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

const COMMA = 0x2c; // ,

/** One open object or array of the scan: an object's keys so far and its current key, or an array's index. */
interface Frame {
  keys: Set<string> | undefined;
  /** The next string of an object is a key (after `{` and `,`). */
  expectKey: boolean;
  key: string;
  index: number;
}

/** What jsonBodyProblem found: a body nested past the budget, or a key an object holds twice. */
export type JsonBodyProblem =
  | { kind: 'depth'; offset: number }
  | { kind: 'duplicate'; offset: number; key: string; path: Array<string | number> };

/** The UTF-8 text of bytes[start, end) (a Buffer's own slice is the fast way). */
const utf8 = (bytes: Uint8Array, start: number, end: number): string =>
  Buffer.isBuffer(bytes) ? bytes.toString('utf8', start, end) : Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');

/** A key's text after JSON unescaping ("\u0061" is "a"); undefined for a malformed escape, which the parser refuses. */
function keyText(bytes: Uint8Array, open: number, close: number, escaped: boolean): string | undefined {
  if (!escaped) return utf8(bytes, open + 1, close);
  try {
    return JSON.parse(utf8(bytes, open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The first thing in a JSON text that the API refuses before parsing it (docs/security.md#parser-budgets):
 * nesting deeper than `max`, or an object holding the same key twice, compared after unescaping
 * (JSON.parse would keep the last, unseen by whoever read the first). One pass over the bytes, no
 * recursion: a stack of at most `max` open objects and arrays, each object with the set of its
 * keys, dropped when it closes, so time and memory are linear in the body. Arrays of objects with
 * the same keys are fine: each object has its own set. The syntax is left to the parser.
 */
export function jsonBodyProblem(bytes: Uint8Array, max = MAX_JSON_DEPTH): JsonBodyProblem | undefined {
  const frames: Frame[] = [];
  let inString = false;
  let stringStart = 0;
  let escaped = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) {
        escaped = true;
        i++;
      } else if (byte === QUOTE) {
        inString = false;
        const top = frames.at(-1);
        if (top?.keys && top.expectKey) {
          top.expectKey = false;
          const key = keyText(bytes, stringStart, i, escaped);
          if (key === undefined) continue;
          if (top.keys.has(key)) {
            const path = frames.slice(0, -1).map((frame) => (frame.keys ? frame.key : frame.index));
            return { kind: 'duplicate', offset: stringStart, key, path: [...path, key] };
          }
          top.keys.add(key);
          top.key = key;
        }
      }
    } else if (byte === QUOTE) {
      inString = true;
      stringStart = i;
      escaped = false;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (frames.length >= max) return { kind: 'depth', offset: i };
      frames.push({ keys: byte === OPEN_OBJECT ? new Set() : undefined, expectKey: true, key: '', index: 0 });
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      frames.pop();
    } else if (byte === COMMA) {
      const top = frames.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.index++;
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

/** The 400 for an object holding a key twice, naming the key by its full path (lib/http/validation.ts formatPath). */
export function duplicateKey(problem: { key: string; path: ReadonlyArray<string | number>; offset: number }, what = 'The JSON body'): InvalidRequestError {
  const param = formatPath(problem.path);
  return new InvalidRequestError(`${what} has the key '${problem.key}' twice in one object (at ${param}, byte ${problem.offset}).`, {
    param,
    suggestion: 'Send each key once per object: JSON parsers disagree on which of two equal keys wins.',
  });
}

/** The error for what jsonBodyProblem found. */
export const jsonBodyError = (problem: JsonBodyProblem, max = MAX_JSON_DEPTH, what = 'The JSON body'): InvalidRequestError =>
  problem.kind === 'depth' ? tooDeep(problem.offset, max, what) : duplicateKey(problem, what);

/**
 * Refuses, with 400 and before it is parsed, a JSON body nested deeper than MAX_JSON_DEPTH or
 * holding a key twice in one object (jsonBodyProblem). Register it after captureRawBody (it reads
 * the captured bytes) and before the JSON body parser.
 */
export function jsonDepthLimit(max = MAX_JSON_DEPTH): HttpMiddleware {
  return {
    before: ({ event }) => {
      const problem = jsonBodyProblem(rawBody(event), max);
      if (problem) throw jsonBodyError(problem, max);
    },
  };
}
