import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, newOrg, newSession, type TestSession } from '../support/api.ts';
import { browserTestMode, CHROMIUM_MISSING, launchBrowser } from '../support/browser.ts';
import { checkpoint, RESULTS_DIR, signedInPage } from '../support/dashboard-browser.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const mode = browserTestMode();
if (mode === 'skip') console.warn(`\n⚠ Skipping the event subscriptions page browser test. ${CHROMIUM_MISSING}\n`);
/** UI updates wait on the API and the delivery pipeline: under the full suite's load they can take seconds. */
// A generous bound: on a busy machine a page or a delivery can take far longer than it does alone (docs/testing.md).
const POLL = { timeout: 30_000, interval: 100 } as const;

describe('the dashboard’s Event subscriptions page', () => {
  let browser: Browser | undefined;
  let session: TestSession;
  let receiver: Receiver;

  beforeAll(async () => {
    session = await newSession((await newOrg('Subscriptions Page Winery')).orgId);
    receiver = await startReceiver();
    mkdirSync(RESULTS_DIR, { recursive: true });
    if (mode !== 'skip') browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver.close();
  });

  it.skipIf(mode === 'skip')('adds a subscription, shows its secret once, sends a test event that appears in the log, and rotates the secret', { timeout: 120_000 }, async () => {
    // Prepare: a signed-in member; CSP bypassed only so axe can be injected
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const page = await signedInPage(browser, session);

    // Act: a refused URL, then the receiver's
    await page.goto(`${baseUrl()}/dashboard/#/event-subscriptions`);
    await page.getByRole('heading', { name: 'Event subscriptions', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add subscription' }).click();
    const form = page.getByRole('form', { name: 'Add a subscription' });
    await form.getByLabel('URL').fill('https://169.254.169.254/latest');
    await form.getByRole('button', { name: 'Add subscription' }).click();
    // Assess: the API's 422 beside the field
    await expect.poll(() => form.locator('[data-param="url"]').innerText(), POLL).toContain('169.254.169.254');

    // Act
    await form.getByLabel('URL').fill(receiver.url('/dashboard'));
    await form.getByRole('button', { name: 'Add subscription' }).click();
    // Assess: the secret, once
    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await checkpoint(page, 'event-subscriptions-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('link', { name: receiver.url('/dashboard') }).click();

    // Act: a test event from the subscription's page
    await page.getByRole('heading', { name: 'Event subscription', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    // (the subscription takes every event, so its own event_subscription.created may arrive and be logged first)
    await receiver.waitFor((r) => r.some((request) => (JSON.parse(request.body) as { type?: string }).type === 'ping'), POLL.timeout);
    // Assess: the ping reached the receiver and its delivery shows as succeeded in the log (after a reload of the list)
    await expect
      .poll(async () => {
        await page.reload();
        return (await page.getByTestId('deliveries').innerText().catch(() => '')) || '';
      }, POLL)
      .toMatch(/^ping\s+succeeded/m);
    await checkpoint(page, 'event-subscription-log');

    // Act: rotate
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    // Assess: a new secret, shown once
    const rotated = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
  });
});
