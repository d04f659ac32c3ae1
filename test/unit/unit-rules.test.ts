import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnitValue, longestUnitChain, nextUnitVersion, unitChainFindings, unitValueProblem, UNIT_VALUE_PATTERN, type UnitRecord } from '../../lib/domain/unit.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { checkItemRow } from '../../lib/services/imports-items.ts';
import { unitValueOf } from '../../lib/services/items.ts';

/**
 * The one rule of a lot or serial, every way in (issue 37, finding 7), and a record's digest chain
 * as stored: what backup verify reports of it and what items repair keeps (finding 2).
 */

describe('a lot or serial: one rule for every way in', () => {
  it("refuses '.' and '..' alone, and takes every other value of 1 to 20 characters of GS1 character set 82", () => {
    // Act
    const dot = unitValueProblem('item', '.');
    const dots = unitValueProblem('batch', '..');
    // Assess
    expect(dot).toBe("serial cannot be '.' alone: a URL path drops it as a dot segment, so its Digital Link would not name it.");
    expect(dots).toBe("lot cannot be '..' alone: a URL path drops it as a dot segment, so its Digital Link would not name it.");
    for (const value of ['...', '.a', 'a.', '..a', 'a..b', '.%2E', 'A/B', 'x'.repeat(20)]) expect(isUnitValue(value), value).toBe(true);
    for (const value of ['', '.', '..', 'x'.repeat(21), 'é', 'a b', 'a#b']) expect(isUnitValue(value), value).toBe(false);
    expect(unitValueProblem('item', '')).toBe('serial is required.');
    expect(unitValueProblem('item', 'a b')).toBe('serial must be 1 to 20 characters of GS1 character set 82 (AI 21).');
  });

  it("states the same rule as the API reference's pattern, for any string", () => {
    // Prepare: strings of the character set with many full stops, and some characters outside it
    const char = fc.constantFrom('.', '.', '.', 'a', 'Z', '0', '/', '%', '"', '_', '-', ' ', 'é', '#');
    const pattern = new RegExp(UNIT_VALUE_PATTERN, 'u');
    // Act and assess
    fc.assert(fc.property(fc.array(char, { maxLength: 22 }).map((chars) => chars.join('')), (value) => pattern.test(value) === isUnitValue(value)), { numRuns: 2_000 });
  });

  it("refuses '.' and '..' in a PUT's path (422 naming serial or lot) and in an items file's row (an error naming its column)", () => {
    // Act
    const put = (kind: 'item' | 'batch', value: string) => {
      try {
        return unitValueOf(kind, value);
      } catch (error) {
        return error;
      }
    };
    const serialRow = checkItemRow({ category: 'food' }, 2, { serial: '.' });
    const lotRow = checkItemRow({ category: 'food' }, 3, { serial: 'S1', lot: '..' });
    // Assess
    expect(put('item', '.')).toMatchObject({ status: 422, type: 'validation_error', param: 'serial' });
    expect(put('batch', '..')).toMatchObject({ status: 422, type: 'validation_error', param: 'lot' });
    expect(put('item', '..')).toBeInstanceOf(ValidationError);
    expect(put('item', '...')).toBe('...');
    expect(serialRow).toEqual({ ok: false, errors: [{ row: 2, column: 'serial', message: unitValueProblem('item', '.') }] });
    expect(lotRow).toEqual({ ok: false, errors: [{ row: 3, column: 'lot', message: unitValueProblem('batch', '..') }] });
  });
});

describe("a record's digest chain as stored", () => {
  const base = { kind: 'item' as const, productId: '0190a000-0000-7000-8000-000000000001', gtin: '04006381333931', value: 'SN1' };
  const at = (second: number) => `2026-11-29T10:00:${String(second).padStart(2, '0')}.000Z`;
  /** Versions 1..n of `weights`, each the next of the one before. */
  const chainOf = (weights: number[], from?: UnitRecord, second = 0): UnitRecord[] => {
    const out: UnitRecord[] = [];
    let before = from;
    for (const [i, weightG] of weights.entries()) {
      before = nextUnitVersion(base, before, { status: 'active', data: { weightG } }, at(second + i));
      out.push(before);
    }
    return out;
  };

  it('finds nothing wrong with an intact chain, whatever the order read and an archived copy of the current version', () => {
    // Prepare
    const [v1, v2, v3] = chainOf([1, 2, 3]) as [UnitRecord, UnitRecord, UnitRecord];
    // Act and assess
    expect(unitChainFindings([v3, v1, v2, v3])).toEqual([]);
  });

  it('finds a forked chain: two versions under one number, a link to no prior version, a digest its members do not give, a missing version', () => {
    // Prepare: the true versions 1 to 3, and a version 2 planned from version 1 by a stale writer
    const [v1, v2, v3] = chainOf([1, 2, 3]) as [UnitRecord, UnitRecord, UnitRecord];
    const [fork] = chainOf([9], v1, 30) as [UnitRecord];
    const tampered = { ...v3, data: { weightG: 4 } };
    const unlinked = { ...nextUnitVersion(base, { ...v2, digest: 'sha256:elsewhere' }, { status: 'active', data: {} }, at(40)) };
    // Act
    const duplicated = unitChainFindings([v1, v2, fork, v3]);
    const broken = unitChainFindings([v1, v2, unlinked]);
    const wrong = unitChainFindings([v1, v2, tampered]);
    const gap = unitChainFindings([v1, v3]);
    // Assess
    expect(duplicated).toEqual([{ version: 2, problem: 'duplicate_version', digests: [v2.digest, fork.digest] }]);
    expect(broken).toEqual([{ version: 3, problem: 'broken_link', digests: [unlinked.digest] }]);
    expect(wrong).toEqual([{ version: 3, problem: 'digest', digests: [v3.digest] }]);
    expect(gap).toEqual([{ version: 2, problem: 'gap', digests: [] }]);
  });

  it('keeps the longest consistent chain from version 1, of two as long the one made later, and never a version whose digest does not hold', () => {
    // Prepare: the true chain 1..4, a fork at 2 that went on to 3, and a tampered version 5 on top of the true 4
    const truth = chainOf([1, 2, 3, 4]);
    const [v1] = truth as [UnitRecord];
    const fork = chainOf([8, 9], v1, 30);
    const tampered = { ...nextUnitVersion(base, truth[3], { status: 'active', data: { weightG: 5 } }, at(50)), data: { weightG: 6 } };
    const later = chainOf([7], truth[2], 40);
    // Act
    const longest = longestUnitChain([...fork, tampered, ...truth].reverse());
    const tie = longestUnitChain([...truth, ...later]);
    // Assess
    expect(longest.map((v) => v.digest)).toEqual(truth.map((v) => v.digest));
    expect(tie.map((v) => v.version)).toEqual([1, 2, 3, 4]);
    expect(tie.at(-1)?.digest).toBe(later[0]?.digest);
    expect(longestUnitChain([...fork])).toEqual([]);
  });
});
