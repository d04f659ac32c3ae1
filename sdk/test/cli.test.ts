import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassportClient } from '../src/index.ts';
import { baseUrl, newOrg, type TestOrg } from '../../test/support/api.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { writeConfig } from '../cli/config.ts';
import { errorBody, run, sdkClient, start, startStub, WINE } from './support.ts';

/**
 * The brand CLI (docs/cli.md), run as `passport …` is: its bin under node, a config directory of its
 * own (XDG_CONFIG_HOME in a temporary directory), against the local stack.
 */
let org: TestOrg;
let client: PassportClient;
let dir: string;
let env: Record<string, string>;

const passport = (args: string[], input?: string) => run([process.execPath, 'sdk/cli/passport.js', ...args], { env, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  org = await newOrg('SDK CLI Org');
  client = sdkClient(org.live);
  dir = mkdtempSync(join(tmpdir(), 'passport-cli-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), PASSPORT_API_KEY: '', PASSPORT_BASE_URL: '' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('passport login', () => {
  it('stores a key the API accepts in the user’s config directory, readable by the user alone, and refuses a revoked one', async () => {
    // Prepare
    const revoked = await org.revokedKey();
    // Act
    const refused = await passport(['login', '--base-url', baseUrl()], `${revoked}\n`);
    const login = await passport(['login', '--base-url', baseUrl()], `${org.live}\n`);
    // Assess
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*\(authentication_error, request \S+\)/);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${baseUrl()} with a live key (sk_live_`);
    expect(login.stdout).not.toContain(org.live);
    const file = join(dir, 'config', 'passport', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiKey: org.live, baseUrl: baseUrl() });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'passport')).mode & 0o777).toBe(0o700);
  });
});

describe('with the stored key', () => {
  beforeAll(async () => {
    await writeConfig({ apiKey: org.live, baseUrl: baseUrl() }, env);
  });

  it('products create, get and list: a table for people, JSON for scripts', async () => {
    // Prepare
    const gtin = uniqueGtin13();
    // Act
    const created = await passport(['products', 'create', '--name', 'Riesling CLI', '--category', 'wine', '--gtin', gtin, '--json']);
    const { productId } = JSON.parse(created.stdout) as { productId: string };
    const got = await passport(['products', 'get', productId, '--json']);
    const listed = await passport(['products', 'list', '--all']);
    const invalid = await passport(['products', 'create', '--name', 'Bad', '--category', 'wine', '--gtin', '4006381333932']);
    // Assess
    expect(created.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ productId, name: 'Riesling CLI', gtin: gtin.padStart(14, '0') });
    const [heading, ...rows] = listed.stdout.trim().split('\n');
    expect(heading).toMatch(/^ID\s+GTIN\s+NAME\s+CATEGORY\s+STATUS\s+CREATED$/);
    expect(rows.find((row) => row.startsWith(productId))).toMatch(new RegExp(`^${productId}\\s+${gtin.padStart(14, '0')}\\s+Riesling CLI\\s+wine\\s+active\\s+\\d{4}-`));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/\(validation_error, param gtin, request \S+\)/);
  });

  it('passports publish FILE, qr GTIN > file.svg, and export as one CSV file', async () => {
    // Prepare
    const gtin = uniqueGtin13();
    const { productId } = await client.products.create({ name: 'Published by CLI', category: 'wine', gtin });
    const data = join(dir, 'passport.json');
    writeFileSync(data, JSON.stringify(WINE));
    // Act
    const published = await passport(['passports', 'publish', data, '--product', productId, '--json']);
    const qr = await passport(['qr', gtin]);
    const exported = await passport(['export']);
    // Assess
    expect(JSON.parse(published.stdout)).toMatchObject({ productId, version: 1 });
    expect(qr.code).toBe(0);
    expect(qr.stdout).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
    const lines = exported.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^gtin,name,category,/);
    expect(lines.filter((line) => line.startsWith('gtin,'))).toHaveLength(1);
    expect(lines.some((line) => line.startsWith(`${gtin.padStart(14, '0')},Published by CLI,wine,`))).toBe(true);
  });

  it('import FILE shows a progress bar until the job ends, then its counts and row errors', async () => {
    // Prepare
    const file = join(dir, 'products.csv');
    writeFileSync(file, ['gtin,name,category', `${uniqueGtin13()},Imported one,textile`, `${uniqueGtin13()},Imported two,textile`, '4006381333932,Bad check digit,textile'].join('\r\n'));
    // Act
    const imported = await passport(['import', file]);
    // Assess
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/\[#{30}\] 100%  3\/3 rows  succeeded/);
    expect(imported.stdout).toMatch(/^status\s+succeeded$/m);
    expect(imported.stdout).toMatch(/^created\s+2$/m);
    expect(imported.stdout).toMatch(/^failed\s+1$/m);
    expect(imported.stdout).toMatch(/^ROW\s+COLUMN\s+MESSAGE\n4\s+gtin\s+\S/m);
  });

  it('events tail prints the events that happen while it runs', async () => {
    // Prepare
    const tail = start([process.execPath, 'sdk/cli/passport.js', 'events', 'tail', '--interval', '0.2', '--json'], env);
    try {
      await tail.waitForLine(/^Waiting for events/, 'stderr');
      // Act
      const { productId } = await client.products.create({ name: 'Tailed', category: 'wine', gtin: uniqueGtin13() });
      const line = await tail.waitForLine(new RegExp(productId));
      // Assess
      expect(JSON.parse(line)).toMatchObject({ type: 'product.created', data: { object: { productId, name: 'Tailed' } } });
    } finally {
      expect(await tail.stop()).toBe(0);
    }
  });
});

describe('what the CLI prints from a server (docs/cli.md#output)', () => {
  /** A product as a server could hold it from before the text rule (lib/domain/text.ts), or as a hostile server sends it. */
  const HOSTILE = 'Riesling\u001b[2J\u001b]0;pwned\u0007 \u202Egnilseir\u009b31m\u2066x\u2069';
  const product = {
    object: 'product',
    productId: '0192f4a6-3b8c-7d2e-9f10-4a5b6c7d8e9f',
    gtin: '04006381333931',
    name: HOSTILE,
    category: 'wine',
    brand: 'Tab\there',
    status: 'active',
    createdAt: '2026-11-01T00:00:00.000Z',
  };
  /** What a terminal would act on: C0 controls but LF, DEL and C1 controls, bidi overrides and isolates. */
  const ACTIVE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

  it('attack: names with ESC, BEL, C1 controls and U+202E are printed escaped (\\u{1b}), in tables, details, JSON and errors', async () => {
    // Prepare: a loopback server answering as a hostile or pre-fix server would
    const stub = await startStub((request) => {
      if (request.path.startsWith('/v1/products?')) return { status: 200, body: { object: 'list', data: [product], hasMore: false } };
      if (request.path === `/v1/products/${product.productId}`) return { status: 200, body: product };
      return { status: 422, body: { error: { ...errorBody('validation_error', `name is wrong: ${HOSTILE}`).error, param: 'name\u001b[1A' } } };
    });
    const stubEnv = { ...env, PASSPORT_API_KEY: `sk_live_${'a'.repeat(32)}`, PASSPORT_BASE_URL: stub.url };
    const cli = (args: string[]) => run([process.execPath, 'sdk/cli/passport.js', ...args], { env: stubEnv });

    try {
      // Act
      const details = await cli(['products', 'get', product.productId]);
      const listed = await cli(['products', 'list']);
      const json = await cli(['products', 'get', product.productId, '--json']);
      const refused = await cli(['products', 'get', '0192f4a6-3b8c-7d2e-9f10-000000000000']);

      // Assess: nothing a terminal would act on, and the escapes show what was there
      for (const output of [details.stdout, listed.stdout, json.stdout, refused.stderr]) expect(output).not.toMatch(ACTIVE);
      expect(details.code).toBe(0);
      expect(details.stdout).toContain('Riesling\\u{1b}[2J\\u{1b}]0;pwned\\u{7} \\u{202e}gnilseir\\u{9b}31m\\u{2066}x\\u{2069}');
      expect(listed.stdout).toContain('Riesling\\u{1b}[2J');
      // Assess: --json stays JSON that reads back to the exact value
      expect(json.code).toBe(0);
      expect((JSON.parse(json.stdout) as { name: string }).name).toBe(HOSTILE);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error: name is wrong: Riesling\\u{1b}[2J');
      expect(refused.stderr).toContain('param name\\u{1b}[1A');
    } finally {
      await stub.close();
    }
  });
});
