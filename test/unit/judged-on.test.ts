import { describe, expect, it } from 'vitest';
import { PASSPORT_MANDATORY_FROM } from '../../lib/domain/battery/categories.ts';
import { completenessReport, defaultJudgedOn, judgedOnWords, placedOnMarketOf, publishJudgedOn, reportJudgedOn } from '../../lib/domain/passport-completeness.ts';

/**
 * The day a battery passport is judged on (issue 41, Major 3; docs/battery.md#the-day-judged): by
 * default the later of today and 18 February 2027 (Regulation (EU) 2023/1542 Art. 77(1)), or the
 * later day the passport says its battery was placed on the market; the report says which in words.
 */

const BEFORE = '2026-11-29';
const AFTER = '2027-06-01';
/** The data of a battery that says it was placed on the market on `day` (its measurement then). */
const placedData = (day: string) => ({ performanceAndDurability: { measuredPerformance: [{ occasion: 'placing_on_market', lastUpdate: `${day}T08:00:00Z` }] } });
/** One battery's passport (granularity item) that says it was placed on the market on `day`. */
const placedOn = (day: string) => ({ data: placedData(day), granularity: 'item' as const });
const EMPTY = { data: {}, granularity: 'model' as const };
const BATTERY = { productId: '0190a000-0000-7000-8000-000000000001', category: 'battery' as const, granularity: 'model' as const };

describe('the default day of a battery passport', () => {
  it('is 18 February 2027 before it, today after it, and the day itself on it', () => {
    // Act
    const before = defaultJudgedOn(EMPTY, BEFORE);
    const after = defaultJudgedOn(EMPTY, AFTER);
    const on = defaultJudgedOn(EMPTY, PASSPORT_MANDATORY_FROM);
    // Assess
    expect(PASSPORT_MANDATORY_FROM).toBe('2027-02-18');
    expect(before).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
    expect(after).toEqual({ day: AFTER, reason: 'today' });
    expect(on).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
  });

  it('is the day one battery\'s passport says it was placed on the market when that is later; an earlier one, or a model\'s, changes nothing', () => {
    // Act
    const later = defaultJudgedOn(placedOn('2027-09-01'), BEFORE);
    const earlier = defaultJudgedOn(placedOn('2027-01-10'), BEFORE);
    const pastAfter = defaultJudgedOn(placedOn('2027-03-01'), AFTER);
    // Assess
    expect(later).toEqual({ day: '2027-09-01', reason: 'placed_on_market' });
    expect(earlier).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
    expect(pastAfter).toEqual({ day: AFTER, reason: 'today' });
    expect(placedOnMarketOf({ data: { performanceAndDurability: { measuredPerformance: [{ occasion: 'status_change', lastUpdate: '2030-01-01T00:00:00Z' }] } }, granularity: 'item' })).toBeUndefined();
    const twice = [...placedData('2028-05-05').performanceAndDurability.measuredPerformance, ...placedData('2027-04-04').performanceAndDurability.measuredPerformance];
    expect(placedOnMarketOf({ data: { performanceAndDurability: { measuredPerformance: twice } }, granularity: 'item' })).toBe('2027-04-04');
    // A model's version describes no one battery: its measurement says nothing of a placing on the market.
    expect(defaultJudgedOn({ data: placedData('2027-09-01'), granularity: 'model' }, BEFORE)).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
  });
});

describe('publishing and the report', () => {
  it('publishing takes a later asOf, counts an earlier one as today, and judges other passports today', () => {
    // Act and assess
    expect(publishJudgedOn('2028-01-01', EMPTY, BEFORE)).toEqual({ day: '2028-01-01', reason: 'as_of' });
    expect(publishJudgedOn('2026-01-01', EMPTY, BEFORE)).toEqual({ day: BEFORE, reason: 'today' });
    expect(publishJudgedOn(BEFORE, EMPTY, BEFORE)).toEqual({ day: BEFORE, reason: 'today' });
    expect(publishJudgedOn(undefined, EMPTY, BEFORE)).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
    expect(publishJudgedOn(undefined, undefined, BEFORE)).toEqual({ day: BEFORE, reason: 'today' });
  });

  it('the report takes any asOf as named, earlier days too, and defaults as publishing does', () => {
    // Act and assess
    expect(reportJudgedOn('2025-01-01', EMPTY, BEFORE)).toEqual({ day: '2025-01-01', reason: 'as_of' });
    expect(reportJudgedOn(undefined, EMPTY, BEFORE)).toEqual({ day: '2027-02-18', reason: 'mandatory_from' });
  });

  it('an empty battery passport is not complete by default before 18 February 2027, and the report says why in words', () => {
    // Prepare
    const judgedOn = reportJudgedOn(undefined, EMPTY, BEFORE);
    // Act
    const report = completenessReport({ product: BATTERY, source: 'draft', version: null, data: {}, asOf: judgedOn.day, judgedOn, generalMissing: () => [] });
    const asked = completenessReport({ product: BATTERY, source: 'draft', version: null, data: {}, asOf: BEFORE, judgedOn: { day: BEFORE, reason: 'as_of' }, generalMissing: () => [] });
    // Assess
    expect(report).toMatchObject({ asOf: '2027-02-18', complete: false, judgedOn: { reason: 'mandatory_from', words: 'judged as on 18 Feb 2027, when the passport becomes mandatory (Regulation (EU) 2023/1542 Art. 77(1))' } });
    expect(report.missingMandatory).toEqual(expect.arrayContaining(['data.generalProductInformation.batteryCategory', 'data.labeling.declarationOfConformity']));
    expect(asked).toMatchObject({ asOf: BEFORE, complete: true, missingMandatory: [], judgedOn: { reason: 'as_of', words: 'judged as on 29 Nov 2026, the day asked for' } });
  });

  it('names each reason in words', () => {
    // Act and assess
    expect(judgedOnWords({ day: '2027-09-01', reason: 'placed_on_market' })).toBe('judged as on 1 Sep 2027, when the passport says the battery was placed on the market');
    expect(judgedOnWords({ day: AFTER, reason: 'today' })).toBe('judged as on 1 Jun 2027, today');
  });
});
