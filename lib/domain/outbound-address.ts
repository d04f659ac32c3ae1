import { BlockList, isIP } from 'node:net';

/**
 * Which addresses an event subscription may reach (server-side request forgery defence,
 * docs/webhooks-outbound.md#ssrf): only public unicast addresses. Refused: the IANA special-purpose
 * ranges (RFC 6890 and its registries) that reach this network, its cloud metadata service or
 * nothing routable.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, holds the metadata service 169.254.169.254 (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments, e.g. 192.0.0.192 (RFC 6890)
  ['192.0.2.0', 24], // documentation (RFC 5737)
  ['192.88.99.0', 24], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast 255.255.255.255
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
// No rule for IPv4-mapped addresses (::ffff:0:0/96): BlockList matches such a rule against every
// IPv4 address too. A mapped address is checked as the IPv4 address it stands for (isAllowedAddress).
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (RFC 6052): may reach an IPv4 private address
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard (RFC 6666)
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['2002::', 16], // 6to4 (RFC 3056): embeds an IPv4 address
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:7f00:1`) stands for. */
function mappedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether `address` (an IP literal) is loopback: 127.0.0.0/8, ::1, or an IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return loopback.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = mappedIpv4(address);
  return v4 ? loopback.check(v4, 'ipv4') : loopback.check(address, 'ipv6');
}

/**
 * Whether an event subscription may connect to `address`: a public unicast address; with
 * `allowLoopback` (a local stack only, never in AWS), loopback too.
 */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (allowLoopback && isLoopbackAddress(address)) return true;
  if (family === 6) {
    const v4 = mappedIpv4(address);
    if (v4) return isAllowedAddress(v4, allowLoopback);
    return !refused.check(address, 'ipv6');
  }
  return !refused.check(address, 'ipv4');
}

export interface UrlRules {
  /** A local stack: http:// and loopback addresses are allowed (EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

/**
 * Why a subscription URL is refused before any DNS lookup, or undefined: https:// only (http://
 * only with `allowLoopback`), no credentials in it, and an IP-literal host must be allowed.
 */
export function urlProblem(raw: string, rules: UrlRules): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL such as https://example.com/webhooks.';
  }
  if (url.protocol !== 'https:' && !(rules.allowLoopback && url.protocol === 'http:')) return 'url must start with https://.';
  if (url.username || url.password) return 'url must not hold a user name or password.';
  if (url.hash) return 'url must not hold a fragment (#…).';
  const host = hostOf(url);
  if (isIP(host) && !isAllowedAddress(host, rules.allowLoopback)) return `url points at ${host}, a private, loopback, link-local or reserved address.`;
  if (!isIP(host) && (host === 'localhost' || host.endsWith('.localhost')) && !rules.allowLoopback) return 'url must not point at localhost.';
  return undefined;
}

/** The URL's host without IPv6 brackets or a final dot. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
