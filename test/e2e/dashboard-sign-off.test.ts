import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the sign-off browser test. ${CHROMIUM_MISSING}\n`);
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

describe('the Legal terms page: a compliance officer signs off a language (docs/labelling.md#sign-off)', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let officer: TestSession;

  beforeAll(async () => {
    org = await newOrg('Sign-off Browser Winery');
    officer = await newSession(org.orgId);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('shows the terms with their evidence, signs off Italian, and names the term a correction changed once it re-opens', { timeout: 120_000 }, async () => {
    // Prepare: the officer on the page, Italian chosen
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, officer);
    await page.goto(`${baseUrl()}/dashboard/#/legal-terms`);
    await page.getByRole('heading', { name: 'Legal terms', level: 1 }).waitFor();
    await page.getByLabel('Language', { exact: true }).selectOption('it');
    const card = page.getByTestId('sign-off');
    await expect.poll(() => card.innerText(), POLL).toContain('not signed off');
    // The terms a sign-off signs, each with its evidence level and source
    await card.getByText(/terms a sign-off of Italian signs/).click();
    const energy = card.getByTestId('in-use-text:energy');
    await expect.poll(() => energy.innerText(), POLL).toMatch(/official|official-copy|secondary|unconfirmed/);
    expect(await card.getByTestId('terms-in-use').locator('tbody tr').count()).toBeGreaterThan(40);
    await checkpoint(page, 'sign-off-none');

    // Act: sign off Italian
    await card.getByRole('button', { name: 'Sign off Italian' }).click();
    // Assess: who and when, on the page and through the API
    await expect.poll(() => card.getByTestId('signed-by').innerText().catch(() => ''), POLL).toContain(`Signed off by ${officer.email}`);
    expect(await card.innerText()).toContain('signed off');
    await expect.poll(() => page.getByTestId('sign-off-status-it').innerText(), POLL).toContain('signed off');
    const signed = await call('GET', '/v1/labelling/sign-offs/it', { key: org.live });
    expect(signed.body.status).toBe('signed');

    // Act: correct one term through the corrections' form of the same page
    await page.getByLabel('Unconfirmed only').uncheck();
    const contains = page.getByTestId('term-it-contains');
    await contains.waitFor();
    await contains.getByRole('textbox').fill('Allergeni: {list}');
    await contains.getByRole('button', { name: 'Save' }).click();
    // Assess: the sign-off is re-opened and names the term, as signed and as now
    await expect.poll(() => card.innerText(), POLL).toContain('re-opened');
    const changes = card.getByTestId('changed-terms');
    await expect.poll(() => changes.innerText(), POLL).toContain('text:contains');
    expect(await changes.innerText()).toContain('“Allergeni: {list}” (unconfirmed, organization)');
    await expect.poll(() => page.getByTestId('sign-off-status-it').innerText(), POLL).toContain('re-opened');
    await checkpoint(page, 'sign-off-reopened');
    await page.context().close();
  });
});
