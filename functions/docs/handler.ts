import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import middy from '@middy/core';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { errorResponses } from '../../lib/http/api-errors.ts';
import { NotFoundError } from '../../lib/http/errors.ts';
import { requestIdHeader } from '../../lib/http/request-id.ts';
import { json } from '../../lib/http/response.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';

/**
 * The API's contract and its reference: `GET /v1/openapi.json` (generated from the route table and
 * the zod schemas) and `GET /docs`, Swagger UI served from this function's own files, so the page
 * makes no request to any other origin.
 */
export const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'docs.js': 'application/javascript; charset=utf-8',
};

const here = dirname(fileURLToPath(import.meta.url));

/** In Lambda the assets sit beside the bundle (copied at bundling); locally they come from node_modules. */
function assetPath(name: string): string {
  const bundled = join(here, 'docs-assets', name);
  if (existsSync(bundled)) return bundled;
  if (name === 'docs.js') return join(here, 'docs.js');
  return createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);
}

let openApi: string | undefined;
const assets = new Map<string, string>();

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Product Passport API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<main id="swagger-ui" aria-label="API reference"></main>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/docs.js"></script>
</body>
</html>
`;

/**
 * The page's Content-Security-Policy: scripts, styles and images from this origin only (Swagger UI's
 * own files; its icons are data: images), the OpenAPI document fetched from here, no plugins, no
 * <base> or form targets, and no framing by any page (clickjacking; docs/security.md).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': DOCS_CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

async function serve(event: HttpEvent): Promise<HttpResult> {
  switch (event.routeKey) {
    case 'GET /v1/openapi.json':
      openApi ??= JSON.stringify(buildOpenApi());
      return { ...json(200, {}), body: openApi, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*' } };
    case 'GET /docs':
      return { statusCode: 200, headers: PAGE_HEADERS, body: PAGE };
    default: {
      const name = event.pathParameters?.asset ?? '';
      // Own names only: `__proto__` or `constructor` must not find Object.prototype's members.
      const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!type) throw new NotFoundError(`No documentation asset '${name}'.`);
      let body = assets.get(name);
      if (body === undefined) {
        body = readFileSync(assetPath(name), 'utf8');
        assets.set(name, body);
      }
      return { statusCode: 200, headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }, body };
    }
  }
}

export const handler = middy<HttpEvent, HttpResult>().use(requestIdHeader()).use(errorResponses()).handler(serve);
