import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ACTOR_TYPES } from './event-types.ts';
import type { Actor } from './events.ts';
import { canonicalJson } from './json.ts';
import { citation } from './labelling/evidence.ts';
import { EVIDENCE_LEVELS, isConfirmed } from './labelling/evidence-levels.ts';
import { isLang, LANGUAGES, type Lang } from './labelling/languages.ts';
import { isLegalText, NOT_LEGAL_TEXTS, TEXT_FILES, TEXT_KEYS, type TextKey } from './labelling/texts.ts';
import { wellFormedText } from './text.ts';

/**
 * An organization's correction of a legal term of the e-label (docs/labelling.md#correcting-a-term):
 * the wording it shows instead of the platform's in one language. Only legal terms can be
 * corrected: the keys whose text has a `source` in that language's file (interface texts cannot).
 * Corrections belong to a tenant (organization + environment) and reach the pages of versions
 * published after them: the tenant's corrections are kept once, in one item per distinct set, and a
 * version's page item names the set it was published with by its digest (lib/data/labelling-terms.ts).
 */

export const MAX_TERM_TEXT = 200;
export const MAX_TERM_NOTE = 500;
/**
 * The budget of a tenant's corrections: the UTF-8 bytes of all its corrected texts together
 * (64 KiB). Checked when a correction is written: one that would take the total over it is a 422
 * naming `text`. It bounds the one item that holds them for the pages (lib/data/labelling-terms.ts).
 */
export const MAX_TERM_OVERRIDES_BYTES = 64 * 1024;

/** The corrected texts of one language, by key: what a version's page carries and its translator prefers. */
export type LabelTermTexts = Partial<Record<TextKey, string>>;
/** The corrected texts of every language that has any: one set, as a version's pages show it. */
export type LabelTerms = Partial<Record<Lang, LabelTermTexts>>;

/**
 * What a version's page item carries of the organization's labelling, fixed when the version is
 * published: the digest of its set of corrections (labelTermsDigest; docs/labelling.md#correcting-a-term)
 * and, under `labelLanguages: "signed-off"`, the languages signed off then (docs/labelling.md#sign-off).
 */
export interface LabelTermSetRef {
  labelTermSet?: string;
  labelLanguages?: Lang[];
}

/** What a set of corrections weighs against MAX_TERM_OVERRIDES_BYTES: the UTF-8 bytes of its texts. */
export function labelTermsBytes(terms: LabelTerms): number {
  let bytes = 0;
  for (const texts of Object.values(terms)) for (const text of Object.values(texts ?? {})) bytes += Buffer.byteLength(text ?? '', 'utf8');
  return bytes;
}

/** The digest that names a set of corrections (`sha256:` + 43 base64url characters): equal sets, equal digests. */
export const labelTermsDigest = (terms: LabelTerms): string => `sha256:${createHash('sha256').update(canonicalJson(terms), 'utf8').digest('base64url')}`;

/** The message of a correction that would take the tenant's total over MAX_TERM_OVERRIDES_BYTES (a 422 naming `text`). */
export const overBudgetMessage = (total: number): string =>
  `text would take the organization's corrections to ${total.toLocaleString('en')} bytes, over their budget of ${MAX_TERM_OVERRIDES_BYTES.toLocaleString('en')} bytes (UTF-8) for all corrected texts together.`;

/** One stored correction. */
export interface LabelTermRecord {
  lang: Lang;
  termKey: TextKey;
  text: string;
  note?: string;
  updatedAt: string;
  updatedBy: Actor;
}

export const isTextKey = (value: string): value is TextKey => (TEXT_KEYS as readonly string[]).includes(value);

/** The platform's entry of `key` in `lang` (its text, rule and evidence). */
export const platformEntry = (lang: Lang, key: TextKey) => TEXT_FILES[lang]?.texts[key];

/**
 * Keys with a source that are still no legal term: a language's name (its endonym from CLDR) names
 * the language in the page's language switch; a correction of it would rename the language.
 */
export const NOT_CORRECTABLE: ReadonlySet<TextKey> = NOT_LEGAL_TEXTS;

/** Whether `key` is a legal term in `lang`: its text names a source, and it is not a language's name. */
export const isLegalTerm = (lang: Lang, key: TextKey): boolean => isLegalText(lang, key);

/** The legal terms of one language, in the order of TEXT_KEYS. */
export const legalTermKeys = (lang: Lang): TextKey[] => TEXT_KEYS.filter((key) => isLegalTerm(lang, key));

/** Every key that is a legal term in at least one language (the OpenAPI document's enum). */
export const LEGAL_TERM_KEYS: readonly TextKey[] = TEXT_KEYS.filter((key) => LANGUAGES.some((lang) => isLegalTerm(lang, key)));

const PLACEHOLDER = /\{(year|per|list|version|date)\}/g;

/** The placeholders a text holds, such as `{list}`, sorted and each once. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[0]))].sort();

/** Whether a placeholder occurs more than once (the page fills each once: "Contains: {list}, {list}" would repeat the list). */
export const repeatsPlaceholder = (text: string): boolean => {
  const all = [...text.matchAll(PLACEHOLDER)].map((m) => m[0]);
  return new Set(all).size !== all.length;
};

/**
 * What a one-line term must not hold: control characters (C0, DEL, C1), format characters (Unicode
 * category Cf: zero-width spaces and joiners, soft hyphens, byte order marks, direction marks and the
 * bidirectional overrides and isolates, which could reorder or hide what a label shows) and the line
 * and paragraph separators U+2028 and U+2029.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** A note may hold line breaks and tabs, no other control character. */
const FORBIDDEN_IN_NOTE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

export const putLabelTermSchema = z.strictObject({
  text: z
    .string({ error: (i) => (i.input === undefined ? 'text is required.' : 'text must be a string.') })
    .trim()
    .min(1, { error: 'text must not be empty.' })
    .max(MAX_TERM_TEXT, { error: `text must be at most ${MAX_TERM_TEXT} characters.` })
    .refine((v) => !FORBIDDEN.test(v), {
      error: 'text must not contain control characters (line breaks, tabs), line or paragraph separators, or format characters (zero-width spaces, soft hyphens, direction marks and overrides).',
      params: { suggestion: 'Send the term as one line of plain text.' },
    })
    .refine((v) => !repeatsPlaceholder(v), { error: 'text may hold each placeholder (such as {list}) only once.' })
    .superRefine(wellFormedText('text'))
    .describe(`The organization's wording: 1 to ${MAX_TERM_TEXT} characters, trimmed, one line; the platform text's placeholders (such as {list}) kept, no others`),
  note: z
    .string({ error: 'note must be a string.' })
    .trim()
    .max(MAX_TERM_NOTE, { error: `note must be at most ${MAX_TERM_NOTE} characters.` })
    .refine((v) => !FORBIDDEN_IN_NOTE.test(v), { error: 'note must not contain control characters other than line breaks and tabs.' })
    .superRefine(wellFormedText('note'))
    .optional()
    .describe(`Why the wording differs, such as the source it follows; at most ${MAX_TERM_NOTE} characters`),
});
export type PutLabelTermInput = z.infer<typeof putLabelTermSchema>;

/**
 * The query of `GET /v1/labelling/terms`: `lang`, one or more language codes separated by commas
 * (API Gateway joins a repeated `lang` so too); all 24 when absent.
 */
const LANG_LIST_PATTERN = `^(?:${LANGUAGES.join('|')})(?:,(?:${LANGUAGES.join('|')}))*$`;
export const listLabelTermsQuerySchema = z.strictObject({
  lang: z
    .string({ error: 'lang must be a string.' })
    .meta({
      description: `One or more of the 24 language codes, separated by commas (${LANGUAGES.join(', ')}); all 24 when absent`,
      pattern: LANG_LIST_PATTERN,
    })
    .optional()
    .transform((value, ctx): Lang[] => {
      if (value === undefined) return [...LANGUAGES];
      const parts = value.split(',').map((part) => part.trim());
      const bad = parts.find((part) => !isLang(part));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `lang must be language codes separated by commas, each one of: ${LANGUAGES.join(', ')}; '${bad}' is not.` });
        return z.NEVER;
      }
      return [...new Set(parts)] as Lang[];
    }),
  status: z
    .enum(['confirmed', 'unconfirmed'], { error: 'status must be confirmed or unconfirmed.' })
    .optional()
    .describe('Only the terms whose platform wording is confirmed (evidence official or official-copy), or only the others'),
});

export const TERM_STATUSES = ['confirmed', 'unconfirmed'] as const;

export const labelTermSchema = z
  .object({
    lang: z.enum(LANGUAGES),
    termKey: z.string().describe('A key of the e-label texts that is a legal term in this language'),
    text: z.string().describe("What the organization's pages show: the override's text if there is one, else the platform's"),
    platformText: z.string(),
    source: z.string().describe('The id of the platform wording’s source (docs/labelling.md#sources)'),
    status: z
      .enum(TERM_STATUSES)
      .describe("Whether the platform wording is confirmed in this language: its evidence is the act in the Official Journal or a faithful copy (evidence.level official or official-copy)"),
    evidence: z
      .object({
        level: z.enum(EVIDENCE_LEVELS).describe('official: read in the Official Journal; official-copy: a faithful copy or an authority’s page; secondary: another page; unconfirmed: the platform’s own wording'),
        source: z.string().describe('The id of the source read (docs/labelling.md#evidence)'),
        citation: z.string().describe('What the wording rests on: the source, its Official Journal reference where it has one, and any note'),
      })
      .describe('The evidence behind the platform wording in this language (docs/labelling.md#evidence)'),
    override: z
      .object({
        text: z.string(),
        note: z.string().nullable(),
        updatedAt: z.iso.datetime(),
        updatedBy: z.object({ type: z.enum(ACTOR_TYPES), id: z.string() }),
      })
      .nullable()
      .describe("The organization's correction in this environment, or null"),
  })
  .meta({ id: 'LabellingTerm' });
export type LabelTerm = z.infer<typeof labelTermSchema>;

/** The API form of a term: the platform's wording and the tenant's correction, if any. */
export function toLabelTermView(lang: Lang, termKey: TextKey, override: LabelTermRecord | undefined): LabelTerm {
  const entry = platformEntry(lang, termKey);
  const platformText = entry?.text ?? termKey;
  const evidence = entry?.evidence ?? { level: 'unconfirmed' as const, source: 'platform' };
  return {
    lang,
    termKey,
    text: override?.text ?? platformText,
    platformText,
    source: entry?.source ?? '',
    status: isConfirmed(evidence.level) ? 'confirmed' : 'unconfirmed',
    evidence: { level: evidence.level, source: evidence.source, citation: citation(evidence) },
    override: override ? { text: override.text, note: override.note ?? null, updatedAt: override.updatedAt, updatedBy: override.updatedBy } : null,
  };
}
