import { createHash, timingSafeEqual } from 'node:crypto';
import middy from '@middy/core';
import Negotiator from 'negotiator';
import { config, RESOLVER_ORIGIN_HEADER } from '../../lib/config.ts';
import { getPublicView, type PublicView } from '../../lib/data/passports.ts';
import { sendScanEvent } from '../../lib/data/scan-queue.ts';
import { parseGtinPath } from '../../lib/domain/digital-link.ts';
import { toPassportView } from '../../lib/domain/passport-view.ts';
import { deviceClass, referrerDomain, viewerCountry, type ScanEvent } from '../../lib/domain/scan.ts';
import { isEnvironment, type Tenant } from '../../lib/domain/tenant.ts';
import { errorResponses } from '../../lib/http/api-errors.ts';
import { InvalidRequestError, NotFoundError, PermissionError, type ApiError } from '../../lib/http/errors.ts';
import { logger } from '../../lib/http/logger.ts';
import { requestIdHeader } from '../../lib/http/request-id.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { CONTENT_SECURITY_POLICY, renderBadLink, renderElabel, renderNotFound } from './page/elabel.ts';
import { negotiateLanguage } from './page/i18n.ts';
import { LINKSET_CONTEXT_LINK, linkset, resolverDescription } from './linkset.ts';

/**
 * The public GS1 Digital Link resolver: every printed `qrCodeUrl` lands here, without
 * authentication. One read (the GTIN item's public view) and, for a GET, one scan event.
 */
type Representation = 'html' | 'json' | 'linkset';

const ORG_ID = /^org_[0-9a-z]{16}$/;
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Link, Content-Language, Request-Id',
};
const VARY = { Vary: 'Accept, Accept-Language' };

function representation(event: HttpEvent): Representation {
  const linkType = event.queryStringParameters?.linkType;
  if (linkType === 'linkset' || linkType === 'all') return 'linkset';
  const accept = event.headers?.accept;
  if (!accept) return 'html';
  const preferred = new Negotiator({ headers: { accept } }).mediaType(['text/html', 'application/json', 'application/linkset+json']);
  if (preferred === 'application/linkset+json') return 'linkset';
  if (preferred === 'application/json') return 'json';
  return 'html';
}

function html(status: number, body: string, lang: string): HttpResult {
  return {
    statusCode: status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': lang,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Referrer-Policy': 'no-referrer',
      ...CORS,
      ...VARY,
    },
    body,
  };
}

function jsonResult(status: number, body: unknown, contentType = 'application/json; charset=utf-8', extra: Record<string, string> = {}): HttpResult {
  return { statusCode: status, headers: { 'Content-Type': contentType, ...CORS, ...VARY, ...extra }, body: JSON.stringify(body) };
}

/** An error in the form the client asked for: a friendly page for browsers, the error object otherwise. */
function failure(event: HttpEvent, error: ApiError, page: (lang: 'en' | 'de' | 'fr') => string): HttpResult {
  if (representation(event) === 'html') {
    const lang = negotiateLanguage(event.headers?.['accept-language']);
    return html(error.status, page(lang), lang);
  }
  return jsonResult(error.status, error.toBody());
}

function tenantOf(event: HttpEvent): Tenant | undefined {
  const orgId = event.pathParameters?.orgId ?? '';
  const environment = event.pathParameters?.environment ?? '';
  return ORG_ID.test(orgId) && isEnvironment(environment) ? { orgId, environment } : undefined;
}

/**
 * The qualifier segments after `/01/{gtin}`, each percent-decoded on its own: taken from the raw
 * path because a decoded `%2F` inside a value would otherwise split it.
 */
function qualifierSegments(rawPath: string): string[] {
  const segments = rawPath.split('/').filter((s) => s !== '').slice(4);
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return ['%'];
  }
}

function scanEvent(event: HttpEvent, tenant: Tenant, view: PublicView): ScanEvent {
  return {
    v: 1,
    ...tenant,
    productId: view.productId,
    gtin: view.gtin,
    at: new Date().toISOString(),
    country: viewerCountry(event.headers?.['cloudfront-viewer-country']),
    referrer: referrerDomain(event.headers?.referer),
    device: deviceClass(event.headers?.['user-agent']),
  };
}

/**
 * Whether the request came through the resolver's CloudFront distribution. In AWS the API's own
 * (execute-api or custom) domain serves the resolver routes too, where a client could set
 * CloudFront-Viewer-Country itself and bypass the distribution's web ACL; CloudFront alone sends
 * RESOLVER_ORIGIN_SECRET in RESOLVER_ORIGIN_HEADER (docs/deploy.md). Unset (locally): every request.
 * Compared in constant time (digests of equal length).
 */
function viaCloudFront(event: HttpEvent): boolean {
  const secret = config().resolverOriginSecret;
  if (secret === undefined) return true;
  const sent = event.headers?.[RESOLVER_ORIGIN_HEADER];
  if (sent === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}

async function resolve(event: HttpEvent): Promise<HttpResult> {
  // Before anything is read or counted: only then is the viewer-country header CloudFront's own.
  if (!viaCloudFront(event)) throw new PermissionError('The resolver answers only through its own domain: open the product\'s qrCodeUrl.');
  const method = event.requestContext.http.method;
  if (event.routeKey === 'GET /.well-known/gs1resolver') {
    return jsonResult(200, resolverDescription(config().resolverOrigin));
  }
  if (method === 'OPTIONS') {
    return {
      statusCode: 204,
      headers: {
        ...CORS,
        ...VARY,
        Allow: ALLOWED_METHODS,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': 'Accept, Accept-Language',
        'Access-Control-Max-Age': '86400',
      },
    };
  }

  const tenant = tenantOf(event);
  if (!tenant) return failure(event, new NotFoundError('No product is registered under this link.'), renderNotFound);
  const parsed = parseGtinPath(event.pathParameters?.gtin ?? '', qualifierSegments(event.rawPath));
  if (!parsed.ok) {
    return failure(event, new InvalidRequestError(`This is not a valid GS1 Digital Link: ${parsed.reason}`), renderBadLink);
  }

  const view = await getPublicView(tenant, parsed.gtin14);
  if (!view?.passport) return failure(event, new NotFoundError('No product information is published under this link.'), renderNotFound);

  // The scan is counted while the response is prepared; a queue failure never fails the scan.
  const sent =
    method === 'GET'
      ? sendScanEvent(scanEvent(event, tenant, view)).catch((error: unknown) =>
          logger.warn('Scan event not sent', { error: error instanceof Error ? error.message : String(error) }),
        )
      : undefined;

  const anchor = `${config().resolverOrigin.replace(/\/+$/, '')}${event.rawPath}`;
  const links = `<${view.qrCodeUrl}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`;
  let result: HttpResult;
  switch (representation(event)) {
    case 'linkset':
      result = jsonResult(200, linkset(view, anchor), 'application/linkset+json', { Link: `${links}, ${LINKSET_CONTEXT_LINK}` });
      break;
    case 'json':
      result = jsonResult(200, toPassportView(view, view.passport), undefined, { Link: links });
      break;
    default: {
      const lang = negotiateLanguage(event.headers?.['accept-language']);
      result = html(200, renderElabel(toPassportView(view, view.passport), lang), lang);
      result.headers = { ...result.headers, Link: links };
    }
  }
  await sent;
  if (method === 'HEAD') delete result.body;
  return result;
}

export const handler = middy<HttpEvent, HttpResult>().use(requestIdHeader()).use(errorResponses()).handler(resolve);
