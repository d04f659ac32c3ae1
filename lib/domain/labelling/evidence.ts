import catalogue from './evidence-sources.json' with { type: 'json' };
import { EVIDENCE_LEVELS, type Evidence, type EvidenceLevel } from './evidence-levels.ts';

/**
 * The sources read for the wording of legal texts and vocabulary names (evidence-sources.json;
 * docs/labelling.md#evidence): each with the strongest level it can support and, for the Official
 * Journal, its reference. No npm imports.
 */

export interface EvidenceSource {
  id: string;
  /** The short code docs/labelling.md and the golden tests cite (E1 …). */
  code: string;
  /** The strongest level a wording read there can have. */
  level: EvidenceLevel;
  title: string;
  /** For an Official Journal publication: "OJ C 196, 8.6.2018, p. 1" (series, number or number of the act, date, page). */
  reference?: string;
  url?: string;
  /** Which language versions or parts were read. */
  read: string;
  /** What the source showed. */
  gives: string;
}

/**
 * Every source, in the catalogue's order. Read lazily, never at module load, so that a bundle that
 * imports this module for nothing it calls leaves the catalogue out (the passports function reaches
 * it only through lib/domain/labelling-term.ts).
 */
export function evidenceSources(): readonly EvidenceSource[] {
  return (catalogue as { sources: EvidenceSource[] }).sources;
}

/** The source of an id, or undefined for an id the catalogue does not have. */
export function evidenceSource(id: string): EvidenceSource | undefined {
  return evidenceSources().find((source) => source.id === id);
}

/** An Official Journal reference as the catalogue writes one ("OJ L 304, 22.11.2011, p. 18", "OJ C, C/2023/1190, 24.11.2023"). */
export const OJ_REFERENCE = /^OJ [LC]\b/;

/** The rank of a level, 0 the strongest. */
export const levelRank = (level: EvidenceLevel): number => EVIDENCE_LEVELS.indexOf(level);

/** One line that says what an evidence rests on: the source's title, its OJ reference where it has one, and the note. */
export function citation(evidence: Evidence): string {
  const source = evidenceSource(evidence.source);
  if (source === undefined) return evidence.source;
  const parts = [`${source.code === '–' ? '' : `${source.code} `}${source.title}`, source.reference, evidence.note].filter((part) => part !== undefined && part !== '');
  return parts.join('. ');
}
