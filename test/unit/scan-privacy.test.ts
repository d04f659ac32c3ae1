import { describe, expect, it } from 'vitest';
import { COUNT_ONLY_REASON, summarize, type DayRollup } from '../../lib/domain/analytics.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';
import { buildScanEvent, scanIsCountOnly, type ScanEventBase, type ScanHeaders } from '../../lib/domain/scan.ts';

/**
 * What a scan records, by the product scanned (docs/privacy.md): a wine's scan is a count, built
 * without reading the request; every other category keeps its country, device class and referrer.
 */
const BASE: ScanEventBase = {
  v: 1,
  orgId: 'org_0123456789abcdef',
  environment: 'live',
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  gtin: '04006381333931',
  at: '2026-11-21T10:15:30.000Z',
};
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const HEADERS: ScanHeaders = { country: 'DE', referer: 'https://www.instagram.com/p/1', userAgent: IPHONE };

/** The headers of one scan, counting how often the rule reads them. */
function request(headers: ScanHeaders = HEADERS) {
  const read = { times: 0 };
  return { read, headers: () => (read.times++, headers) };
}

describe('the scan event a product gets (buildScanEvent)', () => {
  it.each([
    ['category wine', { category: 'wine' }],
    ['category wine, productType wine', { category: 'wine', productType: 'wine' }],
    ['category wine without a passport productType', { category: 'wine', productType: undefined }],
    ['productType wine under another category', { category: 'food', productType: 'wine' }],
  ])('%s: a count with no country, device or referrer, and the request never read', (_, product) => {
    // Prepare
    const scan = request();
    // Act
    const event = buildScanEvent({ ...BASE, lot: 'LOT1' }, product, scan.headers);
    // Assess
    expect(event).toEqual({ ...BASE, lot: 'LOT1', countOnly: true });
    expect(scan.read.times).toBe(0);
    expect(JSON.stringify(event)).not.toMatch(/DE|instagram|iPhone|mobile/);
  });

  it.each([
    ['food', { category: 'food', productType: 'food' }],
    ['textile', { category: 'textile', productType: 'textile' }],
    ['electronics without a passport', { category: 'electronics' }],
    ['battery', { category: 'battery' }],
  ])('%s: the country, device class and referring host, as before', (_, product) => {
    // Prepare
    const scan = request();
    // Act
    const event = buildScanEvent(BASE, product, scan.headers);
    // Assess
    expect(event).toEqual({ ...BASE, country: 'DE', referrer: 'instagram.com', device: 'mobile' });
    expect(scan.read.times).toBe(1);
  });

  it('keeps a non-wine scan without headers as unknown, direct and bot', () => {
    expect(buildScanEvent(BASE, { category: 'food' }, () => ({}))).toMatchObject({ country: 'unknown', referrer: 'direct', device: 'bot' });
  });

  it('decides by the category or the productType value wine, nothing else', () => {
    expect(scanIsCountOnly({ category: 'food', productType: 'Wine' })).toBe(false);
    expect(scanIsCountOnly({ category: 'food', productType: undefined })).toBe(false);
    expect(scanIsCountOnly({ category: 'wine' })).toBe(true);
  });
});

describe('the scan message the aggregator takes (scanEventSchema)', () => {
  it('takes a count-only scan as it is', () => {
    expect(scanEventSchema.parse({ ...BASE, countOnly: true })).toEqual({ ...BASE, countOnly: true });
  });

  it.each(['country', 'device', 'referrer'])('refuses a count-only scan that carries %s (a poison message, never counted)', (dimension) => {
    // Prepare
    const value = { country: 'DE', device: 'mobile', referrer: 'direct' }[dimension];
    // Act
    const parsed = scanEventSchema.safeParse({ ...BASE, countOnly: true, [dimension]: value });
    // Assess
    expect(parsed.success).toBe(false);
  });

  it('refuses a scan with neither its dimensions nor countOnly, and countOnly other than true', () => {
    expect(scanEventSchema.safeParse(BASE).success).toBe(false);
    expect(scanEventSchema.safeParse({ ...BASE, countOnly: false }).success).toBe(false);
    expect(scanEventSchema.safeParse({ ...BASE, country: 'DE', device: 'mobile' }).success).toBe(false);
  });

  it('still takes a scan with its dimensions', () => {
    expect(scanEventSchema.parse({ ...BASE, country: 'FR', referrer: 'shop.example.com', device: 'desktop' })).toMatchObject({ country: 'FR', device: 'desktop' });
  });
});

describe('the analytics of a wine (summarize with countOnly)', () => {
  const day = (date: string, scans: number, extra: Partial<DayRollup> = {}): DayRollup => ({
    day: date, scans, bots: 0, devices: { mobile: 0, tablet: 0, desktop: 0 }, countries: {}, referrers: {}, ...extra,
  });

  it('counts the scans, says which dimensions are not collected and why, and reports none a rollup of before still holds', () => {
    // Prepare: a day counted while the product was not a wine yet, and a day of counts only
    const rollups = [
      day('2026-03-01', 2, { bots: 4, devices: { mobile: 2, tablet: 0, desktop: 0 }, countries: { DE: 2 }, referrers: { 'a.example': 2 } }),
      day('2026-03-02', 3),
    ];
    // Act
    const result = summarize('p1', { startDay: '2026-03-01', endDay: '2026-03-02' }, 'day', rollups, { countOnly: true });
    // Assess
    expect(result).toMatchObject({
      totalScans: 5,
      uniqueCountries: 0,
      locations: {},
      topReferrers: [],
      devices: { mobile: 0, tablet: 0, desktop: 0 },
      bots: 0,
      scansByDay: [{ date: '2026-03-01', scans: 2 }, { date: '2026-03-02', scans: 3 }],
      notCollected: ['country', 'device', 'referrer'],
      notCollectedReason: COUNT_ONLY_REASON,
    });
    expect(result.notCollectedReason).toMatch(/1308\/2013, Art\. 119\(4\).*2021\/2117.*251\/2014, Art\. 6a.*"no user data shall be collected or tracked"/);
  });

  it('says nothing of uncollected dimensions for other products', () => {
    const result = summarize('p1', { startDay: '2026-03-01', endDay: '2026-03-01' }, 'day', [day('2026-03-01', 1, { countries: { FR: 1 } })]);
    expect(result).not.toHaveProperty('notCollected');
    expect(result).not.toHaveProperty('notCollectedReason');
    expect(result.locations).toEqual({ FR: 1 });
  });
});
