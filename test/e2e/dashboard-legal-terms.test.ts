import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the legal terms page browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

describe('the dashboard’s Legal terms page', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let session: TestSession;

  beforeAll(async () => {
    org = await newOrg('Legal Terms Winery');
    session = await newSession(org.orgId);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')("lists a language's unconfirmed terms, refuses a wording without its placeholder, saves one and clears it", { timeout: 120_000 }, async () => {
    // Prepare: a signed-in member; CSP bypassed only so axe can be injected
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);

    // Act: French, unconfirmed only (the default)
    await page.goto(`${baseUrl()}/dashboard/#/legal-terms`);
    await page.getByRole('heading', { name: 'Legal terms', level: 1 }).waitFor();
    await page.getByLabel('Language', { exact: true }).selectOption('fr');
    // Assess: fr "sugars" is unconfirmed, with its platform wording and source
    const row = page.getByTestId('term-fr-sugars');
    await expect.poll(() => row.innerText(), POLL).toContain('dont sucres');
    expect(await row.innerText()).toContain('unconfirmed');
    await checkpoint(page, 'legal-terms');

    // Act: a wording of "contains" without its {list} placeholder (shown with every term)
    await page.getByLabel('Unconfirmed only').uncheck();
    const contains = page.getByTestId('term-fr-contains');
    await contains.waitFor();
    await contains.getByRole('textbox').fill('Contient des sulfites');
    await contains.getByRole('button', { name: 'Save' }).click();
    // Assess: the API's 422 beside the field
    await expect.poll(() => contains.innerText(), POLL).toContain('{list}');

    // Act: a good wording
    await contains.getByRole('textbox').fill('Allergènes : {list}');
    await contains.getByRole('button', { name: 'Save' }).click();
    // Assess
    await expect.poll(async () => (await call('GET', '/v1/labelling/terms/fr/contains', { key: org.live })).body.override?.text, POLL).toBe('Allergènes : {list}');
    await page.getByText('Saved your wording of contains.').waitFor();

    // Act: clear it
    await page.getByTestId('term-fr-contains').getByRole('button', { name: 'Clear' }).click();
    // Assess
    await expect.poll(async () => (await call('GET', '/v1/labelling/terms/fr/contains', { key: org.live })).body.override, POLL).toBeNull();
    await page.context().close();
  });
});
