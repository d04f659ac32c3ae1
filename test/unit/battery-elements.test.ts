import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_TIERS, READERS } from '../../lib/domain/battery/access-tiers.ts';
import { completeness, elementOf, ELEMENTS, elementsFor, filterByTier, type BatteryElement } from '../../lib/domain/battery/elements.ts';
import { PER_PLANT_PATHS } from '../../lib/domain/battery/overlay.ts';
import { elementTable } from '../support/battery-tables.ts';
import { BATTERY_CATEGORIES, batteryItemDataSchema, batteryPassportDataSchema, type BatteryPassportData } from '../../lib/domain/battery/index.ts';
import { covers, leafPaths } from '../../lib/domain/battery/paths.ts';
import { SOURCES } from '../../lib/domain/battery/sources.ts';

/**
 * The battery element map (lib/domain/battery/element-map.ts): it covers the passport data exactly,
 * its audiences follow Art. 77(2), every reader sees the public elements and the owner all (the
 * audiences as sets: test/unit/battery-audiences.test.ts), completeness follows the days, and
 * docs/battery.md shows the map as it is (docs/battery.md#the-element-map).
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const example = JSON.parse(readFileSync(`${ROOT}docs/examples/battery-passport.json`, 'utf8')) as BatteryPassportData;

/** The leaves of a value, with array indexes taken out: the set of paths a reader sees. */
const leafSet = (value: unknown): Set<string> => new Set(leafPaths(value).map((path) => path.replace(/\[\d+\]/g, '[]')));

describe('the element map covers the passport data', () => {
  it('every leaf of the full example lies under exactly one element, and every element has a value in it', () => {
    // Prepare
    const leaves = leafPaths(example);

    // Act
    const owners = leaves.map((leaf) => ({ leaf, elements: ELEMENTS.filter((element) => covers(element.path, leaf)).map((element) => element.path) }));
    const unused = ELEMENTS.filter((element) => !leaves.some((leaf) => covers(element.path, leaf))).map((element) => element.path);

    // Assess
    expect(leaves.length).toBeGreaterThan(150);
    expect(owners.filter((owner) => owner.elements.length !== 1)).toEqual([]);
    expect(unused).toEqual([]);
    expect(new Set(ELEMENTS.map((element) => element.path)).size).toBe(ELEMENTS.length);
    expect(elementOf('labeling.labels[1].labelingMeaning.de')?.path).toBe('labeling.labels');
  });

  it('each element\'s audience is its Annex XIII point\'s (Art. 77(2)): 1 public, 2 and 4 legitimate interest, 3 authorities', () => {
    // Prepare
    const expected = { 1: 'public', 2: 'legitimate_interest', 3: 'authority', 4: 'legitimate_interest' } as const;

    // Act
    const wrong = ELEMENTS.filter((element: BatteryElement) => element.annexXIII !== null && element.tier !== expected[element.annexXIII.point]);

    // Assess
    expect(wrong).toEqual([]);
    expect(ELEMENTS.filter((element: BatteryElement) => element.annexXIII?.point === 3).map((element) => element.path)).toEqual(['labeling.resultOfTestReport']);
    expect(ELEMENTS.every((element: BatteryElement) => element.sources.every((source) => source in SOURCES))).toBe(true);
    expect(ELEMENTS.filter((element: BatteryElement) => !element.confirmed && !element.note)).toEqual([]);
  });

  it('the item holds exactly the item-level elements, the dynamic ones among them', () => {
    // Prepare
    const itemPaths = ELEMENTS.filter((element: BatteryElement) => element.level === 'item').map((element) => element.path);

    // Act
    const itemView = Object.fromEntries(
      Object.entries(example).filter(([aspect]) => aspect === 'generalProductInformation' || aspect === 'performanceAndDurability'),
    );
    const parsed = batteryItemDataSchema.safeParse(filterOnly(itemView, itemPaths));

    const modelPathsTheItemTakes = ELEMENTS.filter((element: BatteryElement) => element.level === 'model' && !element.perPlant)
      .map((element) => element.path)
      .filter((path) => batteryItemDataSchema.safeParse(filterOnly(example as Record<string, unknown>, [path])).success);

    // Assess
    expect(parsed.success).toBe(true);
    expect(modelPathsTheItemTakes).toEqual([]);
    // Per plant (Art. 7(1), Annex VI Part A(3)): the item may hold its plant's manufacturing place and carbon footprint.
    expect(ELEMENTS.filter((element: BatteryElement) => element.perPlant).every((element) => batteryItemDataSchema.safeParse(filterOnly(example as Record<string, unknown>, [element.path])).success)).toBe(true);
    expect(batteryItemDataSchema.safeParse({ performanceAndDurability: { batteryTechicalProperties: { ratedCapacity: 190 } } }).error?.issues[0]?.message).toMatch(/measuredPerformance/);
    expect(ELEMENTS.filter((element: BatteryElement) => element.perPlant).map((element) => element.path)).toEqual(
      ELEMENTS.filter((element: BatteryElement) => PER_PLANT_PATHS.some((path) => element.path === path || element.path.startsWith(`${path}.`))).map((element) => element.path),
    );
    expect(ELEMENTS.filter((element: BatteryElement) => element.dynamic && element.level !== 'item')).toEqual([]);
    expect(itemPaths).toEqual(
      expect.arrayContaining([
        'generalProductInformation.batteryStatus',
        'performanceAndDurability.batteryCondition.stateOfCertifiedEnergy',
        'performanceAndDurability.batteryCondition.remainingCapacity',
        'performanceAndDurability.batteryCondition.remainingEnergy',
        'performanceAndDurability.batteryCondition.numberOfFullCycles',
        'performanceAndDurability.batteryCondition.negativeEvents',
        'performanceAndDurability.batteryCondition.temperatureInformation',
      ]),
    );
  });
});

/** `data` with only the given element paths (a test helper, independent of filterByTier). */
function filterOnly(data: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    let from: unknown = data;
    for (const key of keys) from = (from as Record<string, unknown> | undefined)?.[key];
    if (from === undefined) continue;
    let to = out;
    for (const key of keys.slice(0, -1)) to = (to[key] ??= {}) as Record<string, unknown>;
    to[keys.at(-1) as string] = from;
  }
  return out;
}

describe('readers of each tier (docs/battery.md#audiences)', () => {
  it('public ⊂ legitimate_interest, public ⊂ authority, both ⊂ owner: neither of the two sees all the other sees, the owner everything', () => {
    // Prepare
    const before = JSON.stringify(example);

    // Act
    const views = READERS.map((reader) => ({ reader, view: filterByTier(example, reader) }));
    const [publicLeaves, interested, authority, owner] = views.map(({ view }) => leafSet(view)) as [Set<string>, Set<string>, Set<string>, Set<string>];
    const within = (a: Set<string>, b: Set<string>) => [...a].filter((leaf) => !b.has(leaf));

    // Assess: Art. 77(2)(b) gives authorities points 2 and 3, (c) persons with a legitimate interest points 2 and 4
    for (const wider of [interested, authority]) {
      expect(within(publicLeaves, wider)).toEqual([]);
      expect(wider.size).toBeGreaterThan(publicLeaves.size);
      expect(within(wider, owner)).toEqual([]);
    }
    expect(within(interested, authority).length).toBeGreaterThan(0);
    expect(within(authority, interested).length).toBeGreaterThan(0);
    expect(views.at(-1)?.view).toEqual(example);
    expect(JSON.stringify(example)).toBe(before);
    for (const { view } of views) expect(batteryPassportDataSchema.safeParse(view).success).toBe(true);
  });

  it('the public sees the model\'s public elements only: no status, no state of health, no composition detail, no test reports', () => {
    // Prepare
    const hidden = [
      'generalProductInformation.batteryStatus',
      'performanceAndDurability.batteryCondition',
      'materialComposition.batteryMaterials',
      'circularity.safetyMeasures.safetyInstructions',
      'labeling.resultOfTestReport',
    ];

    // Act
    const view = filterByTier(example, 'public');
    const authority = filterByTier(example, 'authority');
    const interested = filterByTier(example, 'legitimate_interest');

    // Assess
    expect([...leafSet(view)].filter((leaf) => hidden.some((path) => covers(path, leaf)))).toEqual([]);
    expect(view.circularity?.safetyMeasures?.extinguishingAgent).toEqual(example.circularity?.safetyMeasures?.extinguishingAgent);
    expect(view.generalProductInformation?.batteryCategory).toBe('ev');
    expect(interested.performanceAndDurability?.batteryCondition?.stateOfCertifiedEnergy).toEqual(example.performanceAndDurability?.batteryCondition?.stateOfCertifiedEnergy);
    expect(interested.labeling?.resultOfTestReport).toBeUndefined();
    expect(authority.labeling?.resultOfTestReport).toBe(example.labeling?.resultOfTestReport);
  });

  it('the tiers are named for any category; elementsFor lists the elements one of a reader\'s audiences reads', () => {
    // Prepare
    const counts = ACCESS_TIERS.map((tier) => ELEMENTS.filter((element: BatteryElement) => element.tier === tier).length);
    const ofPoint = (point: number) => ELEMENTS.filter((element: BatteryElement) => element.annexXIII?.point === point).length;

    // Act
    const visible = READERS.map((reader) => elementsFor(reader).length);

    // Assess: legitimate_interest (both purposes) all but point 3; authority public, point 2 and point 3
    expect(ACCESS_TIERS).toEqual(['public', 'legitimate_interest', 'authority']);
    expect(visible).toEqual([counts[0], (counts[0] ?? 0) + (counts[1] ?? 0), (counts[0] ?? 0) + ofPoint(2) + ofPoint(3), ELEMENTS.length]);
  });
});

describe('completeness (docs/battery.md#completeness)', () => {
  const without = (data: BatteryPassportData, aspect: keyof BatteryPassportData, member: string): BatteryPassportData => {
    const copy = structuredClone(data) as Record<string, Record<string, unknown>>;
    delete copy[aspect]?.[member];
    return copy as BatteryPassportData;
  };

  it('the full example lacks nothing mandatory for an EV battery on the day the passport becomes mandatory', () => {
    // Act
    const report = completeness(example, { batteryCategory: 'ev', on: '2027-02-18' });

    // Assess
    expect(report.missingMandatory).toEqual([]);
    expect(report.elements.every((element) => element.status === 'present')).toBe(true);
    expect(report.elements.filter((element) => element.mandatory).length).toBeGreaterThan(30);
  });

  it('a missing declaration of conformity is reported by path for an EV battery on 2027-02-18, and is not mandatory the day before', () => {
    // Prepare
    const data = without(example, 'labeling', 'declarationOfConformity');

    // Act
    const onTheDay = completeness(data, { batteryCategory: 'ev', on: '2027-02-18' });
    const dayBefore = completeness(data, { batteryCategory: 'ev', on: '2027-02-17T23:59:59Z' });

    // Assess
    expect(onTheDay.missingMandatory).toEqual(['labeling.declarationOfConformity']);
    expect(onTheDay.elements.find((e) => e.path === 'labeling.declarationOfConformity')).toEqual({ path: 'labeling.declarationOfConformity', status: 'missing', mandatory: true });
    expect(dayBefore.missingMandatory).toEqual([]);
    expect(dayBefore.elements.find((e) => e.path === 'labeling.declarationOfConformity')).toEqual({ path: 'labeling.declarationOfConformity', status: 'missing', mandatory: false });
  });

  it('the category decides: the capacity threshold for exhaustion is an EV battery\'s only, a pending carbon footprint is nobody\'s yet', () => {
    // Prepare
    const noThreshold = structuredClone(example);
    delete noThreshold.performanceAndDurability?.batteryTechicalProperties?.capacityThresholdForExhaustion;
    const noFootprint = { ...structuredClone(example), carbonFootprint: undefined };

    // Act
    const ev = completeness(noThreshold, { batteryCategory: 'ev', on: '2027-06-01' });
    const lmt = completeness(noThreshold, { batteryCategory: 'lmt', on: '2027-06-01' });
    const footprint = BATTERY_CATEGORIES.map((batteryCategory) => completeness(noFootprint, { batteryCategory, on: '2027-06-01' }).missingMandatory);

    // Assess
    expect(ev.missingMandatory).toEqual(['performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion']);
    expect(lmt.missingMandatory).not.toContain('performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion');
    expect(footprint.flat().filter((path) => path.startsWith('carbonFootprint.'))).toEqual([]);
  });

  it('a passport version is judged on the model\'s elements, an item on its own', () => {
    // Prepare: a model without item data, an item without model data.
    const model = filterByTier(structuredClone(example), 'owner');
    delete model.performanceAndDurability?.batteryCondition;
    delete model.generalProductInformation?.batteryStatus;
    const item = { performanceAndDurability: { batteryCondition: {} } };

    // Act
    const modelReport = completeness(model, { batteryCategory: 'ev', on: '2027-02-18', level: 'model' });
    const itemReport = completeness(item, { batteryCategory: 'ev', on: '2027-02-18', level: 'item' });

    // Assess
    expect(modelReport.missingMandatory).toEqual([]);
    expect(modelReport.elements.some((e) => e.path.startsWith('performanceAndDurability.batteryCondition.'))).toBe(false);
    expect(itemReport.missingMandatory).toEqual([
      'generalProductInformation.productIdentifier',
      'generalProductInformation.batteryPassportIdentifier',
      'generalProductInformation.manufacturingDate',
      'generalProductInformation.batteryStatus',
      'performanceAndDurability.batteryCondition.stateOfCertifiedEnergy',
      'performanceAndDurability.batteryCondition.capacityFade',
      'performanceAndDurability.batteryCondition.internalResistanceIncrease',
    ]);
  });
});

describe('docs/battery.md', () => {
  it('shows the element map exactly as the data has it', () => {
    // Prepare
    const doc = readFileSync(`${ROOT}docs/battery.md`, 'utf8');

    // Act
    const table = /<!-- element-map:start -->\n([\s\S]*?)\n<!-- element-map:end -->/.exec(doc)?.[1];

    // Assess
    expect(table).toBe(elementTable());
  });
});
