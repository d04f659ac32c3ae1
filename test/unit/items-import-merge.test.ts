import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../lib/domain/merge-patch.ts';
import { nextUnitVersion, type UnitRecord } from '../../lib/domain/unit.ts';
import { changedItemFields, checkItemHeaders, itemRowInput, NULL_LINE_CELL } from '../../lib/domain/unit-columns.ts';
import { checkItemRow, itemRowContent, type CheckedItemRow } from '../../lib/services/imports-items.ts';

/**
 * How a row of an items file applies to a known serial (issue 41, Blocker 1;
 * docs/imports.md#merge-or-replace): merge by default (an empty cell keeps, `null` removes, as a
 * merge patch), replace on request (the row is the item's whole content, as PUT), and the fields a
 * row changes as the dry run names them.
 */

type Json = Record<string, any>;

const WINE = { category: 'wine' } as const;
const OPEN = { category: 'food' } as const;

/** A stored item of `data`, lot L1, active. */
function stored(data: Json, lot: string | undefined = 'L1', status = 'active'): UnitRecord {
  return nextUnitVersion({ kind: 'item', productId: '0190a000-0000-7000-8000-000000000001', gtin: '04006381333931', value: 'S1' }, undefined, { ...(lot ? { lot } : {}), status, data }, '2026-11-29T10:00:00.000Z');
}

/** A row checked as the upload checks it. */
function checked(product: { category: 'wine' | 'food' }, cells: Record<string, string>, mode: 'merge' | 'replace' = 'merge', nullCell?: string): CheckedItemRow {
  const result = checkItemRow(product, 2, cells, mode, nullCell);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const WINE_DATA = { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.5, residualSugarGPerL: 4.2 } };

describe('a row of an items file, read', () => {
  it('keeps an empty cell as no value, reads a cell of null (CSV) or a JSON Lines null as null, and the text "null" of JSON Lines as text', () => {
    // Act
    const csv = itemRowInput({ serial: 'S1', lot: '', status: '', 'data.analysis.alcoholByVolume': '', 'data.bottlingDate': 'null', 'data.note': 'plain' });
    const lines = itemRowInput({ serial: 'S1', lot: NULL_LINE_CELL, 'data.bottlingDate': NULL_LINE_CELL, 'data.note': 'null' }, NULL_LINE_CELL);
    // Assess
    expect(csv).toEqual({ serial: 'S1', data: { bottlingDate: null, note: 'plain' }, errors: [] });
    expect(lines).toEqual({ serial: 'S1', lot: null, data: { bottlingDate: null, note: 'null' }, errors: [] });
  });

  it('takes a data column of null as "empty the data", and refuses it with data values beside it, another value in it, or a null status', () => {
    // Act
    const empties = itemRowInput({ serial: 'S1', data: 'null' });
    const both = itemRowInput({ serial: 'S1', data: 'null', 'data.bottlingDate': '2025-03-14' });
    const text = itemRowInput({ serial: 'S1', data: '{"a":1}' });
    const status = itemRowInput({ serial: 'S1', status: 'null' });
    // Assess
    expect(empties).toEqual({ serial: 'S1', emptiesData: true, errors: [] });
    expect(both.errors.map((e) => e.column)).toEqual(['data']);
    expect(text.errors).toEqual([{ column: 'data', message: expect.stringContaining('data takes only null') }]);
    expect(status.errors).toEqual([{ column: 'status', message: expect.stringContaining('status cannot be removed') }]);
    expect(checkItemHeaders(['serial', 'data', 'data.bottlingDate'])).toEqual([]);
  });
});

describe('merge, the default', () => {
  it('changes what the row names and keeps the rest of a known item: its lot, status and other data members', () => {
    // Prepare: a row of the serial and one analysis value
    const row = checked(WINE, { serial: 'S1', lot: '', 'data.analysis.alcoholByVolume': '13' });
    // Act
    const planned = itemRowContent(WINE, row, stored(WINE_DATA), 'merge');
    // Assess
    expect(planned).toEqual({ content: { lot: 'L1', status: 'active', data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 13, residualSugarGPerL: 4.2 } } } });
  });

  it('gives the same result as PATCH with the row as a merge patch (RFC 7396): null removes a member or the lot, a data of null empties the data', () => {
    // Prepare
    const item = stored(WINE_DATA);
    const removing = checked(WINE, { serial: 'S1', lot: 'null', 'data.analysis.residualSugarGPerL': 'null' });
    const emptying = checked(WINE, { serial: 'S1', data: 'null', status: 'withdrawn' });
    const patchOf = { lot: null, data: { analysis: { residualSugarGPerL: null } } };
    // Act
    const removed = itemRowContent(WINE, removing, item, 'merge');
    const emptied = itemRowContent(WINE, emptying, item, 'merge');
    const patched = mergePatch({ lot: 'L1', status: 'active', data: WINE_DATA }, patchOf);
    // Assess
    expect(removed).toEqual({ content: patched });
    expect(removed).toEqual({ content: { status: 'active', data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.5 } } } });
    expect(emptied).toEqual({ content: { lot: 'L1', status: 'withdrawn', data: {} } });
  });

  it('checks the merged data whole, as PATCH does: a member the row leaves out may make it invalid, an unknown member fails on upload', () => {
    // Prepare: open data of 64 members; a row adding a 65th
    const full = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`m${i}`, i]));
    const row = checked(OPEN, { serial: 'S1', 'data.extra': '1' });
    // Act
    const planned = itemRowContent(OPEN, row, stored(full), 'merge');
    const unknown = checkItemRow(WINE, 2, { serial: 'S1', 'data.colour': 'red' });
    // Assess
    expect(planned).toEqual({ errors: [{ row: 2, column: 'data', message: expect.stringContaining('at most 64 members') }] });
    expect(unknown).toEqual({ ok: false, errors: [{ row: 2, column: 'data.colour', message: 'data.colour is not a field of a wine item.' }] });
  });

  it('starts a new item as active with empty data and the row on top', () => {
    // Act
    const planned = itemRowContent(WINE, checked(WINE, { serial: 'S9', 'data.bottlingDate': '2025-03-14' }), undefined, 'merge');
    // Assess
    expect(planned).toEqual({ content: { status: 'active', data: { bottlingDate: '2025-03-14' } } });
  });
});

describe('replace, on request', () => {
  it('makes the row the whole item, as PUT does: no lot, active and empty data where it gives none', () => {
    // Prepare
    const item = stored(WINE_DATA, 'L1', 'withdrawn');
    // Act
    const planned = itemRowContent(WINE, checked(WINE, { serial: 'S1', 'data.analysis.alcoholByVolume': '13' }, 'replace'), item, 'replace');
    const bare = itemRowContent(WINE, checked(WINE, { serial: 'S1' }, 'replace'), item, 'replace');
    // Assess
    expect(planned).toEqual({ content: { status: 'active', data: { analysis: { alcoholByVolume: 13 } } } });
    expect(bare).toEqual({ content: { status: 'active', data: {} } });
  });

  it('checks the row\'s data whole on upload (a missing required member fails there)', () => {
    // Act
    const result = checkItemRow(WINE, 4, { serial: 'S1', 'data.analysis.alcoholByVolume': '-1' }, 'replace');
    // Assess
    expect(result).toEqual({ ok: false, errors: [{ row: 4, column: 'data.analysis.alcoholByVolume', message: expect.stringContaining('0 or more') }] });
  });
});

describe('the fields a row changes', () => {
  it('names lot, status and each data member added, changed or removed, a list as one; none for the same content', () => {
    // Prepare
    const before = { lot: 'L1', status: 'active', data: { a: { b: 1, c: [1, 2] }, gone: 'x', same: { k: true } } };
    const after = { status: 'withdrawn', data: { a: { b: 2, c: [1, 2, 3] }, same: { k: true }, added: { x: 1, y: { z: 'w' } } } };
    // Act
    const changes = changedItemFields(before, after);
    const none = changedItemFields(before, structuredClone(before));
    const created = changedItemFields(undefined, { lot: 'L2', status: 'active', data: { bottlingDate: '2025-03-14' } });
    // Assess
    expect(changes).toEqual(['lot', 'status', 'data.a.b', 'data.a.c', 'data.added.x', 'data.added.y.z', 'data.gone']);
    expect(none).toEqual([]);
    expect(created).toEqual(['lot', 'status', 'data.bottlingDate']);
  });
});
