import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ACTOR_TYPES } from '../event-types.ts';
import type { Actor } from '../events.ts';
import { canonicalJson } from '../json.ts';
import { EVIDENCE_LEVELS, type EvidenceLevel } from './evidence-levels.ts';
import { LANGUAGES, type Lang } from './languages.ts';
import { correctionsDigest, type SignOffMark } from './signed-languages.ts';
import type { TextKey } from './texts.ts';
import { termsInUse, type TermInUse } from './terms-in-use.ts';

/**
 * A compliance officer's sign-off of one language of the e-label (docs/labelling.md#sign-off): who
 * signed, when, and what: the digest of every legal text and vocabulary name the organization's
 * pages use in that language (termsInUse, with its corrections), and each term's own digest and
 * wording, so that a later change, the platform's or the organization's, re-opens the sign-off and
 * is named.
 */

/** What one term was when it was signed, or is now: what its digest covers. */
export interface TermState {
  /** What the pages show: the organization's correction, or the platform's wording. */
  text: string;
  evidence: { level: EvidenceLevel; source: string };
  /** Whether `text` is the organization's correction. */
  overridden: boolean;
  /** The platform's wording and its evidence, also under a correction: a change of it re-opens the sign-off too. */
  platformText: string;
  platformEvidence: { level: EvidenceLevel; source: string };
}

/** One term of a sign-off: its key, its state and the digest of both. */
export interface SignedTerm extends TermState {
  key: string;
  digest: string;
}

const sha256 = (value: unknown): string => `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('base64url')}`;

/** A term in use as its sign-off records it. */
export function signedTerm(term: TermInUse): SignedTerm {
  const state: TermState = {
    text: term.text,
    evidence: { level: term.evidence.level, source: term.evidence.source },
    overridden: term.overridden,
    platformText: term.platformText,
    platformEvidence: { level: term.platformEvidence.level, source: term.platformEvidence.source },
  };
  return { key: term.key, ...state, digest: sha256({ key: term.key, ...state }) };
}

/**
 * The digest of a language's terms (`sha256:` + 43 base64url characters): over each term's key and
 * digest, in order. It changes when any term's wording or evidence changes, the platform's (also
 * behind a correction) or the organization's, and when a term comes or goes.
 */
export const signOffDigest = (terms: readonly SignedTerm[]): string => sha256(terms.map((term) => [term.key, term.digest]));

/** Each language's terms as the platform words them, signed: they change only with a deployment, so they are made once per process. */
const platformTerms = new Map<Lang, ReadonlyMap<string, SignedTerm>>();
const platformTermsOf = (lang: Lang): ReadonlyMap<string, SignedTerm> => {
  let terms = platformTerms.get(lang);
  if (terms === undefined) {
    terms = new Map(termsInUse(lang).map((term) => [term.key, signedTerm(term)]));
    platformTerms.set(lang, terms);
  }
  return terms;
};

/**
 * The terms of `lang` as the organization's pages use them, with `corrections` (its corrected texts
 * of that language). A term without a correction is the platform's, made once (a listing of the 24
 * languages digests only the corrected terms again).
 */
export function signedTermsOf(lang: Lang, corrections?: Partial<Record<TextKey, string>>): SignedTerm[] {
  const platform = platformTermsOf(lang);
  if (Object.keys(corrections ?? {}).length === 0) return [...platform.values()];
  return termsInUse(lang, corrections).map((term) => (term.overridden ? signedTerm(term) : (platform.get(term.key) ?? signedTerm(term))));
}

/** The digest of `lang` as the platform words it, without corrections: what PLATFORM_DIGESTS holds (signed-languages.ts). */
export const platformDigestOf = (lang: Lang): string => signOffDigest(signedTermsOf(lang));

/** A stored sign-off: the language's current one (a later sign-off replaces it; the event log keeps each). */
export interface SignOffRecord extends SignOffMark {
  lang: Lang;
  digest: string;
  signedAt: string;
  signedBy: Actor;
  terms: SignedTerm[];
}

/** The sign-off of `lang`'s terms `terms` (signedTermsOf) with `corrections`, by `actor` at `at`. */
export function newSignOff(lang: Lang, terms: SignedTerm[], corrections: Partial<Record<TextKey, string>> | undefined, actor: Actor, at: string): SignOffRecord {
  return {
    lang,
    digest: signOffDigest(terms),
    platformDigest: platformDigestOf(lang),
    correctionsDigest: correctionsDigest(lang, corrections),
    signedAt: at,
    signedBy: actor,
    terms,
  };
}

export const SIGN_OFF_STATUSES = ['signed', 'reopened', 'none'] as const;
export type SignOffStatusName = (typeof SIGN_OFF_STATUSES)[number];

export interface ChangedTerm {
  key: string;
  /** The term as it was signed; null for a term that has come since. */
  before: TermState | null;
  /** The term as it is now; null for a term that is gone. */
  after: TermState | null;
}

const stateOf = ({ key: _key, digest: _digest, ...state }: SignedTerm): TermState => state;

/** The terms whose digest differs between the sign-off and now: in the order of the current terms, then those that are gone. */
export function changedTerms(signed: readonly SignedTerm[], current: readonly SignedTerm[]): ChangedTerm[] {
  const before = new Map(signed.map((term) => [term.key, term]));
  const now = new Set(current.map((term) => term.key));
  const changed: ChangedTerm[] = [];
  for (const term of current) {
    const was = before.get(term.key);
    if (was?.digest !== term.digest) changed.push({ key: term.key, before: was ? stateOf(was) : null, after: stateOf(term) });
  }
  for (const was of signed) if (!now.has(was.key)) changed.push({ key: was.key, before: stateOf(was), after: null });
  return changed;
}

/** A language's sign-off as the API answers it: its status against the terms as they are now. */
export interface SignOffStatus {
  lang: Lang;
  status: SignOffStatusName;
  /** The digest of the terms as they are now: what a sign-off now would record. */
  digest: string;
  signOff: { lang: Lang; digest: string; signedAt: string; signedBy: Actor; termCount: number } | null;
  changedTerms: ChangedTerm[];
}

/** `signed` while the digest still matches, `reopened` (naming what changed) once it does not, `none` without a sign-off. */
export function signOffStatus(lang: Lang, record: SignOffRecord | undefined, current: readonly SignedTerm[]): SignOffStatus {
  const digest = signOffDigest(current);
  if (!record) return { lang, status: 'none', digest, signOff: null, changedTerms: [] };
  const signOff = { lang, digest: record.digest, signedAt: record.signedAt, signedBy: record.signedBy, termCount: record.terms.length };
  if (record.digest === digest) return { lang, status: 'signed', digest, signOff, changedTerms: [] };
  return { lang, status: 'reopened', digest, signOff, changedTerms: changedTerms(record.terms, current) };
}

// ---- The API's schemas --------------------------------------------------------------------------

const DIGEST = /^sha256:[A-Za-z0-9_-]{43}$/;
const langSchema = z.enum(LANGUAGES, { error: `lang must be one of the 24 language codes: ${LANGUAGES.join(', ')}.` });

export const createSignOffSchema = z.strictObject({
  lang: langSchema.describe(`The language signed off: one of ${LANGUAGES.join(', ')}`),
  digest: z
    .string({ error: 'digest must be a string.' })
    .regex(DIGEST, { error: 'digest must be sha256: and 43 base64url characters, as GET /v1/labelling/sign-offs/{lang} answers it.' })
    .optional()
    .describe("The digest of the terms as the signer read them (GET /v1/labelling/sign-offs/{lang}): when the terms changed since, the sign-off is refused (409 naming digest), so that nobody signs wording they did not see"),
});
export type CreateSignOffInput = z.infer<typeof createSignOffSchema>;

export const LABEL_LANGUAGES_SETTINGS = ['all', 'signed-off'] as const;
export type LabelLanguagesSetting = (typeof LABEL_LANGUAGES_SETTINGS)[number];

export const putLabellingSettingsSchema = z.strictObject({
  labelLanguages: z
    .enum(LABEL_LANGUAGES_SETTINGS, { error: 'labelLanguages must be "all" or "signed-off".' })
    .describe('Which languages the e-labels of versions published from now on offer: all 24, or only those whose sign-off holds when the version is published'),
});
export type PutLabellingSettingsInput = z.infer<typeof putLabellingSettingsSchema>;

const evidenceRef = z.object({
  level: z.enum(EVIDENCE_LEVELS).describe('official: read in the Official Journal; official-copy: a faithful copy or an authority’s page; secondary: another page; unconfirmed: nowhere (the platform’s or the organization’s own wording)'),
  source: z.string().describe('The id of the source read (docs/labelling.md#evidence); `organization` for a correction, `platform` for the platform’s own wording'),
});

const termStateSchema = z
  .object({
    text: z.string().describe('What the pages show'),
    evidence: evidenceRef,
    overridden: z.boolean().describe("Whether text is the organization's correction"),
    platformText: z.string(),
    platformEvidence: evidenceRef,
  })
  .meta({ id: 'LabellingSignedTerm' });

const actorSchema = z.object({
  type: z.enum(ACTOR_TYPES),
  id: z.string().describe("The user's id (usr_…) or the API key's id (key_…)"),
  name: z.string().optional().describe("The user's e-mail or the key's name, as they were when it was signed"),
});

export const signOffStatusSchema = z
  .object({
    lang: z.enum(LANGUAGES),
    status: z.enum(SIGN_OFF_STATUSES).describe('signed: the terms are as they were signed; reopened: a term changed since (changedTerms); none: never signed off'),
    digest: z.string().describe('The digest of the terms as they are now: what a sign-off now would record'),
    signOff: z
      .object({
        lang: z.enum(LANGUAGES),
        digest: z.string().describe('The digest of the terms as they were signed'),
        signedAt: z.iso.datetime(),
        signedBy: actorSchema.describe('Who signed: a dashboard user or an API key with labelling:write'),
        termCount: z.int().describe('How many terms were signed: the legal texts and vocabulary names of the language'),
      })
      .nullable()
      .describe("The language's latest sign-off, or null"),
    changedTerms: z
      .array(z.object({ key: z.string().describe('text:contains, category:acidityRegulator, ingredient:tartaric-acid'), before: termStateSchema.nullable(), after: termStateSchema.nullable() }))
      .describe('For a reopened sign-off, each term that changed since: before as signed (null for a term that has come since), after as it is now (null for one that is gone)'),
  })
  .meta({ id: 'LabellingSignOffStatus' });

const termInUseSchema = z
  .object({
    key: z.string().describe('text:{textKey}, category:{id} or ingredient:{code}'),
    kind: z.enum(['text', 'category', 'ingredient']),
    text: z.string().describe("What the pages show: the organization's correction where it has one"),
    platformText: z.string(),
    overridden: z.boolean(),
    rule: z.string().describe('The rule the term comes from (docs/labelling.md#sources)'),
    evidence: evidenceRef.extend({ citation: z.string().describe('What the wording rests on: the source, its Official Journal reference where it has one, and any note') }),
    platformEvidence: evidenceRef,
  })
  .meta({ id: 'LabellingTermInUse' });

export const languageSignOffSchema = signOffStatusSchema
  .extend({ terms: z.array(termInUseSchema).describe('Every legal text and vocabulary name of the language as the pages use it, with its evidence: what a sign-off signs') })
  .meta({ id: 'LabellingLanguageSignOff' });
export type LanguageSignOff = z.infer<typeof languageSignOffSchema>;

export const labellingSettingsSchema = z
  .object({
    labelLanguages: z.enum(LABEL_LANGUAGES_SETTINGS).describe('all (the default): the e-labels offer the 24 languages; signed-off: versions published from now on offer only the languages whose sign-off holds when they are published'),
    signedLanguages: z.array(z.enum(LANGUAGES)).describe('The languages whose sign-off holds now: those a version published now would offer under signed-off (none: its label language alone)'),
    updatedAt: z.iso.datetime().nullable().describe('When labelLanguages was last saved; null while it never was'),
  })
  .meta({ id: 'LabellingSettings' });
export type LabellingSettings = z.infer<typeof labellingSettingsSchema>;

/** The API form of a term in use. */
export const termInUseView = (term: TermInUse) => ({
  key: term.key,
  kind: term.kind,
  text: term.text,
  platformText: term.platformText,
  overridden: term.overridden,
  rule: term.rule,
  evidence: { level: term.evidence.level, source: term.evidence.source, citation: term.citation },
  platformEvidence: { level: term.platformEvidence.level, source: term.platformEvidence.source },
});
