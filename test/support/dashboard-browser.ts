import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, type TestSession } from './api.ts';
import { checkAccessibility } from './browser.ts';

/** Where the dashboard's browser tests leave their screenshots (docs/testing.md). */
export const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** A screenshot of the page as `dashboard-{name}.png`, and no blocking axe violation on it. */
export async function checkpoint(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: `${RESULTS_DIR}dashboard-${name}.png`, fullPage: true });
  const report = await checkAccessibility(page);
  expect(report.blocking, `${name}:\n${report.summary}`).toEqual([]);
}

/**
 * A desktop page signed in as `session`'s member (the cookie the sign-in would set), in English and
 * UTC; CSP bypassed only so that axe can be injected.
 */
export async function signedInPage(browser: Browser, session: TestSession): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB', timezoneId: 'UTC', bypassCSP: true });
  const [name = '', value = ''] = session.cookie.split(/=(.*)/s);
  await context.addCookies([{ name, value, url: baseUrl() }]);
  return context.newPage();
}
