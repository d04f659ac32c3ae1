import { describe, expect, it } from 'vitest';
import {
  isLegalTerm,
  legalTermKeys,
  listLabelTermsQuerySchema,
  placeholdersOf,
  putLabelTermSchema,
  toLabelTermView,
} from '../../lib/domain/labelling-term.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { resolveTerm } from '../../lib/services/labelling-terms.ts';
import { ValidationError } from '../../lib/http/errors.ts';

/** The rules of a legal term's correction (docs/labelling.md#correcting-a-term). */

const paramOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.param;
    throw error;
  }
  return undefined;
};

describe('the body of PUT /v1/labelling/terms/{lang}/{termKey}', () => {
  it('trims the text and the note', () => {
    // Act
    const input = parseOrThrow(putLabelTermSchema, { text: '  davon Zucker ', note: ' Annex XV ' });
    // Assess
    expect(input).toEqual({ text: 'davon Zucker', note: 'Annex XV' });
  });

  it.each([
    ['empty once trimmed', { text: ' \u00a0 ' }, 'text'],
    ['over 200 characters', { text: 'x'.repeat(201) }, 'text'],
    ['with a line break', { text: 'davon\nZucker' }, 'text'],
    ['with a tab', { text: 'davon\tZucker' }, 'text'],
    ['with a C1 control character', { text: 'davon\u0085Zucker' }, 'text'],
    ['with a right-to-left override', { text: 'davon \u202eZucker' }, 'text'],
    ['not a string', { text: 42 }, 'text'],
    ['missing', {}, 'text'],
    ['with a note over 500 characters', { text: 'Salz', note: 'n'.repeat(501) }, 'note'],
    ['with an unknown field', { text: 'Salz', lang: 'de' }, 'lang'],
    ['with a line separator (U+2028)', { text: 'davon\u2028Zucker' }, 'text'],
    ['with a paragraph separator (U+2029)', { text: 'davon\u2029Zucker' }, 'text'],
    ['with a zero-width space (U+200B)', { text: 'davon\u200bZucker' }, 'text'],
    ['with a zero-width joiner (U+200D, a format character)', { text: 'davon\u200dZucker' }, 'text'],
    ['with a byte order mark (U+FEFF, a format character)', { text: 'davon\ufeffZucker' }, 'text'],
    ['with a soft hyphen (U+00AD, a format character)', { text: 'Kohlen\u00adhydrate' }, 'text'],
    ['with a left-to-right mark (U+200E)', { text: 'davon \u200eZucker' }, 'text'],
    ['with a DEL control character', { text: 'davon\u007fZucker' }, 'text'],
    ['with {list} twice', { text: 'Enthält: {list}, {list}' }, 'text'],
  ])('refuses a text %s, naming the field', (_what, body, param) => {
    // Act / Assess
    expect(paramOf(() => parseOrThrow(putLabelTermSchema, body))).toBe(param);
  });

  it('accepts exactly 200 characters, and a note with line breaks', () => {
    // Act / Assess
    expect(paramOf(() => parseOrThrow(putLabelTermSchema, { text: 'x'.repeat(200), note: 'first line\nsecond line' }))).toBeUndefined();
  });
});

describe('the query of GET /v1/labelling/terms', () => {
  it('takes languages separated by commas, each once, in the order given; all 24 when absent', () => {
    // Act
    const some = parseOrThrow(listLabelTermsQuerySchema, { lang: 'fr, de,fr' });
    const all = parseOrThrow(listLabelTermsQuerySchema, {});
    // Assess
    expect(some.lang).toEqual(['fr', 'de']);
    expect(all.lang).toHaveLength(24);
  });

  it.each([['xx'], ['de,'], ['DE'], ['']])("refuses lang '%s', naming lang", (lang) => {
    // Act / Assess
    expect(paramOf(() => parseOrThrow(listLabelTermsQuerySchema, { lang }))).toBe('lang');
  });
});

describe('legal terms', () => {
  it('are the keys with a source: the nutrition rows and allergens, not the interface texts', () => {
    // Act
    const keys = legalTermKeys('de');
    // Assess
    expect(keys).toEqual(expect.arrayContaining(['energy', 'sugars', 'contains', 'allergen_sulphites']));
    expect(keys).not.toContain('pageKicker');
    expect(keys).not.toContain('versionPublished');
  });

  it('attack: a language name is no correctable term (its override would rename the language switch): PUT answers 422 naming termKey', () => {
    // Act / Assess
    expect(legalTermKeys('de')).not.toContain('languageName');
    expect(isLegalTerm('de', 'languageName')).toBe(false);
    expect(paramOf(() => resolveTerm('de', 'languageName'))).toBe('termKey');
  });

  it('name their placeholders once each, sorted', () => {
    // Act / Assess
    expect(placeholdersOf('{list} and {year}, {list}')).toEqual(['{list}', '{year}']);
    expect(placeholdersOf('{unknown} text')).toEqual([]);
  });

  it("show the organization's wording before the platform's, with the platform's source and status", () => {
    // Act
    const view = toLabelTermView('fr', 'sugars', { lang: 'fr', termKey: 'sugars', text: 'dont sucres totaux', updatedAt: '2026-11-25T10:00:00.000Z', updatedBy: { type: 'user', id: 'usr_1' } });
    // Assess
    expect(view).toMatchObject({
      text: 'dont sucres totaux',
      platformText: 'dont sucres',
      source: 'eu-1169-2011-annex-xv',
      status: 'unconfirmed',
      override: { text: 'dont sucres totaux', note: null },
    });
  });
});
