import { describe, expect, it } from 'vitest';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';
import { APPEND_ONLY, GRANTEE_WRITABLE, granteePatchRefusal } from '../../lib/domain/battery/grantee-writes.ts';

/** What a grantee with write may change of an owner's battery (docs/access.md#what-a-grantee-writes; finding 1 of the third review). */
const patchAt = (path: string, value: unknown): Record<string, unknown> => {
  const names = path.split('.');
  return { data: names.reduceRight<unknown>((inner, name) => ({ [name]: inner }), value) as Record<string, unknown> };
};

describe('granteePatchRefusal', () => {
  it('attack: every element outside the dynamic condition data is refused, naming its field', () => {
    // Prepare: every element of the map that a grantee may not write
    const others = ELEMENTS.filter((element) => !GRANTEE_WRITABLE.includes(element.path));
    expect(others.length).toBeGreaterThan(40);

    // Act / Assess
    for (const element of others) expect(granteePatchRefusal(patchAt(element.path, 'x'), {}), element.path).toMatchObject({ param: `data.${element.path}` });
  });

  it('lets a grantee set each dynamic condition element, and nothing of the identity, dates or status', () => {
    // Assess: the writable set is the dynamic, per-battery condition elements
    expect(GRANTEE_WRITABLE).toContain('performanceAndDurability.batteryCondition.stateOfCertifiedEnergy');
    expect(GRANTEE_WRITABLE.some((path) => path.startsWith('generalProductInformation.'))).toBe(false);
    for (const path of GRANTEE_WRITABLE) expect(granteePatchRefusal(patchAt(path, APPEND_ONLY.includes(path) ? [] : { value: 1 }), {}), path).toBeUndefined();
  });

  it('refuses status, lot, lineage and a whole data replacement', () => {
    // Act / Assess
    expect(granteePatchRefusal({ status: 'withdrawn' }, {})?.param).toBe('status');
    expect(granteePatchRefusal({ lot: 'L2' }, {})?.param).toBe('lot');
    expect(granteePatchRefusal({ lineage: {} }, {})?.param).toBe('lineage');
    expect(granteePatchRefusal({ data: null }, {})?.param).toBe('data');
    expect(granteePatchRefusal({}, {})).toBeUndefined();
  });

  it('keeps negative events append-only: the stored ones first, unchanged, in any member order', () => {
    // Prepare
    const stored = { performanceAndDurability: { batteryCondition: { negativeEvents: [{ negativeEvent: 'a', lastUpdate: '2028-01-01T00:00:00Z' }] } } };
    const path = 'performanceAndDurability.batteryCondition.negativeEvents';
    const added = { negativeEvent: 'b', lastUpdate: '2029-01-01T00:00:00Z' };

    // Act / Assess
    expect(granteePatchRefusal(patchAt(path, [{ lastUpdate: '2028-01-01T00:00:00Z', negativeEvent: 'a' }, added]), stored)).toBeUndefined();
    expect(granteePatchRefusal(patchAt(path, [added]), stored)?.param).toBe(`data.${path}`);
    expect(granteePatchRefusal(patchAt(path, [{ negativeEvent: 'a (edited)', lastUpdate: '2028-01-01T00:00:00Z' }, added]), stored)?.param).toBe(`data.${path}`);
    expect(granteePatchRefusal(patchAt(path, null), stored)?.param).toBe(`data.${path}`);
  });
});
