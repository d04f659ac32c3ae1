import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inReadingOrder, labelSymbol, quantity, renderBatteryPage, renderBatteryWithdrawn, warrantyInWords } from '../../functions/resolver/page/battery.ts';
import { CONTENT_SECURITY_POLICY } from '../../functions/resolver/page/html.ts';
import { renderRecycled } from '../../functions/resolver/page/elabel.ts';
import { WITHDRAWN_BATTERY_TEXTS } from '../../functions/resolver/page/unavailable-texts.ts';
import { LIFECYCLE_STAGES } from '../../lib/domain/battery/carbon-footprint.ts';
import { RECYCLED_MATERIALS } from '../../lib/domain/battery/circularity.ts';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';
import { filterByTier } from '../../lib/domain/battery/elements.ts';
import { LABELING_SUBJECTS } from '../../lib/domain/battery/labeling.ts';
import { HAZARDOUS_SUBSTANCE_CLASSES } from '../../lib/domain/battery/material-composition.ts';
import { BATTERY_COMPONENTS } from '../../lib/domain/battery/performance-and-durability.ts';
import { ELEMENT_NAMES, FIELD_NAMES, NAME_LANGUAGES, nameIn, nameSource, PAGE_KEYS, PAGE_LANGUAGES, pageWords, UNCONFIRMED_TRANSLATION, UNITS, VALUE_NAMES } from '../../lib/domain/battery/texts.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import type { Passport } from '../../lib/domain/passport.ts';
import { holdsBatteryData, publicPassportData } from '../../lib/domain/passport-kinds.ts';

/**
 * The words of the battery passport page (lib/domain/battery/texts.ts) and its rendering
 * (functions/resolver/page/battery.ts): every language complete, every public element, member and
 * value named in all 24 languages with where each name comes from, nothing but public elements on
 * the page whatever it is given, numbers with their units as a reader expects them, members in
 * reading order, label symbols drawn inline, and the withdrawn battery's page.
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

  it('name every public element in all 24 languages, the English as the element map has it', () => {
    // Prepare
    const publicElements = ELEMENTS.filter((element) => element.tier === 'public');
    // Act
    const unnamed = publicElements.flatMap((element) => LANGUAGES.filter((lang) => !ELEMENT_NAMES[element.path]?.[lang]?.trim()).map((lang) => `${lang}:${element.path}`));
    const renamed = publicElements.filter((element) => ELEMENT_NAMES[element.path]?.en !== element.name);
    const restrictedNamed = Object.keys(ELEMENT_NAMES).filter((path) => ELEMENTS.find((element) => element.path === path)?.tier !== 'public');
    // Assess
    expect([...NAME_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
    expect(unnamed).toEqual([]);
    expect(renamed.map((e) => e.path)).toEqual([]);
    expect(restrictedNamed).toEqual([]);
  });

  it('name every member inside the public elements, and every value of their enumerations, in all 24 languages', () => {
    // Prepare: the public part of the full example, and the element names themselves left out.
    const members = memberNames(filterByTier(EXAMPLE, 'public'));
    const elementMembers = new Set(ELEMENTS.flatMap((element) => element.path.split('.')));
    const values = [...LIFECYCLE_STAGES, ...HAZARDOUS_SUBSTANCE_CLASSES, ...RECYCLED_MATERIALS, ...LABELING_SUBJECTS, ...BATTERY_COMPONENTS];
    // Act
    const unnamedMembers = [...members].filter((member) => !elementMembers.has(member) && !Object.hasOwn(FIELD_NAMES, member) && !/^[a-z]{2}$/.test(member));
    const untranslated = [
      ...Object.keys(FIELD_NAMES).flatMap((key) => LANGUAGES.filter((lang) => !FIELD_NAMES[key]?.[lang]?.trim()).map((lang) => `${lang}:${key}`)),
      ...values.flatMap((value) => LANGUAGES.filter((lang) => !VALUE_NAMES[value]?.[lang]?.trim()).map((lang) => `${lang}:${value}`)),
    ];
    // Assess
    expect(unnamedMembers).toEqual([]);
    expect(values.filter((value) => !Object.hasOwn(VALUE_NAMES, value))).toEqual([]);
    expect(untranslated).toEqual([]);
    expect(UNITS.batteryMass).toBe('kg');
  });

  it('say where each name comes from: the regulation’s own words where read, otherwise our translation, unconfirmed', () => {
    // Act
    const sources = LANGUAGES.flatMap((lang) => [
      ...Object.keys(ELEMENT_NAMES).map((key) => ({ lang, ...nameSource(ELEMENT_NAMES, key, lang) })),
      ...Object.keys(FIELD_NAMES).map((key) => ({ lang, ...nameSource(FIELD_NAMES, key, lang) })),
      ...Object.keys(VALUE_NAMES).map((key) => ({ lang, ...nameSource(VALUE_NAMES, key, lang) })),
    ]);
    const confirmed = sources.filter((source) => source.confirmed && source.lang !== 'en');
    const rated = nameSource(ELEMENT_NAMES, 'performanceAndDurability.batteryTechicalProperties.ratedCapacity', 'de');
    // Assess: the German "Bemessungskapazität" (not "Nennkapazität") was read in Annex XIII 1(g); the French one was not.
    expect(ELEMENT_NAMES['performanceAndDurability.batteryTechicalProperties.ratedCapacity']?.de).toBe('Bemessungskapazität');
    expect(rated).toEqual({ confirmed: true, source: 'Regulation (EU) 2023/1542 Annex XIII point 1(g), German text (Haufe)' });
    expect(nameSource(ELEMENT_NAMES, 'performanceAndDurability.batteryTechicalProperties.ratedCapacity', 'fr')).toEqual({ confirmed: false, source: UNCONFIRMED_TRANSLATION });
    expect(nameSource(FIELD_NAMES, 'contactName', 'pl')).toEqual({ confirmed: false, source: UNCONFIRMED_TRANSLATION });
    // Only German names were read in the regulation's text, each naming where.
    expect(new Set(confirmed.map((source) => source.lang))).toEqual(new Set(['de']));
    expect(confirmed.every((source) => /^Regulation \(EU\) 2023\/1542 (Annex XIII point 1|Art\. 13\(4\))/.test(source.source))).toBe(true);
    expect(sources.filter((source) => !source.confirmed).length).toBeGreaterThan(2000);
  });

  it('fall back to English, marked lang="en", for a name missing in the page’s language', () => {
    // Prepare: a table with only an English name, and a member no table names.
    const table = { someMember: { en: 'Some member' } };
    const data = { generalProductInformation: { manufacturerInformation: { contactName: 'Cell Maker GmbH', unknownMember: 'x' } } };
    // Act
    const name = nameIn(table, 'someMember', 'de');
    const page = renderBatteryPage(view(data), 'de');
    // Assess
    expect(name).toEqual({ text: 'Some member', lang: 'en' });
    expect(nameIn(table, 'someMember', 'en')).toEqual({ text: 'Some member' });
    expect(page).toContain('<span lang="en">unknownMember</span>');
    expect(page).toContain('<span class="field">Name:</span> Cell Maker GmbH');
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

  it('shows the manufacturing date as month and year (Annex VI Part A(4)), the month as the maker wrote it', () => {
    // Prepare: late on 31 March at UTC−2 is already April in UTC.
    const data = structuredClone(EXAMPLE);
    data.generalProductInformation.manufacturingDate = '2027-03-31T23:30:00-02:00';

    // Act
    const [de, fr, pl] = (['de', 'fr', 'pl'] as const).map((lang) => renderBatteryPage(view(data), lang));

    // Assess
    expect(de).toContain('<dd>März 2027</dd>');
    expect(fr).toContain('<dd>mars 2027</dd>');
    expect(pl).toContain('<dd>marzec 2027</dd>');
    expect(de).not.toContain('31. März');
    expect(de).not.toContain('April 2027');
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

describe('numbers on the page: significant digits, SI prefixes, the language’s notation', () => {
  const NBSP = '\u00a0';

  it('shows a value with the SI prefix that suits it, at most four significant digits, its unit kept with it', () => {
    // Act
    const shown = {
      cell: quantity(0.00075, 'Ω', 'en'),
      pack: quantity(0.085, 'Ω', 'en'),
      power: quantity(150000, 'W', 'en'),
      rounded: quantity(999.96, 'W', 'en'),
      lmtEnergy: quantity(0.5, 'kWh', 'en'),
      storage: quantity(2500, 'kWh', 'en'),
      capacity: quantity(3400, 'Ah', 'en'),
      cellCapacity: quantity(0.5, 'Ah', 'en'),
      voltage: quantity(1331.2, 'V', 'en'),
      mass: quantity(452.54, 'kg', 'en'),
      footprint: quantity(61.3, 'kg CO₂e/kWh', 'en'),
      cycles: quantity(12345, undefined, 'en'),
      germanCell: quantity(0.00075, 'Ω', 'de'),
      frenchMass: quantity(1234.5, 'kg', 'fr'),
    };
    // Assess
    expect(shown).toEqual({
      cell: `0.75${NBSP}mΩ`,
      pack: `85${NBSP}mΩ`,
      power: `150${NBSP}kW`,
      rounded: `1${NBSP}kW`,
      lmtEnergy: `0.5${NBSP}kWh`,
      storage: `2.5${NBSP}MWh`,
      capacity: `3,400${NBSP}Ah`,
      cellCapacity: `500${NBSP}mAh`,
      voltage: `1,331${NBSP}V`,
      mass: `452.5${NBSP}kg`,
      footprint: `61.3${NBSP}kg${NBSP}CO₂e/kWh`,
      cycles: '12,345', // a count is shown whole
      germanCell: `0,75${NBSP}mΩ`,
      frenchMass: `1\u202f235${NBSP}kg`, // CLDR's French group separator, U+202F
    });
  });

  it('writes a negative value with a true minus sign (U+2212), as a recycling stage’s credit', () => {
    // Prepare
    const data = { carbonFootprint: { carbonFootprintPerLifecycleStage: [{ lifecycleStage: 'Recycling', carbonFootprint: -3.6 }] } };
    // Act
    const en = renderBatteryPage(view(data), 'en');
    const sv = renderBatteryPage(view(data), 'sv');
    // Assess
    expect(quantity(-40, '°C', 'de')).toBe(`\u221240${NBSP}°C`);
    expect(en).toContain(`\u22123.6${NBSP}kg${NBSP}CO₂e/kWh`);
    expect(en).not.toMatch(/-3\.6/);
    expect(sv).toContain(`\u22123,6${NBSP}kg${NBSP}CO₂e/kWh`);
  });

  it('states the absolute footprint in t CO₂e and the footprint per functional unit in kg CO₂e/kWh', () => {
    // Prepare
    const data = { carbonFootprint: { batteryCarbonFootprint: 61.3, absoluteCarbonFootprint: 6.9 } };
    // Act
    const page = renderBatteryPage(view(data), 'en');
    // Assess
    expect(UNITS.absoluteCarbonFootprint).toBe('t CO₂e');
    expect(page).toContain(`<dd>6.9${NBSP}t${NBSP}CO₂e</dd>`);
    expect(page).toContain(`61.3${NBSP}kg${NBSP}CO₂e/kWh`);
  });

  it('shows the example’s resistances and powers with prefixes on the page', () => {
    // Act
    const page = renderBatteryPage(view(EXAMPLE), 'en');
    // Assess
    expect(page).toContain(`0.75${NBSP}mΩ`);
    expect(page).toContain(`7.2${NBSP}mΩ`);
    expect(page).toContain(`<dd>250${NBSP}kW</dd>`);
    expect(page).not.toMatch(/250000|0\.00075/);
  });
});

describe('reading order of an entity’s members', () => {
  /** The member names of one entity on the page, in the order shown. */
  const fieldsShown = (fragment: string): string[] => [...fragment.matchAll(/<span class="field">([^<]+?)(?:\u00a0)?:<\/span>/gu)].map((match) => match[1] ?? '');

  it('reads a contact as name, postal address, identifier, e-mail, website, whatever the stored order', () => {
    // Prepare: the members stored backwards.
    const contact = { webAddress: 'https://www.cell-maker.example', emailAddress: 'ops@cell-maker.example', identifier: 'DE123', postalAddress: { addressCountry: 'Germany', postalCode: '38440', streetAddress: 'Werkstraße 1' }, contactName: 'Cell Maker GmbH' };
    // Act
    const page = renderBatteryPage(view({ generalProductInformation: { manufacturerInformation: contact } }), 'en');
    // Assess
    expect(fieldsShown(page)).toEqual(['Name', 'Postal address', 'Identifier', 'E-mail', 'Website']);
  });

  it('reads a hazardous substance as name, class, concentration, CAS number, location, effects', () => {
    // Prepare
    const substance = {
      hazardousSubstanceImpact: ['H301 Toxic if swallowed'],
      hazardousSubstanceLocation: { componentId: 'CM-EL-01', componentName: 'Electrolyte' },
      hazardousSubstanceIdentifier: '21324-40-3',
      hazardousSubstanceConcentration: 0.66,
      hazardousSubstanceClass: 'AcuteToxicity',
      hazardousSubstanceName: 'Lithium hexafluorophosphate',
    };
    // Act
    const page = renderBatteryPage(view({ materialComposition: { hazardousSubstances: [substance] } }), 'en');
    // Assess
    expect(fieldsShown(page)).toEqual(['Substance', 'Hazard class', 'Concentration', 'CAS number', 'Location in the battery', 'Component', 'Component identifier', 'Effects']);
  });

  it('reads a label as subject, symbol, meaning, and keeps members it does not know after, as stored', () => {
    // Act
    const ordered = inReadingOrder([['zeta', 1], ['labelingMeaning', 2], ['alpha', 3], ['labelingSymbol', 4], ['labelingSubject', 5]] as const).map(([key]) => key);
    // Assess
    expect(ordered).toEqual(['labelingSubject', 'labelingSymbol', 'labelingMeaning', 'zeta', 'alpha']);
  });
});

describe('label symbols drawn inline (Annex XIII 1(q), Art. 13)', () => {
  const labels = [
    { labelingMeaning: { de: 'Getrennt sammeln.' }, labelingSymbol: 'https://www.cell-maker.example/labels/separate-collection.svg', labelingSubject: 'SeparateCollection' },
    { labelingSymbol: 'https://www.cell-maker.example/labels/pb.svg', labelingMeaning: { de: 'Enthält mehr als 0,004 % Blei (Pb).' }, labelingSubject: 'HazardousMaterial' },
    { labelingSymbol: 'https://www.cell-maker.example/labels/co2.svg', labelingMeaning: { de: 'CO₂-Fußabdruck erklärt.' }, labelingSubject: 'CarbonFootPrint' },
    { labelingSymbol: 'https://www.cell-maker.example/labels/water.svg', labelingMeaning: { de: 'Mit Wasser löschen.' }, labelingSubject: 'ExtinguishingAgent' },
  ];

  it('draws each label’s symbol with an accessible name in the page’s language, and still links the producer’s symbol', () => {
    // Act
    const page = renderBatteryPage(view({ labeling: { labels } }), 'de');
    const svgs = page.match(/<svg [^>]*>[\s\S]*?<\/svg>/gu) ?? [];
    // Assess
    expect(svgs).toHaveLength(4);
    for (const svg of svgs) expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-label="Symbol: [^"]+"/u);
    expect(svgs[0]).toContain('<title>Symbol: Getrennte Sammlung</title>');
    expect(svgs[1]).toContain('aria-label="Symbol: Gefährliche Stoffe (Pb)"');
    expect(svgs[1]).toMatch(/<text [^>]*>Pb<\/text>/u);
    expect(svgs[1]).not.toContain('>Cd<');
    expect(svgs[2]).toMatch(/<text [^>]*>CO₂<\/text>/u);
    expect(svgs[3]).toContain('<title>Symbol: Löschmittel</title>');
    for (const label of labels) expect(page).toContain(`<a href="${label.labelingSymbol}">${label.labelingSymbol}</a>`);
  });

  it('keeps the page within its strict CSP: no style attribute, no script, nothing loaded', () => {
    // Act
    const page = renderBatteryPage(view({ labeling: { labels } }), 'fr');
    const outsideStylesheet = page.replace(/<style>[\s\S]*?<\/style>/u, '');
    // Assess
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(outsideStylesheet).not.toMatch(/\sstyle=/u);
    expect(page).not.toMatch(/<script|<img|\ssrc=|xlink:href|<use/u);
    expect(page).toContain('aria-label="Symbole\u00a0: Collecte séparée"');
  });

  it('draws a hazard triangle, naming no metal, when a hazardous-substance label names neither Cd nor Pb', () => {
    // Act
    const svg = labelSymbol({ labelingSubject: 'HazardousMaterial', labelingSymbol: 'https://www.cell-maker.example/labels/hazard.svg' }, 'en')?.markup ?? '';
    const cadmium = labelSymbol({ labelingSubject: 'HazardousMaterial', labelingMeaning: { en: 'Contains cadmium' } }, 'en')?.markup ?? '';
    // Assess
    expect(svg).toContain('aria-label="Symbol: Hazardous substances"');
    expect(svg).not.toMatch(/>(Cd|Pb)</u);
    expect(cadmium).toMatch(/<text [^>]*>Cd<\/text>/u);
    expect(labelSymbol({ labelingSubject: 'SomethingElse' }, 'en')).toBeUndefined();
  });

  it('escapes what the producer wrote into the accessible name', () => {
    // Act
    const svg = labelSymbol({ labelingSubject: 'HazardousMaterial', labelingMeaning: { en: '"><script>alert(1)</script> Pb' } }, 'en')?.markup ?? '';
    // Assess
    expect(svg).not.toContain('<script');
    expect(svg).toContain('aria-label="Symbol: Hazardous substances (Pb)"');
  });
});

describe('the carbon footprint explained', () => {
  it('explains the functional unit in words under the footprint, citing Art. 7(1)(d), in every language', () => {
    // Prepare
    const data = { carbonFootprint: { batteryCarbonFootprint: 61.3 } };
    // Act
    const en = renderBatteryPage(view(data), 'en');
    const notes = LANGUAGES.map((lang) => pageWords(lang).functionalUnit);
    // Assess
    expect(en).toContain('<p class="note">Functional unit: kg of CO₂ equivalent per kWh of the total energy the battery system provides over its service life (Regulation (EU) 2023/1542, Article 7(1)(d)).</p>');
    expect(new Set(notes).size).toBe(LANGUAGES.length);
    for (const note of notes) expect(note).toMatch(/2023\/1542.*7/u);
  });

  it('shows a performance class as voluntary, with no regulatory class yet (Art. 7(2)), and says nothing when there is none', () => {
    // Act
    const withClass = renderBatteryPage(view({ carbonFootprint: { batteryCarbonFootprint: 61.3, carbonFootprintPerformanceClass: 'B' } }), 'de');
    const without = renderBatteryPage(view({ carbonFootprint: { batteryCarbonFootprint: 61.3 } }), 'de');
    // Assess
    expect(withClass).toContain('<dd>B<p class="note">Freiwillig: Eine gesetzliche Klasse gibt es noch nicht (Verordnung (EU) 2023/1542, Artikel 7 Absatz 2).</p></dd>');
    expect(without).not.toContain('Freiwillig');
    expect(new Set(LANGUAGES.map((lang) => pageWords(lang).performanceClassNote)).size).toBe(LANGUAGES.length);
  });
});

describe('the link for market surveillance authorities', () => {
  it('links the authority view when the page is given one, in the page’s language', () => {
    // Act
    const page = renderBatteryPage(view(EXAMPLE), 'en', undefined, undefined, { inspect: 'https://api.example.com/v1/inspect/dpp_123' });
    const pl = renderBatteryPage(view(EXAMPLE), 'pl', undefined, { serial: 'EVP1' }, { inspect: 'https://api.example.com/v1/inspect/dpp_123' });
    // Assess
    expect(page).toContain('<a href="https://api.example.com/v1/inspect/dpp_123">Market surveillance authorities: sign in to the authority view</a>');
    expect(pl).toContain('>Organy nadzoru rynku: zaloguj się do widoku dla organów</a>');
    expect(new Set(LANGUAGES.map((lang) => pageWords(lang).inspectLink)).size).toBe(LANGUAGES.length);
  });

  it('shows no such link without one, nor for a link that is not http(s)', () => {
    // Act
    const without = renderBatteryPage(view(EXAMPLE), 'en');
    const script = renderBatteryPage(view(EXAMPLE), 'en', undefined, undefined, { inspect: 'javascript:alert(1)' });
    // Assess
    expect(without).not.toContain('Market surveillance authorities');
    expect(script).not.toContain('Market surveillance authorities');
    expect(script).not.toContain('javascript:');
  });
});

describe('the withdrawn battery’s page', () => {
  it('says in every language that the producer withdrew it, for a mistake or a recall, unlike the recycled battery’s page', () => {
    // Act
    const pages = LANGUAGES.map((lang) => ({ lang, page: renderBatteryWithdrawn(lang), recycled: renderRecycled(lang) }));
    // Assess
    expect(renderBatteryWithdrawn('en')).toContain('<p>Its producer has withdrawn it, for a mistake or a recall.</p>');
    expect(renderBatteryWithdrawn('de')).toContain('<h1>Dieser Batteriepass wurde zurückgezogen</h1>');
    for (const { lang, page, recycled } of pages) {
      const texts = WITHDRAWN_BATTERY_TEXTS[lang];
      expect(page).toContain(`<html lang="${lang}">`);
      expect(page).toContain(`<title>${texts.title}</title>`);
      expect(page).not.toContain(pageWords(lang).recycledHeading);
      expect(recycled).not.toContain(texts.heading);
    }
    expect(new Set(LANGUAGES.map((lang) => WITHDRAWN_BATTERY_TEXTS[lang].body)).size).toBe(LANGUAGES.length);
  });
});
