import { config } from '../../lib/config.ts';
import { apiKeyView, issueApiKey, revokeKey } from '../../lib/services/api-keys.ts';
import { beginLogin, completeLogin, type LoginTransaction } from '../../lib/services/oidc.ts';
import type { SessionPrincipal } from '../../lib/auth/principal.ts';
import { cookieName, cookiesAreSecure, endSession, seal, signInAgain, startSession, switchSession, unseal } from '../../lib/auth/session.ts';
import { signIn } from '../../lib/services/users.ts';
import { listActiveApiKeys, type ApiKeyRecord } from '../../lib/data/api-keys.ts';
import { getMembership, listMembershipsOfUser } from '../../lib/data/memberships.ts';
import { getUser } from '../../lib/data/users.ts';
import { createApiKeySchema, KEY_ID_PATTERN, listApiKeysQuerySchema } from '../../lib/domain/api-key.ts';
import { DEFAULT_RETURN_TO, isSafeReturnTo, loginQuerySchema, switchSessionSchema } from '../../lib/domain/session.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { defineApiHandler, pathParam, publicOperation, type ApiRequest, type PublicRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { expiredCookie, readCookie, serializeCookie } from '../../lib/http/cookies.ts';
import { NotFoundError, PermissionError, ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import type { HttpResult } from '../../lib/http/types.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';

/** How long a started sign-in may take at the identity provider. */
const LOGIN_TTL_SECONDS = 600;

/** The pipeline authenticated the route as 'session', so the principal is a session's. */
function sessionOf(request: ApiRequest): SessionPrincipal {
  if (request.principal.kind !== 'session') throw new PermissionError('This endpoint needs a dashboard session.');
  return request.principal;
}

const redirect = (location: string, cookies: string[]): HttpResult => ({
  statusCode: 303,
  headers: { Location: location },
  cookies,
});

// ---- Sign-in ---------------------------------------------------------------------------------

async function login(request: PublicRequest): Promise<HttpResult> {
  const { returnTo = DEFAULT_RETURN_TO } = parseQuery(loginQuerySchema, request.event.queryStringParameters, ['returnTo']);
  if (!isSafeReturnTo(returnTo, config().publicApiOrigin, config().dashboardOrigins)) {
    throw new ValidationError('returnTo must be a path on this API or a URL on a dashboard origin.', 'returnTo');
  }
  const { url, transaction } = await beginLogin(returnTo);
  const sealed = await seal('login', { ...transaction }, Math.floor(Date.now() / 1000) + LOGIN_TTL_SECONDS);
  return {
    statusCode: 302,
    headers: { Location: url.href },
    cookies: [serializeCookie(cookieName('login'), sealed, { maxAgeSeconds: LOGIN_TTL_SECONDS, secure: cookiesAreSecure() })],
  };
}

async function loginTransaction(request: PublicRequest): Promise<LoginTransaction> {
  const sealed = readCookie(request.event, cookieName('login'));
  const payload = sealed ? await unseal('login', sealed) : undefined;
  const { state, nonce, verifier, returnTo } = payload ?? ({} as Record<string, unknown>);
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string' || typeof returnTo !== 'string') {
    throw signInAgain('No sign-in is in progress in this browser, or it took too long.');
  }
  return { state, nonce, verifier, returnTo };
}

async function callback(request: PublicRequest): Promise<HttpResult> {
  const transaction = await loginTransaction(request);
  const identity = await completeLogin(request.event.rawQueryString ?? '', transaction);
  const { user, memberships } = await signIn(identity);
  const first = memberships[0];
  if (!first) {
    throw new PermissionError(`${user.email} is not a member of any organization.`, {
      suggestion: 'Ask an administrator of your organization to add you (npm run admin -- user add --org ORG_ID --email EMAIL).',
    });
  }
  const session = await startSession(user, { orgId: first.orgId, environment: 'live' });
  return redirect(transaction.returnTo, [session.setCookie, expiredCookie(cookieName('login'), cookiesAreSecure())]);
}

// ---- The session -----------------------------------------------------------------------------

async function sessionView(principal: SessionPrincipal, tenant: Tenant = principal.tenant) {
  const [user, memberships] = await Promise.all([getUser(principal.userId), listMembershipsOfUser(principal.userId)]);
  const current = memberships.find((m) => m.orgId === tenant.orgId);
  return {
    user: { id: principal.userId, email: user?.email ?? principal.email, ...(user?.name ? { name: user.name } : {}) },
    organizations: memberships.map((m) => ({ id: m.orgId, name: m.orgName })),
    organization: { id: tenant.orgId, name: current?.orgName ?? '' },
    environment: tenant.environment,
    csrfToken: principal.csrfToken,
    expiresAt: new Date(principal.expiresAt * 1000).toISOString(),
  };
}

async function readSession(request: ApiRequest): Promise<HttpResult> {
  return json(200, await sessionView(sessionOf(request)));
}

async function switchTo(request: ApiRequest): Promise<HttpResult> {
  const principal = sessionOf(request);
  const input = parseBody(switchSessionSchema, request.body);
  const orgId = input.orgId ?? principal.tenant.orgId;
  if (orgId !== principal.tenant.orgId && !(await getMembership(orgId, principal.userId))) {
    throw new NotFoundError(`You are not a member of an organization with id '${orgId}'.`, { param: 'orgId' });
  }
  const tenant: Tenant = { orgId, environment: input.environment ?? principal.tenant.environment };
  const [session, view] = await Promise.all([switchSession(principal, tenant), sessionView(principal, tenant)]);
  return { ...json(200, view), cookies: [session.setCookie] };
}

async function logout(request: ApiRequest): Promise<HttpResult> {
  const cleared = await endSession(sessionOf(request));
  return { ...json(200, { signedOut: true }), cookies: [cleared] };
}

// ---- API keys --------------------------------------------------------------------------------

/** A key as listings show it: masked, never its value or hash. */
const keyView = (key: ApiKeyRecord) => apiKeyView(key);

async function createKey(request: ApiRequest): Promise<HttpResult> {
  const principal = sessionOf(request);
  const input = parseBody(createApiKeySchema, request.body);
  const { key, record } = await issueApiKey({
    orgId: principal.tenant.orgId,
    environment: input.environment ?? principal.tenant.environment,
    scopes: input.scopes,
    name: input.name,
    origin: originOf(request),
  });
  return json(201, {
    id: record.keyId,
    name: record.name,
    scopes: record.scopes,
    environment: record.environment,
    prefix: record.prefix,
    key,
    createdAt: record.createdAt,
  });
}

async function listKeys(request: ApiRequest): Promise<HttpResult> {
  const principal = sessionOf(request);
  const { environment } = parseQuery(listApiKeysQuerySchema, request.event.queryStringParameters, ['environment']);
  const keys = await listActiveApiKeys(principal.tenant.orgId);
  return json(200, { data: keys.filter((k) => !environment || k.environment === environment).map(keyView) });
}

async function revokeApiKey(request: ApiRequest): Promise<HttpResult> {
  const principal = sessionOf(request);
  const keyId = pathParam(request, 'keyId');
  // Another organization's key is not found either: the revocation looks in this organization only.
  const revoked = KEY_ID_PATTERN.test(keyId) ? await revokeKey(principal.tenant.orgId, keyId, originOf(request)) : undefined;
  if (!revoked?.revokedAt) throw new NotFoundError(`No API key with id '${keyId}'.`, { param: 'keyId' });
  return json(200, { id: keyId, revoked: true, revokedAt: revoked.revokedAt });
}

export const handler = defineApiHandler('auth', {
  'GET /v1/auth/login': publicOperation(login),
  'GET /v1/auth/callback': publicOperation(callback),
  'POST /v1/auth/logout': logout,
  'GET /v1/auth/session': readSession,
  'POST /v1/auth/session': switchTo,
  'POST /v1/auth/api-keys': createKey,
  'GET /v1/auth/api-keys': listKeys,
  'DELETE /v1/auth/api-keys/{keyId}': revokeApiKey,
});
