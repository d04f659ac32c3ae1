import { randomBytes } from 'node:crypto';
import { EncryptJWT } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { seal } from '../../lib/auth/session.ts';
import { addUserToOrganization } from '../../lib/services/users.ts';
import { getOrganization } from '../../lib/data/organizations.ts';
import { LOGIN_TEST_ACCOUNT } from '../support/accounts.ts';
import { admin } from '../support/admin.ts';
import { baseUrl, call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';
import { LoginBrowser } from '../support/login-browser.ts';

const SESSION_COOKIE = 'passport_session';

/** A session cookie value with one character of its ciphertext changed. */
function tamper(cookie: string): string {
  const [name, value = ''] = cookie.split('=');
  const parts = value.split('.');
  const ciphertext = parts[3] ?? '';
  const middle = Math.floor(ciphertext.length / 2);
  parts[3] = `${ciphertext.slice(0, middle)}${ciphertext[middle] === 'A' ? 'B' : 'A'}${ciphertext.slice(middle + 1)}`;
  return `${name}=${parts.join('.')}`;
}

describe('dashboard sign-in through the development identity provider', () => {
  it('signs in with the login form, then creates, lists and revokes keys with that session', async () => {
    // Prepare: the login test's own account is a member of a fresh organization
    const org = await newOrg('Login Winery');
    const organization = await getOrganization(org.orgId);
    await addUserToOrganization(organization!, LOGIN_TEST_ACCOUNT.email);
    const browser = new LoginBrowser();

    // Act: the login redirect, the provider's form, a wrong then the right password, the callback
    const toForm = await browser.navigate(`${baseUrl()}/v1/auth/login`);
    const formHtml = await toForm.response.text();
    const wrong = await browser.submitForm(toForm.url, formHtml, { email: LOGIN_TEST_ACCOUNT.email, password: 'not-the-password' });
    const wrongHtml = await wrong.response.text();
    const signedIn = await browser.submitForm(wrong.url, wrongHtml, { email: LOGIN_TEST_ACCOUNT.email, password: LOGIN_TEST_ACCOUNT.password });

    // Assess: a PKCE authorization request to the issuer, a form, a refusal, then a session
    const authorize = new URL(browser.visited.find((u) => u.startsWith(`${inject('stack').oidcIssuer}/auth?`)) ?? 'http://localhost/none');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(toForm.response.status).toBe(200);
    expect(formHtml).toMatch(/<input[^>]+name="email"/);
    expect(formHtml).toMatch(/<input[^>]+name="password"[^>]+type="password"|type="password"[^>]+name="password"/);
    expect(wrong.response.status).toBe(401);
    expect(wrongHtml).toContain('Wrong email or password');
    expect(signedIn.url).toBe(`${baseUrl()}/v1/auth/session`);
    expect(signedIn.response.status).toBe(200);
    const view = (await signedIn.response.json()) as { user: { email: string }; organization: { id: string }; environment: string; csrfToken: string };
    expect(view).toMatchObject({ user: { email: LOGIN_TEST_ACCOUNT.email }, organization: { id: org.orgId }, environment: 'live' });
    const sessionCookie = browser.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(sessionCookie).toMatch(/; HttpOnly/);
    expect(sessionCookie).toMatch(/; SameSite=Lax/);
    expect(sessionCookie).toMatch(/; Max-Age=\d+/);
    expect(sessionCookie).not.toMatch(/; Secure/); // plain HTTP on localhost only
    expect(browser.cookies.has('passport_login')).toBe(false);

    // Act + Assess: key management with the browser's session
    const session: TestSession = {
      cookie: `${SESSION_COOKIE}=${browser.cookies.get(SESSION_COOKIE)}`,
      csrfToken: view.csrfToken,
      userId: '',
      email: LOGIN_TEST_ACCOUNT.email,
    };
    const created = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'CI', scopes: ['products:read'] } });
    expect(created.status).toBe(201);
    expect((await call('GET', '/v1/products', { key: created.body.key })).status).toBe(200);
    const listed = await call('GET', '/v1/auth/api-keys', { session });
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
    const revoked = await call('DELETE', `/v1/auth/api-keys/${created.body.id}`, { session });
    expect(revoked.body).toMatchObject({ id: created.body.id, revoked: true });
    const after = await call('GET', '/v1/auth/api-keys', { session });
    expect(after.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
  });

  it('refuses a callback without a sign-in in progress, and a returnTo off the allowed origins', async () => {
    // Act
    const callback = await call('GET', '/v1/auth/callback?code=abc&state=def');
    const offsite = await call('GET', `/v1/auth/login?returnTo=${encodeURIComponent('//evil.example/x')}`);
    // Assess
    expectError(callback, 401, 'authentication_error');
    expectError(offsite, 422, 'validation_error', 'returnTo');
  });

  it('attack: open redirect after sign-in through a tab in returnTo (/%09/evil.example/x) is refused with 422', async () => {
    // Act: the reported bypass, its relatives, and a path here that must still work
    const refused = await Promise.all(
      ['/%09/evil.example/x', '%5C%2Fevil.example', '/%5Cevil.example', 'https:evil.example', '/%E2%80%AE/evil.example'].map((q) =>
        call('GET', `/v1/auth/login?returnTo=${q}`),
      ),
    );
    const allowed = await fetch(`${baseUrl()}/v1/auth/login?returnTo=${encodeURIComponent('/dashboard/')}`, { redirect: 'manual' });
    // Assess: 422 naming returnTo, no redirect anywhere; the path here starts a sign-in
    for (const response of refused) {
      expectError(response, 422, 'validation_error', 'returnTo');
      expect(response.headers.get('location')).toBeNull();
    }
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get('location')).toMatch(new RegExp(`^${inject('stack').oidcIssuer}/auth\\?`));
  });
});

describe('the session cookie', () => {
  let org: TestOrg;
  let session: TestSession;
  beforeAll(async () => {
    org = await newOrg('Session Winery');
    session = await newSession(org.orgId);
  });

  it('describes the user, their organizations and the current organization and environment', async () => {
    // Act
    const response = await call('GET', '/v1/auth/session', { session });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      user: { id: session.userId, email: session.email },
      organizations: [{ id: org.orgId, name: 'Session Winery' }],
      organization: { id: org.orgId, name: 'Session Winery' },
      environment: 'live',
      csrfToken: session.csrfToken,
    });
  });

  it('answers 401 without any credentials, and 403 to an API key alone', async () => {
    // Act
    const none = await call('GET', '/v1/auth/api-keys');
    const keyOnly = await call('GET', '/v1/auth/api-keys', { key: org.live });
    const keyOnlyCreate = await call('POST', '/v1/auth/api-keys', { key: org.live, body: { name: 'x', scopes: ['products:read'] } });
    // Assess
    expectError(none, 401, 'authentication_error');
    expect(expectError(keyOnly, 403, 'permission_error').message).toMatch(/dashboard session/);
    expectError(keyOnlyCreate, 403, 'permission_error');
  });

  it('answers 401 to a tampered, an expired, a foreign-key or a login cookie', async () => {
    // Prepare
    const now = Math.floor(Date.now() / 1000);
    const claims = { sid: 'x', uid: session.userId, email: session.email, org: org.orgId, env: 'live', csrf: 'c' };
    const expired = await seal('session', claims, now - 60);
    const otherKey = await new EncryptJWT(claims)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuer('product-passport')
      .setAudience('product-passport:session')
      .setExpirationTime(now + 600)
      .encrypt(randomBytes(32));
    const loginCookie = await seal('login', { state: 's', nonce: 'n', verifier: 'v', returnTo: '/' }, now + 600);
    // Act
    const responses = await Promise.all(
      [tamper(session.cookie), `${SESSION_COOKIE}=${expired}`, `${SESSION_COOKIE}=${otherKey}`, `${SESSION_COOKIE}=${loginCookie}`, `${SESSION_COOKIE}=garbage`].map(
        (cookie) => call('GET', '/v1/auth/session', { headers: { cookie } }),
      ),
    );
    // Assess
    for (const response of responses) {
      expectError(response, 401, 'authentication_error');
      expect(response.headers.get('set-cookie')).toMatch(/^passport_session=; .*Max-Age=0/);
    }
    expect((await call('GET', '/v1/auth/session', { session })).status).toBe(200);
  });

  it('refuses a cross-site POST without the CSRF proof, and changes nothing', async () => {
    // Prepare
    const body = { name: 'forged', scopes: ['products:read'] };
    const before = (await call('GET', '/v1/auth/api-keys', { session })).body.data.length;
    // Act
    const foreign = await call('POST', '/v1/auth/api-keys', { session, body, headers: { origin: 'https://evil.example' } });
    const noOrigin = await call('POST', '/v1/auth/api-keys', { headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken }, body });
    const noToken = await call('POST', '/v1/auth/api-keys', { headers: { cookie: session.cookie, origin: baseUrl() }, body });
    const wrongToken = await call('POST', '/v1/auth/api-keys', { session, body, headers: { 'x-csrf-token': 'x'.repeat(32) } });
    const logout = await call('POST', '/v1/auth/logout', { headers: { cookie: session.cookie, origin: 'https://evil.example' } });
    // Assess
    for (const response of [foreign, noOrigin, noToken, wrongToken, logout]) expectError(response, 403, 'permission_error');
    expect((await call('GET', '/v1/auth/api-keys', { session })).body.data.length).toBe(before);
  });

  it('switches organization and environment, and answers 404 for an organization the user is not in', async () => {
    // Prepare
    const second = await newOrg('Second Winery');
    const stranger = await newOrg('Stranger Winery');
    const mine = await newSession(org.orgId);
    await addUserToOrganization((await getOrganization(second.orgId))!, mine.email);
    // Act
    const switched = await call('POST', '/v1/auth/session', { session: mine, body: { orgId: second.orgId, environment: 'test' } });
    const cookie = (switched.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const moved: TestSession = { ...mine, cookie };
    const now = await call('GET', '/v1/auth/session', { session: moved });
    const key = await call('POST', '/v1/auth/api-keys', { session: moved, body: { name: 'sandbox', scopes: ['products:read'] } });
    const refused = await call('POST', '/v1/auth/session', { session: moved, body: { orgId: stranger.orgId } });
    const badEnv = await call('POST', '/v1/auth/session', { session: moved, body: { environment: 'staging' } });
    // Assess
    expect(switched.status).toBe(200);
    expect(now.body).toMatchObject({ organization: { id: second.orgId, name: 'Second Winery' }, environment: 'test' });
    expect(now.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.orgId, second.orgId]);
    expect(key.body).toMatchObject({ environment: 'test', prefix: 'sk_test_' });
    expect((await call('GET', '/v1/products', { key: key.body.key })).status).toBe(200);
    expectError(refused, 404, 'not_found', 'orgId');
    expectError(badEnv, 422, 'validation_error', 'environment');
  });

  it('ends the session at sign-out: the same cookie no longer works', async () => {
    // Prepare
    const leaving = await newSession(org.orgId);
    // Act
    const out = await call('POST', '/v1/auth/logout', { session: leaving });
    const reused = await call('GET', '/v1/auth/session', { session: leaving });
    // Assess
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^passport_session=; .*Max-Age=0/);
    expectError(reused, 401, 'authentication_error');
  });

  it('makes members and sessions through the admin CLI (local stack only)', async () => {
    // Prepare
    const email = `cli.${Date.now()}@example.com`;
    // Act: the refusals do not depend on the member, so they run beside adding it (a CLI process takes seconds)
    const [added, inAws, stranger] = await Promise.all([
      admin(['user', 'add', '--org', org.orgId, '--email', email, '--json']),
      admin(['session', 'create', '--org', org.orgId, '--email', email, '--aws']),
      admin(['session', 'create', '--org', org.orgId, '--email', 'nobody@example.com']),
    ]);
    const created = await admin(['session', 'create', '--org', org.orgId, '--email', email, '--json']);
    // Assess
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email, orgId: org.orgId, added: true });
    const { cookie, csrfToken } = JSON.parse(created.stdout) as { cookie: string; csrfToken: string };
    const key = await call('POST', '/v1/auth/api-keys', { session: { cookie, csrfToken, userId: '', email }, body: { name: 'cli', scopes: ['products:read'] } });
    expect(key.status).toBe(201);
    expect(inAws.code).toBe(2);
    expect(inAws.stderr).toContain('local stack only');
    expect(stranger.code).toBe(2);
  });
});
