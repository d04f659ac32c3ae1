import { ELEMENTS, type BatteryElement } from '../../../lib/domain/battery/element-map.ts';
import { ASPECT_NAMES } from '../../../lib/domain/battery/page-urls.ts';
import { valueAt } from '../../../lib/domain/battery/paths.ts';
import { categoryWord, DURATION_WORDS_UNCONFIRMED, ELEMENT_NAMES, FIELD_NAMES, nameIn, pageWords, UNITS, VALUE_NAMES, type PageKey } from '../../../lib/domain/battery/texts.ts';
import { warrantyYearsAndMonths } from '../../../lib/domain/battery/general-product-information.ts';
import { BATTERY_CATEGORIES, type BatteryCategory } from '../../../lib/domain/battery/categories.ts';
import { predecessorsOf } from '../../../lib/domain/battery/lifecycle.ts';
import { FORMAT_LOCALES } from '../../../lib/domain/labelling/languages.ts';
import { text } from '../../../lib/domain/labelling/texts.ts';
import type { Passport } from '../../../lib/domain/passport.ts';
import { publicPassportData } from '../../../lib/domain/passport-kinds.ts';
import type { UnitLine } from './elabel.ts';
import { documentShell, html, languageSwitcher, section, type Fragment, type SafeHtml } from './html.ts';
import { DEFAULT_LANGUAGE, formatDate, formatNumber, type Lang } from './i18n.ts';

/**
 * The public page of a battery passport (docs/battery.md#the-public-page-json-and-links): the
 * version's public elements (Regulation (EU) 2023/1542 Art. 77(2), Annex XIII point 1) by aspect,
 * in one of the 24 languages. Built like the e-label (html.ts: escaped markup, one stylesheet under
 * a hash-based CSP, no script, nothing from another origin), stacked for a phone. The page's own
 * words are in every language; the names of elements, their members and values in English, German
 * and French (lib/domain/battery/texts.ts), otherwise in English marked `lang="en"`.
 */

type Words = Readonly<Record<PageKey, string>>;

// U+00A0 keeps a number and its unit together.
const NBSP = '\u00a0';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The public elements, in the element map's order. */
const PUBLIC_ELEMENTS: readonly BatteryElement[] = ELEMENTS.filter((element) => element.tier === 'public');

/** Members whose values are enumerations with names (VALUE_NAMES). */
const ENUMERATED = new Set(['lifecycleStage', 'hazardousSubstanceClass', 'recycledMaterial', 'labelingSubject', 'batteryComponent']);

const HTTPS = /^https:\/\//;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
/** Public elements the page leaves out: the data model's gMonth warranty names a month of the year, not a period (docs/battery.md#extension-members). */
const NOT_SHOWN = new Set(['generalProductInformation.warrentyPeriod']);

/** A name, in the page's language or in English marked as such. */
function named(name: { text: string; lang?: 'en' } | undefined, fallback: string): Fragment {
  if (!name) return html`<span lang="en">${fallback}</span>`;
  return name.lang ? html`<span lang="${name.lang}">${name.text}</span>` : name.text;
}

/**
 * A number of years or months in words (`10 Jahre`, `6 miesięcy`): the plural forms of the Unicode
 * CLDR data of the runtime (Intl), or our own words where CLDR has no long names
 * (DURATION_WORDS_UNCONFIRMED, lib/domain/battery/texts.ts).
 */
function unitWords(count: number, unit: 'year' | 'month', lang: Lang): string {
  const own = DURATION_WORDS_UNCONFIRMED[lang]?.[unit];
  if (own) {
    const rule = new Intl.PluralRules(FORMAT_LOCALES[lang]).select(count);
    return (own[rule] ?? own.other).replace('{0}', formatNumber(count, lang, 0));
  }
  return new Intl.NumberFormat(FORMAT_LOCALES[lang], { style: 'unit', unit, unitDisplay: 'long' }).format(count);
}

/**
 * A commercial warranty period (`P8Y6M`, an ISO 8601 duration: docs/battery.md#extension-members)
 * in words: "8 years and 6 months" in the language (Intl.ListFormat joins the two). Never the data
 * model's gMonth `warrentyPeriod`, which names a month of the year, not a duration, and is not shown.
 */
export function warrantyInWords(value: string, lang: Lang): string | undefined {
  const period = warrantyYearsAndMonths(value);
  if (!period) return undefined;
  const parts = [...(period.years > 0 ? [unitWords(period.years, 'year', lang)] : []), ...(period.months > 0 ? [unitWords(period.months, 'month', lang)] : [])];
  return new Intl.ListFormat(FORMAT_LOCALES[lang], { type: 'conjunction', style: 'long' }).format(parts);
}

function stringValue(value: string, member: string, lang: Lang, words: Words): Fragment {
  if (member === 'batteryCategory' && (BATTERY_CATEGORIES as readonly string[]).includes(value)) return words[categoryWord(value as BatteryCategory)];
  if (ENUMERATED.has(member)) return named(nameIn(VALUE_NAMES, value, lang), value);
  if (member === 'emailAddress') return html`<a href="mailto:${value}">${value}</a>`;
  if (HTTPS.test(value)) return html`<a href="${value}">${value}</a>`;
  if (member === 'commercialWarrantyPeriod') return warrantyInWords(value, lang) ?? value;
  if (DATE_TIME.test(value)) return formatDate(value, lang) ?? value;
  return value;
}

/** Texts by language (a label's meaning): the page's language, then English, then the first given, marked when not the page's. */
function multiLanguage(texts: Record<string, unknown>, lang: Lang): Fragment {
  for (const candidate of [lang, DEFAULT_LANGUAGE, ...Object.keys(texts)]) {
    const value = texts[candidate];
    if (typeof value === 'string' && value.trim() !== '') return candidate === lang ? value : html`<span lang="${candidate}">${value}</span>`;
  }
  return '';
}

const ADDRESS_MEMBERS = ['streetAddress', 'postalCode', 'addressCountry'];

/** The colon after a member's name: French puts a (non-breaking) space before it. */
const colon = (lang: Lang): string => (lang === 'fr' ? `${NBSP}:` : ':');

/** A value of a public element or of one of its members, `member` being its name in the data model. */
function valueHtml(value: unknown, member: string, lang: Lang, words: Words): Fragment {
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') {
    const unit = UNITS[member];
    return `${formatNumber(value, lang, 4)}${unit ? `${NBSP}${unit}` : ''}`;
  }
  if (typeof value === 'string') return stringValue(value, member, lang, words);
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    // A list of objects (hazardous substances, life cycle stages): each one a block of its members, without a bullet of its own.
    const entries = value.every(isRecord) ? 'values entries' : 'values';
    return html`<ul class="${entries}">${value.map((entry) => html`<li>${valueHtml(entry, member, lang, words)}</li>`)}</ul>`;
  }
  if (!isRecord(value)) return '';
  if (member === 'labelingMeaning') return multiLanguage(value, lang);
  // A postal address on one line: street, postal code and country.
  if (Object.keys(value).every((key) => ADDRESS_MEMBERS.includes(key))) {
    return ADDRESS_MEMBERS.map((key) => value[key])
      .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
      .join(', ');
  }
  const members = Object.entries(value).filter(([, inner]) => inner !== undefined && inner !== null);
  return html`<ul class="values">${members.map(
    ([key, inner]) => html`<li><span class="field">${named(nameIn(FIELD_NAMES, key, lang), key)}${colon(lang)}</span> ${valueHtml(inner, key, lang, words)}</li>`,
  )}</ul>`;
}

function aspectSection(aspect: string, data: unknown, lang: Lang, words: Words): SafeHtml | undefined {
  const entries = PUBLIC_ELEMENTS.filter((element) => element.path.startsWith(`${aspect}.`) && !NOT_SHOWN.has(element.path))
    .map((element) => ({ element, value: valueAt(data, element.path) }))
    .filter(({ value }) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0));
  if (entries.length === 0) return undefined;
  const items = entries.map(({ element, value }) => {
    const member = element.path.split('.').at(-1) as string;
    return html`<dt>${named(nameIn(ELEMENT_NAMES, element.path, lang), element.name)}</dt><dd>${valueHtml(value, member, lang, words)}</dd>`;
  });
  return section(`aspect-${aspect}`, words[`aspect_${aspect}` as PageKey], html`<dl>${items}</dl>`);
}

/** A battery's second-life links (docs/battery.md#second-life): the original's passport, and the passports it continues in. */
function lineageLinks(lang: Lang, unit?: UnitLine): SafeHtml | undefined {
  const words = pageWords(lang);
  const links = [
    ...predecessorsOf(unit?.lineage).map((link) => ({ href: link.digitalLink, label: words.predecessor })),
    ...(unit?.lineage?.successors ?? []).map((link) => ({ href: link.digitalLink, label: words.successor })),
  ].filter((link) => /^https?:\/\//.test(link.href));
  if (links.length === 0) return undefined;
  return html`<ul class="lineage">${links.map((link) => html`<li><a href="${link.href}">${link.label}</a></li>`)}</ul>`;
}

function footer(view: Passport, lang: Lang, unit?: UnitLine): SafeHtml {
  const date = formatDate(view.lastUpdated, lang);
  const version = String(view.version);
  // A battery's page names its lot and serial as GS1 prints them under a barcode, as the e-label's does.
  const unitLine = [unit?.lot === undefined ? '' : `(10) ${unit.lot}`, unit?.serial === undefined ? '' : `(21) ${unit.serial}`].filter(Boolean).join(' ');
  return html`<footer>
<p>${date ? text(lang, 'versionPublished', { version, date }) : text(lang, 'versionOnly', { version })}</p>
<p>${text(lang, 'gtin')} <span class="gtin" translate="no">${view.gtin}</span></p>
${unitLine !== '' && html`<p class="unit" translate="no">${unitLine}</p>`}
${lineageLinks(lang, unit)}
</footer>`;
}

/**
 * The page of a battery passport version in `lang` (or of one battery: the version's data with the
 * battery's laid over it, and its `unit` line). Only public elements are read: the data goes
 * through publicPassportData first, whatever the caller passed. `_terms` is the e-label's
 * signature's: a battery's page has no legal terms to correct.
 */
export function renderBatteryPage(view: Passport, lang: Lang, _terms?: unknown, unit?: UnitLine): string {
  const words = pageWords(lang);
  const data = publicPassportData('battery', view.data);
  const category = valueAt(data, 'generalProductInformation.batteryCategory');
  const categoryLine = typeof category === 'string' && (BATTERY_CATEGORIES as readonly string[]).includes(category) ? words[categoryWord(category as BatteryCategory)] : undefined;
  const sections = ASPECT_NAMES.map((aspect) => aspectSection(aspect, data, lang, words));
  const body = html`<main class="battery">
<header class="intro">
<p class="kicker">${words.kicker}</p>
<h1>${view.name}</h1>
${categoryLine !== undefined && html`<p class="meta">${categoryLine}</p>`}
<p class="note">${words.intro}</p>
${unit === undefined && html`<p class="note model">${words.modelNote}</p>`}
</header>
${sections}${languageSwitcher(lang, text(lang, 'otherLanguages'))}</main>
${footer(view, lang, unit)}`;
  return documentShell(lang, `${view.name} · ${words.kicker}`, body);
}
