import { BlockList, isIP } from 'node:net';

/**
 * Which addresses an event subscription may reach (server-side request forgery defence,
 * docs/webhooks-outbound.md#ssrf, docs/security.md): only globally reachable unicast addresses.
 * Refused: every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890)
 * that is not globally reachable, multicast, and for IPv6 anything outside 2000::/3, the only
 * space allocated for global unicast. An IPv6 address that embeds an IPv4 address is refused,
 * except the two forms that reach that IPv4 address, which are checked as it: IPv4-mapped
 * (::ffff:0:0/96) and the NAT64 well-known prefix (64:ff9b::/96).
 */
const refusedV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space, carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122)
  ['169.254.0.0', 16], // link-local, holds the metadata service 169.254.169.254 (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890), incl. 192.0.0.0/29, .8, .9, .10, .170, .171
  ['192.0.2.0', 24], // documentation, TEST-NET-1 (RFC 5737)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation, TEST-NET-2 (RFC 5737)
  ['203.0.113.0', 24], // documentation, TEST-NET-3 (RFC 5737)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved (RFC 1112), and the limited broadcast 255.255.255.255 (RFC 919)
] as const) {
  refusedV4.addSubnet(network, prefix, 'ipv4');
}

/** IPv6 global unicast (RFC 4291 2.4, IANA IPv6 Address Space): any address outside it is refused. */
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

// No rule for ::/96 and ::ffff:0:0/96 here: BlockList matches IPv4-mapped rules against IPv4
// addresses too, so the IPv4-embedding forms are told apart by their words (embeddedForm).
const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215)
  ['100::', 63], // discard-only (RFC 6666) and the dummy prefix 100:0:0:1::/64 (RFC 9780)
  ['2001::', 23], // IETF protocol assignments (RFC 2928): Teredo 2001::/32 (RFC 4380), benchmarking 2001:2::/48 (RFC 5180), ORCHID
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['2002::', 16], // 6to4 (RFC 3056): embeds an IPv4 address, reached through a relay; refused whatever it embeds
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // segment routing SIDs (RFC 9602)
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local (RFC 4291)
  ['fec0::', 10], // site-local, deprecated (RFC 3879)
  ['ff00::', 8], // multicast (RFC 4291)
] as const) {
  refusedV6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit words of an IPv6 literal (Node's isIP says it is one), a dotted IPv4 tail included. */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * Which IPv4-embedding form an IPv6 address is: one that reaches its IPv4 address (`mapped`:
 * IPv4-mapped ::ffff:0:0/96; or NAT64's well-known prefix 64:ff9b::/96, RFC 6052), with that
 * address; `refused`: IPv4-compatible ::/96 (deprecated by RFC 4291; :: and ::1 are not this form)
 * and IPv4-translated ::ffff:0:0:0/96 (RFC 2765); or undefined for any other address.
 */
function embeddedForm(address: string): { reaches: string; mapped: boolean } | 'refused' | undefined {
  const words = ipv6Words(address);
  const at = (i: number): number => words[i] ?? 0;
  const zeroTo = (end: number): boolean => words.slice(0, end).every((word) => word === 0);
  const v4 = ipv4Of(at(6), at(7));
  if (zeroTo(5) && at(5) === 0xffff) return { reaches: v4, mapped: true };
  if (at(0) === 0x64 && at(1) === 0xff9b && words.slice(2, 6).every((word) => word === 0)) return { reaches: v4, mapped: false };
  if (zeroTo(6) && !(at(6) === 0 && at(7) <= 1)) return 'refused';
  if (zeroTo(4) && at(4) === 0xffff && at(5) === 0) return 'refused';
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
  const form = embeddedForm(address);
  if (typeof form === 'object' && form.mapped) return loopback.check(form.reaches, 'ipv4');
  return loopback.check(address, 'ipv6');
}

/**
 * Whether an event subscription may connect to `address`: a globally reachable unicast address;
 * with `allowLoopback` (a local stack only, never in AWS), loopback too (never through NAT64).
 */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (allowLoopback && isLoopbackAddress(address)) return true;
  if (family === 4) return !refusedV4.check(address, 'ipv4');
  const form = embeddedForm(address);
  if (form === 'refused') return false;
  if (form) return !refusedV4.check(form.reaches, 'ipv4');
  return globalUnicastV6.check(address, 'ipv6') && !refusedV6.check(address, 'ipv6');
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
