import { DEFAULT_LANGUAGE, FORMAT_LOCALES, isLang, LANGUAGES, type Lang } from '../../../lib/domain/labelling/languages.ts';
import { text } from '../../../lib/domain/labelling/texts.ts';

/**
 * The languages of the e-label page (the 24 official EU languages, lib/domain/labelling/languages.ts;
 * their fixed texts are data: lib/domain/labelling/texts.ts, docs/labelling.md), plus the
 * locale-aware formatting (numbers, dates, country names through Intl) and Accept-Language
 * negotiation the page needs. Pure functions: no AWS, no I/O.
 */

export { DEFAULT_LANGUAGE, LANGUAGES, type Lang };

/** Each language's own name for itself (for the language switcher and link titles). */
export const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = Object.fromEntries(LANGUAGES.map((lang) => [lang, text(lang, 'languageName')])) as Record<Lang, string>;

const FORMAT_LOCALE = FORMAT_LOCALES;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number in the language's notation (a decimal comma in most of them), at most `maxFractionDigits` decimals. */
export function formatNumber(value: number, lang: Lang, maxFractionDigits = 2): string {
  const key = `${lang}:${maxFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(FORMAT_LOCALE[lang], { maximumFractionDigits: maxFractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

/** The calendar date (UTC) of an ISO timestamp in the language, or undefined when it is not a date. */
export function formatDate(iso: string, lang: Lang): string | undefined {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(FORMAT_LOCALE[lang], { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(lang, format);
  }
  return format.format(date);
}

const monthFormats = new Map<Lang, Intl.DateTimeFormat>();

/**
 * The month and year of an ISO 8601 date or date-time, as written (`2027-03-31T23:30:00-02:00` is
 * March, whatever UTC says): "März 2027", "mars 2027", "marzec 2027" (docs/battery.md#tightenings:
 * a battery's manufacturing date is a month and year, Annex VI Part A(4)).
 */
export function formatMonth(iso: string, lang: Lang): string | undefined {
  const match = /^(\d{4})-(0[1-9]|1[0-2])/u.exec(iso);
  if (!match) return undefined;
  let format = monthFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(FORMAT_LOCALE[lang], { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthFormats.set(lang, format);
  }
  return format.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

const regionNames = new Map<Lang, Intl.DisplayNames>();

/** The name of an ISO 3166-1 alpha-2 country in the language (FR → "France", "Frankreich"); the code if unknown. */
export function countryName(code: string, lang: Lang): string {
  try {
    let names = regionNames.get(lang);
    if (!names) {
      names = new Intl.DisplayNames([FORMAT_LOCALE[lang]], { type: 'region', fallback: 'code' });
      regionNames.set(lang, names);
    }
    return names.of(code) ?? code;
  } catch {
    return code; // not a well-formed region code
  }
}

// RFC 9110 §12.5.4: language-range [ weight ], weight = OWS ";" OWS "q=" qvalue (0 to 1, up to 3 decimals).
const RANGE = /^(\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Picks the page language from an Accept-Language header (RFC 9110 §12.5.4, RFC 4647 matching).
 *
 * - Each offered language gets the highest weight among the ranges that match it: the range itself
 *   (`de`), or a more specific range of it (`de-AT`, `de-CH` → `de`, as a lookup fallback).
 * - An exact range with q=0 (`de;q=0`) refuses that language, whatever more specific ranges say.
 * - `*` matches every offered language that no other range names; among those, `fallback` comes
 *   first, then English, then the others in alphabetical order.
 * - Ties between weights go to the range listed first; malformed members are ignored.
 * - When nothing acceptable is offered (or no header is sent), `fallback`: the product's label
 *   language when the caller knows one, else English (docs/resolver.md#the-page-language).
 */
export function negotiateLanguage(acceptLanguage: string | undefined, fallback: Lang = DEFAULT_LANGUAGE): Lang {
  if (!acceptLanguage) return fallback;
  const offered: Lang[] = [...new Set<Lang>([fallback, DEFAULT_LANGUAGE, ...LANGUAGES])];

  interface Candidate {
    weight: number;
    position: number;
  }
  const best = new Map<Lang, Candidate>();
  const refused = new Set<Lang>();
  const named = new Set<Lang>();
  let wildcard: Candidate | undefined;

  acceptLanguage.split(',').forEach((member, position) => {
    const [rawRange = '', ...params] = member.split(';').map((part) => part.trim());
    if (!RANGE.test(rawRange)) return;
    let weight = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/i.exec(param);
      if (!match) continue; // unknown parameter: not part of the grammar, tolerate it
      const value = (match[1] ?? '').trim();
      if (!QVALUE.test(value)) return; // malformed weight: ignore the whole member
      weight = Number(value);
    }
    const range = rawRange.toLowerCase();
    if (range === '*') {
      if (!wildcard || weight > wildcard.weight) wildcard = { weight, position };
      return;
    }
    const primary = range.split('-')[0] ?? '';
    if (!isLang(primary)) return;
    named.add(primary);
    if (range === primary && weight === 0) refused.add(primary);
    const current = best.get(primary);
    if (!current || weight > current.weight) best.set(primary, { weight, position });
  });

  if (wildcard) {
    for (const lang of offered) {
      if (!named.has(lang)) best.set(lang, wildcard);
    }
  }

  let chosen: Lang | undefined;
  let chosenCandidate: Candidate | undefined;
  for (const lang of offered) {
    const candidate = best.get(lang);
    if (!candidate || candidate.weight <= 0 || refused.has(lang)) continue;
    if (
      !chosenCandidate ||
      candidate.weight > chosenCandidate.weight ||
      (candidate.weight === chosenCandidate.weight && candidate.position < chosenCandidate.position)
    ) {
      chosen = lang;
      chosenCandidate = candidate;
    }
  }
  return chosen ?? fallback;
}
