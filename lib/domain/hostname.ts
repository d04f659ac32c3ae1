/**
 * Hostnames as people paste them and as DNS providers ask for them (docs/brand-domains.md). No
 * package is imported here: the dashboard takes these values too (docs/architecture.md#layers).
 */

/**
 * The hostname a person means by what they pasted: surrounding space gone, letters in lower case,
 * a scheme (`https://`) and everything from the first `/`, `?` or `#` (path, query, fragment)
 * removed, and one trailing dot (the DNS root) dropped. `https://www.Example.it/shop?x=1` is
 * `www.example.it`. What remains is checked as a hostname (lib/domain/domain.ts hostnameProblem),
 * so a port or a user name is refused with a message that names it.
 */
export function normalizeHostname(input: string): string {
  let host = input.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.replace(/[/?#].*$/s, '');
  return host.endsWith('.') && !host.endsWith('..') ? host.slice(0, -1) : host;
}

/**
 * Public suffixes of two labels under which most brands register (`co.uk`, `com.au`, …): a short
 * list, not the Public Suffix List, only to guess the domain a DNS provider manages (dnsZoneOf).
 */
const TWO_LABEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'ac.uk', 'gov.uk',
  'com.au', 'net.au', 'org.au', 'co.nz', 'org.nz', 'co.za', 'co.jp', 'or.jp', 'ne.jp', 'co.kr',
  'com.br', 'com.ar', 'com.mx', 'com.cn', 'com.hk', 'com.sg', 'com.tw', 'com.tr', 'co.in', 'co.il',
  'co.at', 'or.at', 'com.pl', 'com.pt', 'com.es', 'com.gr', 'com.cy', 'com.mt', 'co.hu',
]);

/**
 * The domain a DNS provider most likely manages for `hostname`: its last two labels (`example.it`
 * for `www.example.it`), or three under a two-label public suffix (`brand.co.uk`).
 */
export function dnsZoneOf(hostname: string): string {
  const labels = hostname.split('.');
  const lastTwo = labels.slice(-2).join('.');
  return labels.slice(TWO_LABEL_SUFFIXES.has(lastTwo) && labels.length > 2 ? -3 : -2).join('.');
}

/**
 * A record's name as a DNS provider's form asks for it: the part before the managed domain
 * (`_passport-challenge.www` for `_passport-challenge.www.example.it` in `example.it`), or `@` for
 * the domain itself.
 */
export function recordHostIn(fullName: string, zone: string): string {
  if (fullName === zone) return '@';
  return fullName.endsWith(`.${zone}`) ? fullName.slice(0, -(zone.length + 1)) : fullName;
}
