/**
 * A product's batches and items as the dashboard shows them (docs/dashboard.md#batches-and-items):
 * their statuses, their data as readable key/values, and a battery's status and state of health.
 * Pure helpers, no imports but types and lib/ modules that import no package.
 */
import type { UnitKind } from '../../lib/domain/unit.ts';
import { valueAt } from '../../lib/domain/battery/paths.ts';
import { labelOf } from './format.ts';

/** The statuses of a batch or an item the status filter offers (lib/domain/unit-data.ts ALL_UNIT_STATUSES; test/unit/dashboard-units.test.ts holds them equal). */
export const UNIT_STATUSES = ['active', 'withdrawn'] as const;

/** The words of each kind: its collection in the path, the name of its value, its noun. */
export const UNIT_WORDS: Readonly<Record<UnitKind, { collection: 'items' | 'batches'; param: 'serial' | 'lot'; noun: string; nouns: string; valueLabel: string }>> = {
  item: { collection: 'items', param: 'serial', noun: 'item', nouns: 'items', valueLabel: 'Serial' },
  batch: { collection: 'batches', param: 'lot', noun: 'batch', nouns: 'batches', valueLabel: 'Lot' },
};

/** The API path of a product's records of one kind, or of one of them (its value percent-encoded). */
export const unitPath = (productId: string, kind: UnitKind, value?: string): string =>
  `/v1/products/${encodeURIComponent(productId)}/${UNIT_WORDS[kind].collection}${value === undefined ? '' : `/${encodeURIComponent(value)}`}`;

export interface DataEntry {
  /** Where the value is, as the API names it: `analysis.alcoholByVolume`, `negativeEvents[0].negativeEvent`. */
  path: string;
  /** The path in words: `Analysis › Alcohol by volume`. */
  label: string;
  value: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | number | boolean | null => value === null || ['string', 'number', 'boolean'].includes(typeof value);

const scalarText = (value: string | number | boolean | null): string => (value === null ? '—' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value));

/** A path's segments in words: `analysis.alcoholByVolume` → `Analysis › Alcohol by volume`, an entry of a list by its number from 1. */
const labelOfPath = (path: string): string =>
  path
    .split('.')
    .map((segment) => segment.replace(/^([^[]+)((?:\[\d+\])*)$/, (_, name: string, indices: string) => `${labelOf(name)}${indices.replace(/\[(\d+)\]/g, (_i, n: string) => ` ${Number(n) + 1}`)}`))
    .join(' › ');

/**
 * A record's data as key/values in the order it holds them: each scalar at its path, a list of
 * scalars as one value (`a, b`), a list of objects entry by entry, an empty object or list as "—".
 */
export function dataEntries(data: unknown, prefix = ''): DataEntry[] {
  const entry = (value: string): DataEntry[] => [{ path: prefix, label: labelOfPath(prefix), value }];
  if (isScalar(data)) return prefix ? entry(scalarText(data)) : [];
  if (Array.isArray(data)) {
    if (data.length === 0) return entry('—');
    if (data.every(isScalar)) return entry(data.map(scalarText).join(', '));
    return data.flatMap((inner, index) => dataEntries(inner, `${prefix}[${index}]`));
  }
  if (isRecord(data)) {
    const keys = Object.keys(data);
    if (keys.length === 0) return prefix ? entry('—') : [];
    return keys.flatMap((key) => dataEntries(data[key], prefix ? `${prefix}.${key}` : key));
  }
  return [];
}

/** A battery item's status of its life (Original, Repurposed, …; Annex XIII point 4(c)), if its data states one. */
export function batteryStatusOf(data: unknown): string | undefined {
  const value = valueAt(data, 'generalProductInformation.batteryStatus');
  return typeof value === 'string' ? value : undefined;
}

/**
 * A battery item's state of health as its data states it: the state of certified energy (SOCE, %
 * of the certified usable energy; docs/battery.md#performance-and-durability) and when it was last
 * updated.
 */
export function stateOfHealthOf(data: unknown): { percent: number; lastUpdate: string | undefined } | undefined {
  const soce = valueAt(data, 'performanceAndDurability.batteryCondition.stateOfCertifiedEnergy');
  const percent = valueAt(soce, 'stateOfCertifiedEnergyValue');
  if (typeof percent !== 'number') return undefined;
  const lastUpdate = valueAt(soce, 'lastUpdate');
  return { percent, lastUpdate: typeof lastUpdate === 'string' ? lastUpdate : undefined };
}
