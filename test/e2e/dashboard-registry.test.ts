import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationIdOf } from '../../lib/domain/registry/registration.ts';
import { baseUrl, call, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the EU registry page browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds. */
const POLL = { timeout: 30_000, interval: 100 } as const;

const LEI = '529900T8BM49AURSDO55';
const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: LEI }, facilities: ['4006381000017'], commodityCode: '22042110' };
const REJECTION = 'Operator not verified for this facility';

async function ok(response: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const r = await response;
  if (r.status !== status) throw new Error(`set-up: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * The EU registry page (docs/dashboard.md#the-eu-registry): the operator identity from the settings,
 * the counts per status, a wine the registry rejected with its reason and a wine the pre-checks hold
 * with theirs; "Fix and resubmit" on the rejected one sends it back to the pre-checks, and the row
 * and the counts follow; one product's registrations.
 */
describe('the dashboard’s EU registry page', () => {
  let browser: Browser | undefined;
  let org: TestOrg;
  let session: TestSession;
  let held: CreatedProduct;
  let rejected: CreatedProduct;

  beforeAll(async () => {
    // Prepare: registration on; a wine on the platform's host (held), and one on the verified brand domain sent in a file and rejected
    org = await newOrg('Registry Page Winery');
    session = await newSession(org.orgId);
    await ok(call('PUT', '/v1/registry/settings', { key: org.live, body: SETTINGS }));
    held = await createProduct(org.live, { name: 'Held Riesling' });
    await publish(org.live, held.productId);
    await ok(call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } }));
    rejected = await createProduct(org.live, { name: 'Rejected Silvaner' });
    await publish(org.live, rejected.productId);
    const { backupUrl } = await ok(call('GET', `/v1/products/${rejected.productId}/passport`, { key: org.live }));
    await until('the backup copy', async () => ((await fetch(backupUrl)).status === 200 ? true : undefined), 60_000);
    const files = await ok(call('POST', '/v1/registry/files', { key: org.live, body: { format: 'json' } }));
    expect(files.submitted).toBe(1);
    const results = await ok(call('POST', '/v1/registry/results', { key: org.live, rawBody: `upi,status,errors\n${rejected.qrCodeUrl},rejected,${REJECTION}\n`, headers: { 'content-type': 'text/csv' } }));
    expect(results.rejected).toBe(1);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('shows the operator, the counts and each entry’s reasons; Fix and resubmit sends the rejected one back to the pre-checks', { timeout: 120_000 }, async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const counts = page.getByTestId('registry-counts');
    const count = (status: string) => counts.locator(`[data-status="${status}"] dd`).innerText();
    const attention = page.getByTestId('registry-attention');
    const rejectedId = registrationIdOf(org.orgId, 'live', rejected.qrCodeUrl);
    const rejectedRow = attention.locator(`tr[data-registration-id="${rejectedId}"]`);
    const heldRow = attention.locator(`tr[data-registration-id="${registrationIdOf(org.orgId, 'live', held.qrCodeUrl)}"]`);

    // Act: the page, from the main navigation
    await page.goto(`${baseUrl()}/dashboard/#/products`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'EU registry' }).click();
    await page.getByRole('heading', { name: 'EU registry', level: 1 }).waitFor(POLL);
    // The longer menu wraps on a desktop too: its last link stays on screen.
    const last = await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity', exact: true }).boundingBox();
    expect(last && last.x + last.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    // Assess: the operator as the settings hold it; one held, one rejected
    await expect.poll(() => page.getByTestId('registry-operator-identifier').innerText(), POLL).toBe(LEI);
    expect(await page.getByTestId('registry-operator-scheme').innerText()).toBe('LEI');
    expect(await page.getByTestId('registry-operator-verification').getAttribute('data-verification')).toBe('unverified');
    expect(await page.getByTestId('registry-operator-verification').innerText()).toContain('Not verified yet');
    await expect.poll(() => count('rejected'), POLL).toBe('1');
    expect([await count('pending_checks'), await count('submitted'), await count('registered')]).toEqual(['1', '0', '0']);
    await rejectedRow.waitFor(POLL);
    expect(await rejectedRow.getAttribute('data-status')).toBe('rejected');
    expect(await rejectedRow.innerText()).toContain(REJECTION);
    expect(await heldRow.locator('[data-reason-code="upi_not_https"]').count()).toBe(1);
    await checkpoint(page, 'registry');

    // Act: fix and resubmit the rejected wine
    await rejectedRow.getByRole('button', { name: 'Fix and resubmit' }).click();
    // Assess: the row is pending_checks without its reason, the counts moved, and so did the registration
    await expect.poll(() => rejectedRow.getAttribute('data-status'), POLL).toBe('pending_checks');
    expect(await rejectedRow.innerText()).not.toContain(REJECTION);
    expect(await rejectedRow.getByRole('button', { name: 'Fix and resubmit' }).count()).toBe(0);
    expect([await count('rejected'), await count('pending_checks')]).toEqual(['0', '2']);
    await page.getByText(`Resubmitted ${rejected.qrCodeUrl}`).waitFor(POLL);
    const stored = await call('GET', `/v1/registry/registrations/${rejectedId}`, { key: org.live });
    expect(stored.body).toMatchObject({ status: 'pending_checks', reasons: [] });
    await checkpoint(page, 'registry-resubmitted');

    // Act: the held wine's product, from its row
    await heldRow.getByRole('link', { name: 'model' }).click();
    // Assess: its registrations, by product
    const byProduct = page.getByTestId('registry-product-registrations');
    await byProduct.locator('tbody tr').first().waitFor(POLL);
    expect(await byProduct.locator('tbody tr').count()).toBe(1);
    expect(await byProduct.innerText()).toContain(held.qrCodeUrl);
    expect(await page.locator('#registry-product').inputValue()).toBe(held.productId);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
