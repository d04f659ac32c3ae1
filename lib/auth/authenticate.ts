import { config } from '../config.ts';
import { findApiKeyByHash } from '../data/api-keys.ts';
import { AuthenticationError, PermissionError } from '../http/errors.ts';
import type { Scope } from '../domain/scopes.ts';
import { API_KEY_PATTERN, hashApiKey, hashesEqual } from './api-keys.ts';
import { TtlCache } from './key-cache.ts';
import type { ApiKeyPrincipal, Principal } from './principal.ts';

let cache: TtlCache<ApiKeyPrincipal> | undefined;
const keyCache = (): TtlCache<ApiKeyPrincipal> => (cache ??= new TtlCache(config().keyCacheTtlMs));

/** The bearer token of an `Authorization` header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** Resolves an `Authorization` header to a principal, or throws 401. */
export async function authenticateApiKey(header: string | undefined): Promise<ApiKeyPrincipal> {
  if (!header) throw new AuthenticationError('No API key was provided.');
  const token = bearerToken(header);
  if (!token) throw new AuthenticationError('The Authorization header must have the form "Bearer <API key>".');
  if (!API_KEY_PATTERN.test(token)) throw new AuthenticationError('The API key is malformed.');

  const hash = hashApiKey(token);
  const cached = keyCache().get(hash);
  if (cached) return cached;

  const readAt = Date.now();
  const record = await findApiKeyByHash(hash);
  if (!record || !hashesEqual(record.hash, hash)) throw new AuthenticationError('The API key is not valid.');
  if (record.revokedAt) throw new AuthenticationError('The API key has been revoked.');
  const principal: ApiKeyPrincipal = {
    kind: 'apiKey',
    keyId: record.keyId,
    name: record.name,
    tenant: { orgId: record.orgId, environment: record.environment },
    scopes: record.scopes,
    rateLimitPerMinute: record.rateLimitPerMinute ?? config().rateLimitPerMinute,
  };
  keyCache().set(hash, principal, readAt);
  return principal;
}

/** Throws 403 unless the principal holds at least one of `required` (an empty list requires nothing). */
export function requireScope(principal: Principal, required: readonly Scope[], operation: string): void {
  if (required.length === 0 || required.some((scope) => principal.scopes.includes(scope))) return;
  const needed = required.length === 1 ? `the scope ${required[0]}` : `one of the scopes ${required.join(', ')}`;
  const who = principal.kind === 'apiKey' ? 'This API key' : 'This session';
  throw new PermissionError(`${who} lacks ${needed}, which ${operation} requires.`, {
    suggestion: `Create a key with ${needed} in the dashboard, or use a key that has it.`,
  });
}
