/**
 * The 24 official languages of the European Union, as the e-label offers them
 * (docs/labelling.md). No imports: the resolver, the services and the dashboard all read it.
 */
export const LANGUAGES = [
  'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'ga', 'hr',
  'hu', 'it', 'lt', 'lv', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv',
] as const;
export type Lang = (typeof LANGUAGES)[number];

/** The language of a page when nothing else chooses one. */
export const DEFAULT_LANGUAGE: Lang = 'en';

export const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The locale each language is formatted in (numbers, dates, country names through Intl): the
 * language as written in the member state where it is most spoken; British English for `en`
 * (an EU audience: "21 November 2026").
 */
export const FORMAT_LOCALES: Readonly<Record<Lang, string>> = {
  bg: 'bg-BG', cs: 'cs-CZ', da: 'da-DK', de: 'de-DE', el: 'el-GR', en: 'en-GB', es: 'es-ES', et: 'et-EE',
  fi: 'fi-FI', fr: 'fr-FR', ga: 'ga-IE', hr: 'hr-HR', hu: 'hu-HU', it: 'it-IT', lt: 'lt-LT', lv: 'lv-LV',
  mt: 'mt-MT', nl: 'nl-NL', pl: 'pl-PL', pt: 'pt-PT', ro: 'ro-RO', sk: 'sk-SK', sl: 'sl-SI', sv: 'sv-SE',
};
