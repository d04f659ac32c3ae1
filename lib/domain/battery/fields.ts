import * as z from 'zod';
import { LANGUAGES, type Lang } from '../labelling/languages.ts';
import { plainText, REFUSED_IN_A_LINE, REFUSED_IN_LINES } from '../text.ts';

/**
 * The field schemas every battery aspect is built from (docs/battery.md#tightenings). Each one
 * names its field in every message, carries a budget (no string or array without a maximum, no
 * number without bounds), and says in its JSON Schema what zod checks, so that the OpenAPI
 * document states the same rules.
 */

/** Why a value is not of its type: "x is required." for a missing one, else "x must be …". */
const typeError = (field: string, expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required.` : `${field} must be ${expected}.`;

/**
 * One line of text: at least one visible character, and none of what lib/domain/text.ts refuses
 * (control characters, bidi overrides and isolates, noncharacters, lone surrogates). JSON Schema
 * states it as a single pattern (no look-ahead, so that a generator can sample it).
 */
export const SINGLE_LINE_PATTERN = `^[^${REFUSED_IN_A_LINE}]*[^\\s${REFUSED_IN_A_LINE}][^${REFUSED_IN_A_LINE}]*$`;
/** Free text over several lines: as one line, and tabs and line feeds allowed. */
export const MULTI_LINE_PATTERN = `^[^${REFUSED_IN_LINES}]*[^\\s${REFUSED_IN_A_LINE}][^${REFUSED_IN_LINES}]*$`;

/** Text of at most `max` characters (200 unless told), one line unless `multiLine`. */
export const text = (field: string, max = 200, { multiLine = false }: { multiLine?: boolean } = {}) =>
  plainText(z.string({ error: typeError(field, 'a string') }).max(max, { error: `${field} must be at most ${max} characters.` }), field, { lines: multiLine })
    // After the rule, whose message names the character: this one says the rest (empty, or a line break in one line).
    .regex(new RegExp(multiLine ? MULTI_LINE_PATTERN : SINGLE_LINE_PATTERN, 'u'), {
      error: `${field} must not be empty${multiLine ? '' : ' and must be one line'}, without control characters.`,
    });

/**
 * An e-mail address as mail systems take it: dot-separated words of letters, digits, `_` and `-`
 * before the `@`, a domain name of letters, digits and hyphens with a top-level domain of letters
 * after it. The data model's general product information wrote this pattern without its
 * backslashes (`^[w.-]+@[w.-]+.[A-Za-z]{2,}$`, which accepts only the letters w, dots and dashes
 * before the last dot); its circularity aspect has it right (`^[\w.-]+@[\w.-]+\.[A-Za-z]{2,}$`).
 * Every address this pattern accepts, that one accepts too, so an address valid in one aspect is
 * valid in the other (docs/battery.md#tightenings).
 */
export const EMAIL_PATTERN = '^[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$';
/** The pattern as the data model's general product information publishes it (for docs and tests). */
export const MODEL_EMAIL_PATTERN_AS_PUBLISHED = '^[w.-]+@[w.-]+.[A-Za-z]{2,}$';
export const MAX_EMAIL_LENGTH = 254;

export const email = (field: string) =>
  z
    .email({
      pattern: new RegExp(EMAIL_PATTERN, 'u'),
      error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be an e-mail address such as ops@cell-maker.example.`),
    })
    .max(MAX_EMAIL_LENGTH, { error: `${field} must be at most ${MAX_EMAIL_LENGTH} characters.` });

/** A path segment's, query's or fragment's character: unreserved, sub-delimiter, `:`, `@`, or a percent-escape. */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * An absolute https URL with a domain name (no IP address, no user name or password) and only the
 * characters RFC 3986 allows, escapes included. The data model says `format: uri`, which takes
 * `telnet://192.0.2.16:80/` (its own sample); a passport's links are read by the public and must
 * open in a browser over a secure connection (docs/battery.md#tightenings).
 */
export const HTTPS_URL_PATTERN = `^https://(?:${HOST_LABEL}\\.)+[A-Za-z]{2,63}(?::[0-9]{1,5})?(?:/(?:${PCHAR}|/)*)?(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`;
export const MAX_URL_LENGTH = 2048;

export const url = (field: string) =>
  z
    .string({ error: typeError(field, 'a URL') })
    .max(MAX_URL_LENGTH, { error: `${field} must be at most ${MAX_URL_LENGTH} characters.` })
    .regex(new RegExp(HTTPS_URL_PATTERN, 'u'), { error: `${field} must be an absolute https URL such as https://www.cell-maker.example/manual.pdf.` })
    .refine((value) => URL.canParse(value), { error: `${field} must be an absolute https URL such as https://www.cell-maker.example/manual.pdf.` })
    .meta({ format: 'uri' });

/**
 * A date and time with its offset from UTC (`2027-03-04T08:15:00Z`, `…+01:00`). The data model
 * writes XML Schema's dateTime as an unanchored pattern with the offset optional; an instant
 * without an offset means a different moment in each time zone, so the offset is required here.
 */
export const dateTime = (field: string) =>
  z.iso.datetime({
    offset: true,
    error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a date and time with its offset, such as 2027-03-04T08:15:00Z.`),
  });

/** The smallest magnitude a non-zero number may have: DynamoDB stores nothing under 1e-130 (docs/battery.md#tightenings). */
export const MIN_NON_ZERO_MAGNITUDE = 1e-9;

export interface MeasureOptions {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** What the number counts, for the OpenAPI description (the data model itself names no units). */
  unit?: string;
  /** What the number is; the unit and the bounds are added to it. */
  description?: string;
}

/**
 * A finite number in [min, max], 0 or at least 1e-9 in magnitude. The data model types its numbers
 * as any JSON number; the bounds here are plausibility budgets, stated in each field's description.
 */
export const measure = (field: string, { min, max, integer = false, unit, description: what }: MeasureOptions) => {
  let schema = z.number({ error: typeError(field, integer ? 'a whole number' : 'a number') });
  if (integer) schema = schema.int({ error: `${field} must be a whole number.` });
  const branches: Array<Record<string, number>> = [{ const: 0 }];
  if (max >= MIN_NON_ZERO_MAGNITUDE) branches.push({ minimum: MIN_NON_ZERO_MAGNITUDE });
  if (min <= -MIN_NON_ZERO_MAGNITUDE) branches.push({ maximum: -MIN_NON_ZERO_MAGNITUDE });
  const bounded = schema
    .min(min, { error: `${field} must be ${min} or more.` })
    .max(max, { error: `${field} must be at most ${max}.` })
    .refine((value) => value === 0 || Math.abs(value) >= MIN_NON_ZERO_MAGNITUDE, { error: `${field} must be 0 or at least ${MIN_NON_ZERO_MAGNITUDE} in magnitude.` });
  const bounds = unit ? `In ${unit}, ${min} to ${max}` : `${min} to ${max}`;
  const description = what === undefined ? bounds : `${what}. ${bounds}`;
  return bounded.meta(integer ? { description } : { description, anyOf: branches });
};

/** A percentage, 0 to 100. */
export const percent = (field: string, description?: string) => measure(field, { min: 0, max: 100, unit: '%', description });

/** An array of at most `max` entries. */
export const list = <T extends z.ZodType>(field: string, item: T, max: number) =>
  z.array(item, { error: typeError(field, 'an array') }).max(max, { error: `${field} may list at most ${max} entries.` });

/** One of the values of an enumeration, named in the message. */
export const choice = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, {
    error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be one of: ${values.join(', ')}.`),
  });

/**
 * Text in several languages (the data model's MultiLanguageText, an object with no further rule):
 * keyed by one of the 24 official EU languages, at least one, each text at most `max` characters.
 */
export const multiLanguageText = (field: string, max = 1000) =>
  z
    .strictObject(Object.fromEntries(LANGUAGES.map((lang) => [lang, text(`${field}.${lang}`, max, { multiLine: true }).optional()])) as Record<Lang, z.ZodOptional<ReturnType<typeof text>>>, {
      error: `${field} must be an object of texts by language code (${LANGUAGES.join(', ')}).`,
    })
    .refine((texts) => Object.values(texts).some((value) => value !== undefined), { error: `${field} must give the text in at least one language.` })
    .meta({ anyOf: LANGUAGES.map((lang) => ({ required: [lang] })) });

/**
 * A CAS Registry Number as the data model writes it (`^\d{2,7}-\d{2}-\d{1}$`), with its check
 * digit: the other digits, weighted 1, 2, 3, … from the right, sum to the check digit modulo 10.
 */
export const CAS_PATTERN = '^\\d{2,7}-\\d{2}-\\d$';
export const casCheckDigitHolds = (value: string): boolean => {
  const digits = value.replaceAll('-', '');
  const body = digits.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i + 1);
  return sum % 10 === Number(digits.at(-1));
};

export const casNumber = (field: string) =>
  z
    .string({ error: typeError(field, 'a CAS Registry Number') })
    .regex(new RegExp(CAS_PATTERN, 'u'), { error: `${field} must be a CAS Registry Number such as 7439-93-2.` })
    .refine(casCheckDigitHolds, { error: `${field} is not a CAS Registry Number: its check digit does not match.` })
    // The check digit as a rule of the document, like a GTIN's (test/support/json-schema-arbitrary.ts generates it).
    .meta({ 'x-check-digit': 'CAS' });

/** A media type (RFC 6838 names): `application/pdf`, `image/svg+xml`. */
export const MIME_TYPE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$';

export const mimeType = (field: string) =>
  z
    .string({ error: typeError(field, 'a media type') })
    .max(255, { error: `${field} must be at most 255 characters.` })
    .regex(new RegExp(MIME_TYPE_PATTERN, 'u'), { error: `${field} must be a media type such as application/pdf.` });
