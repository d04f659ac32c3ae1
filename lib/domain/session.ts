import * as z from 'zod';
import { ENVIRONMENTS } from './tenant.ts';

/** Switches the session's organization, environment, or both. */
export const switchSessionSchema = z.strictObject({
  orgId: z.string({ error: 'orgId must be a string.' }).min(1, { error: 'orgId must not be empty.' }).optional(),
  environment: z.enum(ENVIRONMENTS, { error: `environment must be one of: ${ENVIRONMENTS.join(', ')}.` }).optional(),
});

/** Where the browser goes after signing in when the login request names nowhere. */
export const DEFAULT_RETURN_TO = '/v1/auth/session';

/**
 * Whether a post-login destination is safe to redirect to: a path on this API (not `//host`,
 * which browsers read as another origin), or a URL on one of the allowed dashboard origins.
 */
export function isSafeReturnTo(returnTo: string, allowedOrigins: readonly string[]): boolean {
  if (/^\/(?![/\\])/.test(returnTo)) return !/[\r\n]/.test(returnTo);
  try {
    const url = new URL(returnTo);
    return (url.protocol === 'https:' || url.protocol === 'http:') && allowedOrigins.includes(url.origin);
  } catch {
    return false;
  }
}

export const loginQuerySchema = z.strictObject({
  returnTo: z.string({ error: 'returnTo must be a string.' }).max(2000, { error: 'returnTo must be at most 2000 characters.' }).optional(),
});
