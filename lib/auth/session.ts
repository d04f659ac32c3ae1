import { timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { config } from '../config.ts';
import { getMembership } from '../data/memberships.ts';
import { deleteSession, getSession, insertSession } from '../data/sessions.ts';
import { randomString } from '../domain/ids.ts';
import { SCOPES } from '../domain/scopes.ts';
import { isEnvironment, type Tenant } from '../domain/tenant.ts';
import { expiredCookie, isLoopbackHost, readCookie, serializeCookie } from '../http/cookies.ts';
import { AuthenticationError, PermissionError } from '../http/errors.ts';
import type { HttpEvent } from '../http/types.ts';
import { bearerToken } from './authenticate.ts';
import type { SessionPrincipal } from './principal.ts';
import { sessionKey } from './session-key.ts';

/**
 * Dashboard sessions. The cookie is a JWE (`dir`, A256GCM) under the configured session key: it
 * holds the session id, the user, the current organization and environment, the CSRF token and
 * the expiry, encrypted and authenticated. A table item per session (lib/data/sessions.ts) makes
 * sign-out final: a copy of a signed-out cookie no longer works.
 */

/** Claims sealed in the session cookie. */
interface SessionClaims {
  sid: string;
  uid: string;
  email: string;
  org: string;
  env: string;
  csrf: string;
}

/**
 * Marks what a sealed value is for, so that one kind can never be replayed as another: an
 * inspector's cookie (lib/auth/inspector-session.ts) is no dashboard session.
 */
export type SealPurpose = 'session' | 'login' | 'inspector' | 'inspector_login';

const ISSUER = 'product-passport';
const BASE_NAME = { session: 'passport_session', login: 'passport_login', inspector: 'passport_inspector', inspector_login: 'passport_inspector_login' } as const;

/** Cookies are Secure (and `__Host-` prefixed) unless the API is served over plain HTTP on loopback. */
export function cookiesAreSecure(origin = config().publicApiOrigin): boolean {
  const url = new URL(origin);
  return !(url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

export const cookieName = (purpose: SealPurpose): string => `${cookiesAreSecure() ? '__Host-' : ''}${BASE_NAME[purpose]}`;

/** Encrypts `claims` for `purpose`, valid until `expiresAt` (epoch seconds). */
export async function seal(purpose: SealPurpose, claims: Record<string, string>, expiresAt: number): Promise<string> {
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuer(ISSUER)
    .setAudience(`${ISSUER}:${purpose}`)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .encrypt(await sessionKey());
}

/**
 * Decrypts a value sealed for `purpose`. Undefined when it is malformed, tampered with, expired,
 * sealed for another purpose, or sealed under another key (the key was rotated).
 */
export async function unseal(purpose: SealPurpose, token: string): Promise<(Record<string, unknown> & { exp: number }) | undefined> {
  const key = await sessionKey();
  try {
    const { payload } = await jwtDecrypt(token, key, {
      issuer: ISSUER,
      audience: `${ISSUER}:${purpose}`,
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      requiredClaims: ['exp'],
    });
    return { ...payload, exp: Number(payload.exp) };
  } catch {
    return undefined;
  }
}

function sessionClaimsOf(payload: Record<string, unknown>): SessionClaims | undefined {
  const { sid, uid, email, org, env, csrf } = payload;
  if ([sid, uid, email, org, env, csrf].every((v) => typeof v === 'string' && v !== '')) {
    return { sid, uid, email, org, env, csrf } as SessionClaims;
  }
  return undefined;
}

export interface IssuedSession {
  sessionId: string;
  /** The `Set-Cookie` value. */
  setCookie: string;
  /** `name=value`, as a client sends it back in a Cookie header. */
  cookie: string;
  csrfToken: string;
  expiresAt: number;
}

async function issueCookie(claims: SessionClaims, expiresAt: number): Promise<IssuedSession> {
  const token = await seal('session', { ...claims }, expiresAt);
  const name = cookieName('session');
  return {
    sessionId: claims.sid,
    setCookie: serializeCookie(name, token, { maxAgeSeconds: expiresAt - Math.floor(Date.now() / 1000), secure: cookiesAreSecure() }),
    cookie: `${name}=${token}`,
    csrfToken: claims.csrf,
    expiresAt,
  };
}

/** Starts a session for a user in `tenant`: a new session item and its cookie. */
export async function startSession(user: { userId: string; email: string }, tenant: Tenant): Promise<IssuedSession> {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + config().sessionTtlSeconds;
  const sid = randomString(32);
  await insertSession({ sessionId: sid, userId: user.userId, createdAt: new Date(now * 1000).toISOString(), expiresAt });
  return issueCookie(
    { sid, uid: user.userId, email: user.email, org: tenant.orgId, env: tenant.environment, csrf: randomString(32) },
    expiresAt,
  );
}

/** The same session, moved to another organization or environment (same id, CSRF token and expiry). */
export function switchSession(principal: SessionPrincipal, tenant: Tenant): Promise<IssuedSession> {
  return issueCookie(
    {
      sid: principal.sessionId,
      uid: principal.userId,
      email: principal.email,
      org: tenant.orgId,
      env: tenant.environment,
      csrf: principal.csrfToken,
    },
    principal.expiresAt,
  );
}

/** Ends the session everywhere; returns the `Set-Cookie` value that removes the cookie. */
export async function endSession(principal: SessionPrincipal): Promise<string> {
  await deleteSession(principal.sessionId);
  return expiredCookie(cookieName('session'), cookiesAreSecure());
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function requestOrigin(event: HttpEvent): string | undefined {
  const origin = event.headers?.origin;
  if (origin && origin !== 'null') return origin;
  const referer = event.headers?.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * The CSRF defence of cookie-authenticated requests that change state: the request must come from
 * an allowed dashboard origin (Origin, or Referer when a browser sends no Origin) and carry the
 * session's CSRF token in `X-CSRF-Token`, which a cross-site page cannot read.
 */
function checkCsrf(event: HttpEvent, expected: string): void {
  const origin = requestOrigin(event);
  if (!origin || !config().dashboardOrigins.includes(origin)) {
    throw new PermissionError('Cross-site request refused: the Origin header is missing or is not an allowed dashboard origin.', {
      suggestion: 'Call from the dashboard, or send the Origin header of an allowed dashboard origin.',
    });
  }
  const token = event.headers?.['x-csrf-token'];
  if (!token || !sameToken(token, expected)) {
    throw new PermissionError('Missing or wrong CSRF token.', {
      suggestion: 'Send the csrfToken of GET /v1/auth/session as the X-CSRF-Token header.',
    });
  }
}

/** 401 for the dashboard: sign in (again); `clearCookie` also removes an unusable session cookie. */
export function signInAgain(message: string, clearCookie = false): AuthenticationError {
  return new AuthenticationError(message, {
    suggestion: 'Sign in at /v1/auth/login.',
    headers: {
      'WWW-Authenticate': 'Cookie realm="dashboard"',
      ...(clearCookie ? { 'Set-Cookie': expiredCookie(cookieName('session'), cookiesAreSecure()) } : {}),
    },
  });
}

/** Whether the request carries a session cookie (valid or not). */
export const hasSessionCookie = (event: HttpEvent): boolean => readCookie(event, cookieName('session')) !== undefined;

/**
 * Resolves the session cookie of a request to a principal: 401 without a usable session, 403 when
 * only an API key was sent or a state-changing request fails the CSRF defence.
 */
export async function authenticateSession(event: HttpEvent): Promise<SessionPrincipal> {
  const token = readCookie(event, cookieName('session'));
  if (!token) {
    if (bearerToken(event.headers?.authorization)) {
      throw new PermissionError('This endpoint needs a dashboard session; an API key alone cannot call it.', {
        suggestion: 'Sign in to the dashboard and call it with the session cookie.',
      });
    }
    throw signInAgain('No dashboard session: sign in first.', false);
  }
  const payload = await unseal('session', token);
  const claims = payload && sessionClaimsOf(payload);
  if (!payload || !claims || !isEnvironment(claims.env)) throw signInAgain('The session is invalid or has expired.', true);

  const method = event.requestContext?.http?.method ?? '';
  if (STATE_CHANGING.has(method)) checkCsrf(event, claims.csrf);

  const [session, membership] = await Promise.all([
    getSession(claims.sid, Math.floor(Date.now() / 1000)),
    getMembership(claims.org, claims.uid),
  ]);
  if (!session || session.userId !== claims.uid) throw signInAgain('The session has ended.', true);
  if (!membership) throw signInAgain('You are no longer a member of this organization.', true);
  return {
    kind: 'session',
    sessionId: claims.sid,
    userId: claims.uid,
    email: claims.email,
    tenant: { orgId: claims.org, environment: claims.env },
    scopes: SCOPES,
    csrfToken: claims.csrf,
    expiresAt: payload.exp,
  };
}
