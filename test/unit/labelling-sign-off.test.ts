import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { languageSwitcher } from '../../functions/resolver/page/html.ts';
import { renderElabel } from '../../functions/resolver/page/elabel.ts';
import { notOffered, versionLanguages } from '../../functions/resolver/pages.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import { fallbackLanguage, offeredLanguages } from '../../lib/domain/labelling/page-languages.ts';
import { createSignOffSchema, newSignOff, signedTerm, signedTermsOf, signOffStatus } from '../../lib/domain/labelling/sign-off.ts';
import { PLATFORM_DIGESTS, signedLanguages, stillSigned } from '../../lib/domain/labelling/signed-languages.ts';
import { legalTermKeys, platformEntry } from '../../lib/domain/labelling-term.ts';
import { termsInUse } from '../../lib/domain/labelling/terms-in-use.ts';
import type { TextKey } from '../../lib/domain/labelling/texts.ts';
import type { Passport } from '../../lib/domain/passport.ts';
import { platformDigestsJson } from '../support/labelling-platform-digests.ts';

/*
 * A compliance officer's sign-off of a language (docs/labelling.md#sign-off): what it records, when
 * it still holds and when a change re-opens it (naming the change), and what the e-label pages
 * offer when an organization offers only the languages it signed off.
 */

const officer = { type: 'user' as const, id: 'usr_officer', name: 'officer@example.com' };
const AT = '2026-11-29T10:00:00.000Z';
const langArb = fc.constantFrom(...LANGUAGES);

describe('the platform digests publishing compares (lib/domain/labelling/platform-digests.json)', () => {
  it('hold each language’s digest as the texts and the vocabulary give it now', () => {
    // Prepare
    const stored = readFileSync(new URL('../../lib/domain/labelling/platform-digests.json', import.meta.url), 'utf8');
    // Assess
    expect(stored, 'run `npx tsx test/support/labelling-platform-digests.ts --write` after changing a text, a vocabulary name or an evidence').toBe(platformDigestsJson());
  });
});

describe('a sign-off and its status', () => {
  it('holds while the terms are as signed, and names the term a later correction changed, as signed and as now', () => {
    // Prepare: German signed off without corrections
    const signed = newSignOff('de', signedTermsOf('de'), undefined, officer, AT);
    // Act
    const unchanged = signOffStatus('de', signed, signedTermsOf('de'));
    const corrected = signOffStatus('de', signed, signedTermsOf('de', { contains: 'Allergene: {list}' }));
    // Assess
    expect(unchanged).toMatchObject({ status: 'signed', changedTerms: [], signOff: { signedBy: officer, signedAt: AT, digest: signed.digest } });
    expect(signed.terms.length).toBe(termsInUse('de').length);
    expect(corrected.status).toBe('reopened');
    expect(corrected.digest).not.toBe(signed.digest);
    expect(corrected.changedTerms).toEqual([
      {
        key: 'text:contains',
        before: expect.objectContaining({ text: platformEntry('de', 'contains')?.text, overridden: false }),
        after: expect.objectContaining({ text: 'Allergene: {list}', overridden: true, evidence: { level: 'unconfirmed', source: 'organization' } }),
      },
    ]);
  });

  it("re-opens on a change of the platform's wording or evidence, also of a term the organization corrected, and on a term that is gone", () => {
    // Prepare: French signed off with a correction of "contains"
    const corrections = { contains: 'Allergènes : {list}' };
    const terms = signedTermsOf('fr', corrections);
    const signed = newSignOff('fr', terms, corrections, officer, AT);
    // Act: a deployment changes the platform's wording behind the correction, the evidence of a vocabulary name, and drops a term
    const deployed = termsInUse('fr', corrections).map((term) =>
      term.key === 'text:contains' ? { ...term, platformText: 'Contient : {list}' } : term.key === 'ingredient:tartaric-acid' ? { ...term, evidence: { level: 'official' as const, source: 'ev-x' } } : term,
    );
    const now = deployed.filter((term) => term.key !== 'ingredient:argon').map(signedTerm);
    const status = signOffStatus('fr', signed, now);
    // Assess
    expect(status.status).toBe('reopened');
    expect(status.changedTerms.map((change) => change.key)).toEqual(['text:contains', 'ingredient:tartaric-acid', 'ingredient:argon']);
    expect(status.changedTerms[0]?.after).toMatchObject({ text: 'Allergènes : {list}', platformText: 'Contient : {list}' });
    expect(status.changedTerms[2]?.after).toBeNull();
  });

  it('is none for a language never signed', () => {
    // Act
    const status = signOffStatus('it', undefined, signedTermsOf('it'));
    // Assess
    expect(status).toMatchObject({ status: 'none', signOff: null, changedTerms: [] });
    expect(status.digest).toBe(PLATFORM_DIGESTS.it);
  });

  it('property: publishing’s check (the platform’s and the corrections’ digests) agrees with the status, whatever the corrections before and after', () => {
    // Prepare: corrections drawn from each language's legal texts
    const correctionsArb = (lang: Lang) =>
      fc.dictionary(fc.constantFrom(...legalTermKeys(lang)), fc.constantFrom('Eins', 'Zwei: {list}', 'Drei'), { maxKeys: 3 }) as fc.Arbitrary<Partial<Record<TextKey, string>>>;
    const caseArb = langArb.chain((lang) => fc.tuple(fc.constant(lang), correctionsArb(lang), fc.option(correctionsArb(lang), { nil: undefined })));
    fc.assert(
      fc.property(caseArb, ([lang, before, after]) => {
        // Act: signed with `before`; now `after` (or the same)
        const now = after ?? before;
        const signed = newSignOff(lang, signedTermsOf(lang, before), before, officer, AT);
        const status = signOffStatus(lang, signed, signedTermsOf(lang, now));
        // Assess
        expect(stillSigned(lang, signed, now)).toBe(status.status === 'signed');
        expect(signedLanguages({ [lang]: signed }, { [lang]: now })).toEqual(status.status === 'signed' ? [lang] : []);
      }),
      { numRuns: 200 },
    );
  });

  it('takes one of the 24 languages and a digest of its exact form, refusing one character more', () => {
    // Prepare
    const digest = PLATFORM_DIGESTS.de;
    // Act
    const ok = createSignOffSchema.safeParse({ lang: 'de', digest });
    const longer = createSignOffSchema.safeParse({ lang: 'de', digest: `${digest}A` });
    const unknown = createSignOffSchema.safeParse({ lang: 'xx' });
    // Assess
    expect(ok.success).toBe(true);
    expect(longer.error?.issues[0]?.path).toEqual(['digest']);
    expect(unknown.error?.issues[0]?.path).toEqual(['lang']);
  });
});

describe('the languages a version offers (docs/labelling.md#sign-off)', () => {
  it('offers all 24 without a fixed list, the signed ones in order with one, and the label language alone when none was signed', () => {
    // Assess
    expect(offeredLanguages(undefined, 'de')).toEqual(LANGUAGES);
    expect(offeredLanguages(['fr', 'de'], 'it')).toEqual(['de', 'fr']);
    expect(offeredLanguages([], 'it')).toEqual(['it']);
  });

  it("falls back to the label language, then English, then the first offered", () => {
    // Assess
    expect(fallbackLanguage(['de', 'fr'], 'fr')).toBe('fr');
    expect(fallbackLanguage(['de', 'en'], 'it')).toBe('en');
    expect(fallbackLanguage(['fr', 'pl'], 'it')).toBe('fr');
  });

  const wine = { passport: { data: { labelLanguage: 'fr' } }, category: 'wine' } as unknown as Parameters<typeof versionLanguages>[0];

  it('redirects a page in a language not offered to the fallback, for a year; a battery page offers all', () => {
    // Act
    const offered = notOffered({ ...wine, labelLanguages: ['de', 'fr'] }, 'fr');
    const elsewhere = notOffered({ ...wine, labelLanguages: ['de', 'fr'] }, 'it');
    const battery = notOffered({ ...wine, category: 'battery', passport: { data: {} }, labelLanguages: ['de'] } as typeof wine, 'it');
    // Assess
    expect(offered).toBeUndefined();
    expect(elsewhere).toMatchObject({ statusCode: 301, headers: { Location: 'fr', 'Cache-Control': 'public, max-age=31536000, immutable' } });
    expect(battery).toBeUndefined();
  });

  it("links only the other offered languages from the page, and none when it is alone", () => {
    // Act
    const two = languageSwitcher('de', 'Andere Sprachen', ['de', 'fr']).markup;
    const alone = languageSwitcher('de', 'Andere Sprachen', ['de']).markup;
    const page = renderElabel({ name: 'Riesling', category: 'wine', data: {}, lastUpdated: AT } as unknown as Passport, 'de', undefined, undefined, ['de', 'fr']);
    // Assess
    expect(two).toContain('href="fr"');
    expect(two).not.toContain('href="en"');
    expect(alone).toBe('');
    expect([...page.matchAll(/hreflang="(\w+)"/g)].map((m) => m[1])).toEqual(['fr']);
  });
});
