import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY, renderElabel } from '../../functions/resolver/page/elabel.ts';
import type { Lang } from '../../lib/domain/labelling/languages.ts';
import { launchBrowser, PHONE_VIEWPORT } from '../support/browser.ts';
import { fullWineView } from '../support/wine-label.ts';

/**
 * Phone-size screenshots of the e-label of a full wine label, one per script family the 24
 * languages use (Latin, Greek, Cyrillic), into docs/screenshots/: `npm run screenshots`.
 * Headless Chromium (Debian's package, test/support/browser.ts) at 360 px, device scale 2,
 * served with the page's own CSP enforced.
 */
const SHOTS: readonly [Lang, string][] = [
  ['en', 'elabel-latin-en.png'],
  ['el', 'elabel-greek-el.png'],
  ['bg', 'elabel-cyrillic-bg.png'],
];
const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

mkdirSync(OUT, { recursive: true });
const server = createServer((request, response) => {
  const lang = (request.url ?? '').slice(1) as Lang;
  if (!SHOTS.some(([shot]) => shot === lang)) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY }).end(renderElabel(fullWineView(), lang));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchBrowser();
try {
  for (const [lang, file] of SHOTS) {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, deviceScaleFactor: 2, locale: lang });
    const page = await context.newPage();
    await page.goto(`${origin}/${lang}`, { waitUntil: 'networkidle' });
    await page.screenshot({ path: `${OUT}${file}`, fullPage: true });
    await context.close();
    console.log(`docs/screenshots/${file}`);
  }
} finally {
  await browser.close();
  server.close();
}
