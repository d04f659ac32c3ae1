import { describe, expect, it } from 'vitest';
import { bucketStart, buckets, resolveWindow, summarize, type DayRollup } from '../../lib/domain/analytics.ts';

const rollup = (day: string, scans: number, extra: Partial<DayRollup> = {}): DayRollup => ({
  day,
  scans,
  bots: 0,
  devices: { mobile: scans, tablet: 0, desktop: 0 },
  countries: { DE: scans },
  referrers: { direct: scans },
  ...extra,
});

describe('buckets', () => {
  it('labels ISO weeks by their Monday, across a year end', () => {
    expect(bucketStart('2021-01-03', 'week')).toBe('2020-12-28'); // Sunday of ISO week 2020-W53
    expect(bucketStart('2021-01-04', 'week')).toBe('2021-01-04'); // Monday of 2021-W01
    expect(bucketStart('2026-01-01', 'week')).toBe('2025-12-29'); // Thursday of 2026-W01
    expect(buckets({ startDay: '2020-12-30', endDay: '2021-01-12' }, 'week')).toEqual(['2020-12-28', '2021-01-04', '2021-01-11']);
  });

  it('labels months by their first day, through month ends and a leap day', () => {
    expect(bucketStart('2024-02-29', 'month')).toBe('2024-02-01');
    expect(buckets({ startDay: '2024-01-31', endDay: '2024-03-01' }, 'month')).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
    expect(buckets({ startDay: '2024-02-28', endDay: '2024-03-01' }, 'day')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(buckets({ startDay: '2023-02-28', endDay: '2023-03-01' }, 'day')).toEqual(['2023-02-28', '2023-03-01']);
  });
});

describe('resolveWindow', () => {
  const now = new Date('2026-11-21T18:30:00Z');

  it('defaults to 90 days ago through today (UTC), inclusive', () => {
    expect(resolveWindow(undefined, undefined, now)).toEqual({ ok: true, window: { startDay: '2026-08-23', endDay: '2026-11-21' } });
    expect(resolveWindow('2026-11-01', undefined, now)).toEqual({ ok: true, window: { startDay: '2026-11-01', endDay: '2026-11-21' } });
  });

  it('refuses end before start and windows over 366 days, naming the parameter', () => {
    expect(resolveWindow('2026-11-02', '2026-11-01', now)).toMatchObject({ ok: false, param: 'end' });
    expect(resolveWindow('2024-01-01', '2024-12-31', now)).toMatchObject({ ok: true }); // 366 days (leap year)
    expect(resolveWindow('2025-01-01', '2026-01-02', now)).toMatchObject({ ok: false, param: 'start' });
  });
});

describe('summarize', () => {
  it('zero-fills every bucket, sums dimensions, ranks referrers and keeps bots out of the totals', () => {
    const result = summarize(
      'p1',
      { startDay: '2026-03-01', endDay: '2026-03-10' },
      'week',
      [
        rollup('2026-03-01', 2, { bots: 5, countries: { FR: 1, unknown: 1 }, referrers: { 'a.example': 2 } }),
        rollup('2026-03-09', 3, { referrers: { 'b.example': 3 } }),
      ],
    );
    expect(result.period).toEqual({ start: '2026-03-01T00:00:00.000Z', end: '2026-03-10T23:59:59.999Z' });
    expect(result.totalScans).toBe(5);
    expect(result.bots).toBe(5);
    expect(result.locations).toEqual({ FR: 1, unknown: 1, DE: 3 });
    expect(result.uniqueCountries).toBe(2);
    expect(result.topReferrers).toEqual([{ domain: 'b.example', scans: 3 }, { domain: 'a.example', scans: 2 }]);
    expect(result.scansByDay).toEqual([
      { date: '2026-02-23', scans: 2 },
      { date: '2026-03-02', scans: 0 },
      { date: '2026-03-09', scans: 3 },
    ]);
  });
});
