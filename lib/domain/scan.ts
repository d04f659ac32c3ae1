import Bowser from 'bowser';
import { isCountryCode } from './countries.ts';
import { referrerOf } from './referrer.ts';
import type { Environment } from './tenant.ts';
import { isWine } from './wine.ts';

export const DEVICES = ['mobile', 'tablet', 'desktop', 'bot'] as const;
export type Device = (typeof DEVICES)[number];

/** What every scan event holds: whose product, which product (and batch), and when. */
export interface ScanEventBase {
  v: 1;
  orgId: string;
  environment: Environment;
  productId: string;
  gtin: string;
  /** The registered batch the scan counts for too: the batch scanned, or the lot of the item scanned (docs/resolver.md#batches-and-items). */
  lot?: string;
  /** ISO 8601 UTC. */
  at: string;
}

/**
 * A scan with its aggregate dimensions, read from the request's headers: every category but wine
 * (docs/privacy.md). No IP address, no user-agent string, no cookie, no full referrer URL.
 */
export interface DimensionedScanEvent extends ScanEventBase {
  countOnly?: undefined;
  /** ISO 3166-1 alpha-2 from the CDN, or `unknown`. */
  country: string;
  /** The referring site's host name (a valid DNS name, at most 253 characters), `direct` or `other`. */
  referrer: string;
  device: Device;
}

/**
 * A scan of a wine's e-label: a count and nothing of the request (no country, no device class, no
 * referrer), since on those e-labels "no user data shall be collected or tracked" (docs/privacy.md).
 */
export interface CountOnlyScanEvent extends ScanEventBase {
  countOnly: true;
  country?: undefined;
  referrer?: undefined;
  device?: undefined;
}

/** One resolved scan, as it travels through the queue (and, spilled, through the table). */
export type ScanEvent = DimensionedScanEvent | CountOnlyScanEvent;

/** The dimensions a count-only scan leaves out, as the analytics answer names them. */
export const COUNT_ONLY_OMITS = ['country', 'device', 'referrer'] as const;
export type ScanDimension = (typeof COUNT_ONLY_OMITS)[number];

/** What decides whether a scan may record anything of the request: the product scanned. */
export interface ScannedProduct {
  category: string;
  /** The current passport's `productType`, when it has one. */
  productType?: string | undefined;
}

/**
 * Whether a scan of this product's e-label is a count and nothing more: a wine (category `wine`, or
 * a passport whose productType is `wine`). Regulation (EU) No 1308/2013 Art. 119(4) and (5)(a), as
 * amended by Regulation (EU) 2021/2117, say of the electronic means that carry a wine's nutrition
 * declaration and list of ingredients "no user data shall be collected or tracked"; Regulation (EU)
 * No 251/2014 Art. 6a(2) and (3)(a) says the same of aromatised wine products, which this service
 * files under category `wine` (docs/privacy.md). "Is this a wine" is the one rule of wine.ts.
 */
export const scanIsCountOnly = (product: ScannedProduct): boolean => isWine(product.category, product.productType);

/** The request headers a scan's dimensions come from. */
export interface ScanHeaders {
  /** CloudFront-Viewer-Country. */
  country?: string | undefined;
  referer?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * The scan event of one resolved scan. For a product whose scans are counts only
 * (`scanIsCountOnly`), `headers` is never called: nothing of the request is read, so nothing of
 * it can reach the queue, the spill item or the rollup.
 */
export function buildScanEvent(base: ScanEventBase, product: ScannedProduct, headers: () => ScanHeaders): ScanEvent {
  if (scanIsCountOnly(product)) return { ...base, countOnly: true };
  const { country, referer, userAgent } = headers();
  return { ...base, country: viewerCountry(country), referrer: referrerDomain(referer), device: deviceClass(userAgent) };
}

const SCRIPTED = /bot|crawl|spider|slurp|curl|wget|python|httpclient|http-client|okhttp|java\/|go-http|node-fetch|axios|headless/i;

/** Device class from a User-Agent (bowser); an empty or scripted agent is a bot. */
export function deviceClass(userAgent: string | undefined): Device {
  if (!userAgent?.trim()) return 'bot';
  const type = Bowser.getParser(userAgent).getPlatformType(true);
  if (type === 'bot' || SCRIPTED.test(userAgent)) return 'bot';
  if (type === 'mobile' || type === 'tablet') return type;
  return 'desktop';
}

/**
 * Only the host name of a Referer header (lower case, no `www.`), `direct` without one, `other`
 * when it is not an http(s) URL with a valid DNS host name (see `referrerOf`).
 */
export const referrerDomain = (referer: string | undefined): string => referrerOf(referer);

/** The viewer country the CDN reports, if it is a real ISO code. */
export function viewerCountry(header: string | undefined): string {
  const code = header?.trim().toUpperCase() ?? '';
  return isCountryCode(code) ? code : 'unknown';
}
