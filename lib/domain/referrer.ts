/**
 * The referrer dimension of a scan: the referring site's host name, `direct` (no Referer) or
 * `other` (a Referer that is not an http(s) URL with a valid DNS host name). Plain functions, no
 * dependencies: the resolver imports this on every scan (docs/api.md#scan-analytics-and-why-nothing-personal-is-kept).
 */
export const DIRECT = 'direct';
export const OTHER_REFERRER = 'other';

/** Longest Referer header the resolver parses; anything longer counts as `other`. */
export const MAX_REFERER_LENGTH = 2048;
/** A DNS name: at most 253 characters, labels of 1–63 letters, digits and inner hyphens. */
const MAX_HOST_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const NUMERIC = /^[0-9]+$/;

/**
 * Whether `host` is a lower-case DNS host name of at least two labels whose last label is not
 * numeric (so no IP address, and never one of the reserved values `direct` and `other`).
 */
export function isReferrerHost(host: string): boolean {
  if (host.length === 0 || host.length > MAX_HOST_LENGTH) return false;
  const labels = host.split('.');
  if (labels.length < 2 || NUMERIC.test(labels.at(-1) ?? '')) return false;
  return labels.every((label) => LABEL.test(label));
}

/**
 * The referrer of a scan from its Referer header: the host name only (lower case, no `www.`),
 * `direct` when there is none, `other` when it is too long, not an http(s) URL, or its host is not
 * a valid DNS name. At most 253 characters, so it never makes a scan event invalid.
 */
export function referrerOf(referer: string | undefined): string {
  if (referer === undefined || referer.trim() === '') return DIRECT;
  if (referer.length > MAX_REFERER_LENGTH) return OTHER_REFERRER;
  let url: URL;
  try {
    url = new URL(referer.trim());
  } catch {
    return OTHER_REFERRER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return OTHER_REFERRER;
  const host = url.hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  return isReferrerHost(host) ? host : OTHER_REFERRER;
}

/** A referrer as the aggregator stores it: a valid host, `direct` or `other` (anything else folds into `other`). */
export const storedReferrer = (referrer: string): string =>
  referrer === DIRECT || referrer === OTHER_REFERRER || isReferrerHost(referrer) ? referrer : OTHER_REFERRER;
