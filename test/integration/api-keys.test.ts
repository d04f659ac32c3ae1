import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';

const createKey = (session: TestSession, body: unknown) => call('POST', '/v1/auth/api-keys', { session, body });

describe('API key management with a dashboard session', () => {
  let org: TestOrg;
  let session: TestSession;
  beforeAll(async () => {
    org = await newOrg('Keys Winery');
    session = await newSession(org.orgId);
  });

  it('creates a key that is shown once, in the session environment by default or the one asked for', async () => {
    // Act
    const live = await createKey(session, { name: 'Server', scopes: ['products:read', 'products:write', 'products:read'] });
    const test = await createKey(session, { name: 'Sandbox', scopes: ['analytics:read'], environment: 'test' });
    // Assess
    expect(live.status).toBe(201);
    expect(Object.keys(live.body).sort()).toEqual(['createdAt', 'environment', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(live.body).toMatchObject({ name: 'Server', scopes: ['products:read', 'products:write'], environment: 'live', prefix: 'sk_live_' });
    expect(live.body.id).toMatch(/^key_[0-9a-z]{20}$/);
    expect(live.body.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(test.body).toMatchObject({ environment: 'test', prefix: 'sk_test_' });
    expect(test.body.key).toMatch(/^sk_test_/);
    const made = await call('POST', '/v1/products', { key: live.body.key, body: { name: 'Made with a dashboard key', category: 'wine', gtin: '96385074' } });
    expect(made.status).toBe(201);
  });

  it('lists active keys masked, with lastUsedAt once the key is used, and never the key value', async () => {
    // Prepare
    const created = await createKey(session, { name: 'Listed', scopes: ['products:read'] });
    const before = await call('GET', '/v1/auth/api-keys', { session });
    // Act
    await call('GET', '/v1/products', { key: created.body.key });
    const after = await call('GET', '/v1/auth/api-keys', { session });
    const testOnly = await call('GET', '/v1/auth/api-keys?environment=test', { session });
    // Assess
    const listed = before.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toEqual({
      id: created.body.id,
      name: 'Listed',
      scopes: ['products:read'],
      environment: 'live',
      prefix: 'sk_live_',
      last4: created.body.key.slice(-4),
      createdAt: created.body.createdAt,
      lastUsedAt: null,
      rateLimitPerMinute: 1000,
    });
    expect(before.text).not.toContain(created.body.key);
    expect(before.text).not.toMatch(/"hash"/);
    const used = after.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.createdAt));
    expect(testOnly.body.data.every((k: { environment: string }) => k.environment === 'test')).toBe(true);
    expect(testOnly.body.data.length).toBeGreaterThan(0);
  });

  it('rotates without downtime: B with A\'s scopes, both work, A revoked fails within 5 seconds while B keeps working', async () => {
    // Prepare
    const scopes = ['products:read', 'passports:read'];
    const a = await createKey(session, { name: 'A', scopes });
    const b = await createKey(session, { name: 'B', scopes: a.body.scopes });
    expect((await call('GET', '/v1/products', { key: a.body.key })).status).toBe(200);
    expect((await call('GET', '/v1/products', { key: b.body.key })).status).toBe(200);
    // Act: poll both keys (bounded) until A is refused
    const revoked = await call('DELETE', `/v1/auth/api-keys/${a.body.id}`, { session });
    const revokedAt = Date.now();
    let aStatus = 200;
    let lastAcceptedAt = revokedAt;
    const bStatuses: number[] = [];
    while (aStatus !== 401 && Date.now() - revokedAt < 30_000) {
      const sentAt = Date.now();
      const [ra, rb] = await Promise.all([call('GET', '/v1/products', { key: a.body.key }), call('GET', '/v1/products', { key: b.body.key })]);
      aStatus = ra.status;
      if (aStatus === 200) lastAcceptedAt = sentAt;
      bStatuses.push(rb.status);
      if (aStatus !== 401) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Assess: no request sent 5 s or more after the revocation was accepted
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: a.body.id, revoked: true, revokedAt: expect.any(String) });
    expect(aStatus).toBe(401);
    expect(lastAcceptedAt - revokedAt, 'key A still worked this many ms after revocation').toBeLessThan(5_000);
    expectError(await call('GET', '/v1/products', { key: a.body.key }), 401, 'authentication_error');
    expect(new Set(bStatuses)).toEqual(new Set([200]));
    expect((await call('GET', '/v1/products', { key: b.body.key })).status).toBe(200);
    const listed = (await call('GET', '/v1/auth/api-keys', { session })).body.data.map((k: { id: string }) => k.id);
    expect(listed).toContain(b.body.id);
    expect(listed).not.toContain(a.body.id);
    const again = await call('DELETE', `/v1/auth/api-keys/${a.body.id}`, { session });
    expect(again.body).toEqual(revoked.body);
  });

  it('answers 404 for another organization\'s key id and for ids that cannot exist', async () => {
    // Prepare
    const other = await newOrg('Other Keys Winery');
    const otherSession = await newSession(other.orgId);
    const theirs = await createKey(otherSession, { name: 'Theirs', scopes: ['products:read'] });
    // Act
    const foreign = await call('DELETE', `/v1/auth/api-keys/${theirs.body.id}`, { session });
    const unknown = await call('DELETE', `/v1/auth/api-keys/key_${'0'.repeat(20)}`, { session });
    const malformed = await call('DELETE', '/v1/auth/api-keys/not-a-key', { session });
    // Assess
    expectError(foreign, 404, 'not_found', 'keyId');
    expectError(unknown, 404, 'not_found', 'keyId');
    expectError(malformed, 404, 'not_found', 'keyId');
    expect((await call('GET', '/v1/products', { key: theirs.body.key })).status).toBe(200);
    expect((await call('GET', '/v1/auth/api-keys', { session })).body.data.map((k: { id: string }) => k.id)).not.toContain(theirs.body.id);
  });

  it('answers 422 for invalid scopes (api_keys:manage included), names and environments', async () => {
    // Act
    const manage = await createKey(session, { name: 'Escalate', scopes: ['products:read', 'api_keys:manage'] });
    const unknown = await createKey(session, { name: 'Typo', scopes: ['products:reed'] });
    const empty = await createKey(session, { name: 'Nothing', scopes: [] });
    const notArray = await createKey(session, { name: 'String', scopes: 'products:read' });
    const noName = await createKey(session, { scopes: ['products:read'] });
    const badEnv = await createKey(session, { name: 'Env', scopes: ['products:read'], environment: 'prod' });
    const extra = await createKey(session, { name: 'Extra', scopes: ['products:read'], admin: true });
    // Assess
    expect(expectError(manage, 422, 'validation_error', 'scopes').message).toMatch(/session-only/);
    expect(expectError(unknown, 422, 'validation_error', 'scopes').message).toContain('products:reed');
    expectError(empty, 422, 'validation_error', 'scopes');
    expectError(notArray, 422, 'validation_error', 'scopes');
    expectError(noName, 422, 'validation_error', 'name');
    expectError(badEnv, 422, 'validation_error', 'environment');
    expectError(extra, 422, 'validation_error', 'admin');
  });
});
