import Bowser from 'bowser';
import { isCountryCode } from './countries.ts';
import { referrerOf } from './referrer.ts';
import type { Environment } from './tenant.ts';

export const DEVICES = ['mobile', 'tablet', 'desktop', 'bot'] as const;
export type Device = (typeof DEVICES)[number];

/**
 * One resolved scan, as it travels through the queue. Aggregate dimensions only: no IP address,
 * no user-agent string, no cookie, no full referrer URL.
 */
export interface ScanEvent {
  v: 1;
  orgId: string;
  environment: Environment;
  productId: string;
  gtin: string;
  /** The registered batch the scan counts for too: the batch scanned, or the lot of the item scanned (docs/resolver.md#batches-and-items). */
  lot?: string;
  /** ISO 8601 UTC. */
  at: string;
  /** ISO 3166-1 alpha-2 from the CDN, or `unknown`. */
  country: string;
  /** The referring site's host name (a valid DNS name, at most 253 characters), `direct` or `other`. */
  referrer: string;
  device: Device;
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
