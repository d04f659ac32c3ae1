/**
 * A product's batches and items as the dashboard shows them (docs/dashboard.md#batches-and-items):
 * their statuses, their data as readable key/values (a battery's in the words of its passport form,
 * each number with its unit), and a battery's status and state of health. Pure helpers, no imports
 * but types, lib/ modules that import no package, and the dashboard's pure helpers.
 */
import type { UnitKind } from '../../lib/domain/unit.ts';
import { covers, valueAt } from '../../lib/domain/battery/paths.ts';
import { formAspects, type Control, type SchemaSet } from './battery-form.ts';
import { labelOf } from './format.ts';
import { languageName } from './labelling.ts';

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
  /** A number's unit, from the API's schema (a battery's data). */
  unit?: string;
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

/**
 * A battery item's data as key/values in the words of the battery passport form
 * (docs/dashboard.md#the-battery-passport-form): each element by its name in the element map, its members
 * by the form's labels, an entry of a list by its noun and number (`Negative events, such as
 * accidents › Event 1 › What happened`), a number with the unit the API's schema states for it, in
 * the element map's order. What lies under no element is shown at its path.
 */
export function batteryDataEntries(data: unknown, schemas: SchemaSet): DataEntry[] {
  const fields = formAspects('all', schemas).flatMap((aspect) => aspect.fields);
  const out: DataEntry[] = [];
  const walk = (control: Control, value: unknown, path: string, label: string): void => {
    if (value === undefined) return;
    const add = (text: string, unit?: string) => out.push({ path, label, value: text, ...(unit ? { unit } : {}) });
    if (control.kind === 'group' && isRecord(value)) {
      const known = new Set(control.members.map((member) => member.key));
      for (const member of control.members) walk(member, value[member.key], `${path}.${member.key}`, `${label} › ${member.label}`);
      for (const key of Object.keys(value).filter((key) => !known.has(key))) out.push(...dataEntries(value[key], `${path}.${key}`).map((entry) => ({ ...entry, label: entry.path })));
    } else if (control.kind === 'list' && Array.isArray(value)) {
      if (value.length === 0) add('—');
      value.forEach((entry, index) => walk(control.entry, entry, `${path}[${index}]`, `${label} › ${control.noun} ${index + 1}`));
    } else if (control.kind === 'texts' && isRecord(value)) {
      for (const [language, text] of Object.entries(value)) out.push({ path: `${path}.${language}`, label: `${label} › ${languageName(language)}`, value: String(text) });
    } else if (control.kind === 'number' && typeof value === 'number') add(value.toLocaleString(undefined, { maximumFractionDigits: 20 }), control.unit);
    else if (isScalar(value)) add(scalarText(value));
    else out.push(...dataEntries(value, path).map((entry) => ({ ...entry, label: entry.path })));
  };
  for (const field of fields) walk(field.control, valueAt(data, field.path), field.path, field.element.name);
  const outside = dataEntries(data).filter((entry) => !fields.some((field) => covers(field.path, entry.path)));
  return [...out, ...outside.map((entry) => ({ ...entry, label: entry.path }))];
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
