import type { Scope } from '../domain/scopes.ts';
import type { Tenant } from '../domain/tenant.ts';

/** A server-to-server caller: one API key of one organization and environment. */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  keyId: string;
  /** The key's name, as its creator gave it: events name their actor by it (docs/lifecycle.md#event-log). */
  name?: string;
  tenant: Tenant;
  scopes: readonly Scope[];
  /** Requests a minute this key may make. */
  rateLimitPerMinute: number;
}

/** A dashboard user signed in through the identity provider, working in one organization and environment. */
export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  userId: string;
  email: string;
  /** The current organization and environment of the session. */
  tenant: Tenant;
  /** A member of an organization may do everything in it, including managing its API keys. */
  scopes: readonly Scope[];
  /** The session's CSRF token and expiry, as sealed in its cookie. */
  csrfToken: string;
  expiresAt: number;
}

/** Who is calling: resolved by the authentication step, used by every operation. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;
