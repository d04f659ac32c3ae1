import { describe, it } from 'vitest';
import { admin } from '../support/admin.ts';
import { call, expectError } from '../support/api.ts';

// Each case starts the CLI (a tsx process) several times: seconds each on a busy machine, so a generous bound.
// The cases have organizations of their own, so they run at the same time, and so do the CLI runs within a case that do not depend on each other.
describe('the admin CLI', { timeout: 120_000, concurrent: true }, () => {
  it('creates an organization whose live and test keys work, each in its own environment', async ({ expect }) => {
    const created = await admin(['org', 'create', '--name', 'CLI Winery', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const org = JSON.parse(created.stdout);
    expect(org.orgId).toMatch(/^org_/);
    expect(org.keys.live.key).toMatch(/^sk_live_/);
    expect(org.keys.test.key).toMatch(/^sk_test_/);
    const made = await call('POST', '/v1/products', { key: org.keys.test.key, body: { name: 'N', category: 'wine', gtin: '96385074' } });
    expect(made.status).toBe(201);
    expect((await call('GET', '/v1/products', { key: org.keys.live.key })).body.pagination.total).toBe(0);
  });

  it('creates a key with exactly the scopes asked for, and revokes it', async ({ expect }) => {
    const org = JSON.parse((await admin(['org', 'create', '--name', 'Scoped', '--json'])).stdout);
    const [madeOut, readerOut] = await Promise.all([
      admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'products:read', '--json']),
      admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'products:read', '--json']),
    ]);
    const made = JSON.parse(madeOut.stdout);
    expect(made.scopes).toEqual(['products:read']);
    const revoked = await admin(['key', 'revoke', '--org', org.orgId, '--key', made.keyId, '--json']);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ keyId: made.keyId, revoked: true });
    expectError(await call('GET', '/v1/products', { key: made.key }), 401, 'authentication_error');

    // A second key of the same scopes, made beside the first, is untouched by its revocation.
    const reader = JSON.parse(readerOut.stdout);
    expect((await call('GET', '/v1/products', { key: reader.key })).status).toBe(200);
    expectError(await call('POST', '/v1/products', { key: reader.key, body: { name: 'N', category: 'wine', gtin: '96385074' } }), 403, 'permission_error');
  });

  it('refuses session-only and unknown scopes, and says so when no stack runs on PORT', async ({ expect }) => {
    const [created, nowhere] = await Promise.all([admin(['org', 'create', '--name', 'Refused', '--json']), admin(['org', 'create', '--name', 'X'], { port: 1 })]);
    const org = JSON.parse(created.stdout);
    const manage = await admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'api_keys:manage']);
    expect(manage.code).toBe(2);
    expect(manage.stderr).toContain('session-only');
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('No local stack is running on port 1');
  });
});
