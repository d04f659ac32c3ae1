import { createHash } from 'node:crypto';
import type { AuthorityIssuer } from '../../lib/config.ts';
import type { InspectorPrincipal } from '../../lib/auth/inspector-session.ts';
import { INSPECT_SIGN_IN_PATH } from '../../lib/domain/inspect.ts';
import type { DppAnswer } from '../../lib/services/dpps.ts';

/**
 * The inspector's view as a page (docs/access.md#market-surveillance-authorities): the passport's
 * header fields, then every element the inspector read, as nested lists. Plain HTML: no script,
 * nothing from another origin, a CSP naming the stylesheet's hash, never framed or cached.
 */

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}dl{margin:0 0 0 1rem}dt{font-weight:600;margin-top:.4rem}dd{margin:0 0 0 1rem}ol{margin:0;padding-left:1.5rem}.note{color:#444}.mono{font-family:ui-monospace,monospace;word-break:break-all}';

/** The headers of every page here. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Nesting shown at most; deeper values (none in a valid passport) are shown as JSON. */
const MAX_DEPTH = 12;

function valueHtml(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return '<span class="note">none</span>';
  if (typeof value !== 'object') return escapeHtml(String(value));
  if (depth >= MAX_DEPTH) return `<span class="mono">${escapeHtml(JSON.stringify(value))}</span>`;
  if (Array.isArray(value)) return value.length === 0 ? '<span class="note">none</span>' : `<ol>${value.map((item) => `<li>${valueHtml(item, depth + 1)}</li>`).join('')}</ol>`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '<span class="note">none</span>';
  return `<dl>${entries.map(([key, item]) => `<dt>${escapeHtml(key)}</dt><dd>${valueHtml(item, depth + 1)}</dd>`).join('')}</dl>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>`;
}

/** The passport as the inspector read it. */
export function renderInspection(dpp: DppAnswer, inspector: InspectorPrincipal): string {
  const header: Array<[string, string]> = [
    ['DPP id', dpp.digitalProductPassportId],
    ['Product identifier', dpp.uniqueProductIdentifier],
    ['Granularity', dpp.granularity],
    ['GTIN', dpp.gtin],
    ['Status', dpp.dppStatus],
    ['Version', String(dpp.version)],
    ['Last update', dpp.lastUpdate],
    ['Read as', `${dpp.accessTier} (${dpp.audiences.join(', ')})`],
  ];
  return page(
    `${dpp.name}: inspection`,
    `<h1>${escapeHtml(dpp.name)}</h1>
<p class="note">Read as an inspector of ${escapeHtml(inspector.authority)}, the market surveillance audience of Regulation (EU) 2023/1542 Art. 77(2)(b): Annex XIII points 1 to 3. This read is recorded in the owner's event log with your identity provider's issuer and subject.</p>
<dl>${header.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd class="mono">${escapeHtml(value)}</dd>`).join('')}</dl>
<h2>Elements</h2>
${valueHtml(dpp.data)}`,
  );
}

/** With several trusted authorities: which one's identity provider to sign in with. */
export function renderIssuerChoice(issuers: readonly AuthorityIssuer[], dppId: string): string {
  const links = issuers.map((issuer) => {
    const href = `${INSPECT_SIGN_IN_PATH}?${new URLSearchParams({ dppId, issuer: issuer.issuer }).toString()}`;
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(issuer.name)}</a> <span class="note mono">${escapeHtml(issuer.issuer)}</span></li>`;
  });
  return page('Sign in as an inspector', `<h1>Sign in as an inspector</h1>\n<p>Choose your authority's identity provider.</p>\n<ul>${links.join('')}</ul>`);
}
