import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { MIN_NON_ZERO_MAGNITUDE } from '../../lib/domain/battery/fields.ts';
import { batteryItemDataSchema } from '../../lib/domain/battery/index.ts';
import {
  convertValue,
  DATA_UNITS,
  holdsChangedUnits,
  inCurrentUnits,
  storedData,
  storedUnitFields,
  toCurrentUnits,
  unitConversionsOf,
  UNIT_CHANGES,
  type UnitChange,
} from '../../lib/domain/battery/units-migration.ts';
import { passportDigest, verifyChain } from '../../lib/domain/digest.ts';
import { nextUnitVersion, unitChainFindings, unitDigest, type UnitRecord } from '../../lib/domain/unit.ts';

/**
 * Battery data stored before the units of DIN DKE SPEC 99100 (issue 38 point 10,
 * docs/battery.md#units): time at extreme temperatures in hours, the absolute carbon footprint in
 * kg CO2e. Read, it is in minutes and t CO2e; what is stored, and the digests over it, stay as they were.
 */

type Json = Record<string, any>;

/** The change of the member named `name` (the last segment of its path). */
const change = (name: string) => UNIT_CHANGES.find((candidate) => candidate.path.at(-1) === name)!;
const [HIGH, LOW, HIGH_CHARGING, LOW_CHARGING, ABSOLUTE] = ['timeExtremeHighTemp', 'timeExtremeLowTemp', 'timeExtremeHighTempCharging', 'timeExtremeLowTempCharging', 'absoluteCarbonFootprint'].map(change) as [
  UnitChange,
  UnitChange,
  UnitChange,
  UnitChange,
  UnitChange,
];

/** One battery's data as an item held it before: hours at extreme temperatures, its plant's footprint in kg. */
const hoursAndKg = (hours: [number, number, number, number], kg: number): Json => ({
  carbonFootprint: { absoluteCarbonFootprint: kg },
  performanceAndDurability: {
    batteryCondition: {
      temperatureInformation: {
        timeExtremeHighTemp: hours[0],
        timeExtremeLowTemp: hours[1],
        timeExtremeHighTempCharging: hours[2],
        timeExtremeLowTempCharging: hours[3],
        lastUpdate: '2028-06-30T22:00:00Z',
      },
    },
  },
});

const storedItem = (data: Json, version = 1, previousDigest: string | null = null): UnitRecord => {
  const unsigned = { kind: 'item' as const, productId: '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4c1b00', gtin: '04012345000009', serial: 'SN1', status: 'active', data, version, previousDigest, updatedAt: `2026-0${version}-01T00:00:00.000Z` };
  return { ...unsigned, digest: unitDigest(unsigned), createdAt: '2026-01-01T00:00:00.000Z' };
};

describe('converting a stored value', () => {
  it('hours become minutes (×60) and kg CO2e becomes t CO2e (÷1000), as decimals without binary noise', () => {
    // Prepare
    const cases: [UnitChange, number, number][] = [
      [HIGH, 14.5, 870],
      [LOW, 0.1, 6],
      [HIGH_CHARGING, 2.25, 135],
      [LOW_CHARGING, 0, 0],
      [ABSOLUTE, 6897, 6.897],
      [ABSOLUTE, 1.1, 0.0011],
      [ABSOLUTE, -250, -0.25],
    ];

    // Act
    const converted = cases.map(([change, stored]) => convertValue(change, stored));

    // Assess
    expect(converted).toEqual(cases.map(([, , expected]) => expected));
    expect([HIGH.from, HIGH.to, ABSOLUTE.from, ABSOLUTE.to]).toEqual(['h', 'min', 'kg CO2e', 't CO2e']);
  });

  it('a footprint under 0.001 kg, under the smallest magnitude the schema takes in t, goes to the nearer of 0 and 1e-9', () => {
    // Prepare: 1e-9 kg was the smallest the old schema took
    const stored = [1e-9, 4e-7, 5e-7, 9e-7, -9e-7, 1e-6];

    // Act
    const converted = stored.map((kg) => convertValue(ABSOLUTE, kg));

    // Assess
    expect(converted).toEqual([0, 0, 1e-9, 1e-9, -1e-9, 1e-9]);
    expect(converted.every((t) => t === 0 || Math.abs(t) >= MIN_NON_ZERO_MAGNITUDE)).toBe(true);
  });

  it('every value the old bounds took is, converted, a value the new schema takes (the budgets hold)', () => {
    // Prepare: the old bounds, 0 to 10,000,000 h and ±1e12 kg, 0 or at least 1e-9 in magnitude
    const magnitude = (max: number) => fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max, noNaN: true }), fc.constantFrom(1e-9, max));
    const hours = magnitude(10_000_000);
    const kg = fc.tuple(magnitude(1e12), fc.boolean()).map(([value, negative]) => (negative ? -value : value));

    fc.assert(
      fc.property(fc.tuple(hours, hours, hours, hours), kg, (h, footprint) => {
        // Act
        const { data } = toCurrentUnits(hoursAndKg(h, footprint));
        const parsed = batteryItemDataSchema.safeParse(data);

        // Assess
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('reading stored data', () => {
  it('converts data without the marker into a copy, names what it converted, and leaves the stored data as it was', () => {
    // Prepare
    const data = hoursAndKg([14.5, 36, 2.25, 5.5], 6897);
    const before = structuredClone(data);

    // Act
    const { data: read, conversions } = toCurrentUnits(data);

    // Assess
    expect(read.performanceAndDurability.batteryCondition.temperatureInformation).toEqual({
      timeExtremeHighTemp: 870,
      timeExtremeLowTemp: 2160,
      timeExtremeHighTempCharging: 135,
      timeExtremeLowTempCharging: 330,
      lastUpdate: '2028-06-30T22:00:00Z',
    });
    expect(read.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    expect(data).toEqual(before);
    expect(conversions).toContainEqual({ path: 'carbonFootprint.absoluteCarbonFootprint', stored: 6897, storedUnit: 'kg CO2e', value: 6.897, unit: 't CO2e' });
    expect(conversions).toHaveLength(5);
  });

  it('leaves a record with the marker, data without a changed member, and data of another kind as they are', () => {
    // Prepare
    const marked = { data: hoursAndKg([1, 1, 1, 1], 1000) };
    const wine = { data: { bottlingDate: '2026-03-01' } };
    // An open item of another category may hold a member of the same name beside its own (docs/api.md#the-data-of-a-batch-or-an-item).
    const food = { data: { carbonFootprint: { absoluteCarbonFootprint: 1000 }, weightG: 250 } };
    const noTemperatures = { data: { performanceAndDurability: { batteryCondition: { stateOfCharge: { stateOfChargeValue: 60, lastUpdate: '2028-06-30T22:00:00Z' } } } } };

    // Act
    const read = [inCurrentUnits(marked, DATA_UNITS), inCurrentUnits(wine, undefined), inCurrentUnits(food, undefined), inCurrentUnits(noTemperatures, undefined)];

    // Assess
    expect(read[0]).toBe(marked);
    expect(read[1]).toBe(wine);
    expect(read[2]).toBe(food);
    expect(read[3]).toBe(noTemperatures);
    expect(holdsChangedUnits(food.data)).toBe(false);
    expect(read.map(unitConversionsOf)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('writes a record read back as it was stored, and a record made from it in the new units with the marker', () => {
    // Prepare
    const stored = { productId: 'p', data: hoursAndKg([2, 0, 0, 0], 500) };
    const read = inCurrentUnits(stored, undefined);

    // Act
    const rewritten = storedUnitFields(read);
    const next = storedUnitFields({ ...read, data: { ...read.data } });
    const copied = storedUnitFields({ ...read });

    // Assess: the record read is stored again unchanged (an archived version); anything made from it is new
    expect(rewritten).toEqual({ data: stored.data });
    expect(next.dataUnits).toBe(DATA_UNITS);
    expect(next.data.performanceAndDurability.batteryCondition.temperatureInformation.timeExtremeHighTemp).toBe(120);
    expect(copied).toEqual({ data: read.data, dataUnits: DATA_UNITS });
    expect(storedUnitFields({ data: { bottlingDate: '2026-03-01' } })).toEqual({ data: { bottlingDate: '2026-03-01' } });
  });
});

describe('digests over converted records', () => {
  it("an item's digest is recomputed over what was stored; its next version's over the new units; the chain holds", () => {
    // Prepare: version 1 as stored before, read converted
    const v1 = storedItem(hoursAndKg([1.5, 0, 0, 0], 2000));
    const read = inCurrentUnits(v1, undefined);

    // Act
    const v2 = nextUnitVersion({ kind: 'item', productId: v1.productId, gtin: v1.gtin, value: 'SN1' }, read, { status: 'active', data: read.data }, '2026-02-01T00:00:00.000Z');

    // Assess
    expect(read.data.performanceAndDurability).toMatchObject({ batteryCondition: { temperatureInformation: { timeExtremeHighTemp: 90 } } });
    expect(unitDigest(read)).toBe(v1.digest);
    expect(storedData(read)).toBe(v1.data);
    expect(v2.previousDigest).toBe(v1.digest);
    expect(v2.digest).toBe(unitDigest({ ...v2, data: structuredClone(v2.data) }));
    expect(unitChainFindings([read, v2])).toEqual([]);
    expect(unitChainFindings([{ ...read }, v2]).map((finding) => finding.problem)).toEqual(['digest']);
  });

  it("a passport version's chain verifies over what was stored while its data reads converted", () => {
    // Prepare
    const data = { carbonFootprint: { absoluteCarbonFootprint: 6897 } };
    const unsigned = { data, gtin: '04012345000009', previousDigest: null, productId: 'p', publishedAt: '2026-05-01T00:00:00.000Z', version: 1 };
    const version = { ...unsigned, digest: passportDigest(unsigned) };

    // Act
    const read = inCurrentUnits(version, undefined);

    // Assess
    expect(read.data).toEqual({ carbonFootprint: { absoluteCarbonFootprint: 6.897 } });
    expect(verifyChain([read])).toBeUndefined();
  });
});

describe('the units in the OpenAPI document', () => {
  const schemas = (buildOpenApi() as unknown as { components: { schemas: Record<string, Json> } }).components.schemas;
  const described = (schema: string, property: string): string => String(schemas[schema]?.properties?.[property]?.description ?? '');

  it('states minutes, t CO2e and % per month, the clause of DIN DKE SPEC 99100 for each, and the bounds in the new units', () => {
    // Act
    const temperatures = ['timeExtremeHighTemp', 'timeExtremeLowTemp', 'timeExtremeHighTempCharging', 'timeExtremeLowTempCharging'].map((name) => described('BatteryTemperatureInformation', name));

    // Assess
    for (const [index, text] of temperatures.entries()) expect(text).toMatch(new RegExp(`\\(DIN DKE SPEC 99100 6\\.7\\.7\\.${5 + index}\\)\\. In minutes, 0 to 600000000$`));
    expect(described('BatteryCarbonFootprint', 'absoluteCarbonFootprint')).toMatch(/6\.3\.10\)\. In t CO2e \(tonnes of CO2 equivalent\), -1000000000 to 1000000000$/);
    expect(described('BatteryTechnicalProperties', 'initialSelfDischarge')).toMatch(/6\.7\.4\.6\)\. In % per month, 0 to 100$/);
    expect(described('BatteryCurrentSelfDischargingRate', 'currentSelfDischargingRateValue')).toBe('In % per month, 0 to 100');
    expect(String(schemas.BatteryCurrentSelfDischargingRate?.description)).toContain('6.7.4.7');
    // The evolution of the rate is a relative change in %, not per month (6.7.4.8 e)
    expect(described('BatteryEvolutionOfSelfDischarge', 'evolutionOfSelfDischargeValue')).toBe('In %, -10000 to 10000');
    expect(described('BatteryCarbonFootprintPerLifecycleStage', 'carbonFootprint')).toMatch(/In kg CO2e per kWh/);
    expect(JSON.stringify(schemas)).not.toMatch(/In h,|In kg CO2e,/);
  });

  it('names the stored values of a converted version in the passport and item read forms', () => {
    // Assess
    expect(schemas.Passport?.properties?.unitConversions?.items).toEqual({ $ref: '#/components/schemas/UnitConversion' });
    expect(schemas.Item?.properties?.unitConversions?.items).toEqual({ $ref: '#/components/schemas/UnitConversion' });
    expect(schemas.UnitConversion?.required).toEqual(['path', 'stored', 'storedUnit', 'value', 'unit']);
  });
});
