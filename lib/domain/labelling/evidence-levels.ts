/**
 * How well the wording of a legal text or vocabulary name is supported, in its language
 * (docs/labelling.md#evidence): four levels, strongest first. No imports: the resolver, the
 * services and the tests all read it.
 *
 * - `official`: read in that language version of an act or Commission notice as published in the
 *   Official Journal (its source names the OJ reference);
 * - `official-copy`: read in a faithful copy of the act's text or on a public authority's page;
 * - `secondary`: read on another page (an association, a vendor, a summary, a draft);
 * - `unconfirmed`: the platform's own wording; no source read shows it.
 */
export const EVIDENCE_LEVELS = ['official', 'official-copy', 'secondary', 'unconfirmed'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** The evidence of one wording: its level and the id of the source read (lib/domain/labelling/evidence-sources.json). */
export interface Evidence {
  level: EvidenceLevel;
  source: string;
  /** Why the level is what it is, where that is not plain (a contested phrase). */
  note?: string;
}

/** The levels that count as confirmed (the API's `status: "confirmed"`): the act itself or a faithful copy of it. */
export const isConfirmed = (level: EvidenceLevel): boolean => level === 'official' || level === 'official-copy';
