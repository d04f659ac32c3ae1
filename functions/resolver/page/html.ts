import { createHash } from 'node:crypto';
import { LANGUAGE_NAMES, LANGUAGES, type Lang } from './i18n.ts';

/**
 * What every HTML page of the resolver shares (docs/resolver.md): escaping through the `html`
 * tag, the one stylesheet and the Content-Security-Policy naming its hash, the document around a
 * page's body, a card section, and the links to the other languages. The e-label (elabel.ts) and
 * the battery passport page (battery.ts) are built from these; no script, no cookie, nothing from
 * another origin.
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
export class SafeHtml {
  constructor(readonly markup: string) {}
}

/** What may be interpolated: safe markup, text (escaped), or nothing (false, null, undefined). */
export type Fragment = SafeHtml | string | number | false | null | undefined | readonly Fragment[];

function toMarkup(value: Fragment): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return (value as readonly Fragment[]).map(toMarkup).join('');
  return escapeHtml(String(value));
}

/** Template tag: the literal parts are markup, every interpolated value is escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += toMarkup(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

// ---------------------------------------------------------------------------------------------
// Style: one constant stylesheet, so one hash in the CSP covers every page (the e-label, the battery passport page, the message pages).

const STYLE = [
  ':root{color-scheme:light dark;--bg:#f4f3f1;--card:#fff;--text:#1c1b1f;--muted:#55535c;--line:#e3e1e6;',
  '--accent:#7a1f3d;--warn-bg:#fff3df;--warn-line:#b45309;--warn-text:#7a2e0e}',
  '@media (prefers-color-scheme:dark){:root{--bg:#131216;--card:#1f1e24;--text:#f3f2f5;--muted:#bab8c2;',
  '--line:#3a3841;--accent:#f5abc2;--warn-bg:#3a2810;--warn-line:#f59e0b;--warn-text:#fde2b0}}',
  '*,*::before,*::after{box-sizing:border-box}',
  'html{-webkit-text-size-adjust:100%;text-size-adjust:100%}',
  'body{margin:0;background:var(--bg);color:var(--text);',
  'font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif;',
  'overflow-wrap:break-word;border-top:.25rem solid var(--accent)}',
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
  'th,td{padding:.5rem 0;border-bottom:1px solid var(--line);vertical-align:top;-webkit-hyphens:auto;hyphens:auto}',
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
  '.langs ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:0 .75rem}',
  '.langs a{color:var(--accent);display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;min-width:2.75rem;padding:0 .25rem}',
  // The battery passport page (battery.ts): its terms stacked above their values, links that wrap anywhere (long URLs), nested values as plain lists.
  '.battery dl{display:block}',
  '.battery dt{font-size:.875rem;color:var(--muted)}',
  '.battery dd{margin:0 0 .75rem}',
  '.battery dd:last-child{margin-bottom:0}',
  '.battery a{color:var(--accent);overflow-wrap:anywhere}',
  '.battery ul.values{margin:0;padding-left:1.125rem}',
  '.battery ul.values li+li{margin-top:.25rem}',
  '.battery ul.entries{list-style:none;padding-left:0}',
  '.battery ul.entries>li+li{margin-top:.5rem;padding-top:.5rem;border-top:1px solid var(--line)}',
  '.battery .field{color:var(--muted)}',
  '.note{margin:.5rem 0 0;font-size:.9375rem;color:var(--muted)}',
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
export function documentShell(lang: Lang, title: string, body: SafeHtml): string {
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

/** Parts joined by a middle dot that assistive technology does not read out. */
export function separated(parts: string[]): SafeHtml {
  return html`${parts.map((part, index) => html`${index > 0 && html`<span aria-hidden="true"> · </span>`}<span>${part}</span>`)}`;
}

export function section(id: string, heading: string, content: SafeHtml, className = 'card'): SafeHtml {
  return html`<section class="${className}" aria-labelledby="${id}">
<h2 id="${id}">${heading}</h2>
${content}
</section>
`;
}

/**
 * Plain links to the same page in the other languages `offered` (the 23 others, unless the
 * version offers fewer: docs/labelling.md#sign-off), no script: relative links, since the version
 * page's URL ends with its language (lib/domain/page-urls.ts). Each link is in its own language,
 * so screen readers pronounce it right. Nothing when no other language is offered.
 */
export function languageSwitcher(lang: Lang, heading: string, offered: readonly Lang[] = LANGUAGES): SafeHtml {
  const links = offered.filter((other) => other !== lang).map(
    (other) => html`<li><a href="${other}" hreflang="${other}" lang="${other}">${LANGUAGE_NAMES[other]}</a></li>`,
  );
  if (links.length === 0) return html``;
  return html`<nav class="langs" aria-labelledby="languages">
<h2 id="languages">${heading}</h2>
<ul>${links}</ul>
</nav>
`;
}
