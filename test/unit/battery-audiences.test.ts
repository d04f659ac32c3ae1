import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publicUnitData, overlayUnitData } from '../../functions/resolver/unit-pages.ts';
import { audiencesOfGrant, type GrantRecord } from '../../lib/domain/access.ts';
import { LEGITIMATE_PURPOSES } from '../../lib/domain/access-requests.ts';
import {
  AUDIENCES,
  AUDIENCES_OF_POINT,
  PURPOSES,
  READERS,
  audiencesOf,
  canRead,
  tierOfAudiences,
  tierOfReader,
  type Audience,
  type Reader,
} from '../../lib/domain/battery/access-tiers.ts';
import { ELEMENTS, elementsFor, filterByTier, restrictedElementsFor, type BatteryElement } from '../../lib/domain/battery/elements.ts';
import { covers, leafPaths, pickPaths, valueAt } from '../../lib/domain/battery/paths.ts';
import { publicPassportData } from '../../lib/domain/passport-kinds.ts';

/**
 * The audiences of a battery passport's elements as sets (docs/battery.md#audiences, issue 38
 * point 6): each element's audiences follow its Annex XIII point (Regulation (EU) 2023/1542
 * Art. 77(2)), and no read path gives an element to a reader outside them. Readers × elements
 * over filterByTier, the filter every read path takes (the EN 18222 reads in lib/services/dpps.ts;
 * the resolver's pages, JSON, linkset, credential and the backup's public copy through
 * publicPassportData), with fast-check; the reads through the API per reader are
 * test/integration/access.test.ts.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
/** The full example: model and item data together, a value for every element. */
const example = JSON.parse(readFileSync(`${ROOT}docs/examples/battery-passport.json`, 'utf8')) as Record<string, unknown>;

const ofPoint = (point: 1 | 2 | 3 | 4): BatteryElement[] => ELEMENTS.filter((element) => element.annexXIII?.point === point);
const paths = (elements: readonly BatteryElement[]): string[] => elements.map((element) => element.path);
/** The elements whose value a view holds. */
const held = (view: unknown): string[] => paths(ELEMENTS.filter((element) => valueAt(view, element.path) !== undefined));

/** Any reader: a named one, or any set of audiences. */
const anyReader: fc.Arbitrary<Reader> = fc.oneof(fc.constantFrom(...READERS), fc.subarray([...AUDIENCES]));
/** Data holding any subset of the elements, with the example's values. */
const anyData = fc.subarray<BatteryElement>([...ELEMENTS]).map((elements) => pickPaths(example, paths(elements)));

describe('each element’s audiences come from its Annex XIII point (Art. 77(2))', () => {
  it('point 1 everyone; 2 authorities and the dismantling purpose; 3 authorities; 4 the energy-services purpose', () => {
    // Assess: the table, and every element of a point carrying exactly the point's audiences
    expect(AUDIENCES_OF_POINT).toEqual({
      1: ['public'],
      2: ['authority', 'dismantling_repair_repurposing_recycling'],
      3: ['authority'],
      4: ['energy_services'],
    });
    for (const point of [1, 2, 3, 4] as const) {
      expect(ofPoint(point).length, `point ${point}`).toBeGreaterThan(0);
      for (const element of ofPoint(point)) expect(element.audiences, element.path).toEqual(AUDIENCES_OF_POINT[point]);
    }
    expect(ELEMENTS.every((element) => element.audiences.length > 0 && element.tier === tierOfAudiences(element.audiences))).toBe(true);
  });

  it('an element without a point keeps the audience its entry gives: public, or both purposes for the longlist’s legitimate interest', () => {
    // Act
    const unlisted = ELEMENTS.filter((element) => element.annexXIII === null);
    // Assess
    expect(unlisted.length).toBeGreaterThan(0);
    for (const element of unlisted) expect([['public'], [...PURPOSES]], element.path).toContainEqual([...element.audiences]);
  });

  it('point 6: an authority reads points 2 and 3 but not point 4', () => {
    // Act
    const view = filterByTier(example, 'authority');
    // Assess
    for (const element of [...ofPoint(1), ...ofPoint(2), ...ofPoint(3)]) expect(valueAt(view, element.path), element.path).toEqual(valueAt(example, element.path));
    for (const element of ofPoint(4)) expect(valueAt(view, element.path), element.path).toBeUndefined();
    expect(held(view)).toEqual(paths(elementsFor(['authority'])));
  });

  it('a purpose-(a) reader reads points 1 and 2, a purpose-(b) reader points 1 and 4, neither point 3', () => {
    // Act
    const dismantling = held(filterByTier(example, ['dismantling_repair_repurposing_recycling']));
    const energy = held(filterByTier(example, ['energy_services']));
    // Assess
    const publicOnes = paths(ELEMENTS.filter((element) => element.audiences.includes('public')));
    const both = paths(ELEMENTS.filter((element) => element.annexXIII === null && element.audiences.length === PURPOSES.length));
    expect(dismantling.sort()).toEqual([...publicOnes, ...paths(ofPoint(2)), ...both].sort());
    expect(energy.sort()).toEqual([...publicOnes, ...paths(ofPoint(4)), ...both].sort());
    expect(LEGITIMATE_PURPOSES.dismantling_repair_repurposing_recycling.points).toEqual([2]);
    expect(LEGITIMATE_PURPOSES.energy_services.points).toEqual([4]);
  });
});

describe('no reader receives an element outside its audiences (fast-check)', () => {
  it('filterByTier gives a reader exactly the elements one of its audiences reads, of any data, and nothing outside the map', () => {
    fc.assert(
      fc.property(anyReader, anyData, (reader, data) => {
        // Act
        const view = filterByTier(data, reader);
        // Assess
        const mine = audiencesOf(reader);
        for (const element of ELEMENTS) {
          const given = valueAt(view, element.path) !== undefined;
          const allowed = reader === 'owner' || element.audiences.some((audience) => mine.includes(audience));
          expect(given, `${element.path} to ${JSON.stringify(reader)}`).toBe(allowed && valueAt(data, element.path) !== undefined);
          expect(canRead(reader, element.audiences)).toBe(allowed);
          if (given) expect(valueAt(view, element.path)).toEqual(valueAt(data, element.path));
        }
        // (An empty view is one leaf, '' : nothing was given.)
        for (const leaf of leafPaths(view).filter((path) => path !== '')) expect(ELEMENTS.some((element) => covers(element.path, leaf) && canRead(reader, element.audiences)), leaf).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a reader of several audiences sees the union of what each sees alone; every reader the public elements; the owner all', () => {
    fc.assert(
      fc.property(fc.subarray([...AUDIENCES], { minLength: 1 }), (audiences) => {
        // Act
        const together = new Set(paths(elementsFor(audiences)));
        const apart = new Set(audiences.flatMap((audience) => paths(elementsFor([audience]))));
        // Assess
        expect(together).toEqual(apart);
        expect(paths(elementsFor(['public'])).every((path) => together.has(path))).toBe(true);
        expect(paths(restrictedElementsFor(audiences)).every((path) => together.has(path) && !elementsFor(['public']).some((e) => e.path === path))).toBe(true);
      }),
    );
    expect(elementsFor('owner')).toEqual(ELEMENTS);
  });

  it('the public paths (page, JSON, linkset, credential, public copy, a record’s page) give the public elements only', () => {
    fc.assert(
      fc.property(anyData, anyData, (model, item) => {
        // Act
        const version = publicPassportData('battery', model);
        const record = overlayUnitData('battery', model as never, publicUnitData('battery', item));
        // Assess
        expect(version).toEqual(filterByTier(model, 'public'));
        for (const view of [version, record]) {
          for (const element of ELEMENTS) if (!element.audiences.includes('public')) expect(valueAt(view, element.path), element.path).toBeUndefined();
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('what a grant opens (docs/access.md#purposes)', () => {
  const grant = (tier: GrantRecord['tier'], purpose?: GrantRecord['purpose']) => ({ tier, ...(purpose ? { purpose } : {}) });

  it('an authority grant the authorities’ points, a purpose its point, a grant without a purpose both purposes (as before purposes)', () => {
    // Assess
    expect(audiencesOfGrant(grant('authority'))).toEqual(['authority']);
    expect(audiencesOfGrant(grant('legitimate_interest', 'dismantling_repair_repurposing_recycling'))).toEqual(['dismantling_repair_repurposing_recycling']);
    expect(audiencesOfGrant(grant('legitimate_interest', 'energy_services'))).toEqual(['energy_services']);
    expect(audiencesOfGrant(grant('legitimate_interest'))).toEqual([...PURPOSES]);
    expect(elementsFor(audiencesOfGrant(grant('legitimate_interest')))).toEqual(elementsFor('legitimate_interest'));
  });

  it('a reader’s tier summarises its audiences: authority over legitimate interest over public', () => {
    fc.assert(
      fc.property(fc.subarray([...AUDIENCES]), (audiences: Audience[]) => {
        // Act
        const tier = tierOfReader(audiencesOf(audiences));
        // Assess
        expect(tier).toBe(audiences.includes('authority') ? 'authority' : audiences.some((a) => (PURPOSES as readonly string[]).includes(a)) ? 'legitimate_interest' : 'public');
      }),
    );
  });
});
