import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BATTERY_CATEGORIES } from '../../lib/domain/battery/categories.ts';
import { ELEMENTS, type BatteryElement } from '../../lib/domain/battery/element-map.ts';
import { GUIDANCE_DATA_POINTS, guidanceDataPoint } from '../../lib/domain/battery/guidance.ts';
import { annexXiiiPoints, annexXiiiTable, kindFromGuidance, pointName } from '../support/battery-tables.ts';

/**
 * Annex XIII point by point (docs/battery.md#annex-xiii-point-by-point): the doc's table is the
 * element map's and the guidance's data as they are, every data point of the Commission guidance is
 * held by an element or named as not held, and where an element's obligations differ from what its
 * data points' statuses give, the element map says why.
 */

const ROOT = new URL('../..', import.meta.url).pathname;

/** Data points the map holds no element for, with why. */
const NOT_HELD: Readonly<Record<number, string>> = {
  16: 'an aggregate of 12, 13 and 15, which the guidance says not to fill',
  44: 'instructions for use (Annex XIII 1(t)): pending, the guidance says not to fill it as of February 2027',
};

describe('Annex XIII point by point', () => {
  it('docs/battery.md shows the table exactly as the element map and the guidance have it', () => {
    // Prepare
    const doc = readFileSync(`${ROOT}docs/battery.md`, 'utf8');

    // Act
    const table = /<!-- annex-xiii:start -->\n([\s\S]*?)\n<!-- annex-xiii:end -->/.exec(doc)?.[1];

    // Assess
    expect(table).toBe(annexXiiiTable());
  });

  it('every point of Annex XIII from 1(a) to 4(d) has a row, and every data point of the guidance an element or a reason', () => {
    // Prepare
    const held = new Set(ELEMENTS.flatMap((element) => element.guidance));

    // Act
    const points = annexXiiiPoints().map(pointName);
    const orphans = GUIDANCE_DATA_POINTS.filter((entry) => !held.has(entry.nr) && !(entry.nr in NOT_HELD)).map((entry) => entry.nr);
    const unknown = ELEMENTS.flatMap((element) => element.guidance).filter((nr) => guidanceDataPoint(nr) === undefined);

    // Assess
    expect(points).toEqual([
      ...'abcdefghijklmnopqrst'.split('').map((letter) => `1(${letter})`),
      ...'abcd'.split('').map((letter) => `2(${letter})`),
      '3',
      ...'abcd'.split('').map((letter) => `4(${letter})`),
    ]);
    expect(GUIDANCE_DATA_POINTS.map((entry) => entry.nr)).toEqual(Array.from({ length: 71 }, (_, i) => i + 1));
    expect(orphans).toEqual([]);
    expect(unknown).toEqual([]);
    expect(Object.keys(NOT_HELD).map(Number).filter((nr) => held.has(nr))).toEqual([]);
  });

  it('an element lies under the Annex XIII point of a data point it holds (within point 1, under point 1)', () => {
    // Act
    const astray = ELEMENTS.filter((element: BatteryElement) => {
      const points = element.guidance.map((nr) => guidanceDataPoint(nr)?.annexXIII ?? null);
      if (element.annexXIII === null) return points.some((point) => point !== null);
      const own = element.annexXIII;
      // Point 1 repeats itself (1(a) lists Annex VI Part A, whose chemistry and capacity 1(b) and 1(g) name again): the same point suffices there.
      return !points.some((point) => point !== null && point.point === own.point && point.letter === own.letter) && !points.every((point) => point !== null && point.point === 1 && own.point === 1);
    }).map((element) => element.path);

    // Assess
    expect(astray).toEqual([]);
  });

  it('where an element asks more or less of a category than the guidance, the element map says why; nowhere else', () => {
    // Act
    const differing = ELEMENTS.filter((element) => element.guidance.length > 0)
      .filter((element) => BATTERY_CATEGORIES.some((category) => kindFromGuidance(element, category) !== (element.obligations[category]?.kind ?? 'none')))
      .map((element) => element.path);
    const explained = ELEMENTS.filter((element) => element.guidanceDiffers !== undefined).map((element) => element.path);

    // Assess
    expect(differing).toEqual(explained);
    expect(differing).toContain('performanceAndDurability.batteryCondition.remainingCapacity');
  });
});
