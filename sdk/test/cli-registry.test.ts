import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassportClient } from '../src/index.ts';
import { baseUrl, call, newOrg, newSession, type TestOrg } from '../../test/support/api.ts';
import { verifiedDomainId } from '../../test/support/domains.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { until } from '../../test/support/until.ts';
import { run, sdkClient, WINE } from './support.ts';

/**
 * `passport registry status|submit|files` (docs/cli.md#the-eu-registry), run as a user runs it,
 * against the local stack: registrations made on demand for a wine published before registration
 * was on; the upload files written into a directory of their own per call; the counts per status
 * and the rejected and held entries with their reasons, as a table and as JSON.
 */
let org: TestOrg;
let client: PassportClient;
let dir: string;
let env: Record<string, string>;
/** Published before registration was on; on the platform's host, so the pre-checks hold it. */
let early: { productId: string; qrCodeUrl: string };
/** On the verified brand domain: it goes in a file, and the registry rejects it. */
let branded: { productId: string; qrCodeUrl: string };

const passport = (args: string[]) => run([process.execPath, 'sdk/cli/passport.js', ...args], { env });
const wine = (name: string) => ({ name, category: 'wine' as const, gtin: uniqueGtin13() });

beforeAll(async () => {
  org = await newOrg('SDK CLI Registry');
  client = sdkClient(org.live);
  dir = mkdtempSync(join(tmpdir(), 'passport-cli-registry-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), PASSPORT_API_KEY: org.live, PASSPORT_BASE_URL: baseUrl() };
  early = await client.products.create(wine('CLI wine before registration'));
  await client.passports.publish({ productId: early.productId, data: WINE });
  await client.registry.updateSettings({ enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '22042110' });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('passport registry', () => {
  it('submit --product creates the missing registration of a wine published before registration was on; --all finds none missing', async () => {
    // Act
    const named = await passport(['registry', 'submit', '--product', early.productId, '--product', early.productId, '--json']);
    const all = await passport(['registry', 'submit', '--all']);
    const neither = await passport(['registry', 'submit']);
    // Assess
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toEqual({ created: 1, existing: 0, calls: 1 });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^created\s+0$/m);
    expect(all.stdout).toMatch(/^existing\s+1$/m);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--product PRODUCT_ID ... | --all');
  });

  it('files writes the upload file into OUTPUT/{correlationId}/ and lists the entry held with its reasons', async () => {
    // Prepare: a wine on the verified brand domain, its backup copy written
    const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session: await newSession(org.orgId), body: { default: true } });
    expect(domain.status).toBe(200);
    branded = await client.products.create(wine('CLI branded Riesling'));
    await client.passports.publish({ productId: branded.productId, data: WINE });
    const { backupUrl } = await client.passports.get(branded.productId);
    await until('the backup copy', async () => ((await fetch(backupUrl ?? '')).status === 200 ? true : undefined), 60_000);
    const output = join(dir, 'files');
    // Act
    const built = await passport(['registry', 'files', '--format', 'xml', '--output', output]);
    const again = await passport(['registry', 'files', '--output', output, '--json']);
    // Assess
    expect(built.code, built.stderr).toBe(0);
    const [set] = readdirSync(output);
    expect(set).toMatch(/^rfs_[0-9a-z]{20}$/);
    expect(readdirSync(join(output, set ?? ''))).toEqual(['registry-001-of-001.xml']);
    expect(readFileSync(join(output, set ?? '', 'registry-001-of-001.xml'), 'utf8')).toContain(`<upi>${branded.qrCodeUrl}</upi>`);
    expect(built.stdout).toContain(`1 entries in 1 files, marked submitted (${set})`);
    expect(built.stdout).toContain('Held back (1), in no file:');
    expect(built.stdout.split('\n').find((line) => line.includes(early.qrCodeUrl))).toContain('upi_not_https: ');
    // Nothing left to send: no file, no directory, the held entry listed again.
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ correlationId: null, files: [], submitted: 0, pendingChecks: [{ upi: early.qrCodeUrl }], more: false });
    expect(readdirSync(output)).toEqual([set]);
  });

  it('status counts each status and lists the rejected and held entries with their reasons; --json for scripts', async () => {
    // Prepare: the registry's result file rejects the branded wine
    const result = await client.registry.uploadResults(`upi,status,errors\n${branded.qrCodeUrl},rejected,Operator not verified\n`);
    expect(result.rejected).toBe(1);
    // Act
    const table = await passport(['registry', 'status']);
    const json = await passport(['registry', 'status', '--json']);
    const one = await passport(['registry', 'status', '--product', branded.productId, '--json']);
    // Assess
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^STATUS\s+COUNT$/m);
    expect(table.stdout).toMatch(/^pending_checks\s+1$/m);
    expect(table.stdout).toMatch(/^rejected\s+1$/m);
    expect(table.stdout).toMatch(/^registered\s+0$/m);
    expect(table.stdout).toContain('Rejected or held (2)');
    expect(table.stdout).toMatch(/^rejected\s+reg_\S+\s+\S+\s+registry_rejected: Operator not verified$/m);
    expect(table.stdout.split('\n').find((line) => line.includes(early.qrCodeUrl))).toMatch(/^pending_checks\s+reg_\S+\s+\S+\s+.*upi_not_https: /);
    const parsed = JSON.parse(json.stdout) as { counts: Record<string, number>; total: number; attention: { upi: string; status: string; reasons: { code: string }[] }[] };
    expect(parsed.counts).toEqual({ pending_checks: 1, ready: 0, submitted: 0, registered: 0, rejected: 1, deactivated: 0 });
    expect(parsed.total).toBe(2);
    expect(parsed.attention.map((a) => [a.upi, a.status]).sort()).toEqual([[branded.qrCodeUrl, 'rejected'], [early.qrCodeUrl, 'pending_checks']].sort());
    expect(JSON.parse(one.stdout)).toMatchObject({ total: 1, attention: [{ upi: branded.qrCodeUrl, status: 'rejected' }] });
  });
});
