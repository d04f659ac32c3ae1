import { mkdirSync } from 'node:fs';
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

  it.skipIf(mode === 'skip')('renders /docs in headless Chromium with no request leaving localhost', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests = recordRequests(page);
    const response = await page.goto(`${baseUrl()}/docs`);
    expect(response?.status()).toBe(200);
    await page.getByText('Register a product').first().waitFor({ timeout: 15_000 });
    expect(await page.getByText('Product Passport API').count()).toBeGreaterThan(0);
    const origin = new URL(baseUrl()).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}docs.png` });
    await page.close();
  });
});
