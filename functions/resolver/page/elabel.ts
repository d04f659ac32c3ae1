import { createHash } from 'node:crypto';
import type { Nutrition, Passport } from '../../../lib/domain/passport.ts';
import {
  countryName,
  formatDate,
  formatNumber,
  LABELS,
  type AllergenKey,
  type Labels,
  type Lang,
  type WineColour,
} from './i18n.ts';

/**
 * The consumer e-label page (docs/api.md#the-public-resolver-and-its-e-label-page): a complete, self-contained HTML document
 * per passport, rendered on the server. No scripts, no external resources, no cookies: the only
 * bytes the browser gets are this document, styled by one inline stylesheet whose hash the
 * Content-Security-Policy names.
 */

// ---------------------------------------------------------------------------------------------
// Escaping: every piece of text reaches the page through escapeHtml, via the `html` tag below.

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Markup that is already safe: only the `html` tag creates it. */
class SafeHtml {
  constructor(readonly markup: string) {}
}

/** What may be interpolated: safe markup, text (escaped), or nothing (false, null, undefined). */
type Fragment = SafeHtml | string | number | false | null | undefined | readonly Fragment[];

function toMarkup(value: Fragment): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return (value as readonly Fragment[]).map(toMarkup).join('');
  return escapeHtml(String(value));
}

/** Template tag: the literal parts are markup, every interpolated value is escaped unless it is SafeHtml. */
function html(strings: TemplateStringsArray, ...values: Fragment[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += toMarkup(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

// ---------------------------------------------------------------------------------------------
// Style: one constant stylesheet, so one hash in the CSP covers every page.

const STYLE = [
  ':root{color-scheme:light dark;--bg:#f4f3f1;--card:#fff;--text:#1c1b1f;--muted:#55535c;--line:#e3e1e6;',
  '--accent:#7a1f3d;--warn-bg:#fff3df;--warn-line:#b45309;--warn-text:#7a2e0e}',
  '@media (prefers-color-scheme:dark){:root{--bg:#131216;--card:#1f1e24;--text:#f3f2f5;--muted:#bab8c2;',
  '--line:#3a3841;--accent:#f5abc2;--warn-bg:#3a2810;--warn-line:#f59e0b;--warn-text:#fde2b0}}',
  '*,*::before,*::after{box-sizing:border-box}',
  'html{-webkit-text-size-adjust:100%;text-size-adjust:100%}',
  'body{margin:0;background:var(--bg);color:var(--text);',
  'font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif;',
  'overflow-wrap:anywhere;border-top:.25rem solid var(--accent)}',
  'main,footer{max-width:40rem;margin:0 auto;padding:0 1rem}',
  '.intro{padding:1.75rem 0 1.25rem}',
  '.kicker{margin:0 0 .375rem;font-size:.8125rem;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:var(--accent)}',
  'h1{margin:0;font-size:1.75rem;line-height:1.2;font-weight:700;letter-spacing:-.01em}',
  '.meta{margin:.5rem 0 0;font-size:1.0625rem;color:var(--muted)}',
  '.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1rem 1.125rem;margin:0 0 1rem}',
  '.card p{margin:0;hyphens:auto}',
  '.card p+p{margin-top:.75rem}',
  'h2{margin:0 0 .5rem;font-size:1.125rem;line-height:1.3;font-weight:700}',
  '.allergens{background:var(--warn-bg);border-color:var(--warn-line);border-left-width:.375rem}',
  '.allergens h2{color:var(--warn-text)}',
  '.allergens p{font-size:1.125rem}',
  'table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}',
  'caption{text-align:left;font-size:.875rem;color:var(--muted);padding-bottom:.25rem}',
  'th,td{padding:.5rem 0;border-bottom:1px solid var(--line);vertical-align:top}',
  'thead th{font-size:.8125rem;font-weight:600;color:var(--muted);text-align:left}',
  'thead th+th,td{text-align:right;padding-left:1rem}',
  'tbody th{text-align:left;font-weight:400}',
  'tr.sub th{padding-left:1rem;color:var(--muted)}',
  'tbody tr:last-child>*{border-bottom:0}',
  'dl{margin:0}',
  'dt{font-size:.875rem;color:var(--muted)}',
  'dd{margin:0 0 .625rem;hyphens:auto}',
  'dd:last-child{margin-bottom:0}',
  '@media (min-width:30rem){dl{display:grid;grid-template-columns:max-content 1fr;gap:.375rem 1.5rem}',
  'dt{font-size:1rem}dd{margin:0}}',
  '.producers{list-style:none;margin:0;padding:0}',
  '.producers li{padding:.5rem 0;border-bottom:1px solid var(--line)}',
  '.producers li:first-child{padding-top:0}',
  '.producers li:last-child{border-bottom:0;padding-bottom:0}',
  '.producer-name{display:block;font-weight:600}',
  '.producer-detail{font-size:.9375rem;color:var(--muted)}',
  'footer{padding-bottom:2rem;font-size:.875rem;color:var(--muted)}',
  'footer p{margin:.25rem 0}',
  '.gtin{font-variant-numeric:tabular-nums;letter-spacing:.02em}',
].join('');

const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}`;

/**
 * The Content-Security-Policy for every page rendered here: nothing may load or run; only the
 * page's own stylesheet (by hash) applies. Send it as a response header (frame-ancestors works
 * only there).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src '${STYLE_HASH}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The document around a page's body. The empty data: icon stops browsers from asking the
 * resolver for /favicon.ico on every first visit (a wasted request, and an invocation).
 */
function documentShell(lang: Lang, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="format-detection" content="telephone=no">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
${body}
</body>
</html>
`.markup;
}

// ---------------------------------------------------------------------------------------------
// Ingredients: allergen words are emphasised (Regulation (EU) 1169/2011 art. 21).

const ALLERGEN_TERMS = [
  // sulphites: English, German, French; sulphur dioxide; E 220 to E 228
  'sul(?:ph|f)it(?:e|es|s)?',
  'sul(?:ph|f)ur dioxide',
  'schwefeldioxid',
  'schweflige säure',
  'anhydride sulfureux',
  'dioxyde de soufre',
  'e ?22[0-8]',
  // egg
  'eggs?',
  '(?:hühner|voll|trocken)?ei(?:er|klar|gelb|weiß|albumin|pulver)?',
  'œufs?',
  'oeufs?',
  'ovalbumine?',
  'lysozyme?',
  // fish
  'fish',
  '\\p{L}*fisch\\p{L}*', // German compounds: Fischgelatine, Thunfisch
  'poissons?',
  'isinglass',
  'hausenblase',
  // milk
  'milk',
  '\\p{L}*milch\\p{L}*', // German compounds: Magermilchpulver, Milcheiweiß
  'lait',
  'case(?:in|ín)(?:ates?)?',
  'caséin(?:e|ates?)?',
  'kasein(?:at)?',
  'lactose',
  'laktose',
];
const ALLERGEN_PATTERN = new RegExp(`(?<![\\p{L}\\p{N}])(?:${ALLERGEN_TERMS.join('|')})(?![\\p{L}\\p{N}])`, 'giu');

/** An ingredient with every allergen word in <strong>. */
function emphasiseAllergens(ingredient: string): SafeHtml {
  const parts: Fragment[] = [];
  let last = 0;
  for (const match of ingredient.matchAll(ALLERGEN_PATTERN)) {
    const start = match.index;
    parts.push(ingredient.slice(last, start), html`<strong>${match[0]}</strong>`);
    last = start + match[0].length;
  }
  parts.push(ingredient.slice(last));
  return html`${parts}`;
}

// ---------------------------------------------------------------------------------------------
// Sections

const KJ_PER_KCAL = 4.184;

const isPresent = (value: unknown): boolean =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const grams = (value: number, lang: Lang) => `${formatNumber(value, lang)}\u00a0g`;

/** Parts joined by a middle dot that assistive technology does not read out. */
function separated(parts: string[]): SafeHtml {
  return html`${parts.map((part, index) => html`${index > 0 && html`<span aria-hidden="true"> · </span>`}<span>${part}</span>`)}`;
}

function section(id: string, heading: string, content: SafeHtml, className = 'card'): SafeHtml {
  return html`<section class="${className}" aria-labelledby="${id}">
<h2 id="${id}">${heading}</h2>
${content}
</section>
`;
}

function ingredientsSection(view: Passport, labels: Labels): SafeHtml | undefined {
  const ingredients = (view.data.ingredients ?? []).filter(isPresent);
  if (ingredients.length === 0) return undefined;
  const list = ingredients.map((ingredient, index) => html`${index > 0 && ', '}${emphasiseAllergens(ingredient)}`);
  return section('ingredients', labels.ingredients, html`<p>${list}</p>`);
}

/** kJ and kcal, each derived from the other when only one is given (1 kcal = 4.184 kJ), rounded. */
export function energyValues(nutrition: Nutrition): { kj: number; kcal: number } | undefined {
  const kj = isAmount(nutrition.energyKj) ? nutrition.energyKj : undefined;
  const kcal = isAmount(nutrition.energyKcal) ? nutrition.energyKcal : undefined;
  if (kj === undefined && kcal === undefined) return undefined;
  return {
    kj: Math.round(kj ?? (kcal as number) * KJ_PER_KCAL),
    kcal: Math.round(kcal ?? (kj as number) / KJ_PER_KCAL),
  };
}

function nutritionSection(view: Passport, lang: Lang, labels: Labels): SafeHtml | undefined {
  const nutrition = view.data.nutrition;
  if (!nutrition) return undefined;
  const rows: SafeHtml[] = [];
  const energy = energyValues(nutrition);
  if (energy) {
    const value = `${formatNumber(energy.kj, lang, 0)}\u00a0kJ / ${formatNumber(energy.kcal, lang, 0)}\u00a0kcal`;
    rows.push(html`<tr><th scope="row">${labels.energy}</th><td>${value}</td></tr>`);
  }
  const gramRows: [keyof Nutrition, string, boolean][] = [
    ['fatG', labels.fat, false],
    ['saturatedFatG', labels.saturates, true],
    ['carbohydratesG', labels.carbohydrate, false],
    ['sugarsG', labels.sugars, true],
    ['proteinG', labels.protein, false],
    ['saltG', labels.salt, false],
    ['alcoholG', labels.alcohol, false],
  ];
  for (const [field, label, sub] of gramRows) {
    const value = nutrition[field];
    if (!isAmount(value)) continue;
    rows.push(html`<tr${sub && new SafeHtml(' class="sub"')}><th scope="row">${label}</th><td>${grams(value, lang)}</td></tr>`);
  }
  if (rows.length === 0) return undefined;
  const per = view.category === 'wine' ? labels.per100ml : labels.per100g;
  const table = html`<table>
<caption>${labels.nutritionCaption(per)}</caption>
<thead><tr><th scope="col">${labels.nutrientColumn}</th><th scope="col">${per}</th></tr></thead>
<tbody>
${rows.map((row) => html`${row}\n`)}</tbody>
</table>`;
  return section('nutrition', labels.nutrition, table);
}

const ALLERGEN_FLAGS: [keyof NonNullable<Passport['data']['allergens']>, AllergenKey][] = [
  ['containsSulphites', 'sulphites'],
  ['containsEgg', 'egg'],
  ['containsFish', 'fish'],
  ['containsMilk', 'milk'],
];

function allergensSection(view: Passport, labels: Labels): SafeHtml | undefined {
  const allergens = view.data.allergens;
  if (!allergens) return undefined;
  const contained = ALLERGEN_FLAGS.filter(([flag]) => allergens[flag] === true).map(([, key]) => labels.allergenNames[key]);
  if (contained.length === 0) return undefined;
  return section('allergens', labels.allergens, html`<p><strong>${labels.contains(contained.join(', '))}</strong></p>`, 'card allergens');
}

function originSection(view: Passport, lang: Lang, labels: Labels): SafeHtml | undefined {
  const origin = view.data.origin;
  if (!origin) return undefined;
  const entries: [string, string][] = [];
  if (isPresent(origin.country)) entries.push([labels.country, countryName(origin.country as string, lang)]);
  if (isPresent(origin.region)) entries.push([labels.region, origin.region as string]);
  if (isPresent(origin.designation)) entries.push([labels.designation, origin.designation as string]);
  if (entries.length === 0) return undefined;
  return section('origin', labels.origin, html`<dl>${entries.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`);
}

function producersSection(view: Passport, lang: Lang, labels: Labels): SafeHtml | undefined {
  const producers = (view.data.producers ?? []).filter((producer) => producer && isPresent(producer.name));
  if (producers.length === 0) return undefined;
  const items = producers.map((producer) => {
    const role = producer.role ? (labels.roles[producer.role] as string | undefined) : undefined;
    const country = isPresent(producer.country) ? countryName(producer.country as string, lang) : undefined;
    const details = [role, country].filter((part): part is string => part !== undefined);
    return html`<li><span class="producer-name">${producer.name}</span>${details.length > 0 && html`<span class="producer-detail">${separated(details)}</span>`}</li>`;
  });
  return section('producers', labels.producers, html`<ul class="producers">${items}</ul>`);
}

function wineMeta(view: Passport, labels: Labels): SafeHtml | undefined {
  const isWine = view.category === 'wine' || view.data.productType === 'wine';
  if (!isWine) return undefined;
  const parts: string[] = [];
  const colour = view.data.colour ? (labels.wineColour[view.data.colour as WineColour] as string | undefined) : undefined;
  if (colour) parts.push(colour);
  if (isAmount(view.data.vintage)) parts.push(labels.vintage(String(view.data.vintage)));
  if (parts.length === 0) return undefined;
  return html`<p class="meta">${separated(parts)}</p>`;
}

function footer(view: Passport, lang: Lang, labels: Labels): SafeHtml {
  const version = String(view.version);
  const date = formatDate(view.lastUpdated, lang);
  const versionLine = isAmount(view.version) ? (date ? labels.versionPublished(version, date) : labels.versionOnly(version)) : undefined;
  return html`<footer>
${versionLine && html`<p>${versionLine}</p>`}
${isPresent(view.gtin) && html`<p>${labels.gtin} <span class="gtin" translate="no">${view.gtin}</span></p>`}
</footer>`;
}

// ---------------------------------------------------------------------------------------------
// Pages

/** The e-label page of a published passport, in the given language. */
export function renderElabel(view: Passport, lang: Lang): string {
  const labels = LABELS[lang];
  const sections = [
    ingredientsSection(view, labels),
    allergensSection(view, labels),
    nutritionSection(view, lang, labels),
    originSection(view, lang, labels),
    producersSection(view, lang, labels),
  ];
  const body = html`<main>
<header class="intro">
<p class="kicker">${labels.pageKicker}</p>
<h1>${view.name}</h1>
${wineMeta(view, labels)}
</header>
${sections}</main>
${footer(view, lang, labels)}`;
  return documentShell(lang, `${view.name} · ${labels.pageKicker}`, body);
}

function messagePage(lang: Lang, title: string, heading: string, paragraphs: string[]): string {
  const labels = LABELS[lang];
  const body = html`<main>
<header class="intro">
<p class="kicker">${labels.pageKicker}</p>
<h1>${heading}</h1>
</header>
<div class="card">
${paragraphs.map((text) => html`<p>${text}</p>\n`)}</div>
</main>`;
  return documentShell(lang, title, body);
}

/** For a browser that scanned an unknown or unpublished code (served with 404). */
export function renderNotFound(lang: Lang): string {
  const labels = LABELS[lang];
  return messagePage(lang, labels.notFoundTitle, labels.notFoundHeading, [labels.notFoundBody, labels.notFoundHint]);
}

/** For a syntactically invalid Digital Link (served with 400). */
export function renderBadLink(lang: Lang): string {
  const labels = LABELS[lang];
  return messagePage(lang, labels.badLinkTitle, labels.badLinkHeading, [labels.badLinkBody, labels.badLinkHint]);
}

/** For a product its producer withdrew (served with 410, docs/lifecycle.md#withdrawal). */
export function renderWithdrawn(lang: Lang): string {
  const labels = LABELS[lang];
  return messagePage(lang, labels.withdrawnTitle, labels.withdrawnHeading, [labels.withdrawnBody, labels.withdrawnHint]);
}
