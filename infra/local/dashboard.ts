import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { extname, join } from 'node:path';
import { requestUrl, type LocalAnswer } from './gateway.ts';

/**
 * The dashboard's static files on the local gateway, at `/dashboard/`. In AWS the same files are
 * served from S3 behind CloudFront (infra/cdk). The dashboard is a client of the API on the same
 * origin, so its session cookie and CSRF origin check work unchanged.
 */
export const DASHBOARD_PATH = '/dashboard/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Everything from this origin, nothing else: no CDN, no third party, no inline script. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  // Rebuilt on every start: always revalidate.
  'Cache-Control': 'no-cache',
};

/** A handler for the gateway's `local` hook: the dashboard's files from `dir`, or undefined. */
export function dashboardFiles(dir: string): (req: IncomingMessage) => LocalAnswer | undefined {
  return (req): LocalAnswer | undefined => {
    const path = requestUrl(req.url).pathname;
    // `/dashboard` and `/dashboard/` are the app (its page refers to its files by absolute paths), as in AWS.
    if (path !== '/dashboard' && !path.startsWith(DASHBOARD_PATH)) return undefined;
    const name = path === '/dashboard' || path === DASHBOARD_PATH ? 'index.html' : path.slice(DASHBOARD_PATH.length);
    // Only the flat files of the build: no directories, no way out of `dir`.
    const type = TYPES[extname(name)];
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || !type) return undefined;
    const file = join(dir, name);
    if (!existsSync(file)) return undefined;
    return { status: 200, headers: { 'Content-Type': type, ...DASHBOARD_HEADERS }, body: readFileSync(file) };
  };
}
