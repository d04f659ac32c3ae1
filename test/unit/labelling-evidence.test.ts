import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishIsAuthoritative, languageTermsConfirmed } from '../../lib/domain/labelling/confirmed.ts';
import { citation, evidenceSource, evidenceSources, levelRank, OJ_REFERENCE } from '../../lib/domain/labelling/evidence.ts';
import { EVIDENCE_LEVELS, type Evidence } from '../../lib/domain/labelling/evidence-levels.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { termsInUse, termsInUseDigest } from '../../lib/domain/labelling/terms-in-use.ts';
import { isLegalText, TEXT_FILES, TEXT_KEYS, text } from '../../lib/domain/labelling/texts.ts';
import { categoryById, nameEvidence, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS } from '../../lib/domain/labelling/vocabulary.ts';
import { toLabelTermView } from '../../lib/domain/labelling-term.ts';
import { generatedParts, legalTextKeys } from '../support/labelling-evidence-tables.ts';

/*
 * The evidence behind the e-label's legal wording (docs/labelling.md#evidence): every legal text and
 * every vocabulary name, in every language, has a level and a source from the catalogue; no
 * wording is marked official without an Official Journal reference, nor stronger than the source
 * it cites can support.
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const entries = [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS];
const langArb = fc.constantFrom(...LANGUAGES);
const legalTextArb = fc.tuple(langArb, fc.constantFrom(...TEXT_KEYS)).filter(([lang, key]) => isLegalText(lang, key));
const nameArb = fc.tuple(langArb, fc.constantFrom(...entries));

/** The problems of one evidence: an unknown level or source, a level above its source's, an official mark without an OJ reference. */
function problemsOf(evidence: Evidence | undefined): string[] {
  if (evidence === undefined) return ['no evidence'];
  const problems: string[] = [];
  if (!(EVIDENCE_LEVELS as readonly string[]).includes(evidence.level)) problems.push(`unknown level ${evidence.level}`);
  const source = evidenceSource(evidence.source);
  if (source === undefined) return [...problems, `unknown source ${evidence.source}`];
  if (levelRank(evidence.level) < levelRank(source.level)) problems.push(`${evidence.level} above its source ${source.id} (${source.level})`);
  if (evidence.level === 'official' && !OJ_REFERENCE.test(source.reference ?? '')) problems.push(`official without an Official Journal reference (${source.id})`);
  return problems;
}

describe('the evidence of every legal text and vocabulary name (docs/labelling.md#evidence)', () => {
  it('property: a legal text in any language has a level and a source the catalogue knows, no stronger than that source', () => {
    // Prepare / Act / Assess: any language and any key that is a legal text in it
    fc.assert(
      fc.property(legalTextArb, ([lang, key]) => {
        expect(problemsOf(TEXT_FILES[lang]?.texts[key]?.evidence), `${lang}.${key}`).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a vocabulary name in any language has a level and a source the catalogue knows, no stronger than that source', () => {
    fc.assert(
      fc.property(nameArb, ([lang, entry]) => {
        expect(problemsOf(nameEvidence(entry, lang)), `${'id' in entry ? entry.id : entry.code}.${lang}`).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('every one of them, exhaustively: 456 legal texts and 840 names, each name in exactly one group of its entry', () => {
    // Act
    const textProblems = LANGUAGES.flatMap((lang) => TEXT_KEYS.filter((key) => isLegalText(lang, key)).flatMap((key) => problemsOf(TEXT_FILES[lang]?.texts[key]?.evidence).map((p) => `${lang}.${key}: ${p}`)));
    const groupProblems = entries.flatMap((entry) => {
      const label = 'id' in entry ? entry.id : entry.code;
      const langs = entry.evidence.flatMap((group) => group.langs);
      const twice = langs.filter((lang, index) => langs.indexOf(lang) !== index);
      const missing = LANGUAGES.filter((lang) => !langs.includes(lang));
      return [
        ...twice.map((lang) => `${label}: ${lang} in two groups`),
        ...missing.map((lang) => `${label}: ${lang} in no group`),
        ...entry.evidence.flatMap((group) => problemsOf(group).map((p) => `${label} ${group.langs.join(',')}: ${p}`)),
      ];
    });
    const count = LANGUAGES.flatMap((lang) => TEXT_KEYS.filter((key) => isLegalText(lang, key))).length;
    // Assess
    expect(textProblems).toEqual([]);
    expect(groupProblems).toEqual([]);
    expect(count).toBe(456);
    expect(entries.length * LANGUAGES.length).toBe(840);
  });

  it('no source is official without an Official Journal reference, and every OJ reference names its series', () => {
    // Act
    const official = evidenceSources().filter((source) => source.level === 'official');
    // Assess
    expect(official.length).toBeGreaterThan(0);
    for (const source of official) expect(source.reference, source.id).toMatch(OJ_REFERENCE);
    expect(new Set(evidenceSources().map((source) => source.id)).size).toBe(evidenceSources().length);
    expect(new Set(evidenceSources().filter((source) => source.code !== '–').map((source) => source.code)).size).toBe(evidenceSources().filter((source) => source.code !== '–').length);
  });

  it('attack: an entry marked official citing a secondary page, or an official source without its OJ reference, is caught', () => {
    // Act / Assess: the checks the data passes would refuse these
    expect(problemsOf({ level: 'official', source: 'ev-off-additives' })).toContain('official above its source ev-off-additives (secondary)');
    expect(problemsOf({ level: 'official-copy', source: 'nowhere' })).toEqual(['unknown source nowhere']);
    expect(problemsOf(undefined)).toEqual(['no evidence']);
  });

  it('the contested "bottling may …" phrases are secondary, each with a note naming the corrigendum not read', () => {
    for (const lang of ['en', 'de'] as const) {
      const evidence = TEXT_FILES[lang]?.texts.protectiveAtmosphere_mayBe?.evidence;
      expect(evidence?.level, lang).toBe('secondary');
      expect(evidence?.note, lang).toContain('OJ L 239, p. 46');
    }
  });

  it('the old binary mark is gone: the 2019/33 draft annexes and the 2010 wiki support nothing above secondary', () => {
    // Act
    const weak = ['ev-2019-33-draft', 'ev-vitipendium', 'ev-off-additives'].map((id) => evidenceSource(id)?.level);
    // Assess
    expect(weak).toEqual(['secondary', 'secondary', 'secondary']);
    expect(TEXT_FILES.de?.texts.allergen_sulphites?.evidence).toEqual({ level: 'secondary', source: 'ev-2019-33-draft' });
  });
});

describe('Table 2 categories (Reg. (EU) 2019/934 Annex I Part A; Art. 48a of Reg. (EU) 2019/33)', () => {
  it('names all four in the plural, from one rule, with the wording of Art. 48a in de and as Table 2 is reported in fr and it', () => {
    // Act
    const names = (id: string) => categoryById(id)?.names;
    // Assess
    expect(VOCABULARY_CATEGORIES.map((category) => category.source)).toEqual(Array(4).fill('eu-2019-934-annex-i-a-2'));
    expect([names('acidityRegulator')?.de, names('stabilisingAgent')?.de, names('packagingGas')?.de]).toEqual(['Säureregulatoren', 'Stabilisatoren', 'Packgase']);
    expect([names('acidityRegulator')?.it, names('stabilisingAgent')?.it, names('packagingGas')?.it, names('preservativeAntioxidant')?.it]).toEqual([
      'Regolatori di acidità',
      'Stabilizzanti',
      'Gas e gas di imballaggio',
      'Conservanti e antiossidanti',
    ]);
    expect([names('acidityRegulator')?.fr, names('stabilisingAgent')?.fr, names('packagingGas')?.fr, names('preservativeAntioxidant')?.fr]).toEqual([
      'Régulateurs d’acidité',
      'Agents stabilisateurs',
      'Gaz et gaz d’emballage',
      'Conservateurs et antioxydants',
    ]);
    expect(nameEvidence(categoryById('acidityRegulator')!, 'de')).toEqual({ level: 'official-copy', source: 'ev-de-48a' });
    expect(nameEvidence(categoryById('packagingGas')!, 'it')).toEqual({ level: 'secondary', source: 'ev-it-weinqr' });
  });
});

describe('Irish (issue 40, Major 8)', () => {
  it('takes "nutrition declaration" from the Irish text of the Commission notice C/2023/1190 in the Official Journal', () => {
    // Act
    const evidence = TEXT_FILES.ga?.texts.nutrition?.evidence;
    // Assess
    expect(text('ga', 'nutrition')).toBe('Dearbhú cothúcháin');
    expect(evidence).toEqual({ level: 'official', source: 'ev-qa-wine-2023' });
    expect(citation(evidence!)).toContain('OJ C, C/2023/1190, 24.11.2023');
  });

  it('says on the Irish page that the English text is authoritative while its terms are not all confirmed, and nowhere else', () => {
    // Act
    const authoritative = LANGUAGES.filter((lang) => englishIsAuthoritative(lang));
    // Assess
    expect(languageTermsConfirmed('ga')).toBe(false);
    expect(authoritative).toEqual(['ga']);
    expect(text('ga', 'englishAuthoritative')).toContain('The English version of this information is authoritative.');
    expect(TEXT_FILES.ga?.texts.englishAuthoritative?.evidence?.level).toBe('unconfirmed');
    expect(isLegalText('ga', 'englishAuthoritative')).toBe(false);
  });
});

describe('termsInUse: what a language sign-off covers', () => {
  it('lists each legal text and vocabulary name of a language once, with its evidence and its citation', () => {
    // Act
    const terms = termsInUse('de');
    // Assess
    expect(terms).toHaveLength(legalTextKeys().filter((key) => isLegalText('de', key)).length + entries.length);
    expect(new Set(terms.map((term) => term.key)).size).toBe(terms.length);
    expect(terms.find((term) => term.key === 'text:energy')).toMatchObject({ text: 'Brennwert', rule: 'eu-1169-2011-annex-xv', evidence: { level: 'official-copy', source: 'ev-de-annex-i' } });
    expect(terms.find((term) => term.key === 'category:acidityRegulator')?.citation).toContain('gesetze.legal');
    for (const term of terms) expect(problemsOf(term.evidence), term.key).toEqual([]);
  });

  it("property: a correction shows the organization's wording with the organization's evidence, and changes the digest", () => {
    fc.assert(
      fc.property(legalTextArb, fc.string({ minLength: 1, maxLength: 40 }), ([lang, key], wording) => {
        // Prepare
        const platform = termsInUse(lang as Lang);
        fc.pre(wording !== platform.find((term) => term.key === `text:${key}`)?.text);
        // Act
        const corrected = termsInUse(lang as Lang, { [key]: wording });
        const term = corrected.find((candidate) => candidate.key === `text:${key}`);
        // Assess
        expect(term).toMatchObject({ text: wording, overridden: true, evidence: { level: 'unconfirmed', source: 'organization' } });
        expect(termsInUseDigest(corrected)).not.toBe(termsInUseDigest(platform));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same digest for the same terms, whatever object they came in', () => {
    expect(termsInUseDigest(termsInUse('fr'))).toBe(termsInUseDigest(termsInUse('fr', {})));
    expect(termsInUseDigest(termsInUse('fr'))).not.toBe(termsInUseDigest(termsInUse('it')));
  });
});

describe('GET /v1/labelling/terms shows the evidence (toLabelTermView)', () => {
  it('answers the level, the source and its citation; confirmed only for official or official-copy', () => {
    // Act
    const ga = toLabelTermView('ga', 'nutrition', undefined);
    const en = toLabelTermView('en', 'protectiveAtmosphere_mayBe', undefined);
    // Assess
    expect(ga).toMatchObject({ status: 'confirmed', evidence: { level: 'official', source: 'ev-qa-wine-2023' } });
    expect(en).toMatchObject({ status: 'unconfirmed', evidence: { level: 'secondary', source: 'ev-elabel-code' } });
    expect(en.evidence.citation).toContain('OJ L 239, p. 46');
  });
});

describe('docs/labelling.md#evidence', () => {
  it('shows every evidence table exactly as the data has it (npx tsx test/support/labelling-evidence-tables.ts --write)', () => {
    // Prepare
    const doc = readFileSync(`${ROOT}docs/labelling.md`, 'utf8');
    // Act / Assess
    for (const [name, part] of Object.entries(generatedParts())) {
      const match = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(doc);
      expect(match, `markers of ${name}`).not.toBeNull();
      expect(match?.[1], name).toBe(part);
    }
  });
});
