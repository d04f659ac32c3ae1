import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../dashboard/src/routes.ts';
import { batteryStatusOf, dataEntries, stateOfHealthOf, UNIT_STATUSES, unitPath } from '../../dashboard/src/units.ts';
import { ALL_UNIT_STATUSES } from '../../lib/domain/unit-data.ts';

/**
 * A product's batches and items in the dashboard (dashboard/src/units.ts, docs/dashboard.md#batches-and-items):
 * the status filter offers what the API takes, a record's data reads as key/values, a battery's
 * status and state of health are found in its data, and the pages have their routes.
 */
describe('batches and items in the dashboard', () => {
  it('offers exactly the statuses the API lists', () => {
    expect([...UNIT_STATUSES]).toEqual([...ALL_UNIT_STATUSES]);
  });

  it('shows a record’s data as key/values in words, lists of scalars on one line, lists of objects entry by entry', () => {
    // Act
    const entries = dataEntries({
      bottlingDate: '2026-03-01',
      analysis: { alcoholByVolume: 12.5, residualSugarGPerL: 0 },
      tags: ['a', 'b'],
      organic: true,
      negativeEvents: [{ negativeEvent: 'Dropped', lastUpdate: '2027-05-01T00:00:00Z' }],
      empty: {},
    });

    // Assess
    expect(entries.map((entry) => [entry.path, entry.label, entry.value])).toEqual([
      ['bottlingDate', 'Bottling date', '2026-03-01'],
      ['analysis.alcoholByVolume', 'Analysis › Alcohol by volume', '12.5'],
      ['analysis.residualSugarGPerL', 'Analysis › Residual sugar g per l', '0'],
      ['tags', 'Tags', 'a, b'],
      ['organic', 'Organic', 'yes'],
      ['negativeEvents[0].negativeEvent', 'Negative events 1 › Negative event', 'Dropped'],
      ['negativeEvents[0].lastUpdate', 'Negative events 1 › Last update', '2027-05-01T00:00:00Z'],
      ['empty', 'Empty', '—'],
    ]);
    expect(dataEntries({})).toEqual([]);
  });

  it('reads a battery’s status and state of health (its state of certified energy) from its data', () => {
    // Prepare
    const data = {
      generalProductInformation: { batteryStatus: 'Repurposed' },
      performanceAndDurability: { batteryCondition: { stateOfCertifiedEnergy: { stateOfCertifiedEnergyValue: 91.5, lastUpdate: '2027-06-01T00:00:00Z' } } },
    };

    // Assess
    expect(batteryStatusOf(data)).toBe('Repurposed');
    expect(stateOfHealthOf(data)).toEqual({ percent: 91.5, lastUpdate: '2027-06-01T00:00:00Z' });
    expect(stateOfHealthOf({ performanceAndDurability: {} })).toBeUndefined();
    expect(batteryStatusOf({})).toBeUndefined();
  });

  it('routes a product’s items and batches lists and each record, a serial with a slash included', () => {
    expect(parseRoute('#/products/p1/items')).toEqual({ page: 'product', productId: 'p1', tab: 'items' });
    expect(parseRoute('#/products/p1/batches')).toEqual({ page: 'product', productId: 'p1', tab: 'batches' });
    expect(parseRoute('#/products/p1/items/SN%2F1')).toEqual({ page: 'product', productId: 'p1', tab: 'items', unit: 'SN/1' });
    expect(parseRoute('#/products/p1/batches/L1')).toEqual({ page: 'product', productId: 'p1', tab: 'batches', unit: 'L1' });
    expect(parseRoute('#/products/p1/passport/x')).toEqual({ page: 'not-found' });
    expect(parseRoute('#/products/p1/items/a/b')).toEqual({ page: 'not-found' });
    expect(unitPath('p1', 'item', 'SN/1')).toBe('/v1/products/p1/items/SN%2F1');
  });
});
