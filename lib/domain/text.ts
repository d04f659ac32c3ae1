import type * as z from 'zod';

/**
 * The one rule for text a client sends (docs/api.md#text-and-json-rules): what a product's name, a
 * supplier's, a description or a passport's free text may not hold, because it would act on a
 * terminal (ESC, BEL: the brand CLI prints names), reorder what a page shows (U+202E shows
 * "gnilseiR" as "Riesling"), or is no character at all. Identifiers keep their own, stricter
 * patterns.
 *
 * Refused everywhere: the C0 controls U+0000–U+001F (TAB and LF only where lines are allowed),
 * DEL and the C1 controls U+007F–U+009F, the bidirectional embeddings, overrides and isolates
 * U+202A–U+202E and U+2066–U+2069 (the marks LRM, RLM and ALM stay allowed: they reorder nothing),
 * the noncharacters U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of every plane, and lone surrogates (which
 * JSON can spell as "\ud800").
 *
 * Only the type comes from zod, so that the dashboard may import the rule itself.
 */

export type TextProblemKind = 'control' | 'bidi' | 'noncharacter' | 'surrogate';

export interface TextProblem {
  kind: TextProblemKind;
  /** The offending code point (a lone surrogate's code unit). */
  codePoint: number;
  /** Where it is, in UTF-16 code units from the start (as JavaScript's String indexes). */
  index: number;
}

export interface TextRuleOptions {
  /** Free text over several lines: TAB and LF are allowed (CR is not: lines end with LF). */
  lines?: boolean;
}

/**
 * The rule as the characters of a regular expression's class (for a `u` pattern, which matches a
 * lone surrogate by U+D800–U+DFFF and a pair as its code point): what JSON Schema's `pattern` can
 * state of it, for the OpenAPI document. The noncharacters beyond the first plane it cannot state
 * without `\u{…}`; textProblem checks them.
 */
export const REFUSED_IN_A_LINE = '\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF\\uFDD0-\\uFDEF\\uFFFE\\uFFFF';
/** As REFUSED_IN_A_LINE, TAB and LF allowed. */
export const REFUSED_IN_LINES = REFUSED_IN_A_LINE.replace('\\u0000-\\u001F', '\\u0000-\\u0008\\u000B-\\u001F');

const TAB = 0x09;
const LF = 0x0a;

/** Why `cp` may not be in text, or undefined. */
function kindOf(cp: number, lines: boolean): TextProblemKind | undefined {
  if (cp < 0x20) return lines && (cp === TAB || cp === LF) ? undefined : 'control';
  if (cp < 0x7f) return undefined;
  if (cp <= 0x9f) return 'control';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'surrogate';
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return 'noncharacter';
  return undefined;
}

/**
 * The first character of `value` the rule refuses, or undefined. One pass over the code points;
 * a string iterator yields a lone surrogate as itself.
 */
export function textProblem(value: string, options: TextRuleOptions = {}): TextProblem | undefined {
  const lines = options.lines === true;
  let index = 0;
  for (const char of value) {
    const cp = char.codePointAt(0) ?? 0;
    const kind = kindOf(cp, lines);
    if (kind) return { kind, codePoint: cp, index };
    index += char.length;
  }
  return undefined;
}

/**
 * The first noncharacter or lone surrogate of `value`, or undefined: the part of the rule a text
 * with its own rule of controls must follow too (what is no character at all; an outbound message
 * carries it escaped, docs/webhooks-outbound.md#what-a-message-may-hold).
 */
export function illFormedText(value: string): TextProblem | undefined {
  let index = 0;
  for (const char of value) {
    const cp = char.codePointAt(0) ?? 0;
    const kind = kindOf(cp, true);
    if (kind === 'noncharacter' || kind === 'surrogate') return { kind, codePoint: cp, index };
    index += char.length;
  }
  return undefined;
}

const WHAT: Readonly<Record<TextProblemKind, string>> = {
  control: 'control characters',
  bidi: 'bidirectional overrides or isolates',
  noncharacter: 'Unicode noncharacters',
  surrogate: 'lone surrogates',
};

const codePointName = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** "name must not contain control characters (U+001B at character 9)." */
export function textProblemMessage(field: string, problem: TextProblem): string {
  return `${field} must not contain ${WHAT[problem.kind]} (${codePointName(problem.codePoint)} at character ${problem.index + 1}).`;
}

/** What to do about it, for the error's suggestion. */
export function textProblemSuggestion(problem: TextProblem, options: TextRuleOptions = {}): string {
  switch (problem.kind) {
    case 'control':
      return options.lines
        ? 'Send printable text; lines may be separated by LF (\\n) and indented with TAB, nothing else.'
        : 'Send printable text on one line: no escape sequences, tabs or line breaks.';
    case 'bidi':
      return 'Send the text in its logical order without directional formatting characters; the page sets the direction of Arabic and Hebrew itself.';
    default:
      return 'Send well-formed Unicode text (UTF-8 without noncharacters).';
  }
}

/**
 * The rule as a refinement of a string schema: a 422 naming the field (its path in the body is the
 * error's `param`, lib/http/validation.ts). Append it after `trim()`.
 */
export function plainText<S extends z.ZodString>(schema: S, field: string, options: TextRuleOptions = {}): S {
  return schema.superRefine((value, ctx) => {
    const problem = textProblem(value, options);
    if (problem) {
      ctx.addIssue({ code: 'custom', input: value, message: textProblemMessage(field, problem), params: { suggestion: textProblemSuggestion(problem, options) } });
    }
  });
}

/**
 * Only the noncharacters and lone surrogates of the rule, as a string schema's `superRefine`: for a
 * text whose own, stricter rule already says which controls and format characters it refuses (a
 * legal term's corrected wording and its note, lib/domain/labelling-term.ts). A 422 naming the field.
 */
export const wellFormedText =
  (field: string) =>
  (value: string, ctx: z.RefinementCtx<string>): void => {
    const problem = illFormedText(value);
    if (problem) ctx.addIssue({ code: 'custom', input: value, message: textProblemMessage(field, problem), params: { suggestion: textProblemSuggestion(problem) } });
  };
