import { describe, expect, it } from 'vitest';
import { MAX_REFERRER_HOSTS, planReferrers, summarize, topReferrers } from '../../lib/domain/analytics.ts';
import { referrerOf, storedReferrer } from '../../lib/domain/referrer.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';

const label = (c: string) => c.repeat(63);
/** A valid 253-character host name. */
const LONGEST = `${label('a')}.${label('b')}.${label('c')}.${'d'.repeat(57)}.com`;

describe('referrerOf (the resolver keeps the referring host only, valid or `other`)', () => {
  it('keeps the host name of an http(s) Referer, lower-cased and without www.', () => {
    expect(referrerOf('https://www.Instagram.COM/p/1?x=2')).toBe('instagram.com');
    expect(referrerOf('http://shop.example.co.uk:8080/wine#top')).toBe('shop.example.co.uk');
    expect(referrerOf('https://example.com./')).toBe('example.com');
    expect(referrerOf('https://bücher.example/')).toBe('xn--bcher-kva.example');
    expect(referrerOf(`https://${LONGEST}/`)).toBe(LONGEST);
  });

  it('answers direct without a Referer', () => {
    expect(referrerOf(undefined)).toBe('direct');
    expect(referrerOf('')).toBe('direct');
    expect(referrerOf('   ')).toBe('direct');
  });

  it.each([
    ['a host over 253 characters', `https://e${LONGEST}/`],
    ['a label over 63 characters', `https://${'x'.repeat(64)}.example.com/`],
    ['a Referer over 2048 characters', `https://example.com/${'p'.repeat(2048)}`],
    ['not a URL', 'not a url'],
    ['another scheme', 'ftp://example.com/file'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['an IPv4 address', 'http://192.168.1.1/'],
    ['an IPv6 address', 'http://[::1]/'],
    ['a single-label host', 'http://localhost:3000/'],
    ['a host named like the reserved values', 'https://direct/'],
    ['an underscore in the host', 'https://a_b.example.com/'],
  ])('attack: %s counts as other, never as a stored host', (_, referer) => {
    expect(referrerOf(referer)).toBe('other');
  });

  it('attack: a queued scan event with a malformed or oversized referrer is counted as other, not poison', () => {
    const event = (referrer: string) => ({
      v: 1, orgId: 'org_0123456789abcdef', environment: 'live', productId: '01900000-0000-7000-8000-000000000000',
      gtin: '04006381333931', at: '2026-11-21T10:00:00.000Z', country: 'DE', referrer, device: 'mobile',
    });
    expect(scanEventSchema.parse(event('x'.repeat(300))).referrer).toBe('other');
    expect(scanEventSchema.parse(event('')).referrer).toBe('other');
    expect(scanEventSchema.parse(event('Instagram.com')).referrer).toBe('other');
    expect(scanEventSchema.parse(event('instagram.com')).referrer).toBe('instagram.com');
    expect(scanEventSchema.parse(event('direct')).referrer).toBe('direct');
    expect(storedReferrer('other')).toBe('other');
  });
});

describe('planReferrers (at most MAX_REFERRER_HOSTS hosts per product-day, the rest in other)', () => {
  const counts = (entries: Array<[string, number]>) => new Map(entries);

  it('gives new hosts a place while there is room, most scans first, and folds the rest into other', () => {
    const known = { hosts: new Set(['a.example', 'b.example']), count: 2 };
    const plan = planReferrers(
      counts([['a.example', 4], ['n1.example', 1], ['n2.example', 3], ['n3.example', 3], ['direct', 5], ['other', 2]]),
      known,
      4,
    );
    expect(plan).toEqual({
      existing: [['a.example', 4]],
      added: [['n2.example', 3], ['n3.example', 3]],
      direct: 5,
      other: 2 + 1,
    });
  });

  it('attack: 2,000 unique hosts in one product-day keep 50 hosts and count every other scan into other', () => {
    const flood = counts(Array.from({ length: 2000 }, (_, i) => [`h${i}.example`, 1] as [string, number]));
    const first = planReferrers(flood, undefined);
    expect(first.added).toHaveLength(MAX_REFERRER_HOSTS);
    expect(first.other).toBe(2000 - MAX_REFERRER_HOSTS);
    const full = { hosts: new Set(first.added.map(([h]) => h)), count: MAX_REFERRER_HOSTS };
    const next = planReferrers(counts([['late.example', 7], [first.added[0]?.[0] ?? '', 2]]), full);
    expect(next).toEqual({ existing: [[first.added[0]?.[0], 2]], added: [], direct: 0, other: 7 });
  });

  it('never gives direct a host place: it is counted even when the hosts are full', () => {
    const full = { hosts: new Set(['a.example']), count: MAX_REFERRER_HOSTS };
    expect(planReferrers(counts([['direct', 3]]), full)).toEqual({ existing: [], added: [], direct: 3, other: 0 });
  });
});

describe('topReferrers (the analytics answer: top 10, then other)', () => {
  it('answers the top 10 and other with the rest, so the scans add up to the total', () => {
    const referrers = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`h${String(i).padStart(2, '0')}.example`, 30 - i]));
    const top = topReferrers({ ...referrers, other: 100, direct: 25 });
    expect(top).toHaveLength(11);
    expect(top.slice(0, 3)).toEqual([{ domain: 'h00.example', scans: 30 }, { domain: 'h01.example', scans: 29 }, { domain: 'h02.example', scans: 28 }]);
    expect(top.map((r) => r.domain)).toContain('direct');
    expect(top.at(-1)?.domain).toBe('other');
    const all = Object.values(referrers).reduce((a, b) => a + b, 0) + 100 + 25;
    expect(top.reduce((n, r) => n + r.scans, 0)).toBe(all);
  });

  it('adds no other entry when every referrer fits', () => {
    expect(topReferrers({ 'a.example': 2, direct: 1 })).toEqual([{ domain: 'a.example', scans: 2 }, { domain: 'direct', scans: 1 }]);
  });

  it('merges other across days in summarize', () => {
    const day = (d: string, referrers: Record<string, number>) => ({
      day: d, scans: Object.values(referrers).reduce((a, b) => a + b, 0), bots: 0,
      devices: { mobile: 0, tablet: 0, desktop: 0 }, countries: {}, referrers,
    });
    const result = summarize('p', { startDay: '2026-03-01', endDay: '2026-03-02' }, 'day', [
      day('2026-03-01', { 'a.example': 2, other: 5 }),
      day('2026-03-02', { 'a.example': 1, other: 1 }),
    ]);
    expect(result.topReferrers).toEqual([{ domain: 'a.example', scans: 3 }, { domain: 'other', scans: 6 }]);
    expect(result.totalScans).toBe(9);
  });
});
