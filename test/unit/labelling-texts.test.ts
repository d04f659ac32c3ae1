import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { TEXT_FILES, TEXT_KEYS, text, type TextFile } from '../../lib/domain/labelling/texts.ts';

const placeholders = (value: string): string[] => [...value.matchAll(/\{[a-z]+\}/gi)].map((match) => match[0]).sort();
const english = TEXT_FILES.en as TextFile;

describe('the e-label texts in 24 languages (lib/domain/labelling/texts/*.json)', () => {
  it('has a file for each of the 24 official EU languages, each naming its own language', () => {
    // Assess
    expect(Object.keys(TEXT_FILES).sort()).toEqual([...LANGUAGES].sort());
    for (const [lang, file] of Object.entries(TEXT_FILES)) expect(file?.lang, lang).toBe(lang);
  });

  it.each(LANGUAGES)('%s: every key, no other key, each a non-empty text with the placeholders of the English one', (lang) => {
    // Prepare
    const file = TEXT_FILES[lang];

    // Assess
    expect(file, `${lang}.json is missing`).toBeDefined();
    const texts = (file as TextFile).texts;
    expect(Object.keys(texts).sort()).toEqual([...TEXT_KEYS].sort());
    for (const key of TEXT_KEYS) {
      const value = texts[key]?.text ?? '';
      expect(value.trim(), `${lang}.${key}`).not.toBe('');
      expect(placeholders(value), `${lang}.${key}`).toEqual(placeholders(english.texts[key]?.text ?? ''));
    }
  });

  it('no legal term of another language silently equals the English one: each has its source, and an equal wording is either confirmed from it (listed here) or marked unconfirmed', () => {
    // Prepare: the legal terms are the texts whose English wording names a source (docs/labelling.md).
    const legalKeys = TEXT_KEYS.filter((key) => english.texts[key]?.source !== undefined && key !== 'languageName');

    // Act
    const withoutSource: string[] = [];
    const confirmedEqual: string[] = [];
    const unconfirmedEqual: string[] = [];
    for (const lang of LANGUAGES) {
      if (lang === 'en') continue;
      for (const key of legalKeys) {
        const entry = TEXT_FILES[lang]?.texts[key];
        if (!entry) continue;
        if (entry.source === undefined) withoutSource.push(`${lang}.${key}`);
        if (entry.text.toLowerCase() !== english.texts[key]?.text.toLowerCase()) continue;
        (entry.evidence?.level === 'unconfirmed' ? unconfirmedEqual : confirmedEqual).push(`${lang}.${key}`);
      }
    }

    // Assess: Danish and Swedish write "Protein" and "Salt" as English does (Regulation (EU) No 1169/2011 Annex XV).
    const SAME_WORD = ['da.protein', 'da.salt', 'sv.protein', 'sv.salt'];
    expect(withoutSource).toEqual([]);
    expect(confirmedEqual.filter((term) => !SAME_WORD.includes(term))).toEqual([]);
    console.info(`Legal terms equal to English and marked unconfirmed: ${unconfirmedEqual.join(', ') || 'none'}`);
  });

  it('no interface text of another language is the English text left untranslated, except words those languages write the same way', () => {
    // Prepare: each text equal to the English one, with why it is right in that language.
    const SAME_IN_LANGUAGE: Record<string, string> = {
      ...Object.fromEntries(LANGUAGES.map((lang) => [`${lang}.gtin`, 'GTIN is the GS1 identifier\'s name in every language'])),
      'da.protein': 'Reg. (EU) No 1169/2011 Annex XV, Danish (E9)',
      'da.salt': 'Reg. (EU) No 1169/2011 Annex XV, Danish (E9)',
      'sv.protein': 'Reg. (EU) No 1169/2011 Annex XV, Swedish (E19)',
      'sv.salt': 'Reg. (EU) No 1169/2011 Annex XV, Swedish (E19)',
      'da.region': 'Danish "region"',
      'de.region': 'German "Region"',
      'pl.region': 'Polish "region"',
      'sv.region': 'Swedish "region"',
      'da.versionOnly': 'Danish "version"',
      'de.versionOnly': 'German "Version"',
      'fr.versionOnly': 'French "version"',
      'sv.versionOnly': 'Swedish "version"',
      'cs.role_distributor': 'Czech "distributor"',
      'pl.role_importer': 'Polish "importer"',
      'ro.nutrientColumn': 'Romanian "nutrient" (DEX)',
      'es.alcohol': 'Spanish "alcohol"',
      'nl.alcohol': 'Dutch "alcohol"',
      ...Object.fromEntries(LANGUAGES.map((lang) => [`${lang}.actualAlcoholicStrength`, '"alc", the abbreviation Reg. (EU) No 1169/2011 Annex XII and Reg. (EU) 2019/33 Art. 44 allow before the figure (E56)'])),
      'it.per100ml': 'Italian "per"',
      'it.per100g': 'Italian "per"',
      'nl.per100ml': 'Dutch "per"',
      'nl.per100g': 'Dutch "per"',
      'sv.per100ml': 'Swedish "per"',
      'sv.per100g': 'Swedish "per"',
    };

    // Act
    const untranslated: string[] = [];
    for (const lang of LANGUAGES) {
      if (lang === 'en') continue;
      for (const key of TEXT_KEYS) {
        if (TEXT_FILES[lang]?.texts[key]?.text === english.texts[key]?.text && SAME_IN_LANGUAGE[`${lang}.${key}`] === undefined) untranslated.push(`${lang}.${key}`);
      }
    }

    // Assess
    expect(untranslated).toEqual([]);
    expect(text('mt', 'vintage', { year: '2019' })).toBe('Vendemmja 2019');
  });

  it('fills placeholders: "Vintage {year}" with 2019, "Version {version}, published {date}"', () => {
    expect(text('en', 'vintage', { year: '2019' })).toBe('Vintage 2019');
    expect(text('en', 'versionPublished', { version: '3', date: '21 November 2026' })).toBe('Version 3, published 21 November 2026');
    expect(text('en', 'versionPublished', { version: '3' })).toBe('Version 3, published {date}');
  });

  it('has the withdrawn page texts (the 410 page of a withdrawn product)', () => {
    for (const lang of LANGUAGES) {
      expect(text(lang, 'withdrawnTitle').length, lang).toBeGreaterThan(0);
      expect(text(lang, 'withdrawnHeading').length, lang).toBeGreaterThan(0);
    }
  });
});
