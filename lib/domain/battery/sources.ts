/**
 * What the battery element map (lib/domain/battery/element-map.ts) was read from, each with where
 * it is and in which language it was read (docs/battery.md#sources). The map cites these by id.
 * No imports.
 */
export interface Source {
  title: string;
  url: string;
  /** The language the text was read in. */
  language: string;
  /** What in it was read, and how far it can be trusted. */
  note: string;
}

export const SOURCES = {
  'bp-data-model': {
    title: 'Battery Pass consortium, Battery Pass Data Model release 1.2 (PerformanceAndDurability 1.2.1), generated JSON Schemas and payload samples',
    url: 'https://github.com/batterypass/BatteryPassDataModel',
    language: 'en',
    note: 'Read at commit 4c96de2 (the release notes date the CC-BY-4.0 licence 2025-10-23; the generated files still carry an older CC BY-NC notice in their descriptions). Property names, types, required members, enumerations; the Annex XIII points its descriptions cite.',
  },
  'bp-longlist': {
    title: 'Battery Pass consortium, Battery Passport Data Attribute Longlist, version 1.2 (January 2025)',
    url: 'https://github.com/batterypass/BatteryPassDataModel/blob/main/docs/1.2/2025_Battery_Passport_Data_Attributes_V1.2.xlsx',
    language: 'en',
    note: 'The consortium\'s reading of the regulation, per attribute: mandatory per category (EV, LMT, other industrial > 2 kWh, stationary > 2 kWh), regulation reference, access group, static or dynamic, model or individual battery. A secondary source: facts were taken, no text.',
  },
  'reg-art-77': {
    title: 'Regulation (EU) 2023/1542, Article 77 (battery passport), paragraphs 1 and 2',
    url: 'https://haufe.de/recht/deutsches-anwalt-office-premium/verordnung-eu-20231542-des-europaeischen-parlaments-un-art-77-batteriepass_idesk_PI17574_HI15825515.html',
    language: 'de',
    note: 'The German text as published by Haufe. Paragraph 1: the passport from 18 February 2027 for LMT batteries, industrial batteries above 2 kWh and electric vehicle batteries; paragraph 2: point 1 public, points 2 and 3 for notified bodies, market surveillance authorities and the Commission, points 2 and 4 for persons with a legitimate interest.',
  },
  'reg-annex-xiii': {
    title: 'Regulation (EU) 2023/1542, Annex XIII (information to be included in the battery passport), point 1 (a) to (s)',
    url: 'https://haufe.de/recht/deutsches-anwalt-office-premium/verordnung-eu-20231542-des-europaeischen-parlaments-un-anhang-xiii-in-den-batteriepass-aufzunehmende-informationen_idesk_PI17574_HI15825567.html',
    language: 'de',
    note: 'The German text as published by Haufe; only point 1 could be read in full. Points 2 to 4 were read through the Commission guidance and the consortium\'s longlist, which agree.',
  },
  'reg-art-7': {
    title: 'Regulation (EU) 2023/1542, Article 7 (carbon footprint), paragraph 1',
    url: 'https://haufe.de/recht/deutsches-anwalt-office-premium/verordnung-eu-20231542-des-europaeischen-parlaments-un-art-7-co2-fussabdruck-von-elektrofahrzeugbatterien-wiederaufladbaren-industriebatterien-und-lv-batterien_idesk_PI17574_HI15825438.html',
    language: 'de',
    note: 'The German text as published by Haufe: the declaration applies from 18 Feb 2025 (EV), 18 Feb 2026 (industrial except exclusively external storage), 18 Aug 2028 (LMT), or 12 (EV) / 18 months after the delegated and implementing acts, whichever is later. Paragraphs 2 and 3 (class, maximum) could not be read: their dates are from secondary sources.',
  },
  'reg-art-8': {
    title: 'Regulation (EU) 2023/1542, Article 8 (recycled content), paragraph 1',
    url: 'https://haufe.de/recht/deutsches-anwalt-office-premium/verordnung-eu-20231542-des-europaeischen-parlaments-un-art-8-rezyklatgehalt-von-industriebatterien-elektrofahrzeugbatterien-lv-batterien-und-starterbatterien_idesk_PI17574_HI15825439.html',
    language: 'de',
    note: 'The German text as published by Haufe: the documentation of the recycled shares of cobalt, lithium, nickel and lead applies from 18 August 2028 or 24 months after the delegated act on the method (due by 18 August 2026), whichever is later, for industrial batteries above 2 kWh (except those with exclusively external storage), electric vehicle and SLI batteries; for LMT batteries from 18 August 2033.',
  },
  'reg-art-74': {
    title: 'Regulation (EU) 2023/1542, Article 74 (information on the prevention and management of waste batteries), paragraph 1',
    url: 'https://haufe.de/recht/deutsches-anwalt-office-premium/verordnung-eu-20231542-des-europaeischen-parlaments-un-art-74-informationen-ueber-die-abfallvermeidung-und-bewirtschaftung-von-altbatterien_idesk_PI17574_HI15825511.html',
    language: 'de',
    note: 'The German text as published by Haufe: points (a) to (f) of paragraph 1, point (d) being the safety instructions for handling waste batteries, including the risks of batteries containing lithium and their handling.',
  },
  'ec-guidance': {
    title: 'European Commission, Guidance Document: Digital Batteries Passport – data points by category, version 1.0, 28 July 2026, Ares(2026)7579758',
    url: 'https://github.com/openepcis/openepcis-dpp-ready/blob/main/extensions/eu/battery/vocab/ec-guidance-datapoints.json',
    language: 'en',
    note: 'Read as transcribed by OpenEPCIS, not in the Commission\'s own publication: per data point its source (Annex XIII point and letter) and whether it is mandatory, conditional or pending in February 2027 for EV, LMT and industrial batteries.',
  },
} as const satisfies Record<string, Source>;

export type SourceId = keyof typeof SOURCES;
