import * as z from 'zod';
import { ENVIRONMENTS } from './tenant.ts';
import { plainText } from './text.ts';

/** Switches the session's organization, environment, or both. */
export const switchSessionSchema = z.strictObject({
  orgId: plainText(z.string({ error: 'orgId must be a string.' }).min(1, { error: 'orgId must not be empty.' }), 'orgId').optional(),
  environment: z.enum(ENVIRONMENTS, { error: `environment must be one of: ${ENVIRONMENTS.join(', ')}.` }).optional(),
});

/** Where the browser goes after signing in when the login request names nowhere. */
export const DEFAULT_RETURN_TO = '/v1/auth/session';

/**
 * Characters a post-login destination never holds: every control character (C0, DEL, C1), Unicode
 * format characters (bidi overrides, zero-width), line and paragraph separators, and the backslash.
 * Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil.example` or
 * `/\evil.example` would leave this origin (docs/security.md, finding 1). Their percent-encoded forms
 * are refused too: nothing legitimate needs them.
 */
const FORBIDDEN_IN_RETURN_TO = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\\]|%(?:[01][0-9a-f]|7f|5c)/iu;

/**
 * Whether a post-login destination is safe to redirect to. It is resolved against this API's own
 * origin with the URL parser (as the browser will resolve the redirect), and the result's origin
 * must be this API's or one of the allowed dashboard origins, over HTTP(S). So a path here
 * (`/dashboard/`) or a URL on a dashboard origin is fine; `//host`, `https:host` (a scheme without
 * `//`), `javascript:` and anything with a control character or backslash is not.
 */
export function isSafeReturnTo(returnTo: string, ownOrigin: string, allowedOrigins: readonly string[]): boolean {
  if (returnTo === '' || FORBIDDEN_IN_RETURN_TO.test(returnTo)) return false;
  // A scheme without `//` (`https:evil.example`) means different things to different parsers.
  if (/^[a-z][a-z\d+.-]*:/i.test(returnTo) && !/^https?:\/\//i.test(returnTo)) return false;
  let url: URL;
  try {
    url = new URL(returnTo, ownOrigin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  return url.origin === new URL(ownOrigin).origin || allowedOrigins.includes(url.origin);
}

export const loginQuerySchema = z.strictObject({
  returnTo: z.string({ error: 'returnTo must be a string.' }).max(2000, { error: 'returnTo must be at most 2000 characters.' }).optional(),
});
