import { describe, expect, it } from 'vitest';
import { elabelPageUrl, parsePageRef, passportJsonUrl } from '../../lib/domain/page-urls.ts';

const tenant = { orgId: 'org_2x7Kq9', environment: 'live' as const };

describe('page URLs of a passport version', () => {
  it('builds the e-label URL with the version and a lower-case language', () => {
    // Act
    const url = elabelPageUrl('https://r.example.com/', tenant, '04006381333931', 3, 'DE');

    // Assess
    expect(url).toBe('https://r.example.com/org_2x7Kq9/live/p/04006381333931/3/de');
  });

  it('builds the JSON passport URL of a version', () => {
    // Act
    const url = passportJsonUrl('https://r.example.com', { ...tenant, environment: 'test' }, '04006381333931', 12);

    // Assess
    expect(url).toBe('https://r.example.com/org_2x7Kq9/test/p/04006381333931/12/passport.json');
  });

  it.each([
    ['a GTIN-13', '4006381333931', 1, 'en'],
    ['version 0', '04006381333931', 0, 'en'],
    ['a fractional version', '04006381333931', 1.5, 'en'],
    ['a language that is not a tag', '04006381333931', 1, 'en/../x'],
  ])('refuses %s', (_label, gtin, version, lang) => {
    // Act / Assess
    expect(() => elabelPageUrl('https://r.example.com', tenant, gtin, version, lang)).toThrow();
  });

  it('reads back what it builds, and nothing that was never built', () => {
    // Prepare
    const path = new URL(elabelPageUrl('https://r.example.com', tenant, '04006381333931', 7, 'fr')).pathname;
    const [, , , , gtin, version, page] = path.split('/');

    // Act / Assess
    expect(parsePageRef(gtin!, version!, page!)).toEqual({
      kind: 'elabel',
      gtin14: '04006381333931',
      version: 7,
      lang: 'fr',
    });
    expect(parsePageRef('04006381333931', '7', 'passport.json')).toEqual({
      kind: 'json',
      gtin14: '04006381333931',
      version: 7,
    });
    expect(parsePageRef('04006381333931', '07', 'fr')).toBeUndefined();
    expect(parsePageRef('04006381333931', '7', 'FR')).toBeUndefined();
    expect(parsePageRef('4006381333931', '7', 'fr')).toBeUndefined();
  });
});
