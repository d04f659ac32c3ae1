import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrg } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, checkAccessibility, launchBrowser, PHONE_VIEWPORT, recordRequests } from '../support/browser.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the scan browser test. ${CHROMIUM_MISSING}\n`);

describe('a consumer scans a printed QR code', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it.skipIf(mode === 'skip')('opens the e-label of the newest passport: ingredients, allergens, no cookie, no third party, accessible', async () => {
    // Prepare: a brand publishes two versions; the QR code is printed once.
    const org = await newOrg('Browser Winery');
    const product = await createProduct(org.live, { name: 'Château du Navigateur 2022' });
    await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes'] });
    await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes', 'Preservative: sulphites', 'Fining agent: egg albumin'] });
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-GB', bypassCSP: true });
    const page = await context.newPage();
    const requests = recordRequests(page);

    // Act: the phone's camera opens the printed URL.
    const response = await page.goto(product.qrCodeUrl);

    // Assess
    expect(response?.status()).toBe(200);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Château du Navigateur 2022');
    expect(text).toMatch(/sulphites/i);
    expect(text).toMatch(/egg albumin/i);
    expect(await page.locator('main strong', { hasText: /sulphites/i }).count()).toBeGreaterThan(0);
    expect(await context.cookies()).toEqual([]);
    const origin = new URL(product.qrCodeUrl).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    const report = await checkAccessibility(page);
    expect(report.blocking, report.summary).toEqual([]);
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}scan-elabel.png`, fullPage: true });
    await context.close();
  });
});
