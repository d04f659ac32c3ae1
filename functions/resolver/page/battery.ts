import { ELEMENTS, type BatteryElement } from '../../../lib/domain/battery/element-map.ts';
import { ASPECT_NAMES } from '../../../lib/domain/battery/page-urls.ts';
import { valueAt } from '../../../lib/domain/battery/paths.ts';
import { categoryWord, DURATION_WORDS_UNCONFIRMED, ELEMENT_NAMES, FIELD_NAMES, nameIn, pageWords, UNITS, VALUE_NAMES, type PageKey } from '../../../lib/domain/battery/texts.ts';
import { warrantyYearsAndMonths } from '../../../lib/domain/battery/warranty.ts';
import { BATTERY_CATEGORIES, type BatteryCategory } from '../../../lib/domain/battery/categories.ts';
import { predecessorsOf } from '../../../lib/domain/battery/lifecycle.ts';
import { FORMAT_LOCALES } from '../../../lib/domain/labelling/languages.ts';
import { text } from '../../../lib/domain/labelling/texts.ts';
import type { Passport } from '../../../lib/domain/passport.ts';
import { publicPassportData } from '../../../lib/domain/passport-kinds.ts';
import type { UnitLine } from './elabel.ts';
import { documentShell, html, languageSwitcher, section, type Fragment, type SafeHtml } from './html.ts';
import { DEFAULT_LANGUAGE, formatDate, formatMonth, formatNumber, type Lang } from './i18n.ts';
import { WITHDRAWN_BATTERY_TEXTS } from './unavailable-texts.ts';

/**
 * The public page of a battery passport (docs/battery.md#the-public-page-json-and-links): the
 * version's public elements (Regulation (EU) 2023/1542 Art. 77(2), Annex XIII point 1) by aspect,
 * in one of the 24 languages. Built like the e-label (html.ts: escaped markup, one stylesheet under
 * a hash-based CSP, no script, nothing from another origin), stacked for a phone. The page's own
 * words and the names of elements, their members and values are in every language
 * (lib/domain/battery/texts.ts); a name missing in one is shown in English, marked `lang="en"`.
 * Numbers keep at most four significant digits, in the language's notation, with a true minus sign
 * and the SI prefix that suits them; a label's symbol is drawn here, inline.
 */

type Words = Readonly<Record<PageKey, string>>;

// U+00A0 keeps a number and its unit together; U+2212 is the minus sign.
const NBSP = '\u00a0';
const MINUS = '\u2212';

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

/** A name as plain text (an accessible name), in the page's language or English. */
const nameText = (name: { text: string } | undefined, fallback: string): string => name?.text ?? fallback;

// ---------------------------------------------------------------------------------------------
// Numbers: at most four significant digits, the language's notation (Intl.NumberFormat), a true
// minus sign, and for power, resistance, charge and energy the SI prefix that suits the value
// (docs/battery.md#the-public-page-json-and-links).

/** How many significant digits a measured value keeps on the page. */
export const SIGNIFICANT_DIGITS = 4;

const PREFIX_FACTORS: Readonly<Record<string, number>> = { G: 1e9, M: 1e6, k: 1e3, '': 1, m: 1e-3 };

/**
 * The units shown with a prefix: their base unit, the prefixes they take (largest first), and how
 * many base units the stored unit is. The largest prefix that keeps the value at 1 or more is
 * taken, else the smallest: 150000 W is "150 kW", 0.00075 Ω "0.75 mΩ" (internal resistances in
 * mΩ, as batteries state them), 0.5 kWh stays "0.5 kWh" (a battery's energy is never shown in Wh),
 * 3400 Ah stays "3400 Ah" (capacities are stated in Ah, or mAh below 1 Ah). Voltages stay in V.
 */
const PREFIXED: Readonly<Record<string, { base: string; prefixes: readonly string[]; stored: number }>> = {
  W: { base: 'W', prefixes: ['G', 'M', 'k', ''], stored: 1 },
  Ω: { base: 'Ω', prefixes: ['M', 'k', '', 'm'], stored: 1 },
  Ah: { base: 'Ah', prefixes: ['', 'm'], stored: 1 },
  kWh: { base: 'Wh', prefixes: ['G', 'M', 'k'], stored: 1e3 },
};

const significantFormats = new Map<Lang, Intl.NumberFormat>();

/** A number with at most SIGNIFICANT_DIGITS significant digits in the language's notation, with U+2212 for a negative one. */
export function significant(value: number, lang: Lang): string {
  let format = significantFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(FORMAT_LOCALES[lang], { maximumSignificantDigits: SIGNIFICANT_DIGITS });
    significantFormats.set(lang, format);
  }
  return format
    .formatToParts(value)
    .map((part) => (part.type === 'minusSign' ? MINUS : part.value))
    .join('');
}

/** A value in the unit with the prefix that suits it (PREFIXED), rounded to SIGNIFICANT_DIGITS first, so that 999.96 W is "1 kW". */
function scaled(value: number, unit: string | undefined): { value: number; unit: string | undefined } {
  const prefixed = unit === undefined ? undefined : PREFIXED[unit];
  if (!prefixed || value === 0) return { value, unit };
  const base = Number((value * prefixed.stored).toPrecision(SIGNIFICANT_DIGITS));
  const prefix = prefixed.prefixes.find((candidate) => Math.abs(base) >= (PREFIX_FACTORS[candidate] ?? 1)) ?? prefixed.prefixes.at(-1) ?? '';
  return { value: base / (PREFIX_FACTORS[prefix] ?? 1), unit: `${prefix}${prefixed.base}` };
}

/**
 * A measured value with its unit, kept together (U+00A0, also inside a unit of several words:
 * "61.3 kg CO₂e/kWh"): "150 kW", "0,75 mΩ", "−40 °C". A count without a unit (cycles) is shown whole.
 */
export function quantity(value: number, unit: string | undefined, lang: Lang): string {
  if (unit === undefined && Number.isInteger(value)) return formatNumber(value, lang, 0).replace(/^-|\u2212/u, MINUS);
  const shown = scaled(value, unit);
  const number = significant(shown.value, lang);
  return shown.unit === undefined ? number : `${number}${NBSP}${shown.unit.replace(/ /gu, NBSP)}`;
}

// ---------------------------------------------------------------------------------------------
// Words: the warranty period, a member's value, its reading order.

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
  // Annex VI Part A(4) asks for the month and year of manufacture, and a month alone is stored as its first day: the page shows no day.
  if (member === 'manufacturingDate') return formatMonth(value, lang) ?? value;
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

/**
 * The order members are read in, whatever order the stored JSON has: within each kind of entity,
 * what it is before how much and where (docs/battery.md#the-public-page-json-and-links). Members
 * not listed follow in their stored order.
 */
const READING_ORDER: readonly string[] = [
  // A contact (manufacturer, economic operator): who, where, its identifier, then how to reach it.
  'contactName', 'postalAddress', 'identifier', 'emailAddress', 'webAddress',
  // A hazardous substance: what, how hazardous, how much, which one exactly, where, what it does.
  'hazardousSubstanceName', 'hazardousSubstanceClass', 'hazardousSubstanceConcentration', 'hazardousSubstanceIdentifier', 'hazardousSubstanceLocation', 'hazardousSubstanceImpact',
  // A label: its subject, its symbol, what it means.
  'labelingSubject', 'labelingSymbol', 'labelingMeaning',
  // A life cycle stage, a recycled material, a critical raw material: which, then how much.
  'lifecycleStage', 'carbonFootprint',
  'recycledMaterial', 'preConsumerShare', 'postConsumerShare',
  'criticalRawMaterialName', 'criticalRawMaterialConcentration',
  // The chemistry, a component: its short name or name, then the rest.
  'shortName', 'clearName',
  'componentName', 'componentId',
  // A power at a state of charge, a resistance of a part: the value, then what it is of.
  'powerCapabilityAt', 'atSoC',
  'batteryComponent', 'ohmicResistance',
  'minimum', 'maximum',
  'wastePrevention', 'separateCollection', 'informationOnCollection',
];

/** An entity's members in reading order (READING_ORDER), the unlisted ones after, as stored. */
export function inReadingOrder<T>(members: readonly (readonly [string, T])[]): (readonly [string, T])[] {
  const rank = (key: string): number => {
    const index = READING_ORDER.indexOf(key);
    return index === -1 ? READING_ORDER.length : index;
  };
  return members
    .map((member, position) => ({ member, position }))
    .sort((a, b) => rank(a.member[0]) - rank(b.member[0]) || a.position - b.position)
    .map(({ member }) => member);
}

/** The colon after a member's name: French puts a (non-breaking) space before it. */
const colon = (lang: Lang): string => (lang === 'fr' ? `${NBSP}:` : ':');

// ---------------------------------------------------------------------------------------------
// Label symbols (Annex XIII 1(q), Art. 13): drawn here as inline SVG, so that the page loads
// nothing from another origin and its CSP stays as strict (no style attribute: presentation
// attributes only, in the text's colour). Simple, recognisable drawings, not the regulation's
// artwork (docs/battery.md#what-is-unconfirmed); the producer's own symbol stays a link.

/** The crossed-out wheeled bin (the symbol for separate collection, Art. 13(4) and Annex VI Part B). */
const CROSSED_OUT_BIN = html`<path d="M15 15h18l-2.5 22h-13z"/><path d="M12 12h24M21 12V9h6v3"/><circle cx="29" cy="40" r="2"/><path d="M9 7l30 36M39 7L9 43"/>`;

/** Text in a drawing, in the text's colour. */
const svgText = (x: number, y: number, size: number, content: string): SafeHtml =>
  html`<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="700" fill="currentColor" stroke="none">${content}</text>`;

/** The chemical symbols of Art. 13(5) a hazardous-substance label names (in its symbol's link or its meaning), Cd before Pb. */
export function chemicalSymbols(label: Record<string, unknown>): string[] {
  const said = [label.labelingSymbol, ...(isRecord(label.labelingMeaning) ? Object.values(label.labelingMeaning) : [])].filter((part): part is string => typeof part === 'string').join(' ');
  return [...(/\bCd\b|cadmium|kadmium/iu.test(said) ? ['Cd'] : []), ...(/\bPb\b|\blead\b|\bblei\b|\bplomb\b/iu.test(said) ? ['Pb'] : [])];
}

/** The drawing of a label's subject (its height on a width of 48), or undefined for a subject we draw nothing for. */
function symbolDrawing(subject: string, symbols: readonly string[]): { height: number; markup: SafeHtml } | undefined {
  switch (subject) {
    case 'SeparateCollection':
      return { height: 48, markup: CROSSED_OUT_BIN };
    case 'HazardousMaterial':
      // The crossed-out bin with the chemical symbols under it (Art. 13(5)); a hazard triangle when the label names neither.
      return symbols.length > 0
        ? { height: 62, markup: html`${CROSSED_OUT_BIN}${svgText(24, 58, 13, symbols.join(' '))}` }
        : { height: 48, markup: html`<path d="M24 6L44 41H4z"/>${svgText(24, 37, 20, '!')}` };
    case 'CarbonFootPrint':
      return { height: 48, markup: html`<circle cx="24" cy="24" r="19"/>${svgText(24, 29, 13, 'CO₂')}` };
    case 'ExtinguishingAgent':
      return { height: 48, markup: html`<rect x="17" y="16" width="13" height="27" rx="4"/><path d="M21 16v-5h5v5M26 12h8M21 11c-6 0-9 4-9 10"/>` };
    default:
      return undefined;
  }
}

/**
 * A label's symbol drawn inline, with an accessible name in the page's language ("Symbol:
 * Getrennte Sammlung"): role="img", aria-label and <title>. Undefined for a subject not drawn.
 */
export function labelSymbol(label: Record<string, unknown>, lang: Lang): SafeHtml | undefined {
  const subject = typeof label.labelingSubject === 'string' ? label.labelingSubject : '';
  const symbols = subject === 'HazardousMaterial' ? chemicalSymbols(label) : [];
  const drawing = symbolDrawing(subject, symbols);
  if (!drawing) return undefined;
  const symbolName = nameIn(FIELD_NAMES, 'labelingSymbol', lang);
  const subjectName = nameIn(VALUE_NAMES, subject, lang);
  const name = `${nameText(symbolName, 'Symbol')}${colon(lang)} ${nameText(subjectName, subject)}${symbols.length > 0 ? ` (${symbols.join(', ')})` : ''}`;
  const nameLang = symbolName?.lang ?? subjectName?.lang;
  return html`<svg class="symbol" viewBox="0 0 48 ${drawing.height}" width="48" height="${drawing.height}" role="img" aria-label="${name}"${nameLang && html` lang="${nameLang}"`} fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"><title>${name}</title>${drawing.markup}</svg>`;
}

// ---------------------------------------------------------------------------------------------
// Values.

/** A value of a public element or of one of its members, `member` being its name in the data model. */
function valueHtml(value: unknown, member: string, lang: Lang, words: Words): Fragment {
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return quantity(value, UNITS[member], lang);
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
  const members = inReadingOrder(Object.entries(value).filter(([, inner]) => inner !== undefined && inner !== null));
  // A label's symbol: the drawing, then the producer's link.
  const symbol = 'labelingSubject' in value ? labelSymbol(value, lang) : undefined;
  return html`<ul class="values">${members.map(([key, inner]) => {
    const shown = key === 'labelingSymbol' && symbol ? html`${symbol} ${valueHtml(inner, key, lang, words)}` : valueHtml(inner, key, lang, words);
    return html`<li><span class="field">${named(nameIn(FIELD_NAMES, key, lang), key)}${colon(lang)}</span> ${shown}</li>`;
  })}</ul>`;
}

/**
 * What the page says under an element's value: the carbon footprint's functional unit in words
 * (Art. 7(1)(d)), and that a performance class is voluntary while Art. 7(2) sets none.
 */
function elementNote(path: string, words: Words): SafeHtml | undefined {
  if (path === 'carbonFootprint.batteryCarbonFootprint') return html`<p class="note">${words.functionalUnit}</p>`;
  if (path === 'carbonFootprint.carbonFootprintPerformanceClass') return html`<p class="note">${words.performanceClassNote}</p>`;
  return undefined;
}

function aspectSection(aspect: string, data: unknown, lang: Lang, words: Words): SafeHtml | undefined {
  const entries = PUBLIC_ELEMENTS.filter((element) => element.path.startsWith(`${aspect}.`) && !NOT_SHOWN.has(element.path))
    .map((element) => ({ element, value: valueAt(data, element.path) }))
    .filter(({ value }) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0));
  if (entries.length === 0) return undefined;
  const items = entries.map(({ element, value }) => {
    const member = element.path.split('.').at(-1) as string;
    return html`<dt>${named(nameIn(ELEMENT_NAMES, element.path, lang), element.name)}</dt><dd>${valueHtml(value, member, lang, words)}${elementNote(element.path, words)}</dd>`;
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

/** Links the page may carry besides the passport's own: `inspect`, the authority view for market surveillance authorities (http or https only). */
export interface BatteryPageLinks {
  inspect?: string;
}

/** The link to the authority view, when one is given (an http(s) URL; anything else is left out). */
function inspectLink(words: Words, links?: BatteryPageLinks): SafeHtml | undefined {
  const href = links?.inspect;
  if (href === undefined || !/^https?:\/\/[^\s]+$/u.test(href)) return undefined;
  return html`<p class="note inspect"><a href="${href}">${words.inspectLink}</a></p>\n`;
}

/**
 * The page of a battery passport version in `lang` (or of one battery: the version's data with the
 * battery's laid over it, and its `unit` line). Only public elements are read: the data goes
 * through publicPassportData first, whatever the caller passed. `_terms` is the e-label's
 * signature's: a battery's page has no legal terms to correct. `links.inspect`, when given, is the
 * authority view a market surveillance authority signs in to.
 */
export function renderBatteryPage(view: Passport, lang: Lang, _terms?: unknown, unit?: UnitLine, links?: BatteryPageLinks): string {
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
${sections}${inspectLink(words, links)}${languageSwitcher(lang, text(lang, 'otherLanguages'))}</main>
${footer(view, lang, unit)}`;
  return documentShell(lang, `${view.name} · ${words.kicker}`, body);
}

/**
 * For a battery its producer withdrew (served with 410, in every language): withdrawal is the
 * producer's, for a mistake or a recall (docs/lifecycle.md#withdrawal), and not the page of a
 * recycled battery, whose passport ceased (renderRecycled, elabel.ts).
 */
export function renderBatteryWithdrawn(lang: Lang): string {
  const words = pageWords(lang);
  const withdrawn = WITHDRAWN_BATTERY_TEXTS[lang];
  const body = html`<main>
<header class="intro">
<p class="kicker">${words.kicker}</p>
<h1>${withdrawn.heading}</h1>
</header>
<div class="card">
<p>${withdrawn.body}</p>
<p>${withdrawn.hint}</p>
</div>
</main>`;
  return documentShell(lang, withdrawn.title, body);
}
