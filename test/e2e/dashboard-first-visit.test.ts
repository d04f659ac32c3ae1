import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';
import { createProduct } from '../support/fixtures.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the first-visit browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

/** The main menu's links, as the layout lists them (dashboard/src/layout.tsx). */
const MENU = ['Products', 'API keys', 'Webhooks', 'Domains', 'Event subscriptions', 'Import & export', 'Legal terms', 'EU registry', 'Activity'];

describe('a new organization’s first visit to the dashboard', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let session: TestSession;

  beforeAll(async () => {
    org = await newOrg('First Visit Winery', { sandbox: true });
    session = await newSession(org.orgId);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('shows a styled loading screen, then the empty live environment pointing to the samples in Test, whose list shows each passport’s status', { timeout: 120_000 }, async () => {
    // Prepare: hold the session answer until the loading screen has been looked at (no timer: a gate the test opens)
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    await page.route('**/v1/auth/session', async (route) => {
      await gate;
      await route.continue();
    });

    // Act
    await page.goto(`${baseUrl()}/dashboard/`);

    // Assess: the loading screen, branded, with a progress bar and the words for screen readers
    const loading = page.locator('.loading-screen');
    await loading.waitFor();
    expect(await loading.getByRole('status').innerText()).toBe('Loading the dashboard…');
    expect(await loading.locator('.brand').innerText()).toContain('Product Passport');
    const bar = await loading.locator('.loading-bar').boundingBox();
    expect(bar?.width ?? 0).toBeGreaterThan(100);
    await checkpoint(page, 'loading');
    open();

    // Assess: the empty live environment says where the samples are
    const firstVisit = page.getByTestId('first-visit');
    await firstVisit.waitFor(POLL);
    expect(await firstVisit.getByRole('heading').innerText()).toBe('No live products yet');
    expect(await firstVisit.innerText()).toContain('Test');
    await checkpoint(page, 'first-visit');

    // Act: follow it
    await firstVisit.getByRole('button', { name: 'See the samples in Test' }).click();

    // Assess: the test environment with the samples, each with its passport status
    await page.getByTestId('test-banner').waitFor(POLL);
    const table = page.getByTestId('products-table');
    await expect.poll(() => table.innerText(), POLL).toContain('Colline Rouge');
    const wine = table.locator('tbody tr', { hasText: 'Colline Rouge' });
    expect(await wine.locator('[data-passport-status]').innerText()).toBe('Published v2');
  });

  it.skipIf(mode === 'skip')('shows “No passport” in the list and offers the first passport, not a QR code, on the product’s page; a rename says the e-label changes with a new version', { timeout: 120_000 }, async () => {
    // Prepare: a live product without a passport, and one with a published version
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    const bare = await createProduct(org.live, { name: 'Grauburgunder ohne Pass' });
    const published = await createProduct(org.live, { name: 'Spätburgunder 2022' });
    const publish = await call('POST', '/v1/passports', {
      key: org.live,
      body: {
        productId: published.productId,
        data: {
          productType: 'wine',
          colour: 'red',
          vintage: 2022,
          ingredients: ['Grapes'],
          nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 },
          allergens: { containsSulphites: false, containsEgg: false, containsFish: false, containsMilk: false },
        },
      },
    });
    expect(publish.status, publish.text).toBe(201);

    // Act
    await page.goto(`${baseUrl()}/dashboard/#/products`);

    // Assess: the list says which products have a passport
    const table = page.getByTestId('products-table');
    await expect.poll(() => table.innerText(), POLL).toContain('Grauburgunder ohne Pass');
    expect(await table.locator('tbody tr', { hasText: 'Grauburgunder ohne Pass' }).locator('[data-passport-status]').innerText()).toBe('No passport');
    expect(await table.locator('tbody tr', { hasText: 'Spätburgunder 2022' }).locator('[data-passport-status]').innerText()).toBe('Published v1');

    // Act: the product without a passport
    await page.goto(`${baseUrl()}/dashboard/#/products/${bare.productId}`);

    // Assess: no QR code and no e-label link, the first passport instead
    const card = page.getByTestId('first-passport');
    await card.waitFor(POLL);
    expect(await page.getByTestId('qr-image').count()).toBe(0);
    expect(await page.getByTestId('elabel-link').count()).toBe(0);
    expect(await card.getByRole('link', { name: 'Publish the first passport' }).getAttribute('href')).toBe(`#/products/${bare.productId}/passport`);

    // Act: rename the published product
    await page.goto(`${baseUrl()}/dashboard/#/products/${published.productId}`);
    await page.getByTestId('qr-image').waitFor(POLL);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('form', { name: 'Edit product' }).getByLabel('Name').fill('Spätburgunder Reserve 2022');
    await page.getByRole('button', { name: 'Save changes' }).click();

    // Assess: what the rename does to the e-label, and the way to publish a new version
    const notice = page.getByRole('status').filter({ hasText: 'Saved' });
    await notice.waitFor(POLL);
    expect(await notice.innerText()).toContain('keeps the name it was published with');
    expect(await notice.innerText()).not.toContain('at once');
    expect(await page.getByTestId('publish-new-version').getAttribute('href')).toBe(`#/products/${published.productId}/passport`);
    await checkpoint(page, 'product-renamed');
  });

  it.skipIf(mode === 'skip')('keeps every main menu link on screen on a 390 px wide phone', { timeout: 60_000 }, async () => {
    // Prepare
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    await page.setViewportSize({ width: 390, height: 844 });

    // Act
    await page.goto(`${baseUrl()}/dashboard/#/products`);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.waitFor(POLL);

    // Assess: each link whole inside the viewport, none scrolled out of view
    for (const name of MENU) {
      const link = menu.getByRole('link', { name, exact: true });
      expect(await link.isVisible(), name).toBe(true);
      const box = await link.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
      expect(box!.height, name).toBeGreaterThanOrEqual(24);
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await checkpoint(page, 'phone-menu');

    // Act: the last link works
    await menu.getByRole('link', { name: 'Activity', exact: true }).click();
    // Assess
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor(POLL);
  });
});
