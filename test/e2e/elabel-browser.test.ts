import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passport } from '../../lib/domain/passport.ts';
import {
  CONTENT_SECURITY_POLICY,
  renderBadLink,
  renderElabel,
  renderNotFound,
} from '../../functions/resolver/page/elabel.ts';
import {
  browserTestMode,
  CHROMIUM_MISSING,
  checkAccessibility,
  launchBrowser,
  PHONE_VIEWPORT,
  recordRequests,
} from '../support/browser.ts';
import { fullWineView } from '../support/wine-label.ts';

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** A complete red wine with a long, unbreakable name and long producer names: the worst case for a 360 px screen. */
const RED_WINE: Passport = {
  productId: '01890a5d-ac96-774b-bcce-b302099a8057',
  passportId: 'ps_01890a5dac96',
  name: 'Château Lumière Pauillac Grand Vin Rouge 2019',
  category: 'wine',
  gtin: '04006381333931',
  qrCodeUrl: 'https://id.example.com/org_a/live/01/04006381333931',
  status: 'published',
  version: 3,
  lastUpdated: '2026-11-21T10:15:30.123Z',
  publishedAt: '2026-11-21T10:15:30.123Z',
  digest: `sha256:${'a'.repeat(64)}`,
  previousDigest: `sha256:${'b'.repeat(64)}`,
  data: {
    productType: 'wine',
    colour: 'red',
    vintage: 2019,
    ingredients: [
      'grapes',
      'concentrated grape must',
      'acidity regulator: tartaric acid',
      'preservative: sulphites',
      'fining agent: egg albumin',
      'Traubenmostkonzentratsaccharoseverarbeitungsrückstände',
    ],
    nutrition: {
      energyKj: 318,
      fatG: 0,
      saturatedFatG: 0,
      carbohydratesG: 2.6,
      sugarsG: 0.6,
      proteinG: 0.1,
      saltG: 0.01,
      alcoholG: 10.4,
    },
    allergens: { containsSulphites: true, containsEgg: true },
    origin: { country: 'FR', region: 'Bordeaux', designation: 'Pauillac Appellation d’Origine Contrôlée' },
    producers: [
      { name: 'Domaine Lumière SCEA', role: 'producer', country: 'FR' },
      { name: 'Weinimport Berger & Söhne GmbH', role: 'importer', country: 'DE' },
    ],
  },
};

const PAGES: Record<string, string> = {
  '/elabel/en': renderElabel(RED_WINE, 'en'),
  '/elabel/de': renderElabel(RED_WINE, 'de'),
  '/elabel/fr': renderElabel(RED_WINE, 'fr'),
  // A full wine label (vocabulary ingredients, every section) in six languages of five scripts and orthographies (issue 15).
  ...Object.fromEntries((['en', 'de', 'el', 'bg', 'ga', 'mt'] as const).map((lang) => [`/full/${lang}`, renderElabel(fullWineView(), lang)])),
  '/notfound/en': renderNotFound('en'),
  '/badlink/fr': renderBadLink('fr'),
  // A page axe must fault: no lang (serious), an image without alt text (critical).
  '/inaccessible': '<!doctype html><html><head><title>x</title></head><body><main><img src="data:,"></main></body></html>',
};

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the e-label browser tests. ${CHROMIUM_MISSING}\n`);

describe('browserTestMode', () => {
  it.each([
    ['/nonexistent/chromium', { CI: 'true' }, 'fail'],
    ['/nonexistent/chromium', {}, 'skip'],
    [process.execPath, { CI: 'true' }, 'run'],
  ] as const)('%s with %j → %s', (path, env, expected) => {
    // Prepare: a browser path and an environment.
    // Act
    const result = browserTestMode(path, env);
    // Assess
    expect(result).toBe(expected);
  });
});

describe('e-label page in headless Chromium', () => {
  it.runIf(mode === 'fail')('needs Chromium in CI', () => {
    throw new Error(CHROMIUM_MISSING);
  });

  describe.runIf(mode === 'run')('on a 360 px phone', () => {
    let server: Server;
    let origin: string;
    let browser: Browser;
    const served: string[] = [];

    beforeAll(async () => {
      mkdirSync(RESULTS_DIR, { recursive: true });
      server = createServer((request, response) => {
        served.push(request.url ?? '');
        const page = PAGES[request.url ?? ''];
        if (page === undefined) {
          response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
          return;
        }
        response
          .writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': CONTENT_SECURITY_POLICY,
            'Cache-Control': 'no-store',
          })
          .end(page);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });

    async function open(path: string, options: BrowserContextOptions = {}) {
      const context = await browser.newContext({
        viewport: PHONE_VIEWPORT,
        deviceScaleFactor: 2,
        bypassCSP: true, // to inject axe
        ...options,
      });
      const page = await context.newPage();
      const requests = recordRequests(page);
      served.length = 0;
      const consoleMessages: string[] = [];
      page.on('console', (message) => consoleMessages.push(`${message.type()}: ${message.text()}`));
      const response = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
      return { context, page, requests, consoleMessages, status: response?.status() };
    }

    it.each([
      ['/elabel/en', 'elabel-en.png', 'light'],
      ['/elabel/de', 'elabel-de.png', 'light'],
      ['/elabel/fr', 'elabel-fr.png', 'light'],
      ['/elabel/en', 'elabel-en-dark.png', 'dark'],
      ['/notfound/en', 'elabel-notfound-en.png', 'light'],
      ['/badlink/fr', 'elabel-badlink-fr.png', 'light'],
    ] as const)('%s → %s (%s): accessible, fits, stays on its origin, sets no cookies', async (path, screenshot, scheme) => {
      // Prepare
      const { context, page, requests, status } = await open(path, { colorScheme: scheme });
      try {
        // Act
        const accessibility = await checkAccessibility(page);
        const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        const cookies = await context.cookies();
        const documentCookie = await page.evaluate('document.cookie');
        await page.screenshot({ path: `${RESULTS_DIR}${screenshot}`, fullPage: true });

        // Assess
        expect(status).toBe(200);
        if (accessibility.violations.length > 0) console.info(`axe on ${path} (${scheme}):\n${accessibility.summary}`);
        expect(accessibility.blocking, accessibility.summary).toEqual([]);
        expect(scrollWidth).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
        expect(requests.length).toBeGreaterThan(0);
        expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
        expect(served).toEqual([path]); // not even a favicon
        expect(cookies).toEqual([]);
        expect(documentCookie).toBe('');
      } finally {
        await context.close();
      }
    });

    it.each(['en', 'de', 'el', 'bg', 'ga', 'mt'] as const)('a full wine label in %s: no axe violation at all, its language on <html>, fits a 360 px phone', async (lang) => {
      // Prepare
      const { context, page, status } = await open(`/full/${lang}`);
      try {
        // Act
        const accessibility = await checkAccessibility(page);
        const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        const htmlLang = await page.evaluate('document.documentElement.lang');
        const switcherLinks = await page.locator('nav a[hreflang]').count();

        // Assess
        expect(status).toBe(200);
        expect(accessibility.violations, accessibility.summary).toEqual([]);
        expect(htmlLang).toBe(lang);
        expect(switcherLinks).toBe(23);
        expect(scrollWidth).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      } finally {
        await context.close();
      }
    });

    /**
     * The words of <main> that the browser split across two line boxes: each word's range has its
     * rects on one line unless the word was broken inside (checked on the layout, not the CSS).
     */
    const BROKEN_WORDS = `(() => {
      const broken = [];
      const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.textContent.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
      return broken;
    })()`;

    it.each([390, 360, 320])('the German full wine label on a %i px phone: no word broken inside, language links at least 44 px', async (width) => {
      // Prepare
      const { context, page } = await open('/full/de', { viewport: { width, height: 844 } });
      try {
        // Act
        const broken = (await page.evaluate(BROKEN_WORDS)) as string[];
        const nutrientRows = (await page.locator('tbody th').allTextContents()).length;
        const links = await page.locator('nav a[hreflang]').evaluateAll((anchors) => anchors.map((anchor) => anchor.getBoundingClientRect()).map(({ width: w, height: h }) => ({ w, h })));
        await page.screenshot({ path: `${RESULTS_DIR}elabel-de-${width}.png`, fullPage: true });

        // Assess
        expect(nutrientRows).toBeGreaterThanOrEqual(5); // the table is there to be checked
        expect(broken).toEqual([]);
        expect(links).toHaveLength(23);
        for (const link of links) {
          expect(link.w).toBeGreaterThanOrEqual(44);
          expect(link.h).toBeGreaterThanOrEqual(44);
        }
      } finally {
        await context.close();
      }
    });

    it('the check finds a word broken inside: the old stylesheet (overflow-wrap: anywhere) splits "Kohlenhydrate" in a 112 px column', async () => {
      // Prepare
      const { context, page } = await open('/full/de', { viewport: { width: 390, height: 844 } });
      try {
        await page.addStyleTag({ content: 'body{overflow-wrap:anywhere} tbody th{width:112px;max-width:112px} td{white-space:nowrap}' });
        // Act
        const broken = (await page.evaluate(BROKEN_WORDS)) as string[];
        // Assess
        expect(broken.length).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    });

    it('the accessibility check catches serious and critical violations', async () => {
      // Prepare
      const { context, page } = await open('/inaccessible');
      try {
        // Act
        const accessibility = await checkAccessibility(page);
        // Assess
        expect(accessibility.blocking.map((violation) => violation.id).sort()).toEqual(['html-has-lang', 'image-alt']);
        expect(accessibility.summary).toContain('critical image-alt');
      } finally {
        await context.close();
      }
    });

    it('applies its stylesheet under the enforced CSP, without violations', async () => {
      // Prepare: no bypass, so Chromium enforces the header.
      const { context, page, consoleMessages } = await open('/elabel/de', { bypassCSP: false });
      try {
        // Act
        const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
        const fontFamily = (await page.evaluate('getComputedStyle(document.body).fontFamily')) as string;
        // Assess
        expect(background).toBe('rgb(244, 243, 241)');
        expect(fontFamily).toContain('system-ui');
        expect(consoleMessages.filter((message) => /Content Security Policy/i.test(message))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
