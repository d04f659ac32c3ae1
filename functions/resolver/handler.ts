import { createHash, timingSafeEqual } from 'node:crypto';
import middy from '@middy/core';
import Negotiator from 'negotiator';
import { createRouteMatcher } from '../../lib/api/route-matcher.ts';
import { ROUTES } from '../../lib/api/routes.ts';
import { config, RESOLVER_ORIGIN_HEADER } from '../../lib/config.ts';
import type { PublicView } from '../../lib/data/public-reads.ts';
import { findDomainByHostname, getPublicView, getScanView } from '../../lib/data/scan-reads.ts';
import { sendScanEvent } from '../../lib/data/scan-queue.ts';
import { decompressDigitalLink } from '../../lib/domain/digital-link-compression.ts';
import { canonicalGtinPath, parseGtinPath, uncompressedGtinLink } from '../../lib/domain/digital-link.ts';
import { buildScanEvent, type ScanEvent } from '../../lib/domain/scan.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { viewerHostname } from '../../lib/domain/viewer-host.ts';
import { WITHDRAWN, type UnitRecord } from '../../lib/domain/unit.ts';
import { errorResponses } from '../../lib/http/api-errors.ts';
import { isDependencyUnavailable, unavailable } from '../../lib/http/availability.ts';
import { GoneError, InvalidRequestError, MethodNotAllowedError, NotFoundError, PermissionError, type ApiError } from '../../lib/http/errors.ts';
import { logger } from '../../lib/http/logger.ts';
import { requestIdHeader, requestIdOf } from '../../lib/http/request-id.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { renderBadLink, renderNotFound, renderRecycled, renderUnavailable, renderWithdrawn } from './page/elabel.ts';
import { renderBatteryWithdrawn } from './page/battery.ts';
import { pageHeaders, tenantOfPath } from './page/http.ts';
import { negotiateLanguage, type Lang } from './page/i18n.ts';
import { backupLink, bestLink, labelLanguage, LINKSET_CONTEXT_LINK, linkset, parseLinkType, productLinks, resolverDescription, wantsLinkset } from './linkset.ts';
import { HotCache } from './hot-cache.ts';
import { servePage } from './pages.ts';
import { serveUnitPage } from './unit-pages.ts';

/**
 * The public GS1 Digital Link resolver: every printed `qrCodeUrl` lands here, without
 * authentication. It answers as a GS1-Conformant resolver (docs/resolver.md): a 307 redirect to
 * the chosen link (an immutable page of the current passport version), or the linkset. One read
 * (the GTIN item's public view) and, for a GET that resolves, one scan event.
 */

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Link, Location, Content-Language, Request-Id',
};
const VARY = { Vary: 'Accept, Accept-Language' };
/** Every resolver answer depends on the current version and the request's headers: never stored (docs/resolver.md). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Whether an error should be the friendly page (a browser, or no preference) or the error object. */
function wantsPage(event: HttpEvent): boolean {
  const linkType = event.queryStringParameters?.linkType;
  if (linkType === 'linkset' || linkType === 'all') return false;
  const accept = event.headers?.accept;
  if (!accept) return true;
  return new Negotiator({ headers: { accept } }).mediaType(['text/html', 'application/json', 'application/linkset+json']) === 'text/html';
}

function html(status: number, body: string, lang: string): HttpResult {
  return {
    statusCode: status,
    headers: { ...pageHeaders(lang), ...CORS, ...VARY },
    body,
  };
}

function jsonResult(status: number, body: unknown, contentType = 'application/json; charset=utf-8', extra: Record<string, string> = {}): HttpResult {
  return { statusCode: status, headers: { 'Content-Type': contentType, ...CORS, ...VARY, ...extra }, body: JSON.stringify(body) };
}

/** An error in the form the client asked for: a friendly page for browsers, the error object otherwise. */
function failure(event: HttpEvent, error: ApiError, page: (lang: Lang) => string): HttpResult {
  if (wantsPage(event)) {
    const lang = negotiateLanguage(event.headers?.['accept-language']);
    const result = html(error.status, page(lang), lang);
    result.headers = { ...result.headers, ...error.headers };
    return result;
  }
  return jsonResult(error.status, error.toBody(), undefined, error.headers);
}

/** The resolver's paths of the one route table (lib/api/routes.ts), matched as API Gateway matches them. */
const matchRoute = createRouteMatcher(ROUTES.filter((route) => route.function === 'resolver'));

/**
 * The event with its route. API Gateway (and the local gateway) hand the resolver its route key
 * and path parameters; a Lambda function URL behind CloudFront (docs/deploy.md#the-public-path)
 * hands it the payload 2.0 event with route key `$default` and no path parameters, so the raw
 * path is matched here against the same route table. An error when no resolver route has the
 * path (404) or the method (405).
 */
export function routed(event: HttpEvent): HttpEvent | ApiError {
  if (event.routeKey && event.routeKey !== '$default') return event;
  const method = event.requestContext.http.method;
  const match = matchRoute(method, event.rawPath);
  if (match.kind === 'none') return new NotFoundError('No product is registered under this link.');
  if (match.kind === 'method-not-allowed') return new MethodNotAllowedError(method, match.allowed);
  return { ...event, routeKey: `${method} ${match.route.path}`, pathParameters: match.pathParameters };
}


/**
 * The path segments of the Digital Link from `01` on (`01`, the GTIN, then the qualifiers), each
 * percent-decoded on its own: taken from the raw path because a decoded `%2F` inside a value
 * would otherwise split it. Empty segments (a trailing slash) are dropped.
 */
function linkSegments(rawPath: string, prefixSegments: number): string[] {
  const segments = rawPath.split('/').filter((s) => s !== '').slice(prefixSegments);
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return ['01', '', '%'];
  }
}

/**
 * The scan event of a GET that resolved. A wine's (docs/privacy.md) is a count: its headers are not
 * read, so no country, device class or referrer reaches the queue or the rollup.
 */
function scanEvent(event: HttpEvent, tenant: Tenant, view: PublicView, lot: string | undefined): ScanEvent {
  const base = {
    v: 1 as const,
    ...tenant,
    productId: view.productId,
    gtin: view.gtin,
    // A registered batch's scans are counted for it too; an item's for its lot, never for the item itself (docs/resolver.md#batches-and-items).
    ...(lot === undefined ? {} : { lot }),
    at: new Date().toISOString(),
  };
  const product = { category: view.category, productType: view.passport?.data.productType };
  return buildScanEvent(base, product, () => ({
    country: event.headers?.['cloudfront-viewer-country'],
    referer: event.headers?.referer,
    userAgent: event.headers?.['user-agent'],
  }));
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

/** The name of a `name=value` pair of a query string, decoded as a form decodes it (itself when malformed). */
function pairName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** A character a URI's query may not hold as it is (RFC 3986 §3.4), or a `%` that starts no percent-encoding. */
const NOT_QUERY_CHARACTER = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu;
const utf8 = new TextEncoder();
const percentEncoded = (character: string): string => [...utf8.encode(character)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * The request's query string without its `linkType` pairs, to pass on to the link's target ('' when
 * nothing is left): the other pairs exactly as they were received (docs/resolver.md, passing the
 * query string on), never decoded and encoded again, so `x=1%202` stays `x=1%202`. Only a character
 * a URI cannot hold (which a client should have encoded) is percent-encoded, so that Location stays a URI.
 */
function passedOnQuery(rawQuery: string): string {
  const query = rawQuery
    .split('&')
    .filter((pair) => pairName(pair) !== 'linkType')
    .join('&')
    .replace(NOT_QUERY_CHARACTER, percentEncoded);
  return query ? `?${query}` : '';
}

/** Query parameters as API Gateway gives them (a repeated name's values comma-joined), undefined when none. */
function queryParameters(rawQuery: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) out[name] = out[name] === undefined ? value : `${out[name]},${value}`;
  return Object.keys(out).length ? out : undefined;
}

/** How long a warm function trusts what it read of a hostname's claim, verified or not (docs/resolver.md). */
export const HOST_CACHE_MS = 60_000;
/**
 * The claims read in the last minute, least recently used first out (hot-cache.ts): at most 1,000
 * verified hosts, and apart from them at most 1,000 hosts that are nobody's, so that a flood of
 * made-up Host headers neither grows memory without bound nor pushes the brands' hosts out.
 */
const hostCache = new HotCache<string | undefined>(HOST_CACHE_MS, { maxEntries: 1_000, maxMisses: 1_000 });
/** A host that is nobody's brand host (hot-cache.ts keeps such hosts apart). */
const nobodys = (orgId: string | undefined): boolean => orgId === undefined;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The host the viewer asked for, '' when it is no DNS name (lib/domain/viewer-host.ts): such a host is nobody's brand host, never looked up. */
const requestHostname = (event: HttpEvent): string => viewerHostname(event.headers) ?? '';

/**
 * The one other platform origin the function accepts in X-Resolver-Origin: a CloudFront
 * distribution's own domain, which the viewer-request functions name when there is no custom
 * resolver domain (infra/cdk/constructs/resolver-cdn.ts).
 */
const CLOUDFRONT_ORIGIN = /^https:\/\/d[a-z0-9]{1,62}\.cloudfront\.net$/;

/**
 * Whether the request came through the function URL: only CloudFront reaches it in AWS (auth type
 * AWS_IAM with origin access control, docs/deploy.md#the-public-path), through a behaviour whose
 * viewer-request function overwrites X-Resolver-Origin. API Gateway and the local gateway name the
 * route they matched; a function URL's route key is `$default`, which no API Gateway route has.
 */
const viaFunctionUrl = (event: HttpEvent): boolean => event.requestContext.routeKey === '$default';

/**
 * The platform resolver's origin (where every page link points): RESOLVER_ORIGIN, unless
 * X-Resolver-Origin names another origin this function expects (docs/security.md, finding 11): a
 * CloudFront distribution's own domain, on a request through the function URL (the viewer-request
 * function sets it there, since the function cannot be given the distribution's domain in its
 * environment: docs/deploy.md#the-public-path). Anything else a client sends (locally, where the
 * gateway passes every header on; or through API Gateway) is ignored: a 307 never points at a host a
 * client named.
 */
function platformOrigin(event: HttpEvent): string {
  const configured = config().resolverOrigin.replace(/\/+$/, '');
  const forwarded = event.headers?.['x-resolver-origin']?.trim().toLowerCase();
  if (forwarded === undefined || forwarded === configured.toLowerCase()) return configured;
  return viaFunctionUrl(event) && CLOUDFRONT_ORIGIN.test(forwarded) ? forwarded : configured;
}

const isPlatformHost = (event: HttpEvent, hostname: string): boolean => hostname === new URL(platformOrigin(event)).hostname;

/**
 * The organization whose verified brand domain `hostname` is, or undefined (unknown, pending, or
 * not a hostname at all). Remembered for HOST_CACHE_MS, found or not, so that a warm function's
 * scan costs one GetItem: the GTIN item's.
 */
async function brandOrganization(event: HttpEvent, hostname: string): Promise<string | undefined> {
  // Not a DNS name (an IP address's last label has no letter), or the platform's own: never a brand's.
  if (!HOSTNAME.test(hostname) || !/[a-z]/.test(hostname.slice(hostname.lastIndexOf('.'))) || isPlatformHost(event, hostname)) return undefined;
  // A function URL's own host (no X-Forwarded-Host: the platform distribution with a custom domain): never a brand's.
  if (hostname.endsWith('.on.aws')) return undefined;
  return hostCache.get(
    hostname,
    async () => {
      const claim = await findDomainByHostname(hostname);
      return claim?.status === 'verified' ? claim.orgId : undefined;
    },
    nobodys,
  );
}

/** What a scan read: the GTIN's public view, and the batch or item its link names. */
type ScanRead = Awaited<ReturnType<typeof getScanView>>;
let views: HotCache<ScanRead> | undefined;
/** The views read in the last second (docs/resolver.md#a-hot-product), made once configuration is read. */
const recentViews = (): HotCache<ScanRead> => (views ??= new HotCache<ScanRead>(config().resolverViewCacheMs));
/** A read that found nothing the link names (hot-cache.ts keeps such reads apart: made-up links do not push the hot views out). */
const noView = (read: ScanRead): boolean => !read.view;
const noBatch = (read: ScanRead): boolean => !read.view || !read.batch;
const noItem = (read: ScanRead): boolean => !read.view || !read.item;

/** Whether the route is a brand host's `/01/{gtin}…` (the organization comes from the Host). */
const isBrandRoute = (event: HttpEvent): boolean => / \/01\/\{gtin\}/.test(event.routeKey);

/** The routes whose last segment is a compressed Digital Link (docs/resolver.md#compressed-uris). */
const COMPRESSED_ROUTE = '/{compressed}';

interface Resolution {
  tenant: Tenant;
  /** The origin the Digital Link was requested on (the platform's, or `https://{brand host}`). */
  origin: string;
  /** Everything before `/01/` of the canonical URI: the brand host's origin, or the platform's and the tenant. */
  base: string;
  /** Path segments before `/01/`. */
  prefixSegments: number;
}

async function resolve(request: HttpEvent): Promise<HttpResult> {
  // Before anything is read or counted: only then is the viewer-country header CloudFront's own.
  if (!viaCloudFront(request)) throw new PermissionError('The resolver answers only through its own domain: open the product\'s qrCodeUrl.');
  const event = routed(request);
  if (event instanceof Error) return failure(request, event, renderNotFound);
  const method = event.requestContext.http.method;
  if (event.routeKey.includes('/p/{gtin}/{version}/{page}')) return servePage(event); // the immutable version pages (pages.ts)
  if (event.routeKey.includes('/p/{gtin}/{version}/{ai}/{unit}/{unitVersion}/{page}')) return serveUnitPage(event); // a batch's or item's pages (unit-pages.ts)
  if (event.routeKey === 'GET /.well-known/gs1resolver') {
    const hostname = requestHostname(event);
    const brand = (await brandOrganization(event, hostname)) !== undefined;
    return jsonResult(200, resolverDescription(brand ? `https://${hostname}` : platformOrigin(event), brand), undefined, NO_STORE);
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
  const result = event.routeKey.endsWith(COMPRESSED_ROUTE) ? await answerCompressed(event, method) : await answer(event, method, { path: event.rawPath });
  result.headers = { ...result.headers, ...NO_STORE };
  if (method === 'HEAD') delete result.body;
  return result;
}

/** Where a Digital Link resolves: a brand host's organization (live), or the tenant in the path. */
async function resolution(event: HttpEvent): Promise<Resolution | undefined> {
  if (isBrandRoute(event)) {
    const hostname = requestHostname(event);
    const orgId = await brandOrganization(event, hostname);
    return orgId === undefined ? undefined : { tenant: { orgId, environment: 'live' }, origin: `https://${hostname}`, base: `https://${hostname}`, prefixSegments: 0 };
  }
  const tenant = tenantOfPath(event);
  const origin = platformOrigin(event);
  return tenant && { tenant, origin, base: `${origin}/${tenant.orgId}/${tenant.environment}`, prefixSegments: 2 };
}

/**
 * A compressed Digital Link (`…/{compressed}`, docs/resolver.md#compressed-uris), answered as its
 * uncompressed form is, at once (no redirect to it): the path and query string it decompresses to
 * take the place of the request's, whose own query string follows. A segment that is no valid
 * compressed GTIN link (not base64url, not decompressible, another primary key, a bad check digit)
 * is 404: a malformed compressed link cannot be told from a path that never was one.
 */
async function answerCompressed(event: HttpEvent, method: string): Promise<HttpResult> {
  const segments = event.rawPath.split('/').filter((s) => s !== '');
  const decompressed = decompressDigitalLink(segments.at(-1) ?? '');
  const link = decompressed.ok ? uncompressedGtinLink(decompressed.elements, decompressed.extensions) : decompressed;
  if (!link.ok) return failure(event, new NotFoundError(`No product is registered under this link; it is no compressed GS1 Digital Link of a GTIN: ${link.reason}`), renderNotFound);
  const rawQueryString = [link.query, event.rawQueryString ?? ''].filter((q) => q !== '').join('&');
  const uncompressed: HttpEvent = {
    ...event,
    routeKey: `${event.routeKey.slice(0, -COMPRESSED_ROUTE.length)}/01/{gtin}${link.path.split('/').length > 3 ? '/{qualifiers+}' : ''}`,
    rawPath: `${segments.slice(0, -1).map((s) => `/${s}`).join('')}${link.path}`,
    rawQueryString,
    queryStringParameters: queryParameters(rawQueryString),
  };
  return answer(uncompressed, method, { path: event.rawPath, uncompressedQuery: link.query });
}

/** The Digital Link as the client sent it: its path, and for a compressed link the query string its own data decompressed to. */
interface Requested {
  path: string;
  uncompressedQuery?: string;
}

type Named =
  /** The most specific record the link names that is registered: an item, else a batch. */
  | { kind: 'record'; unit: UnitRecord }
  /** None is, and the product's granularity lets the link walk up to the GTIN. */
  | { kind: 'product' }
  /** The record the link names, or the batch of the item it names, is withdrawn: 410. */
  | { kind: 'gone'; message: string }
  /** The battery item the link names was recycled: its passport ceased (docs/battery.md#a-batterys-life), 410 with its own page. */
  | { kind: 'recycled'; message: string }
  /** The product is passported by item (or batch), and the link names one never registered: 404, so that it cannot look genuine. */
  | { kind: 'unregistered'; message: string };

/**
 * What a Digital Link with a lot or serial resolves to (docs/resolver.md#batches-and-items): a
 * registered item (whose lot, when the link names one, must be the item's), else a registered batch,
 * else the product, unless the product's granularity asks for the record: at `item` an unregistered
 * serial or lot is a 404, at `batch` an unregistered lot.
 */
function namedRecord(view: PublicView, read: { batch?: UnitRecord; item?: UnitRecord }, lot: string | undefined, serial: string | undefined): Named {
  const granularity = view.granularity ?? 'model';
  const withdrawn = (unit: UnitRecord | undefined) => unit?.status === WITHDRAWN;
  const item = read.item && (lot === undefined || read.item.lot === lot) ? read.item : undefined;
  if (item) {
    if (withdrawn(item)) return { kind: 'gone', message: 'The producer has withdrawn this item.' };
    if (withdrawn(read.batch)) return { kind: 'gone', message: 'The producer has withdrawn the batch of this item.' };
    if (item.lineage?.recycled) return { kind: 'recycled', message: 'This battery was recycled: its battery passport has ceased to exist (Regulation (EU) 2023/1542 Art. 77(8)).' };
    return { kind: 'record', unit: item };
  }
  // A battery passport is one battery's (Regulation (EU) 2023/1542 Art. 77(1) and (3), docs/battery.md): an unregistered serial is 404 whatever the granularity (docs/resolver.md#batches-and-items).
  if (serial !== undefined && (granularity === 'item' || view.category === 'battery')) return { kind: 'unregistered', message: 'No item is registered under this serial number.' };
  if (lot !== undefined && read.batch) {
    return withdrawn(read.batch) ? { kind: 'gone', message: 'The producer has withdrawn this batch.' } : { kind: 'record', unit: read.batch };
  }
  if (lot !== undefined && granularity !== 'model') return { kind: 'unregistered', message: 'No batch is registered under this lot number.' };
  return { kind: 'product' };
}

/** Answers a Digital Link (for a compressed link, its uncompressed form, `requested` being the compressed one). */
async function answer(event: HttpEvent, method: string, requested: Requested): Promise<HttpResult> {
  const at = await resolution(event);
  if (!at) return failure(event, new NotFoundError('No product is registered under this link.'), renderNotFound);

  const [, gtin = '', ...qualifiers] = linkSegments(event.rawPath, at.prefixSegments);
  const parsed = parseGtinPath(gtin, qualifiers);
  if (!parsed.ok) {
    return failure(event, new InvalidRequestError(`This is not a valid GS1 Digital Link: ${parsed.reason}`), renderBadLink);
  }

  // A link naming a lot or serial reads the GTIN item and the batch and item in one BatchGetItem; a GTIN alone one GetItem.
  // Either is remembered for at most a second (hot-cache.ts): a hot product costs a warm instance one read a second.
  const lot = parsed.qualifiers['10'];
  const serial = parsed.qualifiers['21'];
  const readAt = (tenant: Tenant) =>
    recentViews().get(
      JSON.stringify([tenant.orgId, tenant.environment, parsed.gtin14, lot ?? null, serial ?? null]),
      async () => (lot === undefined && serial === undefined ? { view: await getPublicView(tenant, parsed.gtin14) } : getScanView(tenant, parsed.gtin14, { lot, serial })),
      serial !== undefined ? noItem : lot !== undefined ? noBatch : noView,
    );
  // The organization whose passport answers: the link's, or the one its product was transferred to, whose GTIN item there
  // points to (docs/transfers.md#the-printed-qr-codes). One hop: every former owner's pointer names the current owner.
  let owner = at.tenant;
  let read = await readAt(owner);
  if (read.view?.movedTo !== undefined) {
    owner = { orgId: read.view.movedTo, environment: at.tenant.environment };
    read = await readAt(owner);
  }
  const view = read.view;
  // A withdrawn product is gone, whatever link or representation is asked for (docs/lifecycle.md#withdrawal); no scan is counted.
  // A battery's says withdrawal is for a mistake or a recall, not its recycling (docs/battery.md#a-batterys-life).
  const withdrawnPage = view?.category === 'battery' ? renderBatteryWithdrawn : renderWithdrawn;
  if (view?.withdrawn) return failure(event, new GoneError('The producer has withdrawn this product.'), withdrawnPage);
  const passport = view?.passport;
  if (!view || !passport) return failure(event, new NotFoundError('No product information is published under this link.'), renderNotFound);
  const named = namedRecord(view, read, lot, serial);
  if (named.kind === 'gone') return failure(event, new GoneError(named.message), withdrawnPage);
  if (named.kind === 'recycled') return failure(event, new GoneError(named.message), renderRecycled);
  if (named.kind === 'unregistered') return failure(event, new NotFoundError(named.message), renderNotFound);
  const unit = named.kind === 'record' ? named.unit : undefined;

  // The canonical URI (a GTIN-14, qualifiers in GS1's order and encoding) anchors the linkset; a
  // request in another form (a 13-digit GTIN, a compressed link) is told it with rel="canonical"
  // and answered at once, without a redirect to it (docs/resolver.md#canonical-uris). A compressed
  // link's uncompressed URI comes first, as rel="owl:sameAs" (GS1's conformance rule).
  const anchor = `${at.base}${canonicalGtinPath(parsed.gtin14, parsed.qualifiers)}`;
  const sameAs = requested.uncompressedQuery === undefined ? '' : `<${anchor}${requested.uncompressedQuery ? `?${requested.uncompressedQuery}` : ''}>; rel="owl:sameAs", `;
  const canonicalLink = `${at.origin}${requested.path.replace(/\/+$/, '')}` === anchor ? '' : `, <${anchor}>; rel="canonical"`;
  const linksetLink = `${sameAs}<${anchor}?linkType=linkset>; rel="linkset"; type="application/linkset+json"${canonicalLink}`;
  const links = productLinks({ ...view, gtin: parsed.gtin14, passport }, owner, platformOrigin(event), unit);
  const linkType = parseLinkType(event.queryStringParameters?.linkType);

  let result: HttpResult;
  if (linkType.kind === 'linkset' || (linkType.kind === 'default' && wantsLinkset(event.headers?.accept))) {
    // An item's linkset is the item's: its anchor names the serial, its description too.
    const description = unit ? `${view.name}, ${unit.kind === 'batch' ? `lot ${unit.lot ?? ''}` : `serial ${unit.serial ?? ''}`}` : view.name;
    result = jsonResult(200, linkset({ name: description }, anchor, links, backupLink({ ...view, gtin: parsed.gtin14, passport }, owner, unit)), 'application/linkset+json', { Link: `${linksetLink}, ${LINKSET_CONTEXT_LINK}` });
  } else {
    const backup = linkType.kind === 'alternate' ? backupLink({ ...view, gtin: parsed.gtin14, passport }, owner, unit) : undefined;
    const candidates = linkType.kind === 'default' ? links.defaultLinkMulti : linkType.kind === 'alternate' ? (backup ? [backup] : []) : linkType.known ? links[linkType.name as keyof typeof links] : [];
    // The page language: Accept-Language, then the product's label language, then English (docs/resolver.md#the-page-language).
    const link = bestLink(candidates, event.headers?.accept, event.headers?.['accept-language'], labelLanguage(passport));
    if (!link) {
      const name = linkType.kind === 'type' ? `gs1:${linkType.name}` : linkType.kind === 'alternate' ? 'alternate (its backup copy)' : 'gs1:defaultLink';
      return failure(
        event,
        new NotFoundError(`This product has no link of type ${name}; ?linkType=linkset lists the ones it has.`, { param: 'linkType' }),
        renderNotFound,
      );
    }
    result = {
      statusCode: 307,
      headers: { Location: `${link.href}${passedOnQuery(event.rawQueryString ?? '')}`, Link: linksetLink, ...CORS, ...VARY },
    };
  }

  // A scan is counted once, here, for a GET that resolved (docs/resolver.md); while the queue fails the scan is
  // spilled to the table (docs/decisions.md#scans-while-the-queue-is-down); a failure of both never fails the scan.
  if (method === 'GET') {
    const name = (error: unknown) => (error instanceof Error ? error.name : String(error));
    await sendScanEvent(scanEvent(event, owner, view, unit?.lot)).then(
      ({ queueError, spillError, dropped }) => {
        if (queueError !== undefined) logger().warn('SendMessage failed: the scan is spilled to the table', { error: name(queueError) });
        if (spillError !== undefined) logger().warn('The table did not take the spilled scan either: it is kept for the next scans', { error: name(spillError) });
        if (dropped) logger().error('Scan events lost: the backlog of events neither queued nor spilled is full', { dropped });
      },
      (error: unknown) => logger().error('Scan event lost', { error: name(error) }),
    );
  }
  return result;
}

/**
 * A request that failed because DynamoDB or SQS is down, or throttles beyond the retries: 503 with
 * Retry-After, in the form the client asked for (a page in the visitor's language, or the error
 * object), never stored (docs/resolver.md#when-a-dependency-is-down). Anything else unexpected is
 * left to the error handler: a bug, a 500.
 */
async function resolveOrUnavailable(request: HttpEvent): Promise<HttpResult> {
  try {
    return await resolve(request);
  } catch (error) {
    if (!isDependencyUnavailable(error)) throw error;
    const result = failure(request, unavailable(error, { requestId: requestIdOf(request), routeKey: request.routeKey }), renderUnavailable);
    result.headers = { ...result.headers, ...NO_STORE };
    if (request.requestContext.http.method === 'HEAD') delete result.body;
    return result;
  }
}

export const handler = middy<HttpEvent, HttpResult>().use(requestIdHeader()).use(errorResponses()).handler(resolveOrUnavailable);
