import { existsSync } from 'node:fs';
import axe from 'axe-core';
import type { AxeResults, ImpactValue, Result } from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Headless Chromium for browser tests: Debian's `chromium` package, driven by playwright-core
 * (no browser download), with axe-core for the automated accessibility check.
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A phone: the narrowest common Android width. */
export const PHONE_VIEWPORT = { width: 360, height: 740 } as const;

export const CHROMIUM_MISSING =
  `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's chromium package ` +
  '(`sudo apt-get install chromium`) to run the browser tests.';

/**
 * What a browser test does on this machine: `run` when Chromium is installed; without it,
 * `fail` in CI (process.env.CI set: a missing browser must not pass silently) and `skip`
 * elsewhere.
 */
export function browserTestMode(
  executablePath: string = CHROMIUM_PATH,
  env: NodeJS.ProcessEnv = process.env,
): 'run' | 'fail' | 'skip' {
  if (existsSync(executablePath)) return 'run';
  return env.CI ? 'fail' : 'skip';
}

/** Launches headless Chromium; close it in afterAll. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

const BLOCKING: readonly ImpactValue[] = ['serious', 'critical'];

export interface AccessibilityReport {
  /** Every violation axe found, whatever its impact. */
  violations: Result[];
  /** The violations with impact serious or critical: a page must have none. */
  blocking: Result[];
  /** One line per violation (impact, rule, failing targets), for assertion messages and logs. */
  summary: string;
}

/**
 * Runs axe-core (WCAG 2 A/AA rules and best practices) on the page. The script is injected
 * inline, so the page's context needs `bypassCSP: true` when the page sends a CSP.
 */
export async function checkAccessibility(page: Page): Promise<AccessibilityReport> {
  await page.addScriptTag({ content: axe.source });
  // A string, not a function: the test runner's transform must not rewrite the reference to `axe`.
  const results = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResults;
  const violations = results.violations;
  const blocking = violations.filter((violation) => violation.impact && BLOCKING.includes(violation.impact));
  const summary = violations
    .map(
      (violation) =>
        `${violation.impact ?? 'unknown'} ${violation.id}: ${violation.help} ` +
        `(${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    )
    .join('\n');
  return { violations, blocking, summary };
}

/** Records the URL of every request the page makes, from now on. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}
