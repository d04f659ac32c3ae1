import { createHash } from 'node:crypto';
import { canonicalJson } from '../json.ts';
import { isLegalTerm, type LabelTermTexts } from '../labelling-term.ts';
import { citation } from './evidence.ts';
import type { Evidence } from './evidence-levels.ts';
import type { Lang } from './languages.ts';
import { TEXT_FILES, TEXT_KEYS } from './texts.ts';
import { nameEvidence, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS } from './vocabulary.ts';

/**
 * The legal wording an organization's e-labels use in one language, with the evidence behind each
 * (docs/labelling.md#evidence): every legal text (with the organization's corrections) and every
 * vocabulary name. What a compliance officer signs off for a language, and what a change of
 * re-opens: the digest covers each term's key, wording and evidence.
 */

/** The evidence of a wording the organization wrote itself (a correction): its own, not the platform's. */
export const ORGANIZATION_EVIDENCE: Evidence = { level: 'unconfirmed', source: 'organization' };

export interface TermInUse {
  /** `text:contains`, `category:acidityRegulator`, `ingredient:tartaric-acid`: unique within a language. */
  key: string;
  kind: 'text' | 'category' | 'ingredient';
  /** What the pages show: the organization's correction where it has one, else the platform's wording. */
  text: string;
  platformText: string;
  /** Whether `text` is the organization's correction (PUT /v1/labelling/terms/{lang}/{termKey}). */
  overridden: boolean;
  /** The rule the term comes from (docs/labelling.md#sources). */
  rule: string;
  /** The evidence of `text`: the organization's own for a correction, else the platform wording's. */
  evidence: Evidence;
  /** The evidence of the platform's wording, corrected or not. */
  platformEvidence: Evidence;
  /** One line saying what `evidence` rests on (the source, its Official Journal reference, any note). */
  citation: string;
}

/**
 * Every legal text of `lang` (in the order of TEXT_KEYS) and every vocabulary name (categories, then
 * ingredients, in the vocabulary's order), `overrides` being the organization's corrected texts of
 * that language.
 */
export function termsInUse(lang: Lang, overrides: LabelTermTexts = {}): TermInUse[] {
  const terms: TermInUse[] = [];
  for (const key of TEXT_KEYS) {
    if (!isLegalTerm(lang, key)) continue;
    const entry = TEXT_FILES[lang]?.texts[key];
    const platformEvidence = entry?.evidence ?? { level: 'unconfirmed', source: 'platform' };
    const corrected = overrides[key];
    const evidence = corrected === undefined ? platformEvidence : ORGANIZATION_EVIDENCE;
    terms.push({
      key: `text:${key}`,
      kind: 'text',
      text: corrected ?? entry?.text ?? key,
      platformText: entry?.text ?? key,
      overridden: corrected !== undefined,
      rule: entry?.source ?? '',
      evidence,
      platformEvidence,
      citation: citation(evidence),
    });
  }
  const names = [
    ...VOCABULARY_CATEGORIES.map((entry) => ({ kind: 'category' as const, id: entry.id, entry })),
    ...VOCABULARY_INGREDIENTS.map((entry) => ({ kind: 'ingredient' as const, id: entry.code, entry })),
  ];
  for (const { kind, id, entry } of names) {
    const evidence = nameEvidence(entry, lang);
    terms.push({
      key: `${kind}:${id}`,
      kind,
      text: entry.names[lang],
      platformText: entry.names[lang],
      overridden: false,
      rule: entry.source,
      evidence,
      platformEvidence: evidence,
      citation: citation(evidence),
    });
  }
  return terms;
}

/**
 * The digest of a language's terms (`sha256:` + 43 base64url characters): it changes when any term's
 * wording or evidence changes, ours or the organization's.
 */
export const termsInUseDigest = (terms: readonly TermInUse[]): string =>
  `sha256:${createHash('sha256')
    .update(canonicalJson(terms.map((term) => ({ key: term.key, text: term.text, level: term.evidence.level, source: term.evidence.source }))), 'utf8')
    .digest('base64url')}`;
