import { describe, expect, it } from 'vitest';
import { admin } from '../support/admin.ts';
import { call, expectError } from '../support/api.ts';

// Each case starts the CLI (a tsx process) several times: seconds each on a busy machine, so a generous bound.
describe('the admin CLI', { timeout: 120_000 }, () => {
  it('creates an organization whose live and test keys work, each in its own environment', async () => {
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

  it('creates a key with exactly the scopes asked for, and revokes it', async () => {
    const org = JSON.parse((await admin(['org', 'create', '--name', 'Scoped', '--json'])).stdout);
    const made = JSON.parse(
      (await admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'products:read', '--json'])).stdout,
    );
    expect(made.scopes).toEqual(['products:read']);
    const revoked = await admin(['key', 'revoke', '--org', org.orgId, '--key', made.keyId, '--json']);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ keyId: made.keyId, revoked: true });
    expectError(await call('GET', '/v1/products', { key: made.key }), 401, 'authentication_error');

    const reader = JSON.parse(
      (await admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'products:read', '--json'])).stdout,
    );
    expect((await call('GET', '/v1/products', { key: reader.key })).status).toBe(200);
    expectError(await call('POST', '/v1/products', { key: reader.key, body: { name: 'N', category: 'wine', gtin: '96385074' } }), 403, 'permission_error');
  });

  it('refuses session-only and unknown scopes, and says so when no stack runs on PORT', async () => {
    const org = JSON.parse((await admin(['org', 'create', '--name', 'Refused', '--json'])).stdout);
    const manage = await admin(['key', 'create', '--org', org.orgId, '--env', 'live', '--scopes', 'api_keys:manage']);
    expect(manage.code).toBe(2);
    expect(manage.stderr).toContain('session-only');
    const nowhere = await admin(['org', 'create', '--name', 'X'], 1);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('No local stack is running on port 1');
  });
});
