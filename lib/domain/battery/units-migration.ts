/**
 * Battery data stored before the units of DIN DKE SPEC 99100:2025-02 (docs/battery.md#units,
 * docs/decisions.md#battery-units-converted-on-read): the time at extreme temperatures was held in
 * hours and the absolute carbon footprint in kg CO2e; the specification states minutes (6.7.7.5 to
 * 6.7.7.8) and t CO2e (6.3.10). Nothing stored is rewritten: a record written since carries the
 * marker `dataUnits`, and a record without it is converted on every read that returns its data, by
 * the mappers of lib/data (and lib/domain/unit.ts for batches and items). The converted record
 * remembers what was stored, so that what is written back as that version (an archived item), and
 * every digest recomputed over it, is the stored form: digests and signed credentials stay true.
 *
 * No zod and no npm import: the resolver reads stored records through this module
 * (docs/decisions.md#the-resolvers-import-path-is-free-of-zod).
 */
import { BATTERY_DATA_MEMBERS } from '../passport-kinds.ts';

/** The marker a record written in these units carries, as `dataUnits`, when its data holds a value of a unit that changed. */
export const DATA_UNITS = 'DIN DKE SPEC 99100:2025-02';

/** The smallest magnitude a non-zero number may have (MIN_NON_ZERO_MAGNITUDE of fields.ts, which imports zod). */
const MIN_MAGNITUDE = 1e-9;

/** One member whose unit changed: where it is (the same path in a passport's and an item's data), its old and new unit, the factor, and the clause. */
export interface UnitChange {
  path: readonly string[];
  /** The unit it was stored in before. */
  from: string;
  /** The unit DIN DKE SPEC 99100 states, in which it is read now. */
  to: string;
  /** new value = old value × multiply, or old value ÷ divide (a decimal shift, divided rather than multiplied by 0.001). */
  multiply?: number;
  divide?: number;
  clause: string;
}

const TEMPERATURE = ['performanceAndDurability', 'batteryCondition', 'temperatureInformation'] as const;

/** Every member whose unit changed; the self-discharge rates changed only their stated unit (docs/battery.md#units), not a value. */
export const UNIT_CHANGES: readonly UnitChange[] = [
  { path: [...TEMPERATURE, 'timeExtremeHighTemp'], from: 'h', to: 'min', multiply: 60, clause: '6.7.7.5' },
  { path: [...TEMPERATURE, 'timeExtremeLowTemp'], from: 'h', to: 'min', multiply: 60, clause: '6.7.7.6' },
  { path: [...TEMPERATURE, 'timeExtremeHighTempCharging'], from: 'h', to: 'min', multiply: 60, clause: '6.7.7.7' },
  { path: [...TEMPERATURE, 'timeExtremeLowTempCharging'], from: 'h', to: 'min', multiply: 60, clause: '6.7.7.8' },
  { path: ['carbonFootprint', 'absoluteCarbonFootprint'], from: 'kg CO2e', to: 't CO2e', divide: 1000, clause: '6.3.10' },
];

/** One value converted on read: where (a dotted path in `data`), as stored, and as read. Put `stored` back at `path` to recompute the version's digest. */
export interface UnitConversion {
  path: string;
  stored: number;
  storedUnit: string;
  value: number;
  unit: string;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function numberAt(data: unknown, path: readonly string[]): number | undefined {
  let here: unknown = data;
  for (const key of path) {
    if (!isMap(here)) return undefined;
    here = here[key];
  }
  return typeof here === 'number' && Number.isFinite(here) ? here : undefined;
}

/**
 * A stored value in the new unit: ×60 or ÷1000, rounded to 15 significant digits (so that 0.1 h is
 * 6 min, not 6.000000000000001, and 1.1 kg is 0.0011 t), and a magnitude under 1e-9, which the
 * schemas refuse, rounded to the nearer of 0 and ±1e-9 (only a carbon footprint under 1e-6 kg can
 * come to that). The bounds hold: at most 10,000,000 h is at most 600,000,000 min, and ±1e12 kg is ±1e9 t.
 */
export function convertValue(change: UnitChange, value: number): number {
  const raw = change.divide === undefined ? value * (change.multiply ?? 1) : value / change.divide;
  const rounded = Number(raw.toPrecision(15));
  if (rounded === 0) return 0;
  if (Math.abs(rounded) >= MIN_MAGNITUDE) return rounded;
  return Math.abs(rounded) >= MIN_MAGNITUDE / 2 ? Math.sign(rounded) * MIN_MAGNITUDE : 0;
}

/**
 * Whether `data` is a battery passport's or a battery's data: an object of battery aspects only. A
 * record does not name its category, and the open data of a batch or item of another category
 * (docs/api.md#the-data-of-a-batch-or-an-item) could hold a member of the same name beside others.
 */
const isBatteryData = (data: unknown): data is Record<string, unknown> => isMap(data) && Object.keys(data).every((key) => BATTERY_DATA_MEMBERS.has(key));

/** Whether `data` holds a value of a member whose unit changed: then what is written carries the marker. */
export const holdsChangedUnits = (data: unknown): boolean => isBatteryData(data) && UNIT_CHANGES.some((change) => numberAt(data, change.path) !== undefined);

/** A copy of `data` along `path` (the rest shared), with `value` at its end. */
function withValue(data: Record<string, unknown>, path: readonly string[], value: number): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]];
  return { ...data, [key]: rest.length === 0 ? value : withValue(data[key] as Record<string, unknown>, rest, value) };
}

/**
 * `data` as stored before the units changed, in the units read now, and what was converted. The
 * same object when nothing needed converting; otherwise a copy (`data` is not changed).
 */
export function toCurrentUnits<T>(data: T): { data: T; conversions: UnitConversion[] } {
  let out: unknown = data;
  const conversions: UnitConversion[] = [];
  if (!isBatteryData(data)) return { data, conversions };
  for (const change of UNIT_CHANGES) {
    const stored = numberAt(data, change.path);
    if (stored === undefined) continue;
    const value = convertValue(change, stored);
    conversions.push({ path: change.path.join('.'), stored, storedUnit: change.from, value, unit: change.to });
    out = withValue(out as Record<string, unknown>, change.path, value);
  }
  return { data: out as T, conversions };
}

/** What a record read was as stored, by the record object read (a copy made with a spread is a new record, not the stored one). */
const STORED = new WeakMap<object, { data: unknown; conversions: UnitConversion[] }>();

/**
 * A record as a read returns it: with its data in the current units. `dataUnits` is the stored
 * record's marker; without it, the values of the members whose unit changed are converted, and
 * the record read remembers its stored data (storedData, unitConversionsOf).
 */
export function inCurrentUnits<R extends { data: unknown }>(record: R, dataUnits: unknown): R {
  if (dataUnits === DATA_UNITS) return record;
  const { data, conversions } = toCurrentUnits(record.data);
  if (conversions.length === 0) return record;
  const converted = { ...record, data };
  STORED.set(converted, { data: record.data, conversions });
  return converted;
}

/** The data of `record` as stored: what its digest covers. Its own data unless a read converted it. */
export const storedData = <D>(record: { data: D }): D => (STORED.get(record)?.data as D | undefined) ?? record.data;

/** What a read converted in `record`, or undefined when it converted nothing. */
export const unitConversionsOf = (record: object): UnitConversion[] | undefined => STORED.get(record)?.conversions;

/** The member a read form adds for a record a read converted (`unitConversions`, lib/domain/battery/unit-conversions.ts); none otherwise. */
export const unitConversionsMember = (record: object): { unitConversions?: UnitConversion[] } => {
  const conversions = unitConversionsOf(record);
  return conversions ? { unitConversions: conversions } : {};
};

/**
 * What to store for `record`: the record read as it was stored (its stored data, no marker), or a
 * record written now with its data and, when the data holds a value whose unit changed, the marker.
 */
export function storedUnitFields<D>(record: { data: D }): { data: D; dataUnits?: string } {
  const stored = STORED.get(record);
  if (stored) return { data: stored.data as D };
  return holdsChangedUnits(record.data) ? { data: record.data, dataUnits: DATA_UNITS } : { data: record.data };
}
