import { evidenceSource, evidenceSources } from '../../lib/domain/labelling/evidence.ts';
import { EVIDENCE_LEVELS, type Evidence, type EvidenceLevel } from '../../lib/domain/labelling/evidence-levels.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { isLegalText, TEXT_FILES, TEXT_KEYS, type TextKey } from '../../lib/domain/labelling/texts.ts';
import { nameEvidence, VOCABULARY_CATEGORIES, VOCABULARY_INGREDIENTS } from '../../lib/domain/labelling/vocabulary.ts';

/**
 * The evidence tables of docs/labelling.md#evidence, made from the data (texts/*.json,
 * vocabulary.json, evidence-sources.json); test/unit/labelling-evidence.test.ts compares them with
 * the doc. Run `npx tsx test/support/labelling-evidence-tables.ts --write` to write them into the doc.
 */

const ABBREVIATION: Record<EvidenceLevel, string> = { official: 'O', 'official-copy': 'C', secondary: 'S', unconfirmed: '–' };
const cellText = (value: string): string => value.replace(/\|/g, '\\|');

/** The legal text keys, in the order of TEXT_KEYS: those that are legal in some language. */
export const legalTextKeys = (): TextKey[] => TEXT_KEYS.filter((key) => LANGUAGES.some((lang) => isLegalText(lang, key)));

const textEvidence = (lang: Lang, key: TextKey): Evidence => TEXT_FILES[lang]?.texts[key]?.evidence ?? { level: 'unconfirmed', source: 'platform' };

/** "C E4": the level's letter and the source's code; "–" for the platform's own wording. */
function cell(evidence: Evidence): string {
  if (evidence.level === 'unconfirmed') return '–';
  const code = evidenceSource(evidence.source)?.code ?? evidence.source;
  return `${ABBREVIATION[evidence.level]} ${code}${evidence.note === undefined ? '' : '†'}`;
}

/** Every source read, with its level and, for the Official Journal, its reference. */
export function sourcesTable(): string {
  const rows = evidenceSources().map(
    (source) =>
      `| ${source.code} | \`${source.id}\` | ${source.level} | ${cellText(source.title)}${source.url === undefined ? '' : ` (${source.url})`} | ${source.reference === undefined ? '–' : cellText(source.reference)} | ${cellText(source.read)} | ${cellText(source.gives)} |`,
  );
  return ['| Code | Id | Level at most | Source | Official Journal | Read | What it showed |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** One row per legal text key, one column per language: the level and the source of its wording. */
export function termsTable(): string {
  const rows = legalTextKeys().map((key) => `| \`${key}\` | ${LANGUAGES.map((lang) => cell(textEvidence(lang, key))).join(' | ')} |`);
  return [`| Key | ${LANGUAGES.join(' | ')} |`, `|---|${LANGUAGES.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/** The wording of each legal text in each language, its level's letter after it. */
export function wordingTable(): string {
  const keys = legalTextKeys();
  const rows = LANGUAGES.map((lang) => `| ${lang} | ${keys.map((key) => `${cellText(TEXT_FILES[lang]?.texts[key]?.text ?? '')} (${ABBREVIATION[textEvidence(lang, key).level]})`).join(' | ')} |`);
  return [`| Lang | ${keys.map((key) => `\`${key}\``).join(' | ')} |`, `|---|${keys.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/** The notes that explain a level (the contested phrases): the † of the tables. */
export function notesList(): string {
  const notes: string[] = [];
  for (const key of legalTextKeys()) {
    for (const lang of LANGUAGES) {
      const evidence = textEvidence(lang, key);
      if (evidence.note !== undefined) notes.push(`- \`${lang}.${key}\` (${evidence.level}): ${evidence.note}`);
    }
  }
  for (const entry of [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS]) {
    for (const group of entry.evidence) if (group.note !== undefined) notes.push(`- \`${'id' in entry ? entry.id : entry.code}\` in ${group.langs.join(', ')} (${group.level}): ${group.note}`);
  }
  return notes.join('\n');
}

const nameKey = (entry: (typeof VOCABULARY_CATEGORIES)[number] | (typeof VOCABULARY_INGREDIENTS)[number]): string => ('id' in entry ? entry.id : entry.code);

/** Per language and level: the legal texts and the vocabulary names whose wording has that level. */
export function languageLists(): string {
  const lines: string[] = [];
  for (const lang of LANGUAGES) {
    const parts = EVIDENCE_LEVELS.map((level) => {
      const texts = legalTextKeys().filter((key) => isLegalText(lang, key) && textEvidence(lang, key).level === level).map((key) => `\`${key}\``);
      const names = [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS].filter((entry) => nameEvidence(entry, lang).level === level).map((entry) => `\`${nameKey(entry)}\``);
      const all = [...texts, ...names];
      return `  - ${level} (${texts.length} texts, ${names.length} names)${all.length === 0 ? '' : `: ${all.join(', ')}`}`;
    });
    lines.push(`- **${lang}**`, ...parts);
  }
  return lines.join('\n');
}

/** One row per vocabulary entry: its rule and, per level, the languages whose name has it. */
export function vocabularyTable(): string {
  const rows = [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS].map((entry) => {
    const kind = 'id' in entry ? 'category' : (entry.category ?? 'raw material');
    const eNumber = 'eNumber' in entry && entry.eNumber !== null ? entry.eNumber : '–';
    const allergen = 'allergen' in entry && entry.allergen !== null ? entry.allergen : '–';
    const levels = EVIDENCE_LEVELS.map((level) => {
      const groups = entry.evidence.filter((group) => group.level === level);
      if (groups.length === 0) return '–';
      return groups.map((group) => `${group.langs.join(', ')}${level === 'unconfirmed' ? '' : ` (${evidenceSource(group.source)?.code ?? group.source}${group.note === undefined ? '' : '†'})`}`).join('; ');
    });
    return `| \`${nameKey(entry)}\` | ${eNumber} | ${kind} | ${allergen} | \`${entry.source}\` | ${levels.join(' | ')} |`;
  });
  return ['| Code | E-number | Category | Allergen | Rule | Official | Official copy | Secondary | Unconfirmed |', '|---|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The counts of legal texts and vocabulary names per level, over all 24 languages. */
export function summaryTable(): string {
  const count = (level: EvidenceLevel) => ({
    texts: LANGUAGES.flatMap((lang) => legalTextKeys().filter((key) => isLegalText(lang, key) && textEvidence(lang, key).level === level)).length,
    names: LANGUAGES.flatMap((lang) => [...VOCABULARY_CATEGORIES, ...VOCABULARY_INGREDIENTS].filter((entry) => nameEvidence(entry, lang).level === level)).length,
  });
  const rows = EVIDENCE_LEVELS.map((level) => {
    const { texts, names } = count(level);
    return `| ${level} | ${texts} | ${names} |`;
  });
  return ['| Level | Legal texts | Vocabulary names |', '|---|---|---|', ...rows].join('\n');
}

const TABLES: Record<string, () => string> = {
  'evidence-summary': summaryTable,
  'evidence-sources': sourcesTable,
  'evidence-terms': termsTable,
  'evidence-notes': notesList,
  'evidence-wording': wordingTable,
  'evidence-vocabulary': vocabularyTable,
  'evidence-languages': languageLists,
};

/** The generated part between each pair of markers, by marker name. */
export const generatedParts = (): Record<string, string> => Object.fromEntries(Object.entries(TABLES).map(([name, make]) => [name, make()]));

/** The doc with every table written between its markers (`<!-- name:start -->` … `<!-- name:end -->`). */
export function withEvidenceTables(doc: string): string {
  let next = doc;
  for (const [name, make] of Object.entries(TABLES)) {
    const marker = new RegExp(`(<!-- ${name}:start -->\\n)(?:[\\s\\S]*?\\n)?(<!-- ${name}:end -->)`);
    if (!marker.test(next)) throw new Error(`docs/labelling.md has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
    next = next.replace(marker, (_, a: string, b: string) => `${a}${make()}\n${b}`);
  }
  return next;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--write') {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const path = new URL('../../docs/labelling.md', import.meta.url).pathname;
  writeFileSync(path, withEvidenceTables(readFileSync(path, 'utf8')));
}
