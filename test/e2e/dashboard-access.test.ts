import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, signedInPage } from '../support/dashboard-browser.ts';
import { createProduct } from '../support/fixtures.ts';

/**
 * The dashboard's Access page (docs/dashboard.md#access): a grant given through its form
 * (the API's 422 beside the field first), listed, a read by the grantee in the access log, and the
 * grant revoked.
 */
const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the Access page browser test. ${CHROMIUM_MISSING}\n`);
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

/** A battery passport with one restricted element: the spare part sources (Annex XIII point 2(b), legitimate interest). */
const BATTERY = {
  generalProductInformation: { batteryCategory: 'ev' },
  circularity: {
    sparePartSources: [
      {
        nameOfSupplier: 'Access Page Spares GmbH',
        addressOfSupplier: { addressCountry: 'Germany', postalCode: '38440', streetAddress: 'Werkstraße 7' },
        emailAddressOfSupplier: 'spares@access-page.example',
        supplierWebAddress: 'https://access-page.example/spares',
        components: [{ partName: 'Battery management system', partNumber: 'AP-BMS-1' }],
      },
    ],
  },
};

describe('the dashboard’s Access page', () => {
  let browser: Browser | undefined;
  let owner: TestOrg;
  let recycler: TestOrg;
  let session: TestSession;
  let productId = '';
  let dppId = '';

  beforeAll(async () => {
    [owner, recycler] = await Promise.all([newOrg('Access Page Cell Maker'), newOrg('Access Page Recycler')]);
    session = await newSession(owner.orgId);
    productId = (await createProduct(owner.live, { name: 'Access page traction battery', category: 'battery' })).productId;
    // Published early on purpose, judged as on today (asOf): without asOf a battery passport is judged on the later of today and 18 February 2027, when this one is not complete (docs/battery.md#the-day-judged).
    const published = await call('POST', `/v1/passports?asOf=${new Date().toISOString().slice(0, 10)}`, { key: owner.live, body: { productId, data: BATTERY } });
    if (published.status !== 201) throw new Error(`publish: ${published.status} ${published.text}`);
    dppId = (await call('GET', `/v1/products/${productId}/passport`, { key: owner.live })).body.dppId;
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('grants access, logs the grantee’s read of a restricted element, and revokes the grant', { timeout: 120_000 }, async () => {
    // Prepare
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    await page.goto(`${baseUrl()}/dashboard/#/access`);
    await page.getByRole('heading', { name: 'Access', level: 1 }).waitFor();

    // Act: a grant to the organization itself, refused by the API
    await page.getByRole('button', { name: 'Grant access' }).click();
    const form = page.getByRole('form', { name: 'Grant access' });
    await form.getByLabel('Organization id').fill(owner.orgId);
    await form.getByRole('button', { name: 'Grant access' }).click();
    // Assess: the API's 422 beside the field
    await expect.poll(() => form.locator('[data-param="granteeOrgId"]').innerText(), POLL).toContain('another organization');

    // Act: the recycler, legitimate interest, on the battery
    await form.getByLabel('Organization id').fill(recycler.orgId);
    await form.getByLabel('Tier').selectOption('legitimate_interest');
    await form.getByLabel('Product ids (optional)').fill(productId);
    await form.getByRole('button', { name: 'Grant access' }).click();
    // Assess: listed, active, on that product
    const given = page.getByTestId('grants-given');
    const row = given.locator('tr', { hasText: recycler.orgId });
    await expect.poll(() => row.innerText().catch(() => ''), POLL).toMatch(/Legitimate interest[\s\S]*No[\s\S]*Never[\s\S]*active/);
    expect(await row.innerText()).toContain(productId);

    // Act: the recycler's key reads the passport
    const read = await call('GET', `/v1/dpps/${dppId}`, { key: recycler.live });
    expect(read.body.accessTier).toBe('legitimate_interest');
    // Assess: the read is in the access log, naming the organization, its tier, the grant and the element
    const log = page.getByTestId('access-log');
    await expect
      .poll(async () => {
        await page.reload();
        return (await log.innerText().catch(() => '')) || '';
      }, POLL)
      .toContain('Access Page Recycler');
    const entry = log.locator('tbody tr').first();
    expect(await entry.innerText()).toMatch(/Access Page Recycler[\s\S]*Legitimate interest[\s\S]*A grant[\s\S]*1 element/);
    await entry.getByText('1 element').click();
    await entry.getByText('circularity.sparePartSources').waitFor(POLL);
    await checkpoint(page, 'access');

    // Act: revoke, confirmed
    await given.getByRole('button', { name: `Revoke the grant to ${recycler.orgId}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke grant' }).click();
    // Assess: listed as revoked, without a Revoke button
    await expect.poll(() => row.innerText().catch(() => ''), POLL).toContain('revoked');
    expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
  });
});
