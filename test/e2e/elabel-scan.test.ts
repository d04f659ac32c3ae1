import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elabelPageUrl } from '../../lib/domain/page-urls.ts';
import { call, newOrg } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, checkAccessibility, launchBrowser, PHONE_VIEWPORT, recordRequests } from '../support/browser.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { decodeQrSvg } from '../support/qr.ts';

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the scan browser test. ${CHROMIUM_MISSING}\n`);

describe('a consumer scans a printed QR code', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it.skipIf(mode === 'skip')('follows the 307 to the newest version’s immutable e-label page: ingredients, allergens, no cookie, no third party, accessible', async () => {
    // Prepare: a brand publishes two versions; the QR code is printed once, and the camera decodes it.
    const org = await newOrg('Browser Winery');
    const product = await createProduct(org.live, { name: 'Château du Navigateur 2022' });
    await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes', 'Preservative: sulphites'] });
    await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes', 'Preservative: sulphites', 'Fining agent: egg albumin'] });
    const qr = await call('GET', `/v1/products/${product.productId}/qr`, { key: org.live });
    const scanned = decodeQrSvg(qr.text);
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-GB', bypassCSP: true });
    const page = await context.newPage();
    const requests = recordRequests(page);

    // Act: the phone's camera opens the URL it decoded.
    const response = await page.goto(scanned ?? 'about:blank');

    // Assess: the printed URL redirected (307) to the current version's page, which the CDN may keep a year.
    expect(scanned).toBe(product.qrCodeUrl);
    const redirect = response?.request().redirectedFrom();
    expect(redirect?.url()).toBe(product.qrCodeUrl);
    expect((await redirect?.response())?.status()).toBe(307);
    const gtin14 = product.gtin.padStart(14, '0');
    const origin = new URL(product.qrCodeUrl).origin;
    expect(page.url()).toBe(elabelPageUrl(origin, { orgId: org.orgId, environment: 'live' }, gtin14, 2, 'en'));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const text = await page.locator('main').innerText();
    expect(text).toContain('Château du Navigateur 2022');
    expect(text).toMatch(/sulphites/i);
    expect(text).toMatch(/egg albumin/i);
    expect(await page.locator('main strong', { hasText: /sulphites/i }).count()).toBeGreaterThan(0);
    expect(await context.cookies()).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    const report = await checkAccessibility(page);
    expect(report.blocking, report.summary).toEqual([]);
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}scan-elabel.png`, fullPage: true });
    await context.close();
  });
});
