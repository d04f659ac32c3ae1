/**
 * The host a viewer asked for (docs/security.md#finding-6-a-long-host-on-well-knowndidjson), in a
 * module that imports nothing, so that the resolver's zod-free bundle and the credentials function
 * read hosts by one rule.
 */

/** A DNS name of at most 253 characters: labels of letters, digits and inner hyphens, 1 to 63 long. */
export const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The host a viewer asked for, from `X-Forwarded-Host` (its first value; the CDN sets it in AWS,
 * where the function's own Host is not the viewer's: docs/resolver.md) or `Host`: lower case,
 * without port or trailing dot, or undefined when it is no DNS name of at most 253 characters (an
 * optional `:port` of digits aside). A function that routes by host reads it through this, so a
 * 2,000-character or malformed Host is a 404, never a key DynamoDB refuses.
 */
export function viewerHostname(headers: Readonly<Record<string, string | undefined>> | undefined): string | undefined {
  const raw = headers?.['x-forwarded-host']?.split(',')[0] ?? headers?.host ?? '';
  if (raw.length > 300) return undefined;
  const host = raw.trim().toLowerCase().replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  return DNS_NAME.test(host) ? host : undefined;
}
