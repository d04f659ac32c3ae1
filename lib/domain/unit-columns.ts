import { MAX_IMPORT_COLUMNS } from './imports.ts';
import { neutraliseCell } from './import-columns.ts';
import { canonicalJson } from './json.ts';
import { OPEN_DATA_KEY } from './unit-data.ts';
import type { Item } from './units.ts';

/**
 * The columns of an items file (docs/import-export.md#items), which the items export writes and the
 * items import reads: `serial` (required), `lot`, `status`, `digitalLink` (written by the export,
 * ignored by the import: it follows from the product and the serial) and the item's data as
 * `data.{member}` columns, nested members joined by dots (`data.analysis.alcoholByVolume`).
 *
 * A data cell is a number when it is written as JSON writes a number (`12.5`, not `012`), `true` or
 * `false` a boolean, a JSON list (`["a","b"]`) a list, anything else text; an empty cell is no
 * value. Those are the forms the export writes, so an exported file imports back to the same data.
 *
 * An import merges by default (docs/imports.md#merge-or-replace): an empty cell leaves the item's
 * value as it is, and a cell of exactly `null` removes it, as `null` does in a merge patch (RFC
 * 7396); a JSON Lines file's own `null` does the same (import-files.ts writes it as NULL_LINE_CELL).
 * A `data` column (or a line's `"data": null`) takes only `null`: it empties the item's data.
 */
export const ITEM_COLUMNS = ['serial', 'lot', 'status', 'digitalLink'] as const;
const DATA_PREFIX = 'data.';
/** The column that names the item's whole data: only `null` (empty it) is a value of it. */
export const DATA_COLUMN = 'data';

/** A CSV cell that removes its value in a merge (RFC 7396's null). */
export const NULL_CELL = 'null';
/**
 * How a JSON Lines file's `null` reaches the cells (import-files.ts): a text no JSON string of a
 * valid value can be (the text rule refuses control characters in every value, lib/domain/text.ts),
 * so that the text "null" stays text in JSON Lines.
 */
export const NULL_LINE_CELL = '\u0000null';
/** How deep a data column may name a member unless the category says otherwise: the open data's three levels (lib/domain/unit-data.ts). */
const DEFAULT_DATA_SEGMENTS = 3;

export interface ItemCellError {
  column: string;
  message: string;
}

/** Whether a header names a data member: `data.` and one to `depth` member names. */
const isDataHeader = (header: string, depth: number): boolean => {
  if (!header.startsWith(DATA_PREFIX)) return false;
  const segments = header.slice(DATA_PREFIX.length).split('.');
  return segments.length <= depth && segments.every((segment) => OPEN_DATA_KEY.test(segment));
};

/**
 * The headers' problems: an unknown header, or no serial column (a 422 naming the header). `depth`
 * is how many member names a data column may join: the product's category says (lib/domain/unit-data.ts).
 */
export function checkItemHeaders(headers: readonly string[], depth = DEFAULT_DATA_SEGMENTS): ItemCellError[] {
  const errors: ItemCellError[] = [];
  if (headers.length > MAX_IMPORT_COLUMNS) errors.push({ column: headers[MAX_IMPORT_COLUMNS] ?? '', message: `An items file may hold at most ${MAX_IMPORT_COLUMNS} columns.` });
  for (const header of headers) {
    if (!(ITEM_COLUMNS as readonly string[]).includes(header) && header !== DATA_COLUMN && !isDataHeader(header, depth)) {
      errors.push({
        column: header,
        message: `'${header}' is not a column of an items file: serial, lot, status, digitalLink, data (null only: empties the data), or data.{member} (a member name starts with a letter and holds letters, digits and _; at most ${depth} levels for this product's category, joined by dots).`,
      });
    }
  }
  if (!headers.includes('serial')) errors.push({ column: 'serial', message: 'The file has no serial column: every row names its item by serial.' });
  return errors;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A data cell's value (see the module comment); undefined for an empty cell. */
export function dataCellValue(cell: string): unknown {
  if (cell === '') return undefined;
  if (JSON_NUMBER.test(cell) && Number.isFinite(Number(cell))) return Number(cell);
  if (cell === 'true' || cell === 'false') return cell === 'true';
  if (cell.startsWith('[') && cell.endsWith(']')) {
    try {
      const list: unknown = JSON.parse(cell);
      // Scalars, or objects (a battery's negativeEvents): the category's schema checks what they hold.
      if (Array.isArray(list) && list.every((v) => ['string', 'number', 'boolean'].includes(typeof v) || (typeof v === 'object' && v !== null && !Array.isArray(v)))) return list;
    } catch {
      // Not JSON: text.
    }
  }
  return cell;
}

/**
 * What one row of an items file says: its serial, its lot (null: the row removes it), its status,
 * its data members (null inside: a member the row removes), whether it empties the item's data, and
 * its problems. What a null means, and whether an absent value keeps the item's, is the mode's
 * (lib/services/imports-items.ts).
 */
export interface ItemRowInput {
  serial: string;
  lot?: string | null;
  status?: string;
  data?: Record<string, unknown>;
  /** The row's `data` cell is null: the item's data is emptied. */
  emptiesData?: boolean;
  errors: ItemCellError[];
}

const define = (into: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(into, name, { value, enumerable: true, writable: true, configurable: true });

/**
 * One row's cells read (the values are checked afterwards, against the product's category).
 * `nullCell` is the cell that means null: NULL_CELL in a CSV file, NULL_LINE_CELL in JSON Lines.
 */
export function itemRowInput(cells: Readonly<Record<string, string>>, nullCell: string = NULL_CELL): ItemRowInput {
  const errors: ItemCellError[] = [];
  const cell = (name: string) => (Object.hasOwn(cells, name) ? (cells[name] ?? '').trim() : '');
  const data: Record<string, unknown> = {};
  let anyData = false;
  for (const [header, raw] of Object.entries(cells)) {
    if (!header.startsWith(DATA_PREFIX)) continue;
    const trimmed = raw.trim();
    const value = trimmed === nullCell ? null : dataCellValue(trimmed);
    if (value === undefined) continue;
    anyData = true;
    const path = header.slice(DATA_PREFIX.length).split('.');
    let into = data;
    let clash = false;
    for (const segment of path.slice(0, -1)) {
      const next = Object.hasOwn(into, segment) ? into[segment] : undefined;
      if (next === undefined) {
        const created: Record<string, unknown> = {};
        define(into, segment, created);
        into = created;
      } else if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
        into = next as Record<string, unknown>;
      } else {
        clash = true;
        break;
      }
    }
    const last = path.at(-1) ?? '';
    if (clash || Object.hasOwn(into, last)) {
      errors.push({ column: header, message: `${header} names a member that another data column of the row already gives a value.` });
      continue;
    }
    define(into, last, value);
  }
  const whole = cell(DATA_COLUMN);
  const emptiesData = whole !== '' && whole === nullCell;
  if (whole !== '' && !emptiesData) errors.push({ column: DATA_COLUMN, message: 'data takes only null, which empties the item\'s data: give its members in data.{member} columns.' });
  if (emptiesData && anyData) errors.push({ column: DATA_COLUMN, message: 'data is null (empty the item\'s data) and the row gives data.… values too: a row does one or the other.' });
  const lot = cell('lot');
  const status = cell('status');
  if (status !== '' && status === nullCell) errors.push({ column: 'status', message: 'status cannot be removed: leave the cell empty to keep it, or give one of the statuses.' });
  return {
    serial: cell('serial'),
    ...(lot === '' ? {} : { lot: lot === nullCell ? null : lot }),
    ...(status === '' || status === nullCell ? {} : { status }),
    ...(anyData ? { data } : {}),
    ...(emptiesData ? { emptiesData } : {}),
    errors,
  };
}

/** A data value as a cell writes it (the inverse of dataCellValue). */
const cellOf = (value: unknown): string => (Array.isArray(value) ? JSON.stringify(value) : typeof value === 'string' ? value : String(value));

/** An object's members as `data.…` cells, nested members joined by dots. */
function flattenData(value: Record<string, unknown>, prefix: string, out: Record<string, string>): void {
  for (const [name, inner] of Object.entries(value)) {
    const header = `${prefix}.${name}`;
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) flattenData(inner as Record<string, unknown>, header, out);
    else if (inner !== undefined && inner !== null) out[header] = cellOf(inner);
  }
}

/** An item as a row of the export: serial, lot, status, digitalLink, then its data cells. */
export function itemToRow(item: Item): Record<string, string> {
  const row: Record<string, string> = { serial: item.serial, lot: item.lot ?? '', status: item.status, digitalLink: item.digitalLink };
  flattenData(item.data, 'data', row);
  return row;
}

/** The export's header row: the fixed columns, then the page's data columns in alphabetical order (stored maps keep no order). */
export function itemHeadersOf(rows: readonly Record<string, string>[]): string[] {
  const data = new Set<string>();
  for (const row of rows) for (const header of Object.keys(row)) if (header.startsWith(DATA_PREFIX)) data.add(header);
  return [...ITEM_COLUMNS, ...[...data].sort()];
}

/** A row of the CSV export with its text cells neutralised against formulas (numbers as they are; lib/domain/import-columns.ts). */
export const neutraliseItemRow = (row: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(row).map(([header, cell]) => [header, JSON_NUMBER.test(cell) ? cell : neutraliseCell(cell)]));

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The leaf paths of a value under `path`: an object's members one by one, anything else (a list too) whole. */
function leavesOf(value: unknown, path: string, out: string[]): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) for (const [name, inner] of Object.entries(value)) leavesOf(inner, `${path}.${name}`, out);
  else out.push(path);
}

/** The paths where two data values differ, as the columns name them: a member added, removed or changed; a list whole. */
function dataDifferences(before: unknown, after: unknown, path: string, out: string[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const name of names) {
      const inBefore = Object.hasOwn(before, name);
      const inAfter = Object.hasOwn(after, name);
      if (inBefore && inAfter) dataDifferences(before[name], after[name], `${path}.${name}`, out);
      else if (inAfter) leavesOf(after[name], `${path}.${name}`, out);
      else out.push(`${path}.${name}`);
    }
    return;
  }
  if (canonicalJson(before) !== canonicalJson(after)) {
    if (before === undefined) leavesOf(after, path, out);
    else out.push(path);
  }
}

/**
 * What writing `after` over `before` (undefined: a new item) changes, as the columns of an items
 * file name it (docs/imports.md#merge-or-replace): `lot`, `status`, and each `data.…` member added,
 * changed or removed (a list as one). Lists compare in order; objects member by member.
 */
export function changedItemFields(before: { lot?: string; status: string; data: Record<string, unknown> } | undefined, after: { lot?: string; status: string; data: Record<string, unknown> }): string[] {
  const out: string[] = [];
  if ((before?.lot ?? null) !== (after.lot ?? null)) out.push('lot');
  if (before?.status !== after.status) out.push('status');
  dataDifferences(before?.data ?? {}, after.data, 'data', out);
  return out;
}
