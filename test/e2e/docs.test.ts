import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser, recordRequests } from '../support/browser.ts';

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the API reference browser test. ${CHROMIUM_MISSING}\n`);

describe('the API reference', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('serves the OpenAPI document at /v1/openapi.json', async () => {
    const response = await call('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toContain('/v1/products');
  });

  it('answers 404 for asset names it does not serve, Object.prototype\'s included (found by the API fuzzer: /docs/__proto__ was a 500)', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope.js']) {
      const response = await call('GET', `/docs/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.body.error).toMatchObject({ type: 'not_found', code: 'not_found' });
    }
  });

  it.skipIf(mode === 'skip')('renders /docs in headless Chromium with no request leaving localhost and no violation of its CSP', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests = recordRequests(page);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${baseUrl()}/docs`);
    expect(response?.status()).toBe(200);
    await page.getByText('Register a product').first().waitFor({ timeout: 60_000 });
    expect(await page.getByText('Product Passport API').count()).toBeGreaterThan(0);
    const origin = new URL(baseUrl()).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(violations).toEqual([]);
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}docs.png` });
    await page.close();
  }, 120_000);

  it.skipIf(mode === 'skip')('attack: clickjacking: /docs framed by another site does not render; its headers forbid any framing', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    // Prepare: a page on another origin that frames /docs (the page itself, unframed, is checked for CSP violations above)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A real page on another loopback origin (Chromium keeps other pages from framing loopback anyway).
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><iframe id="victim" src="${baseUrl()}/docs" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const attacker = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`; // another port: another origin
    // Act
    const direct = await fetch(`${baseUrl()}/docs`);
    await page.goto(attacker, { waitUntil: 'load' }); // the load event waits for the frame's own
    const framed = await (await page.$('#victim'))?.contentFrame();
    // Assess: an empty frame for the attacker, and the headers that make it so
    expect(framed).toBeTruthy();
    expect(framed!.url()).not.toBe(`${baseUrl()}/docs`);
    expect(await framed!.evaluate("document.querySelector('#swagger-ui') !== null").catch(() => false)).toBe(false);
    expect(direct.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(direct.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(direct.headers.get('x-frame-options')).toBe('DENY');
    await page.close();
    server.close();
  }, 120_000);
});
