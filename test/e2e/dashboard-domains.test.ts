import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../support/admin.ts';
import { baseUrl, newOrg, newSession, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the domains page browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

describe('the dashboard’s Domains page', () => {
  let browser: Browser | undefined;
  let session: TestSession;

  beforeAll(async () => {
    session = await newSession((await newOrg('Domains Page Winery')).orgId);
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(mode === 'skip')('adds a domain, shows its TXT record, says what DNS answered, verifies it and makes it the default', { timeout: 120_000 }, async () => {
    // Prepare: a signed-in member (the session cookie the sign-in would set); CSP bypassed only so axe can be injected
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    const hostname = `id.b${randomBytes(5).toString('hex')}.brand.example`;

    // Act: a refused hostname, then a good one
    await page.goto(`${baseUrl()}/dashboard/#/domains`);
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add domain' }).click();
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Hostname').fill('localhost');
    await form.getByRole('button', { name: 'Add domain' }).click();
    // Assess: the API's 422 beside the field, naming the field by its label
    await expect.poll(() => form.locator('[data-param="hostname"]').innerText(), POLL).toContain('Hostname must');

    // Act
    await form.getByLabel('Hostname').fill(hostname);
    await form.getByRole('button', { name: 'Add domain' }).click();
    // Assess: the pending domain with the TXT record to create
    const card = page.locator(`[data-domain="${hostname}"]`);
    await card.waitFor();
    expect(await card.innerText()).toContain('pending');
    const record = await card.getByTestId('txt-record').innerText();
    expect(record).toContain(`_passport-challenge.${hostname}`);
    const txtValue = /passport-verification=\w{32}/.exec(record)?.[0] ?? '';
    expect(txtValue).not.toBe('');
    await checkpoint(page, 'domains-pending');

    // Act: verify before the record exists
    await card.getByRole('button', { name: `Verify ${hostname}` }).click();
    // Assess: what DNS answered
    await expect.poll(() => page.getByRole('alert').innerText(), POLL).toContain('No TXT record found');

    // Act: publish the record as the brand would (here the local DNS server), verify, make default
    const published = await admin(['dns', 'set-txt', '--name', `_passport-challenge.${hostname}`, '--value', txtValue]);
    expect(published.code).toBe(0);
    await card.getByRole('button', { name: `Verify ${hostname}` }).click();
    await expect.poll(() => card.innerText(), POLL).toContain('verified');
    await card.getByRole('button', { name: `Make default ${hostname}` }).click();
    // Assess
    await expect.poll(() => card.innerText(), POLL).toContain('default');
    await page.getByText(`New live products will get QR codes on ${hostname}`).waitFor();
    await checkpoint(page, 'domains-verified');
    await page.context().close();
  });

  it.skipIf(mode === 'skip')('takes a pasted https://www.…/ address as its host, shows the TXT name as DNS providers ask for it, and after verification the CNAME to create', { timeout: 120_000 }, async () => {
    // Prepare
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);
    const label = `b${randomBytes(5).toString('hex')}`;
    const hostname = `www.${label}.brand.example`;

    // Act: paste the address as the browser shows it
    await page.goto(`${baseUrl()}/dashboard/#/domains`);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Hostname').fill(`https://WWW.${label}.brand.example/`);
    await form.getByRole('button', { name: 'Add domain' }).click();

    // Assess: the host alone, and the TXT record's name as a DNS provider's form asks for it, the full name beside it
    const card = page.locator(`[data-domain="${hostname}"]`);
    await card.waitFor();
    const record = card.getByTestId('txt-record');
    expect(await record.getByTestId('record-host').innerText()).toBe(`_passport-challenge.www.${label}`);
    const text = await record.innerText();
    expect(text).toContain('brand.example');
    expect(text).toContain(`_passport-challenge.${hostname}`);
    await checkpoint(page, 'domains-pasted');

    // Act: publish the record and verify
    const txtValue = /passport-verification=\w{32}/.exec(text)?.[0] ?? '';
    expect((await admin(['dns', 'set-txt', '--name', `_passport-challenge.${hostname}`, '--value', txtValue])).code).toBe(0);
    await card.getByRole('button', { name: `Verify ${hostname}` }).click();

    // Assess: the CNAME record to create next, its name in the same form
    const cname = card.getByTestId('cname-record');
    await cname.waitFor(POLL);
    expect(await cname.getByTestId('record-host').innerText()).toBe(`www.${label}`);
    expect(await cname.innerText()).toContain('CNAME');
    expect(await cname.getByTestId('cname-target').innerText()).not.toBe('');
    await checkpoint(page, 'domains-cname');
    await page.context().close();
  });
});
