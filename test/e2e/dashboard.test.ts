import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addUserToOrganization } from '../../lib/services/users.ts';
import { getOrganization } from '../../lib/data/organizations.ts';
import { DASHBOARD_ACCOUNT } from '../support/accounts.ts';
import { baseUrl, newOrg, type TestOrg } from '../support/api.ts';
import { checkpoint, RESULTS_DIR } from '../support/dashboard-browser.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the dashboard browser test. ${CHROMIUM_MISSING}\n`);

/** UI updates wait on the API: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** Saves `test-results/dashboard-<name>.png` and asserts axe finds nothing serious or critical. */
/** Clicks `refresh` until `done` holds, for at most `timeoutMs` (no fixed sleeps: each round waits for the page). */
async function pollUntil(page: Page, refresh: () => Promise<void>, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the dashboard did not show the expected state in time');
    await refresh();
    await page.waitForLoadState('networkidle');
  }
}

describe('the dashboard', () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let org: TestOrg;

  beforeAll(async () => {
    // The walkthrough's own identity-provider account, a member of two fresh organizations:
    // sign-in lands in the first, the test switches to the second.
    const first = await getOrganization((await newOrg('Dashboard Cellar')).orgId);
    await addUserToOrganization(first!, DASHBOARD_ACCOUNT.email);
    org = await newOrg('Dashboard Winery', { sandbox: true });
    const organization = await getOrganization(org.orgId);
    await addUserToOrganization(organization!, DASHBOARD_ACCOUNT.email);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it.skipIf(mode === 'skip')(
    'walks a new user through sign-in, keys, products, passports, the e-label and the scan chart',
    { timeout: 150_000 },
    async () => {
      if (!browser) throw new Error(CHROMIUM_MISSING);
      context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB', timezoneId: 'UTC', bypassCSP: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
      const thirdParty: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (!['localhost', '127.0.0.1'].includes(url.hostname) && url.protocol !== 'data:') thirdParty.push(request.url());
      });

      // --- Sign in through the development identity provider.
      await page.goto(`${baseUrl()}/dashboard/`);
      await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
      await checkpoint(page, 'signin');
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.href.startsWith(inject('stack').oidcIssuer));
      await page.getByLabel('Email').fill(DASHBOARD_ACCOUNT.email);
      await page.getByLabel('Password').fill(DASHBOARD_ACCOUNT.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${baseUrl()}/dashboard/`);
      const orgSwitcher = page.getByLabel('Organization');
      await orgSwitcher.waitFor();

      // --- Sign-in lands in the first organization; switch to the walkthrough's.
      await expect.poll(() => page.locator('footer').innerText(), POLL).toContain('Dashboard Cellar');
      await orgSwitcher.selectOption(org.orgId);
      await expect.poll(() => page.locator('footer').innerText(), POLL).toContain(org.orgId);
      await expect.poll(() => orgSwitcher.inputValue(), POLL).toBe(org.orgId);
      expect(await page.getByTestId('test-banner').count()).toBe(0);

      // --- API keys: create one, see it once, copy it; it works; revoke it with confirmation.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Create key' }).click();
      const newKey = page.getByRole('form', { name: 'Create an API key' });
      await newKey.getByLabel('Name').fill('ERP sync');
      await newKey.getByLabel('products:write').check();
      await newKey.getByRole('button', { name: 'Create key' }).click();
      const secret = page.locator('[data-secret]');
      await secret.waitFor();
      const key = await secret.inputValue();
      expect(key).toMatch(/^sk_live_/);
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect.poll(() => page.evaluate('navigator.clipboard.readText()'), POLL).toBe(key);
      await expect.poll(() => page.getByTestId('keys-table').innerText(), POLL).toContain('ERP sync');
      await checkpoint(page, 'keys');
      const withKey = await fetch(`${baseUrl()}/v1/products`, { headers: { authorization: `Bearer ${key}` } });
      expect(withKey.status).toBe(200);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await expect.poll(() => secret.count(), POLL).toBe(0);
      const table = await page.getByTestId('keys-table').innerText();
      expect(table).toContain(key.slice(-4));
      expect(table).not.toContain(key);
      await page.getByRole('button', { name: 'Revoke ERP sync' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('Key ERP sync was revoked').waitFor();

      // --- Switch to the test environment: visibly distinct, with the sandbox's products.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await page.getByRole('radio', { name: 'Test' }).click();
      await page.getByTestId('test-banner').waitFor();
      expect(await page.getByTestId('test-banner').innerText()).toContain('TEST DATA');
      await expect.poll(() => page.getByTestId('products-table').innerText(), POLL).toContain('Colline Rouge');

      // --- Create a product: its page shows the QR code, its download and the e-label link.
      const gtin = uniqueGtin13();
      await page.getByRole('button', { name: 'New product' }).click();
      const newProduct = page.getByRole('form', { name: 'New product' });
      await newProduct.getByLabel('Name').fill('Riesling Kabinett 2023');
      await newProduct.getByLabel('GTIN').fill('4006381333932'); // a wrong check digit: the API names the field
      await newProduct.getByLabel('Brand (optional)').fill('Weingut Beispiel');
      await newProduct.getByRole('button', { name: 'Create product' }).click();
      await page.locator('[data-param="gtin"]').waitFor();
      expect(await newProduct.getByLabel('GTIN').getAttribute('aria-invalid')).toBe('true');
      await newProduct.getByLabel('GTIN').fill(gtin);
      // The ESPR identifiers: a GLN with a wrong check digit is named by the API, then fixed.
      await newProduct.getByLabel('Facility GLN (optional)').fill('4006381000016');
      await newProduct.getByLabel('Commodity code (optional)').fill('22042111');
      await newProduct.getByLabel('Passport granularity').selectOption('batch');
      await newProduct.getByRole('button', { name: 'Create product' }).click();
      await page.locator('[data-param="facilityId"]').waitFor();
      expect(await newProduct.getByLabel('Facility GLN (optional)').getAttribute('aria-invalid')).toBe('true');
      await newProduct.getByLabel('Facility GLN (optional)').fill('4006381000017');
      await newProduct.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { name: 'Riesling Kabinett 2023' }).waitFor();
      const details = await page.locator('dl.details').innerText();
      expect(details).toContain('4006381000017');
      expect(details).toContain('22042111');
      expect(details).toContain('batch');
      // No passport yet: no QR code to print (its scans would find nothing), the first passport instead.
      expect(await page.getByTestId('first-passport').innerText()).toContain('Publish the first passport');
      expect(await page.getByTestId('qr-image').count()).toBe(0);
      expect(details).toContain('No passport');

      // --- Activity: the product just created is the newest event, by this user, linked to its page.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
      const activity = page.getByTestId('activity-table');
      await expect.poll(() => activity.locator('tbody tr').first().innerText(), POLL).toContain('Product created');
      expect(await activity.locator('tbody tr').first().innerText()).toContain(DASHBOARD_ACCOUNT.email);
      // The test environment's sample data was published by the service.
      await page.getByLabel('Type').selectOption('passport.published');
      await expect.poll(() => activity.locator('tbody tr').first().innerText(), POLL).toContain('Passport published');
      expect(await activity.innerText()).toContain('Sample data');
      await page.getByLabel('Type').selectOption('product.created');
      await expect.poll(() => activity.locator('tbody tr').first().innerText(), POLL).toContain('Riesling Kabinett 2023');
      await checkpoint(page, 'activity');
      await activity.locator('tbody tr').first().getByRole('link', { name: 'Riesling Kabinett 2023' }).click();
      await page.getByRole('heading', { name: 'Riesling Kabinett 2023' }).waitFor();

      // --- Publish a passport: the API's 422 appears next to the field it names, then it publishes.
      await page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Passport' }).click();
      await page.getByRole('button', { name: 'Publish the first passport' }).click();
      const form = page.getByTestId('publish-form');
      await form.getByLabel('Colour (wine)').selectOption('white');
      await form.getByLabel('Vintage').fill('1700'); // before 1800: the API names the field
      // Ingredients: a vocabulary entry found by typing (named in all 24 languages on the e-label), and free text.
      const ingredients = form.getByRole('combobox', { name: 'Ingredients' });
      await ingredients.fill('Grapes');
      // A name typed in full is the highlighted suggestion once the suggestions have loaded: Enter takes it.
      await form.getByRole('option', { name: 'grapes', exact: true, selected: true }).waitFor();
      await ingredients.press('Enter');
      await ingredients.fill('tartaric');
      await form.getByRole('option', { name: 'Acidity regulators: tartaric acid (E 334)' }).click();
      await ingredients.fill('Preservative: sulphites');
      // Free text is added only after the warning that it will not be translated.
      await form.getByRole('button', { name: 'Add “Preservative: sulphites” as free text…' }).click();
      await form.getByTestId('free-text-confirm').getByRole('button', { name: 'Add untranslated' }).click();
      expect(await form.getByRole('list', { name: 'Ingredients, in descending order of weight' }).innerText()).toMatch(/grapes[\s\S]*Acidity regulators: tartaric acid \(E 334\)[\s\S]*Preservative: sulphites/);
      for (const [label, value] of [['Fat (g)', '0'], ['Saturated fat (g)', '0'], ['Carbohydrates (g)', '2.6'], ['Sugars (g)', '2.1'], ['Protein (g)', '0.1'], ['Salt (g)', '0'], ['Alcohol (g)', '8.7']]) {
        await form.getByLabel(label!, { exact: true }).fill(value!);
      }
      // The energy the nutrients give, live (2.7 g × 17 + 8.7 g × 29 = 298.2 kJ; 2.7 × 4 + 8.7 × 7 = 71.7 kcal).
      expect(await form.getByTestId('energy-preview').innerText()).toContain('298 kJ / 72 kcal');
      for (const [label, value] of [['Energy (kJ)', '290'], ['Energy (kcal)', '70']]) {
        await form.getByLabel(label!, { exact: true }).fill(value!);
      }
      await form.getByLabel('Contains sulphites').check();
      // The country by its name: the API receives its ISO code.
      await form.locator('[data-field="data.origin.country"] select').selectOption({ label: 'Germany' });
      await form.getByLabel('Region').fill('Mosel');
      await form.getByLabel('Designation').fill('Mosel Qualitätswein');
      await form.getByLabel('Producer 1 name').fill('Weingut Beispiel');
      await form.locator('[data-field="data.producers[0].country"] select').selectOption({ label: 'Germany' });
      await form.getByRole('button', { name: 'Publish version' }).click();
      const vintageError = page.locator('[data-param="data.vintage"]');
      await vintageError.waitFor();
      expect(await vintageError.innerText()).toMatch(/vintage/i);
      expect(await form.getByLabel('Vintage').getAttribute('aria-invalid')).toBe('true');
      await checkpoint(page, 'passport-error');
      await form.getByLabel('Vintage').fill('2023');
      await form.getByRole('button', { name: 'Publish version' }).click();
      await page.getByText('Version 1 is published').waitFor();
      await expect.poll(() => page.getByTestId('passport-history').innerText(), POLL).toContain('v1');
      expect(await page.getByTestId('current-passport').innerText()).toContain('Mosel');
      expect(await page.getByTestId('current-passport').innerText()).toContain('Germany');
      // The e-label preview in any of the 24 languages: the version's immutable page in that language.
      await page.getByLabel('E-label language').selectOption('el');
      expect(await page.getByTestId('elabel-preview').getAttribute('href')).toMatch(new RegExp(`/${org.orgId}/test/p/0${gtin}/1/el$`));
      await checkpoint(page, 'passport');

      // --- With its passport published, the product's page shows the QR code, its download and the e-label link.
      await page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Overview' }).click();
      await page.getByTestId('qr-image').waitFor();
      const qrCodeUrl = await page.getByTestId('elabel-link').getAttribute('href');
      expect(qrCodeUrl).toMatch(new RegExp(`/${org.orgId}/test/01/0${gtin}$`));
      expect(await page.getByRole('link', { name: 'Download SVG' }).getAttribute('href')).toMatch(/^data:image\/svg\+xml/);
      expect(await page.getByRole('link', { name: 'Download SVG' }).getAttribute('download')).toBe(`${gtin}.svg`);
      expect(await page.locator('dl.details').innerText()).toContain('Published v1');
      await checkpoint(page, 'product');

      // --- Open the e-label page the QR code leads to.
      const [elabel] = await Promise.all([context.waitForEvent('page'), page.getByTestId('elabel-link').click()]);
      await elabel.waitForLoadState();
      // The resolver's 307 leads to the current version's English page (docs/resolver.md).
      expect(elabel.url()).toMatch(new RegExp(`/${org.orgId}/test/p/0${gtin}/\\d+/en$`));
      expect(await elabel.locator('main').innerText()).toContain('Riesling Kabinett 2023');
      await elabel.screenshot({ path: `${RESULTS_DIR}dashboard-elabel.png`, fullPage: true });
      await elabel.close();

      // --- Two consumers scan the printed code; the chart shows them once the aggregator has run.
      for (const [ua, country, referer] of [[PHONE_UA, 'DE', 'https://www.weinhandel.example/riesling'], [DESKTOP_UA, 'FR', '']] as const) {
        const scan = await fetch(qrCodeUrl!, {
          headers: { accept: 'text/html', 'user-agent': ua, 'cloudfront-viewer-country': country, ...(referer ? { referer } : {}) },
        });
        expect(scan.status).toBe(200);
      }
      await page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Scans' }).click();
      const total = page.getByTestId('total-scans');
      await total.waitFor();
      // Three scans: the two consumers' and the e-label this headless browser opened above, which a
      // wine's count cannot tell from a person's (no device class: docs/privacy.md).
      await pollUntil(
        page,
        () => page.getByRole('button', { name: 'Refresh' }).click(),
        async () => (await total.innerText()) === '3',
      );
      expect(await page.getByTestId('scan-chart').getAttribute('data-total')).toBe('3');
      expect(await page.locator('[data-testid="scan-chart"] rect[data-scans="3"]').count()).toBe(1);
      // A wine's scans are counts only (docs/privacy.md): no country, device or referrer, and the page says why.
      expect(await page.getByTestId('not-collected').innerText()).toMatch(/Not collected: country, device, referring site[\s\S]*Regulation \(EU\) No 1308\/2013, Art\. 119\(4\)/);
      expect(await page.getByRole('list', { name: 'Scans by country' }).count()).toBe(0);
      await checkpoint(page, 'analytics');
      await page.getByRole('radio', { name: 'Month' }).click();
      await expect.poll(() => page.locator('[data-testid="scan-chart"] rect').count(), POLL).toBeGreaterThanOrEqual(12);
      expect(await total.innerText()).toBe('3');

      // --- Search the products by name and by GTIN; the list pages.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await expect.poll(() => page.getByTestId('products-table').innerText(), POLL).toContain('Riesling Kabinett 2023');
      await checkpoint(page, 'products');
      await page.getByLabel('Search products by name or GTIN').fill('riesling');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.getByTestId('products-table').locator('tbody tr').count(), POLL).toBe(1);
      await page.getByLabel('Search products by name or GTIN').fill(gtin.slice(0, 9));
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.getByTestId('products-table').innerText(), POLL).toContain(gtin);

      // --- On a phone: the same page, one column.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect.poll(() => page.getByTestId('products-table').locator('tbody tr').count(), POLL).toBe(4);
      await checkpoint(page, 'phone');
      await page.setViewportSize({ width: 1280, height: 860 });

      // --- Webhooks: create (secret once), edit the mapping (validated by the API), rotate.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByLabel('Description (optional)').fill('Headless CMS (staging)');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await checkpoint(page, 'webhooks');
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await page.getByTestId('endpoints-table').getByRole('link').first().click();
      const mapping = page.getByLabel('Mapping (JSON)');
      await mapping.waitFor();
      const original = await mapping.inputValue();
      expect(JSON.parse(original)).toHaveProperty('gtin');
      await mapping.fill('{"name": "entity.attributes.product_name"');
      await page.getByRole('button', { name: 'Save mapping' }).click();
      await expect.poll(() => page.locator('[data-param="mapping"]').innerText(), POLL).toMatch(/not valid JSON/);
      await mapping.fill('{"name": "entity.attributes.product_name"}');
      await page.getByRole('button', { name: 'Save mapping' }).click();
      await expect.poll(() => page.locator('[data-param="mapping"]').innerText(), POLL).toMatch(/gtin/i);
      await mapping.fill(original);
      await page.getByRole('button', { name: 'Save mapping' }).click();
      await page.getByText('Saved. The next delivery uses this mapping.').waitFor();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await checkpoint(page, 'webhook');

      // --- Sign out: the session ends.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You have signed out.').waitFor();
      const session = await page.evaluate(async () => (await fetch('/v1/auth/session')).status);
      expect(session).toBe(401);
      expect(thirdParty).toEqual([]);
      // The API's 401, 404 and 422 answers are expected; script errors are not.
      expect(pageErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
    },
  );
});
