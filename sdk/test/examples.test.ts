import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassportClient } from '../src/index.ts';
import { baseUrl, newOrg, type TestOrg } from '../../test/support/api.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { startReceiver } from '../../test/support/receiver.ts';
import { REPO, run, sdkClient, start, WINE } from './support.ts';

/**
 * The examples of sdk/examples/ (docs/sdk.md#examples), each run as a user runs it (tsx, the key and
 * the API's origin in the environment) against the local stack.
 */
const TSX = [process.execPath, '--import', 'tsx'];
/** An organization's DID on the local stack's resolver host (docs/credentials.md). */
const issuerOf = (o: TestOrg) => `did:web:${encodeURIComponent(new URL(baseUrl()).host)}:orgs:${o.orgId}`;
let org: TestOrg;
let client: PassportClient;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  org = await newOrg('SDK Examples Org');
  client = sdkClient(org.live);
  dir = mkdtempSync(join(tmpdir(), 'passport-sdk-examples-'));
  env = { PASSPORT_API_KEY: org.live, PASSPORT_BASE_URL: baseUrl() };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sdk/examples', () => {
  it('pim-sync.ts creates the products and publishes their passports, renames what changed, and leaves the rest alone on a second run', async () => {
    // Prepare
    const records = [
      { gtin: uniqueGtin13(), name: 'Château PIM 2021', category: 'wine', brand: 'Château PIM', passport: WINE },
      { gtin: uniqueGtin13(), name: 'Linen shirt', category: 'textile', passport: { productType: 'textile', origin: { country: 'PT' } } },
    ];
    const file = join(dir, 'pim-export.json');
    writeFileSync(file, JSON.stringify(records));
    // Act
    const first = await run([...TSX, 'sdk/examples/pim-sync.ts', file], { env });
    writeFileSync(file, JSON.stringify([{ ...records[0], name: 'Château PIM 2021 (magnum)' }, records[1]]));
    const second = await run([...TSX, 'sdk/examples/pim-sync.ts', file], { env });
    // Assess
    expect(first.stderr).toBe('');
    expect(first.stdout.trim().split('\n').at(-1)).toBe('2 created, 0 renamed, 2 published, 0 unchanged');
    expect(second.stdout.trim().split('\n').at(-1)).toBe('0 created, 1 renamed, 0 published, 2 unchanged');
    const [wine] = await client.products.list({ q: records[0]!.gtin }).toArray();
    expect(wine).toMatchObject({ name: 'Château PIM 2021 (magnum)', brand: 'Château PIM' });
    expect((await client.passports.get(wine!.productId)).version).toBe(1);
  });

  it('webhook-receiver.ts prints each verified event of real deliveries once, and refuses an unsigned request', async () => {
    // Prepare: a subscription made first (its secret is the receiver's), then pointed at the receiver
    const placeholder = await startReceiver();
    const subscription = await client.eventSubscriptions.create({ url: placeholder.url(), events: ['product.created'] });
    const receiver = start([...TSX, 'sdk/examples/webhook-receiver.ts'], { PASSPORT_WEBHOOK_SECRET: subscription.secret, PORT: '0' });
    try {
      const listening = await receiver.waitForLine(/^listening on /);
      const url = listening.slice('listening on '.length);
      await client.eventSubscriptions.update(subscription.id, { url });
      // Act
      const { productId } = await client.products.create({ name: 'Received', category: 'wine', gtin: uniqueGtin13() });
      const line = await receiver.waitForLine(new RegExp(productId));
      const unsigned = await fetch(url, { method: 'POST', body: '{"type":"product.created"}', headers: { 'content-type': 'application/json' } });
      await client.eventSubscriptions.test(subscription.id);
      await receiver.waitForLine(/"type":"ping"/);
      // Assess
      expect(JSON.parse(line)).toMatchObject({ type: 'product.created', object: { productId, name: 'Received' } });
      expect(unsigned.status).toBe(400);
      expect(receiver.output.stderr).toContain('refused a delivery');
      expect(receiver.output.stdout.split('\n').filter((l) => l.includes(productId))).toHaveLength(1);
    } finally {
      await receiver.stop();
      await placeholder.close();
    }
  });

  it('the README’s five lines run as written, with a key and the stack’s origin put in', async () => {
    // Prepare
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const snippet = /```ts\n(import \{ PassportClient \} from '@product-passport\/sdk';[\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const file = join(REPO, 'sdk/examples', `.readme-${process.pid}.ts`);
    writeFileSync(file, snippet.replace("'sk_test_…'", JSON.stringify(org.test)).replace("'http://localhost:3000'", JSON.stringify(baseUrl())));
    // Act
    const result = await run([...TSX, file]).finally(() => rmSync(file, { force: true }));
    // Assess
    expect(snippet.trim().split('\n')).toHaveLength(5);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('05601234000016 Linen shirt');
  });

  it('verify-credential.ts verifies a published credential from its public URL: the issuer, the version and its status', async () => {
    // Prepare
    const { productId } = await client.products.create({ name: 'Verified', category: 'wine', gtin: uniqueGtin13() });
    const { passportId } = await client.passports.publish({ productId, data: WINE });
    const jwt = await client.passports.credential(productId, passportId);
    const credential = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { id: string };
    // Act
    const verified = await run([...TSX, 'sdk/examples/verify-credential.ts', credential.id, '--issuer', issuerOf(org), '--allow-loopback-http']);
    // Assess
    expect(credential.id).toMatch(/\/credential\.jwt$/);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('verified: Verified (GTIN');
    expect(verified.stdout).toContain(`issuer:   did:web:${encodeURIComponent(new URL(baseUrl()).host)}:orgs:${org.orgId}`);
    expect(verified.stdout).toContain('status:   not revoked');
  });

  it('attack: verify-credential.ts refuses a valid credential of another organization than the one expected, and one run without an expected issuer', async () => {
    // Prepare: a neighbour's credential, validly signed by the neighbour (every organization shares the resolver host).
    const neighbour = await newOrg('SDK Examples Neighbour');
    const theirs = sdkClient(neighbour.live);
    const { productId } = await theirs.products.create({ name: 'Not yours', category: 'wine', gtin: uniqueGtin13() });
    const { passportId } = await theirs.passports.publish({ productId, data: WINE });
    const file = join(dir, 'neighbour.jwt');
    writeFileSync(file, await theirs.passports.credential(productId, passportId));
    // Act
    const refused = await run([...TSX, 'sdk/examples/verify-credential.ts', file, '--issuer', issuerOf(org), '--allow-loopback-http']);
    const unexpected = await run([...TSX, 'sdk/examples/verify-credential.ts', file, '--allow-loopback-http']);
    const theirOwn = await run([...TSX, 'sdk/examples/verify-credential.ts', file, '--issuer', issuerOf(neighbour), '--allow-loopback-http']);
    // Assess: not verified for us (exit 1, nothing of it printed as verified); verified for the neighbour it is from.
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('verified:');
    expect(refused.stderr).toContain(`not verified: issued by ${issuerOf(neighbour)}, not by ${issuerOf(org)}`);
    expect(unexpected.code).toBe(1);
    expect(unexpected.stdout).not.toContain('verified:');
    expect(unexpected.stderr).toContain('--issuer');
    expect(theirOwn.code).toBe(0);
    expect(theirOwn.stdout).toContain('verified: Not yours');
  });
});
