import { createHash } from 'node:crypto';
import { text, type TextKey, type TextVars } from '../../../lib/domain/labelling/texts.ts';
import { categoryById, ingredientByCode, type Allergen } from '../../../lib/domain/labelling/vocabulary.ts';
import { GRAM_ROUNDING, KJ_PER_KCAL, roundEnergy } from '../../../lib/domain/nutrition.ts';
import type { Ingredient, Nutrition, Passport } from '../../../lib/domain/passport.ts';
import { countryName, DEFAULT_LANGUAGE, formatDate, formatNumber, LANGUAGE_NAMES, LANGUAGES, type Lang } from './i18n.ts';

type WineColour = 'red' | 'white' | 'rose' | 'orange';
type Translate = (key: TextKey, vars?: TextVars) => string;

// U+00A0 keeps "100 ml" and French "Contient :" together when lines wrap.
const NBSP = '\u00a0';
const KEEP_TOGETHER = /(\d) (?=(?:ml|g)\b)| (?=[:;!?](?:\s|$))/g;

/** The texts of one language, with the non-breaking spaces of typography (100 ml, "Contient :"). */
const translator =
  (lang: Lang): Translate =>
  (key, vars) =>
    text(lang, key, vars).replace(KEEP_TOGETHER, (_whole, digit: string | undefined) => (digit === undefined ? NBSP : `${digit}${NBSP}`));

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
  '.langs{margin:1.5rem 0 1rem}',
  '.langs h2{font-size:.875rem;color:var(--muted)}',
  '.langs ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}',
  '.langs a{color:var(--accent);display:inline-block;padding:.375rem 0}',
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
// Ingredients: allergen words are emphasised (Regulation (EU) 1169/2011 art. 21). Vocabulary
// entries carry their allergen; free text is searched for allergen words.

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

const isPresent = (value: unknown): boolean =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const grams = (value: number, lang: Lang, decimals = 2) => `${formatNumber(value, lang, decimals)}${NBSP}g`;

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

/**
 * Free text in the best language it is given in: the page's, then English, then the first given
 * (docs/resolver.md#the-page-language).
 */
function freeText(texts: Partial<Record<Lang, string>>, lang: Lang): { text: string; lang: Lang } | undefined {
  const given = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';
  for (const candidate of [lang, DEFAULT_LANGUAGE, ...(Object.keys(texts) as Lang[])]) {
    const value = texts[candidate];
    if (given(value)) return { text: value, lang: candidate };
  }
  return undefined;
}

interface ListedIngredient {
  /** The vocabulary category id, for grouping ("Acidity regulator: tartaric acid"). */
  category?: string;
  name: string;
  allergen: boolean;
  /** The language of free text shown in another language than the page's (for `lang` on its element). */
  lang?: Lang;
}

/** One ingredient in the page's language; undefined for one with nothing to show (a stored null, an unknown code). */
function listedIngredient(ingredient: Ingredient | null | undefined, lang: Lang): ListedIngredient | undefined {
  if (typeof ingredient === 'string') return isPresent(ingredient) ? { name: ingredient, allergen: false } : undefined;
  if (!ingredient || typeof ingredient !== 'object') return undefined;
  if (typeof ingredient.code === 'string') {
    const entry = ingredientByCode(ingredient.code);
    if (!entry) return undefined;
    return { ...(entry.category ? { category: entry.category } : {}), name: entry.names[lang] ?? entry.names.en, allergen: entry.allergen !== null };
  }
  const chosen = ingredient.text && typeof ingredient.text === 'object' ? freeText(ingredient.text, lang) : undefined;
  if (!chosen) return undefined;
  return { name: chosen.text, allergen: false, ...(chosen.lang === lang ? {} : { lang: chosen.lang }) };
}

/**
 * The ingredient list as one sentence: each ingredient in the page's language, those of one
 * additive category gathered after its name where the first of them stands ("Acidity regulator:
 * tartaric acid, citric acid"; Regulation (EU) No 1169/2011 Annex VII Part C, docs/labelling.md),
 * allergens in <strong>.
 */
function ingredientsSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const listed = (view.data.ingredients ?? []).map((ingredient) => listedIngredient(ingredient, lang)).filter((item) => item !== undefined);
  if (listed.length === 0) return undefined;
  const groups: { category?: string; items: ListedIngredient[] }[] = [];
  for (const item of listed) {
    const group = item.category === undefined ? undefined : groups.find((candidate) => candidate.category === item.category);
    if (group) group.items.push(item);
    else groups.push({ ...(item.category === undefined ? {} : { category: item.category }), items: [item] });
  }
  const name = (item: ListedIngredient) =>
    item.allergen
      ? html`<strong>${item.name}</strong>`
      : item.lang
        ? html`<span lang="${item.lang}">${emphasiseAllergens(item.name)}</span>`
        : emphasiseAllergens(item.name);
  const parts = groups.map((group, index) => {
    const categoryName = group.category === undefined ? undefined : categoryById(group.category)?.names[lang];
    const items = group.items.map((item, itemIndex) => html`${itemIndex > 0 && ', '}${name(item)}`);
    return html`${index > 0 && ', '}${categoryName !== undefined && `${categoryName}: `}${items}`;
  });
  return section('ingredients', t('ingredients'), html`<p>${parts}</p>`);
}

/** kJ and kcal, each derived from the other when only one is given (1 kcal = 4.184 kJ), rounded to whole units (docs/labelling.md#energy-and-rounding). */
export function energyValues(nutrition: Nutrition): { kj: number; kcal: number } | undefined {
  const kj = isAmount(nutrition.energyKj) ? nutrition.energyKj : undefined;
  const kcal = isAmount(nutrition.energyKcal) ? nutrition.energyKcal : undefined;
  if (kj === undefined && kcal === undefined) return undefined;
  return {
    kj: roundEnergy(kj ?? (kcal as number) * KJ_PER_KCAL).value,
    kcal: roundEnergy(kcal ?? (kj as number) / KJ_PER_KCAL).value,
  };
}

function nutritionSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const nutrition = view.data.nutrition;
  if (!nutrition) return undefined;
  const rows: SafeHtml[] = [];
  const energy = energyValues(nutrition);
  if (energy) {
    const value = `${formatNumber(energy.kj, lang, 0)}${NBSP}kJ / ${formatNumber(energy.kcal, lang, 0)}${NBSP}kcal`;
    const calculated = nutrition.energyCalculated === true ? ` (${t('energyEstimated')})` : '';
    rows.push(html`<tr><th scope="row">${t('energy')}</th><td>${value}${calculated}</td></tr>`);
  }
  const gramRows: [keyof typeof GRAM_ROUNDING, TextKey, boolean][] = [
    ['fatG', 'fat', false],
    ['saturatedFatG', 'saturates', true],
    ['carbohydratesG', 'carbohydrate', false],
    ['sugarsG', 'sugars', true],
    ['proteinG', 'protein', false],
    ['saltG', 'salt', false],
    ['alcoholG', 'alcohol', false],
  ];
  for (const [field, key, sub] of gramRows) {
    const value = nutrition[field];
    if (!isAmount(value)) continue;
    const rounded = GRAM_ROUNDING[field](value);
    rows.push(html`<tr${sub && new SafeHtml(' class="sub"')}><th scope="row">${t(key)}</th><td>${grams(rounded.value, lang, rounded.decimals)}</td></tr>`);
  }
  if (rows.length === 0) return undefined;
  const per = view.category === 'wine' ? t('per100ml') : t('per100g');
  const table = html`<table>
<caption>${t('nutritionCaption', { per })}</caption>
<thead><tr><th scope="col">${t('nutrientColumn')}</th><th scope="col">${per}</th></tr></thead>
<tbody>
${rows.map((row) => html`${row}\n`)}</tbody>
</table>`;
  return section('nutrition', t('nutrition'), table);
}

const ALLERGEN_FLAGS: [keyof NonNullable<Passport['data']['allergens']>, Allergen][] = [
  ['containsSulphites', 'sulphites'],
  ['containsEgg', 'egg'],
  ['containsFish', 'fish'],
  ['containsMilk', 'milk'],
];

function allergensSection(view: Passport, t: Translate): SafeHtml | undefined {
  const allergens = view.data.allergens;
  if (!allergens) return undefined;
  const contained = ALLERGEN_FLAGS.filter(([flag]) => allergens[flag] === true).map(([, key]) => t(`allergen_${key}`));
  if (contained.length === 0) return undefined;
  return section('allergens', t('allergens'), html`<p><strong>${t('contains', { list: contained.join(', ') })}</strong></p>`, 'card allergens');
}

function originSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const origin = view.data.origin;
  if (!origin) return undefined;
  const entries: [string, string][] = [];
  if (isPresent(origin.country)) entries.push([t('country'), countryName(origin.country as string, lang)]);
  if (isPresent(origin.region)) entries.push([t('region'), origin.region as string]);
  if (isPresent(origin.designation)) entries.push([t('designation'), origin.designation as string]);
  if (entries.length === 0) return undefined;
  return section('origin', t('origin'), html`<dl>${entries.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`);
}

const ROLES = new Set(['producer', 'bottler', 'importer', 'distributor', 'manufacturer', 'recycler']);

function producersSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const producers = (view.data.producers ?? []).filter((producer) => producer && isPresent(producer.name));
  if (producers.length === 0) return undefined;
  const items = producers.map((producer) => {
    const role = producer.role && ROLES.has(producer.role) ? t(`role_${producer.role}`) : undefined;
    const country = isPresent(producer.country) ? countryName(producer.country as string, lang) : undefined;
    const details = [role, country].filter((part): part is string => part !== undefined);
    return html`<li><span class="producer-name">${producer.name}</span>${details.length > 0 && html`<span class="producer-detail">${separated(details)}</span>`}</li>`;
  });
  return section('producers', t('producers'), html`<ul class="producers">${items}</ul>`);
}

const COLOURS = new Set<string>(['red', 'white', 'rose', 'orange'] satisfies WineColour[]);

function wineMeta(view: Passport, t: Translate): SafeHtml | undefined {
  const isWine = view.category === 'wine' || view.data.productType === 'wine';
  if (!isWine) return undefined;
  const parts: string[] = [];
  if (view.data.colour && COLOURS.has(view.data.colour)) parts.push(t(`wineColour_${view.data.colour}`));
  if (isAmount(view.data.vintage)) parts.push(t('vintage', { year: String(view.data.vintage) }));
  if (parts.length === 0) return undefined;
  return html`<p class="meta">${separated(parts)}</p>`;
}

function footer(view: Passport, lang: Lang, t: Translate): SafeHtml {
  const version = String(view.version);
  const date = formatDate(view.lastUpdated, lang);
  const versionLine = isAmount(view.version) ? (date ? t('versionPublished', { version, date }) : t('versionOnly', { version })) : undefined;
  return html`<footer>
${versionLine && html`<p>${versionLine}</p>`}
${isPresent(view.gtin) && html`<p>${t('gtin')} <span class="gtin" translate="no">${view.gtin}</span></p>`}
</footer>`;
}

/**
 * Plain links to the same page in the other 23 languages (no script): relative links, since
 * the version page's URL ends with its language (lib/domain/page-urls.ts). Each link is in its
 * own language, so screen readers pronounce it right.
 */
function languageSwitcher(lang: Lang, t: Translate): SafeHtml {
  const links = LANGUAGES.filter((other) => other !== lang).map(
    (other) => html`<li><a href="${other}" hreflang="${other}" lang="${other}">${LANGUAGE_NAMES[other]}</a></li>`,
  );
  return html`<nav class="langs" aria-labelledby="languages">
<h2 id="languages">${t('otherLanguages')}</h2>
<ul>${links}</ul>
</nav>
`;
}

// ---------------------------------------------------------------------------------------------
// Pages

/** The e-label page of a published passport, in the given language. */
export function renderElabel(view: Passport, lang: Lang): string {
  const t = translator(lang);
  const sections = [
    ingredientsSection(view, lang, t),
    allergensSection(view, t),
    nutritionSection(view, lang, t),
    originSection(view, lang, t),
    producersSection(view, lang, t),
  ];
  const body = html`<main>
<header class="intro">
<p class="kicker">${t('pageKicker')}</p>
<h1>${view.name}</h1>
${wineMeta(view, t)}
</header>
${sections}${languageSwitcher(lang, t)}</main>
${footer(view, lang, t)}`;
  return documentShell(lang, `${view.name} · ${t('pageKicker')}`, body);
}

function messagePage(lang: Lang, title: string, heading: string, paragraphs: string[]): string {
  const t = translator(lang);
  const body = html`<main>
<header class="intro">
<p class="kicker">${t('pageKicker')}</p>
<h1>${heading}</h1>
</header>
<div class="card">
${paragraphs.map((text) => html`<p>${text}</p>\n`)}</div>
</main>`;
  return documentShell(lang, title, body);
}

/** For a browser that scanned an unknown or unpublished code (served with 404). */
export function renderNotFound(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('notFoundTitle'), t('notFoundHeading'), [t('notFoundBody'), t('notFoundHint')]);
}

/** For a syntactically invalid Digital Link (served with 400). */
export function renderBadLink(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('badLinkTitle'), t('badLinkHeading'), [t('badLinkBody'), t('badLinkHint')]);
}

/** For a product its producer withdrew (served with 410; the texts are in every language). */
export function renderWithdrawn(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('withdrawnTitle'), t('withdrawnHeading'), [t('withdrawnBody'), t('withdrawnHint')]);
}
