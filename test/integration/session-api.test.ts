import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_RATE_LIMIT_PER_MINUTE } from '../../lib/auth/session-rate-limit.ts';
import { call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { createProduct, publish } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

/** The dashboard calls the API-key routes (products, passports, analytics) with its session cookie. */
let org: TestOrg;
let session: TestSession;

beforeAll(async () => {
  org = await newOrg('Session API Winery', { sandbox: true });
  session = await newSession(org.orgId);
});

describe('API-key routes with the dashboard session', () => {
  it('lists, creates and reads products with the session, in its organization and environment', async () => {
    // Prepare
    const byKey = await createProduct(org.live, { name: 'Made with a key' });
    // Act
    const listed = await call('GET', '/v1/products', { session });
    const created = await call('POST', '/v1/products', { session, body: { name: 'Made in the dashboard', category: 'wine', gtin: uniqueGtin13() } });
    const readByKey = await call('GET', `/v1/products/${created.body.productId}`, { key: org.live });
    // Assess
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((p: { productId: string }) => p.productId)).toContain(byKey.productId);
    expect(created.status, created.text).toBe(201);
    expect(created.body.qrCodeUrl).toContain(`/${org.orgId}/live/01/`);
    expect(readByKey.body.name).toBe('Made in the dashboard');
    // A session is limited per user, not by the key's limit (docs/security.md).
    expect(listed.headers.get('x-ratelimit-limit')).toBe(String(SESSION_RATE_LIMIT_PER_MINUTE));
  });

  it('publishes and reads passports and analytics with the session', async () => {
    // Prepare
    const product = await createProduct(org.live);
    // Act
    const published = await call('POST', '/v1/passports', { session, body: { productId: product.productId, data: { productType: 'wine', vintage: 2022, nutrition: { energyKj: 318, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 9.5 } } } });
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { session });
    const analytics = await call('GET', `/v1/analytics/product/${product.productId}`, { session });
    // Assess
    expect(published.status, published.text).toBe(201);
    expect(current.body).toMatchObject({ version: 1, data: { vintage: 2022 } });
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.totalScans).toBe(0);
  });

  it('refuses a state-changing cookie call without the CSRF proof (403), and changes nothing', async () => {
    // Prepare
    const gtin = uniqueGtin13();
    const body = { name: 'Forged', category: 'wine', gtin };
    // Act
    const noToken = await call('POST', '/v1/products', { session, body, headers: { 'x-csrf-token': '' } });
    const wrongToken = await call('POST', '/v1/products', { session, body, headers: { 'x-csrf-token': 'x'.repeat(43) } });
    const foreignOrigin = await call('POST', '/v1/products', { session, body, headers: { origin: 'https://evil.example' } });
    const after = await call('POST', '/v1/products', { key: org.live, body });
    // Assess
    expectError(noToken, 403, 'permission_error');
    expectError(wrongToken, 403, 'permission_error');
    expectError(foreignOrigin, 403, 'permission_error');
    expect(after.status, after.text).toBe(201); // the GTIN was never claimed
  });

  it('follows the session to the test environment', async () => {
    // Prepare
    const switched = await call('POST', '/v1/auth/session', { session, body: { environment: 'test' } });
    const cookie = (switched.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const testSession = { ...session, cookie };
    // Act
    const listed = await call('GET', '/v1/products', { session: testSession });
    // Assess
    expect(switched.status).toBe(200);
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0); // the sandbox
    expect(listed.body.data.every((p: { environment: string }) => p.environment === 'test')).toBe(true);
  });

  it('401s a tampered or ended session, and without either credential answers as before', async () => {
    // Prepare
    const ended = await newSession(org.orgId);
    await call('POST', '/v1/auth/logout', { session: ended });
    // Act
    const afterLogout = await call('GET', '/v1/products', { session: ended });
    const garbage = await call('GET', '/v1/products', { headers: { cookie: 'passport_session=not-a-session' } });
    const nothing = await call('GET', '/v1/products');
    // Assess
    expectError(afterLogout, 401, 'authentication_error');
    expectError(garbage, 401, 'authentication_error');
    expect(expectError(nothing, 401, 'authentication_error').message).toBe('No API key was provided.');
  });
});

describe('API keys are unchanged by the session', () => {
  it('authenticates by the Bearer key whenever there is one, with its rate limit, scopes and tenant', async () => {
    // Prepare
    const other = await newOrg('Other Winery');
    const readOnly = await other.keyWith(['products:read']);
    const mine = await createProduct(org.live);
    // Act: a key of another organization next to this organization's session cookie
    const listed = await call('GET', '/v1/products', { key: other.live, headers: { cookie: session.cookie } });
    const write = await call('POST', '/v1/products', {
      key: readOnly,
      headers: { cookie: session.cookie, origin: 'http://localhost', 'x-csrf-token': session.csrfToken },
      body: { name: 'N', category: 'wine', gtin: uniqueGtin13() },
    });
    const badKey = await call('GET', '/v1/products', { key: 'sk_live_not_a_real_key', headers: { cookie: session.cookie } });
    // Assess
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(listed.body.data.map((p: { productId: string }) => p.productId)).not.toContain(mine.productId);
    expectError(write, 403, 'permission_error');
    expectError(badKey, 401, 'authentication_error');
  });
});
