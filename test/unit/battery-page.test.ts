import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderBatteryPage, warrantyInWords } from '../../functions/resolver/page/battery.ts';
import { LIFECYCLE_STAGES } from '../../lib/domain/battery/carbon-footprint.ts';
import { RECYCLED_MATERIALS } from '../../lib/domain/battery/circularity.ts';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';
import { filterByTier } from '../../lib/domain/battery/elements.ts';
import { LABELING_SUBJECTS } from '../../lib/domain/battery/labeling.ts';
import { HAZARDOUS_SUBSTANCE_CLASSES } from '../../lib/domain/battery/material-composition.ts';
import { BATTERY_COMPONENTS } from '../../lib/domain/battery/performance-and-durability.ts';
import { ELEMENT_NAMES, FIELD_NAMES, NAME_LANGUAGES, PAGE_KEYS, PAGE_LANGUAGES, pageWords, UNITS, VALUE_NAMES } from '../../lib/domain/battery/texts.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import type { Passport } from '../../lib/domain/passport.ts';
import { holdsBatteryData, publicPassportData } from '../../lib/domain/passport-kinds.ts';

/**
 * The words of the battery passport page (lib/domain/battery/texts.ts) and its rendering
 * (functions/resolver/page/battery.ts): every language complete, every public element named in
 * English, German and French, and nothing but public elements on the page whatever it is given.
 */
type Json = Record<string, any>;
const EXAMPLE = JSON.parse(readFileSync(new URL('../../docs/examples/battery-passport.json', import.meta.url), 'utf8')) as Json;

const view = (data: Json, name = 'EVP75 traction battery'): Passport => ({
  productId: '01890a5d-ac96-774b-bcce-b302099a8057',
  passportId: 'ps_x',
  name,
  category: 'battery',
  gtin: '04012345000016',
  qrCodeUrl: 'https://id.example.com/org_a/live/01/04012345000016',
  status: 'published',
  version: 1,
  lastUpdated: '2027-03-04T08:15:00.000Z',
  publishedAt: '2027-03-04T08:15:00.000Z',
  digest: `sha256:${'a'.repeat(64)}`,
  previousDigest: null,
  data,
});

/** Every member name inside a JSON value, at any depth (list entries included). */
function memberNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((entry) => memberNames(entry, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      memberNames(inner, into);
    }
  }
  return into;
}

describe('the page’s words', () => {
  it('are written in all 24 languages, each word given', () => {
    // Act
    const missing = LANGUAGES.flatMap((lang) => PAGE_KEYS.filter((key) => !pageWords(lang)[key]?.trim()).map((key) => `${lang}.${key}`));
    // Assess
    expect([...PAGE_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
    expect(missing).toEqual([]);
    // Each language's title is its own (no English left in place of a translation).
    expect(new Set(LANGUAGES.map((lang) => pageWords(lang).kicker)).size).toBe(LANGUAGES.length);
  });

  it('name every public element in English, German and French, the English as the element map has it', () => {
    // Prepare
    const publicElements = ELEMENTS.filter((element) => element.tier === 'public');
    // Act
    const unnamed = publicElements.filter((element) => !NAME_LANGUAGES.every((lang) => ELEMENT_NAMES[element.path]?.[lang]?.trim()));
    const renamed = publicElements.filter((element) => ELEMENT_NAMES[element.path]?.en !== element.name);
    const restrictedNamed = Object.keys(ELEMENT_NAMES).filter((path) => ELEMENTS.find((element) => element.path === path)?.tier !== 'public');
    // Assess
    expect(unnamed.map((e) => e.path)).toEqual([]);
    expect(renamed.map((e) => e.path)).toEqual([]);
    expect(restrictedNamed).toEqual([]);
  });

  it('name every member inside the public elements, and every value of their enumerations', () => {
    // Prepare: the public part of the full example, and the element names themselves left out.
    const members = memberNames(filterByTier(EXAMPLE, 'public'));
    const elementMembers = new Set(ELEMENTS.flatMap((element) => element.path.split('.')));
    // Act
    const unnamedMembers = [...members].filter((member) => !elementMembers.has(member) && !Object.hasOwn(FIELD_NAMES, member) && !/^[a-z]{2}$/.test(member));
    const values = [...LIFECYCLE_STAGES, ...HAZARDOUS_SUBSTANCE_CLASSES, ...RECYCLED_MATERIALS, ...LABELING_SUBJECTS, ...BATTERY_COMPONENTS];
    // Assess
    expect(unnamedMembers).toEqual([]);
    expect(values.filter((value) => !Object.hasOwn(VALUE_NAMES, value))).toEqual([]);
    expect(UNITS.batteryMass).toBe('kg');
  });
});

describe('the battery passport page', () => {
  it('shows the public elements of each aspect with their units, in the page’s language', () => {
    // Act
    const page = renderBatteryPage(view(EXAMPLE), 'fr');
    // Assess
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('Passeport de batterie');
    expect(page).toContain('<dt>Fabricant</dt>');
    expect(page).toContain('452,5\u00a0kg');
    expect(page).toContain('Batterie de véhicule électrique');
    expect(page).toMatch(/8[\s\u00a0\u202f]ans/u); // the commercial warranty period, P8Y
    expect(page).not.toMatch(/12[\s\u00a0\u202f]mois/u); // the data model's gMonth --12 is not a period
    expect(page).toContain('<span class="field">Nom\u00a0:</span>'); // French puts a space before the colon
    expect(page).toContain('Extraction et prétraitement des matières premières');
    // A label's meaning in the page's language, the other languages' not shown.
    expect(page).toContain('Ne pas jeter avec les ordures ménagères');
    expect(page).not.toContain('Nicht mit dem Hausmüll entsorgen');
    for (const aspect of ['generalProductInformation', 'carbonFootprint', 'labeling', 'performanceAndDurability']) expect(page).toContain(`id="aspect-${aspect}"`);
  });

  it('shows nothing of the elements a public reader may not see, even when given them', () => {
    // Act
    const page = renderBatteryPage(view(EXAMPLE), 'en');
    // Assess
    expect(page).not.toContain(EXAMPLE.labeling.resultOfTestReport);
    expect(page).not.toContain(EXAMPLE.circularity.safetyMeasures.safetyInstructions);
    expect(page).not.toContain('Polyvinylidene fluoride');
    expect(page).not.toContain('Cell Maker Service GmbH');
    expect(page).not.toContain('21450'); // an energy throughput (Annex XIII point 4)
  });

  it('leaves out an aspect with no public element, and escapes what the producer wrote', () => {
    // Prepare
    const data = { generalProductInformation: { manufacturerInformation: { ...EXAMPLE.generalProductInformation.manufacturerInformation, contactName: '<script>alert(1)</script> & Co' } }, labeling: { resultOfTestReport: EXAMPLE.labeling.resultOfTestReport } };
    // Act
    const page = renderBatteryPage(view(data, 'Pack "A" <b>'), 'de');
    // Assess
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(page).toContain('Pack &quot;A&quot; &lt;b&gt;');
    expect(page).not.toMatch(/<script/);
    expect(page).not.toContain('aspect-labeling');
    expect(page.match(/<section /g)).toHaveLength(1);
  });
});

describe('public passport data (lib/domain/passport-kinds.ts)', () => {
  it('keeps a battery passport’s public elements only, and a wine’s data whole', () => {
    // Prepare
    const wine = { productType: 'wine', vintage: 2022 };
    // Act
    const battery = publicPassportData('battery', EXAMPLE) as Json;
    const asWine = publicPassportData('wine', wine);
    // A battery passport stored under a product whose category changed since: still filtered.
    const recategorised = publicPassportData('wine', EXAMPLE) as Json;
    // Assess
    expect(battery.labeling).toEqual({ declarationOfConformity: EXAMPLE.labeling.declarationOfConformity, labels: EXAMPLE.labeling.labels });
    expect(battery.materialComposition.batteryMaterials).toBeUndefined();
    expect(battery.performanceAndDurability.batteryCondition).toBeUndefined();
    expect(asWine).toBe(wine);
    expect(recategorised).toEqual(battery);
    expect(holdsBatteryData({ vintage: 2022 })).toBe(false);
  });
});

describe('point 5: the commercial warranty period in words (docs/battery.md#extension-members)', () => {
  it('point 5: a 10-year warranty (P10Y) is stated and rendered in words; --10 is never shown as 10 months', () => {
    // Prepare: golden strings, each from the Unicode CLDR data the runtime's Intl carries (units
    // duration-year and duration-month, long, with their plural forms; list pattern "and").
    const golden = [
      // CLDR de: unit duration-year long, other "{0} Jahre"; duration-month long, other "{0} Monate"; list "{0} und {1}".
      { lang: 'de', value: 'P10Y', words: '10 Jahre' },
      { lang: 'de', value: 'P8Y6M', words: '8 Jahre und 6 Monate' },
      { lang: 'de', value: 'P1Y1M', words: '1 Jahr und 1 Monat' },
      // CLDR fr: duration-year long, one "{0} an", other "{0} ans"; duration-month "{0} mois"; list "{0} et {1}".
      { lang: 'fr', value: 'P10Y', words: '10 ans' },
      { lang: 'fr', value: 'P1Y6M', words: '1 an et 6 mois' },
      // CLDR pl: duration-year long, one "{0} rok", few "{0} lata", many "{0} lat"; duration-month many "{0} miesięcy"; list "{0} i {1}".
      { lang: 'pl', value: 'P10Y', words: '10 lat' },
      { lang: 'pl', value: 'P2Y5M', words: '2 lata i 5 miesięcy' },
      { lang: 'pl', value: 'P1Y', words: '1 rok' },
    ] as const;
    const data = { generalProductInformation: { warrentyPeriod: '--10', commercialWarrantyPeriod: 'P10Y' } };

    // Act
    const words = golden.map(({ lang, value }) => warrantyInWords(value, lang)?.replace(/[\u00a0\u202f]/gu, ' '));
    const pages = LANGUAGES.map((lang) => ({ lang, page: renderBatteryPage(view(data), lang) }));

    // Assess
    expect(words).toEqual(golden.map(({ words }) => words));
    expect(pages.find(({ lang }) => lang === 'de')?.page).toMatch(/10[\s\u00a0]Jahre/u);
    // Every language states the period in words, with no unit abbreviation, and none shows the gMonth.
    for (const { lang, page } of pages) {
      expect(warrantyInWords('P10Y', lang)).not.toMatch(/^10 y$/u);
      expect(page).toContain(warrantyInWords('P10Y', lang)?.replace(/&/gu, '&amp;'));
      expect(page).not.toContain('--10');
      expect(page).not.toMatch(/10[\s\u00a0\u202f](months|Monate|mois|miesięcy)/u);
    }
  });
});
