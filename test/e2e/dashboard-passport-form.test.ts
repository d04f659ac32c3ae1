import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the passport form browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

/** The e-label page of a version in English, as a phone opens it (its text with no-break spaces as spaces). */
async function elabelText(page: Page, orgId: string, gtin13: string, version: number): Promise<{ text: string; html: string }> {
  const label = await page.context().newPage();
  await label.goto(`${baseUrl()}/${orgId}/live/p/0${gtin13}/${version}/en`);
  const main = label.locator('main');
  const result = { text: (await main.innerText()).replace(/\u00a0/g, ' '), html: await main.innerHTML() };
  await label.close();
  return result;
}

/**
 * A winery manager's passport form (issue 32): the energy of a new version is calculated again
 * from its nutrients, a vocabulary allergen ticks its box, the ingredient box is a WAI-ARIA
 * combobox that never adds an unfinished word, and the country is chosen by its name.
 */
describe('the dashboard’s passport form', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let session: TestSession;

  beforeAll(async () => {
    org = await newOrg('Passport Form Winery');
    session = await newSession(org.orgId);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')(
    'publishes v1 with calculated energy and v2 recalculated, sulphur dioxide with its tick, no unfinished word, the country by name',
    { timeout: 150_000 },
    async () => {
      if (!browser) throw new Error(CHROMIUM_MISSING);
      const page = await signedInPage(browser, session);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      // Prepare: a wine product, created as the manager does
      const gtin = uniqueGtin13();
      await page.goto(`${baseUrl()}/dashboard/#/products`);
      await page.getByRole('button', { name: 'New product', exact: true }).click();
      const newProduct = page.getByRole('form', { name: 'New product' });
      await newProduct.getByLabel('Name').fill('Rosso Esempio 2023');
      await newProduct.getByLabel('GTIN').fill(gtin);
      await newProduct.getByLabel('Category').selectOption('wine');
      await newProduct.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { name: 'Rosso Esempio 2023' }).waitFor();
      await page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Passport' }).click();
      await page.getByRole('button', { name: 'Publish the first passport' }).click();
      const form = page.getByTestId('publish-form');
      const box = form.getByRole('combobox', { name: 'Ingredients' });
      const list = form.getByRole('list', { name: 'Ingredients, in descending order of weight' });
      const sulphites = form.getByRole('checkbox', { name: 'Contains sulphites' });

      // Act: an unfinished word, then Enter
      await box.fill('nitrog');
      await expect.poll(() => box.getAttribute('aria-expanded'), POLL).toBe('true');
      await box.press('Enter');
      // Assess: nothing added; the listbox is the one the box controls, nothing highlighted
      expect(await form.getByText('No ingredients yet.').count()).toBe(1);
      expect(await form.getByTestId('ingredient-notice').innerText()).toContain('Nothing was added');
      const listbox = page.locator(`#${await box.getAttribute('aria-controls')}`);
      expect(await listbox.getAttribute('role')).toBe('listbox');
      expect(await box.getAttribute('aria-activedescendant')).toBeNull();

      // Act: ↓ highlights the first suggestion, Enter takes it
      await box.press('ArrowDown');
      const active = await box.getAttribute('aria-activedescendant');
      expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
      expect(await page.locator(`[id="${active}"]`).innerText()).toContain('nitrogen');
      await box.press('Enter');
      // Assess
      await expect.poll(() => list.innerText(), POLL).toContain('nitrogen');
      expect(await box.inputValue()).toBe('');

      // Act: Escape closes the suggestions and keeps the text
      await box.fill('sulphur');
      await expect.poll(() => box.getAttribute('aria-expanded'), POLL).toBe('true');
      await checkpoint(page, 'passport-combobox');
      await box.press('Escape');
      // Assess
      expect(await box.getAttribute('aria-expanded')).toBe('false');
      expect(await box.inputValue()).toBe('sulphur');

      // Act: sulphur dioxide chosen from the vocabulary, "Contains sulphites" never ticked by hand
      expect(await sulphites.isChecked()).toBe(false);
      await box.fill('sulphur dio');
      await form.getByRole('option', { name: /sulphur dioxide/ }).click();
      // Assess: the box is ticked, says why, and stays ticked
      await expect.poll(() => sulphites.isChecked(), POLL).toBe(true);
      expect(await form.getByTestId('containsSulphites-reason').innerText()).toContain('Ticked because of sulphur dioxide');
      expect(await sulphites.getAttribute('aria-disabled')).toBe('true');
      await sulphites.focus();
      await page.keyboard.press('Space');
      await sulphites.click({ force: true });
      expect(await sulphites.isChecked()).toBe(true);

      // Act: a name typed in full is highlighted by itself: Enter takes it
      await box.fill('grapes');
      await expect.poll(() => box.getAttribute('aria-activedescendant'), POLL).not.toBeNull();
      await box.press('Enter');
      await expect.poll(() => list.innerText(), POLL).toContain('grapes');

      // Act: free text, with the warning that it is not translated, and a German translation
      await box.fill('oak chips');
      await form.getByRole('button', { name: 'Add “oak chips” as free text…' }).click();
      const confirm = form.getByTestId('free-text-confirm');
      // Assess: said before anything is added
      expect(await confirm.innerText()).toContain('not translated');
      expect(await confirm.innerText()).toContain('all 24 language pages');
      expect(await list.innerText()).not.toContain('oak chips');
      await confirm.getByText('Give translations').click();
      await confirm.getByLabel('German', { exact: true }).fill('Eichenholzstücke');
      await checkpoint(page, 'passport-free-text');
      await confirm.getByRole('button', { name: 'Add with 1 translation' }).click();
      await expect.poll(() => list.innerText(), POLL).toContain('oak chips');

      // Act: the nutrients, energy left empty; the country by its name
      for (const [label, value] of [['Fat (g)', '0'], ['Saturated fat (g)', '0'], ['Carbohydrates (g)', '0.7'], ['Sugars (g)', '0.2'], ['Protein (g)', '0'], ['Salt (g)', '0'], ['Alcohol (g)', '11']]) {
        await form.getByLabel(label!, { exact: true }).fill(value!);
      }
      // 0.7 g × 17 + 11 g × 29 = 330.9 kJ; 0.7 × 4 + 11 × 7 = 79.8 kcal
      expect(await form.getByTestId('energy-preview').innerText()).toContain('331 kJ / 80 kcal');
      await form.locator('[data-field="data.origin.country"] select').selectOption({ label: 'Italy' });
      await form.getByLabel('Region').fill('Toscana');
      await form.getByRole('button', { name: 'Publish version' }).click();
      await page.getByText('Version 1 is published').waitFor();

      // Assess: stored as the ISO code, energy calculated, allergen and ingredient agreeing; the summary in names
      const v1 = await call('GET', `/v1/products?q=${gtin}`, { key: org.live });
      const productId = v1.body.data[0].productId as string;
      const current = (await call('GET', `/v1/products/${productId}/passport`, { key: org.live })).body;
      expect(current.data.origin).toEqual({ country: 'IT', region: 'Toscana' });
      expect(current.data.nutrition).toMatchObject({ energyKj: 331, energyKcal: 80, energyCalculated: true });
      expect(current.data.allergens.containsSulphites).toBe(true);
      expect(current.data.ingredients).toEqual([{ code: 'nitrogen' }, { code: 'sulphur-dioxide' }, { code: 'grapes' }, { text: { en: 'oak chips', de: 'Eichenholzstücke' } }]);
      const summary = page.getByTestId('current-passport');
      await expect.poll(() => page.getByTestId('summary-ingredients').innerText(), POLL).toContain('sulphur dioxide');
      expect(await page.getByTestId('summary-ingredients').innerText()).not.toContain('sulphur-dioxide');
      expect(await page.getByTestId('summary-allergens').innerText()).toBe('sulphites');
      expect(await summary.innerText()).toContain('Italy');
      const label1 = await elabelText(page, org.orgId, gtin, 1);
      expect(label1.text).toContain('331 kJ / 80 kcal (calculated)');
      expect(label1.html).toContain('<strong>sulphur dioxide</strong>');
      await checkpoint(page, 'passport-v1');

      // Act: version 2, alcohol from 11 g to 10.7 g
      await page.getByRole('button', { name: 'Publish a new version' }).click();
      // Assess: the calculated energy is not copied as if typed; the tick and the country are kept
      expect(await form.getByLabel('Energy (kJ)', { exact: true }).inputValue()).toBe('');
      expect(await form.getByLabel('Energy (kcal)', { exact: true }).inputValue()).toBe('');
      expect(await sulphites.isChecked()).toBe(true);
      expect(await form.locator('[data-field="data.origin.country"] select').inputValue()).toBe('IT');
      await form.getByLabel('Alcohol (g)', { exact: true }).fill('10.7');
      // 0.7 g × 17 + 10.7 g × 29 = 322.2 kJ; 0.7 × 4 + 10.7 × 7 = 77.7 kcal
      expect(await form.getByTestId('energy-preview').innerText()).toContain('322 kJ / 78 kcal');
      await form.getByRole('button', { name: 'Publish version' }).click();
      await page.getByText('Version 2 is published').waitFor();

      // Assess: the label of v2 shows the energy calculated again, with its note
      const label2 = await elabelText(page, org.orgId, gtin, 2);
      expect(label2.text).toContain('322 kJ / 78 kcal (calculated)');
      expect(label2.text).not.toContain('331 kJ');
      expect(label2.html).toContain('<strong>sulphur dioxide</strong>');
      expect(await page.getByTestId('summary-allergens').innerText()).toBe('sulphites');
      expect(pageErrors).toEqual([]);
      await page.context().close();
    },
  );
});
