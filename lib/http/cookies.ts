import type { HttpEvent } from './types.ts';

/**
 * The value of cookie `name` in an API Gateway payload 2.0 event (cookies arrive in
 * `event.cookies`, one `name=value` each; a `cookie` header is read too, for other callers).
 */
export function readCookie(event: HttpEvent, name: string): string | undefined {
  const pairs = [...(event.cookies ?? []), ...(event.headers?.cookie?.split(';') ?? [])];
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  path?: string;
}

/** A `Set-Cookie` value: always HttpOnly and SameSite=Lax, Secure when asked. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Plain HTTP is only trusted for a server on this machine (local development). */
export const isLoopbackHost = (hostname: string): boolean => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);

/** A `Set-Cookie` value that removes the cookie. */
export const expiredCookie = (name: string, secure: boolean): string =>
  `${serializeCookie(name, '', { maxAgeSeconds: 0, secure })}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
