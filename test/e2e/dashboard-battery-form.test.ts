import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_TITLES, ENTRY_NOUNS, MEMBER_LABELS } from '../../dashboard/src/battery-form.ts';
import { labelOf } from '../../dashboard/src/format.ts';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { batteryModelData, BATTERY_EXAMPLE } from '../support/battery.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the battery form browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds (docs/testing.md). */
const POLL = { timeout: 30_000, interval: 100 } as const;

type Json = Record<string, any>;
const NEW_SYMBOL = 'https://www.cell-maker.example/labels/hazard.svg';

/**
 * The words a label must never be: a member's name split at its capitals (`atSoC` → "At so c"),
 * unless a table of the form writes those very words for a member or an element.
 */
function splitForms(): Set<string> {
  const written = new Set([...Object.values(MEMBER_LABELS), ...Object.values(ENTRY_NOUNS), ...ELEMENTS.map((element) => element.name), ...Object.values(ASPECT_TITLES)]);
  const names = Object.keys(MEMBER_LABELS).map((key) => key.split('.').at(-1) ?? key);
  return new Set(names.map(labelOf).filter((words) => !written.has(words)));
}

/**
 * A battery maker edits the passport with form controls (issue 38): contacts as fieldsets, lists
 * as rows with Add and Remove, a unit beside every number, labels in people's words; the API's 422
 * beside the member it names; what the form saves is the data it showed with the changes made.
 */
describe('the dashboard’s battery form controls', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let session: TestSession;
  let battery: CreatedProduct;
  const model = batteryModelData();

  beforeAll(async () => {
    // Prepare: an EV battery model whose draft holds the example's model data, and one registered battery
    org = await newOrg('Cell Maker Forms GmbH');
    session = await newSession(org.orgId);
    battery = await createProduct(org.live, { name: 'EVP75 traction battery', category: 'battery' });
    const draft = await call('PUT', `/v1/products/${battery.productId}/draft`, { key: org.live, body: { data: model } });
    if (draft.status !== 200 && draft.status !== 201) throw new Error(`draft: ${draft.status} ${draft.text}`);
    const item = {
      generalProductInformation: { batteryStatus: 'Original' },
      performanceAndDurability: { batteryCondition: structuredClone(BATTERY_EXAMPLE.performanceAndDurability.batteryCondition) },
    };
    const put = await call('PUT', `/v1/products/${battery.productId}/items/EVP-0100?force=true`, { key: org.live, body: { data: item } });
    if (put.status !== 201) throw new Error(`register: ${put.status} ${put.text}`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('shows every element as controls with units and people’s words, places a member’s 422, saves the rows as edited', { timeout: 150_000 }, async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const form = page.getByTestId('battery-form');

    // Act: the Passport tab with every aspect open
    await page.goto(`${baseUrl()}/dashboard/#/products/${battery.productId}/passport`);
    await form.waitFor(POLL);
    for (const aspect of await form.locator('details[data-aspect]').all()) if ((await aspect.getAttribute('open')) === null) await aspect.locator(':scope > summary').click();
    await expect.poll(() => form.locator('details[data-aspect]:not([open])').count(), POLL).toBe(0);

    // Assess: a unit beside every number (none without one but the index whose scale is not fixed)
    const numbers = await form.locator('input[data-kind="number"]').evaluateAll((inputs) =>
      inputs.map((input) => ({ name: input.getAttribute('name'), unit: input.parentElement?.querySelector('[data-unit]')?.textContent?.trim() ?? '' })),
    );
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers.filter((number) => number.unit === '' || number.unit === 'no unit').map((number) => number.name)).toEqual(['data.supplyChainDueDiligence.supplyChainIndicies']);
    expect(numbers.find((number) => number.name === 'data.generalProductInformation.batteryMass')?.unit).toBe('kg');
    expect(numbers.find((number) => number.name === 'data.performanceAndDurability.batteryTechicalProperties.originalPowerCapability[0].atSoC')?.unit).toBe('%');
    // Assess: no label is a name split at its capitals; contacts are fieldsets of members in words
    const labels = await form.locator('label, legend').allInnerTexts();
    const forbidden = splitForms();
    expect(labels.map((label) => label.trim()).filter((label) => forbidden.has(label))).toEqual([]);
    const operator = form.locator('fieldset[data-field="data.generalProductInformation.operatorInformation"]');
    expect(await operator.locator(':scope > legend').innerText()).toBe('Economic operator');
    expect(await operator.getByLabel('Postcode').inputValue()).toBe(model.generalProductInformation.operatorInformation.postalAddress.postalCode);
    // Assess: no text area holds JSON
    const texts = await form.locator('textarea').evaluateAll((areas) => areas.map((area) => (area as unknown as { value: string }).value.trim()));
    expect(texts.filter((text) => text.startsWith('{') || text.startsWith('['))).toEqual([]);
    await checkpoint(page, 'battery-form-controls');

    // Act: the second label removed, a new one added with its meaning in English; the operator's e-mail mistyped
    const labelsList = form.locator('fieldset[data-field="data.labeling.labels"]');
    await labelsList.getByRole('button', { name: 'Remove label 2' }).click();
    await labelsList.getByRole('button', { name: 'Add label', exact: true }).click();
    const added = labelsList.locator('fieldset[data-field="data.labeling.labels[1]"]');
    await added.getByLabel('Symbol', { exact: true }).fill(NEW_SYMBOL);
    await added.getByLabel('Subject', { exact: true }).selectOption('HazardousMaterial');
    await added.getByRole('button', { name: 'Add a language' }).click();
    await added.getByLabel('Language', { exact: true }).selectOption('en');
    await added.getByLabel('Text in English', { exact: true }).fill('Contains hazardous substances.');
    const email = operator.getByLabel('E-mail', { exact: true });
    await email.fill('passport-at-ev-motors.example');
    await form.getByRole('button', { name: 'Save draft' }).click();
    // Assess: the API's refusal beside the e-mail field, in the field's words, the focus on it
    const emailField = form.locator('[data-field="data.generalProductInformation.operatorInformation.emailAddress"]');
    await expect.poll(() => emailField.locator('.field-error').innerText(), POLL).toMatch(/^E-mail must be an e-mail address/);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate("document.activeElement?.closest('[data-field]')?.getAttribute('data-field')"), POLL).toBe(
      'data.generalProductInformation.operatorInformation.emailAddress',
    );
    await checkpoint(page, 'battery-form-member-error');

    // Act: the address corrected, saved
    await email.fill('passport@ev-motors.example');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await form.getByText('It is not public; publish it', { exact: false }).waitFor(POLL);
    // Assess: the draft is what the form showed, with the labels and the address as edited
    const saved = await call('GET', `/v1/products/${battery.productId}/draft`, { key: org.live });
    const expected: Json = structuredClone(model);
    expected.generalProductInformation.operatorInformation.emailAddress = 'passport@ev-motors.example';
    expected.labeling.labels = [
      model.labeling.labels[0],
      { labelingSymbol: NEW_SYMBOL, labelingSubject: 'HazardousMaterial', labelingMeaning: { en: 'Contains hazardous substances.' } },
    ];
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(expected);

    // Act: the battery's page
    await page.goto(`${baseUrl()}/dashboard/#/products/${battery.productId}/items/EVP-0100`);
    const data = page.getByTestId('unit-data');
    await data.waitFor(POLL);
    // Assess: its data in the form's words, each number with its unit
    const soce = ELEMENTS.find((element) => element.path === 'performanceAndDurability.batteryCondition.stateOfCertifiedEnergy')?.name;
    const row = data.locator('dt', { hasText: `${soce} › Value` });
    expect(await row.locator('xpath=following-sibling::dd[1]').innerText()).toMatch(/ %$/);
    const terms = await data.locator('dt').allInnerTexts();
    expect(terms.filter((term) => term.split(' › ').some((part) => forbidden.has(part.replace(/ \d+$/, ''))))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
