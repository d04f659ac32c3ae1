import { createHash } from 'node:crypto';
import { config, type AuthorityIssuer } from '../config.ts';
import { addToWindow } from '../data/rate-limits.ts';
import { INSPECT_LOGIN_TTL_SECONDS, INSPECTOR_RATE_LIMIT_PER_MINUTE, INSPECTOR_SESSION_TTL_SECONDS } from '../domain/inspect.ts';
import { expiredCookie, readCookie, serializeCookie } from '../http/cookies.ts';
import { RateLimitError } from '../http/errors.ts';
import type { HttpEvent } from '../http/types.ts';
import { addressCounter } from './anonymous-rate-limit.ts';
import { RateLimiter, rateLimitHeaders } from './rate-limit.ts';
import { cookieName, cookiesAreSecure, seal, unseal } from './session.ts';

/**
 * An inspector of a market surveillance authority, signed in with the authority's own identity
 * provider (docs/access.md#market-surveillance-authorities). Not a dashboard session: no user, no
 * organization, no scope. The cookie is sealed for its own purpose (`inspector`), so it is never
 * accepted as a session (lib/auth/session.ts), and holds the issuer and subject only; it lasts
 * INSPECTOR_SESSION_TTL_SECONDS and is checked against the trusted issuers on every request, so
 * an issuer taken off AUTHORITY_ISSUERS signs its inspectors out at once.
 */
export interface InspectorPrincipal {
  kind: 'inspector';
  issuer: string;
  subject: string;
  /** The authority's name, from its entry of AUTHORITY_ISSUERS. */
  authority: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** The trusted issuer named exactly `issuer`, or undefined. */
export const trustedIssuer = (issuer: string): AuthorityIssuer | undefined => config().authorityIssuers.find((entry) => entry.issuer === issuer);

const cookie = (purpose: 'inspector' | 'inspector_login', value: string, maxAgeSeconds: number): string =>
  serializeCookie(cookieName(purpose), value, { maxAgeSeconds, secure: cookiesAreSecure() });

/** The `Set-Cookie` of a new inspector's cookie, for an identity the trusted `issuer` vouched for. */
export async function startInspectorSession(issuer: AuthorityIssuer, subject: string): Promise<string> {
  const expiresAt = Math.floor(Date.now() / 1000) + INSPECTOR_SESSION_TTL_SECONDS;
  // Not `iss` and `sub`: the sealed token's own claims (its issuer is this service, lib/auth/session.ts).
  return cookie('inspector', await seal('inspector', { issuer: issuer.issuer, subject }, expiresAt), INSPECTOR_SESSION_TTL_SECONDS);
}

/** Whether the request carries an inspector's cookie (usable or not). */
export const hasInspectorCookie = (event: HttpEvent): boolean => readCookie(event, cookieName('inspector')) !== undefined;

/** The `Set-Cookie` that removes an inspector's cookie. */
export const clearInspectorCookie = (): string => expiredCookie(cookieName('inspector'), cookiesAreSecure());

/** The inspector a request's cookie names; undefined without one, or for one expired, tampered with, or of an issuer no longer trusted. */
export async function authenticateInspector(event: HttpEvent): Promise<InspectorPrincipal | undefined> {
  const token = readCookie(event, cookieName('inspector'));
  // A sealed cookie is a few hundred characters; anything far longer is not ours and is not decrypted.
  if (!token || token.length > 4096) return undefined;
  const payload = await unseal('inspector', token);
  if (!payload) return undefined;
  const { issuer, subject } = payload;
  if (typeof issuer !== 'string' || typeof subject !== 'string' || subject === '') return undefined;
  const trusted = trustedIssuer(issuer);
  return trusted ? { kind: 'inspector', issuer, subject, authority: trusted.name, expiresAt: payload.exp } : undefined;
}

/** A sign-in in progress: the issuer it went to, its state, nonce and PKCE verifier, and the passport to read afterwards. */
export interface InspectorLogin {
  issuer: string;
  state: string;
  nonce: string;
  verifier: string;
  dppId: string;
}

/** The `Set-Cookie` that keeps a sign-in in progress (sealed, INSPECT_LOGIN_TTL_SECONDS). */
export async function keepInspectorLogin(login: InspectorLogin): Promise<string> {
  const sealed = await seal('inspector_login', { ...login }, Math.floor(Date.now() / 1000) + INSPECT_LOGIN_TTL_SECONDS);
  return cookie('inspector_login', sealed, INSPECT_LOGIN_TTL_SECONDS);
}

/** The sign-in this browser started, or undefined (none, expired, or not ours). */
export async function inspectorLogin(event: HttpEvent): Promise<InspectorLogin | undefined> {
  const token = readCookie(event, cookieName('inspector_login'));
  if (!token || token.length > 4096) return undefined;
  const payload = await unseal('inspector_login', token);
  if (!payload) return undefined;
  const { issuer, state, nonce, verifier, dppId } = payload;
  return [issuer, state, nonce, verifier, dppId].every((value) => typeof value === 'string' && value !== '')
    ? ({ issuer, state, nonce, verifier, dppId } as InspectorLogin)
    : undefined;
}

/** The `Set-Cookie` that ends a sign-in in progress. */
export const clearInspectorLogin = (): string => expiredCookie(cookieName('inspector_login'), cookiesAreSecure());

let limiter: RateLimiter | undefined;

/** The counter's name for an inspector: its issuer and subject hashed (never a key id, `user:` or `ip:`). */
export const inspectorCounter = (inspector: Pick<InspectorPrincipal, 'issuer' | 'subject'>): string =>
  `inspector:${createHash('sha256').update(`${inspector.issuer}\n${inspector.subject}`).digest('base64url').slice(0, 32)}`;

/** Counts an inspector's request against its own limit (INSPECTOR_RATE_LIMIT_PER_MINUTE); 429 past it. Answers the rate-limit headers. */
export async function inspectorRateLimit(inspector: InspectorPrincipal): Promise<Record<string, string>> {
  limiter ??= new RateLimiter({ store: addToWindow });
  const decision = await limiter.admit(inspectorCounter(inspector), INSPECTOR_RATE_LIMIT_PER_MINUTE);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new RateLimitError(decision.retryAfterSeconds, headers, `Too many requests from this inspector (at most ${INSPECTOR_RATE_LIMIT_PER_MINUTE} a minute).`, 'or read fewer passports at once');
  }
  return headers;
}

/**
 * Counts a request without an inspector's cookie (a sign-in, its callback, the view before signing
 * in) against its client address's limit, the one the anonymous reads count against
 * (ANON_RATE_LIMIT_PER_MINUTE, lib/auth/anonymous-rate-limit.ts); 429 past it.
 */
export async function inspectAddressRateLimit(address: string): Promise<Record<string, string>> {
  limiter ??= new RateLimiter({ store: addToWindow });
  const limit = config().anonymousRateLimitPerMinute;
  const decision = await limiter.admit(addressCounter(address), limit);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new RateLimitError(decision.retryAfterSeconds, headers, `Too many sign-in requests from this address (at most ${limit} a minute).`, 'from the sign-in page');
  }
  return headers;
}
