import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { renderElabel } from '../../functions/resolver/page/elabel.ts';
import { LANGUAGES, type Lang } from '../../lib/domain/labelling/languages.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import type { Row } from './measure.ts';
import { FULL_WINE, fullWineView } from '../support/wine-label.ts';
// FULL_WINE keeps containsFish as stored data from before the wine-fish rule; publishing refuses it now (docs/labelling.md#fish-and-wine).

/**
 * The e-label's weight on the wire for a full wine label (every section, vocabulary ingredients,
 * the language switcher; test/support/wine-label.ts): the page in each of the 24 languages,
 * gzipped at zlib's default level as CloudFront's compression would send it. The goal is
 * 12 KB and no script (issue 15). With a stack, the pages are fetched through the resolver
 * (published, then the immutable version page); without one, rendered directly (the same bytes).
 */
export const GZIP_GOAL_BYTES = 12 * 1024;

async function pagesViaStack(stack: StackInfo): Promise<Map<Lang, string>> {
  const { createOrganization } = await import('../../lib/services/organizations.ts');
  const { keys } = await createOrganization('Bench e-label');
  const headers = { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Château Lumière Pauillac 2019', category: 'wine', gtin: '4006381333931' }),
  }).then((r) => r.json())) as { productId: string; qrCodeUrl: string };
  const published = await fetch(`${stack.url}/v1/passports`, { method: 'POST', headers, body: JSON.stringify({ productId: product.productId, data: { ...FULL_WINE, allergens: { ...FULL_WINE.allergens, containsFish: false } } }) });
  if (published.status !== 201) throw new Error(`publish answered ${published.status}: ${await published.text()}`);
  const [orgId, environment, , gtin] = new URL(product.qrCodeUrl).pathname.split('/').filter(Boolean);
  const pages = new Map<Lang, string>();
  for (const lang of LANGUAGES) {
    const response = await fetch(`${stack.url}/${orgId}/${environment}/p/${gtin}/1/${lang}`);
    if (response.status !== 200) throw new Error(`page ${lang} answered ${response.status}`);
    pages.set(lang, await response.text());
  }
  return pages;
}

export async function benchElabel(stack?: StackInfo): Promise<Row[]> {
  const pages = stack ? await pagesViaStack(stack) : new Map(LANGUAGES.map((lang) => [lang, renderElabel(fullWineView(), lang)] as const));
  const sizes = [...pages].map(([lang, page]) => ({ lang, raw: Buffer.byteLength(page), gzip: gzipSync(page).length, script: /<script/i.test(page) }));
  const largest = sizes.reduce((a, b) => (b.gzip > a.gzip ? b : a));
  const english = sizes.find((size) => size.lang === 'en') ?? largest;
  const withScript = sizes.filter((size) => size.script).map((size) => size.lang);
  const kb = (bytes: number) => bytes / 1024;
  return [
    { benchmark: 'elabel.size', figure: 'full wine label, en, gzip', value: kb(english.gzip), unit: 'KB', note: `goal ≤ ${kb(GZIP_GOAL_BYTES)} KB; ${kb(english.raw).toFixed(1)} KB uncompressed` },
    {
      benchmark: 'elabel.size',
      figure: `full wine label, largest of 24 (${largest.lang}), gzip`,
      value: kb(largest.gzip),
      unit: 'KB',
      note: `goal ≤ ${kb(GZIP_GOAL_BYTES)} KB; ${kb(largest.raw).toFixed(1)} KB uncompressed`,
    },
    { benchmark: 'elabel.size', figure: 'pages with a script', value: withScript.length, unit: 'pages', note: withScript.length ? withScript.join(', ') : 'aim 0' },
  ];
}

// `npx tsx test/bench/elabel.ts`: the sizes without starting the stack.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { printTable } = await import('./measure.ts');
  printTable(await benchElabel());
}
