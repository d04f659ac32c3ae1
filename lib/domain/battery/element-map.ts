import { AUDIENCES_OF_POINT, AUDIENCES_OF_TIER, tierOfAudiences, type AccessTier, type Audience } from './access-tiers.ts';
import { PASSPORT_MANDATORY_FROM, type BatteryCategory } from './categories.ts';
import type { SourceId } from './sources.ts';

/**
 * The battery passport's elements as data (docs/battery.md#the-element-map): one entry per element
 * path of the passport data, with the Annex XIII point it comes from (Regulation (EU) 2023/1542),
 * its audience under Art. 77(2), whether one battery's data holds it (and changes over its life),
 * from when each battery category must have it, and what it was read from. Every leaf of a
 * passport lies under exactly one element (test/unit/battery-elements.test.ts). No imports but
 * types and constants: the dashboard may read it.
 */

/** A calendar day, `YYYY-MM-DD`. */
export type IsoDate = string;

/**
 * What the regulation asks of one category for an element:
 * - `mandatory` from a day on;
 * - `conditional`: only where a condition holds that the data cannot show (a commercial warranty
 *   given, an event that happened), so never reported as missing;
 * - `pending`: the regulation ties the day to an act not adopted when this was written; the day
 *   given is the earliest it can be. Not reported as missing until this map gives it a day.
 */
export type Obligation =
  | { readonly kind: 'mandatory'; readonly from: IsoDate }
  | { readonly kind: 'conditional'; readonly from: IsoDate; readonly condition: string }
  | { readonly kind: 'pending'; readonly notBefore: IsoDate; readonly reason: string };

/** A point of Annex XIII and its letter, if it has letters. */
export interface AnnexXiiiPoint {
  readonly point: 1 | 2 | 3 | 4;
  readonly letter?: string;
}

export interface BatteryElement {
  /** The element's path in the passport data, through objects only. */
  readonly path: string;
  /** A short English name. */
  readonly name: string;
  /** The Annex XIII point, or null for an element the regulation does not list there. */
  readonly annexXIII: AnnexXiiiPoint | null;
  /**
   * Who may read it (Art. 77(2), docs/battery.md#audiences): its Annex XIII point's audiences
   * (AUDIENCES_OF_POINT: 1 everyone; 2 authorities and the dismantling purpose; 3 authorities; 4 the
   * energy-services purpose), or, without a point, the audiences its entry gives.
   */
  readonly audiences: readonly Audience[];
  /** The audiences summarised as a tier (tierOfAudiences): public, legitimate_interest (a purpose reads it) or authority. */
  readonly tier: AccessTier;
  /** `item`: each battery has its own value, held on the item; `model`: the passport version holds it. */
  readonly level: 'model' | 'item';
  /** The data model marks it as changing over the battery's life (a `lastUpdate`), or Annex XIII point 4(c) does (the status). */
  readonly dynamic: boolean;
  /**
   * A model-level element an item may hold too, its value then replacing the model's for that
   * battery: the plant's manufacturing place and carbon footprint, which are per model per plant
   * (Art. 7(1), Annex VI Part A(3); docs/battery.md#model-and-item).
   */
  readonly perPlant: boolean;
  /**
   * The numbers of the Commission guidance's data points the element holds (lib/domain/battery/guidance.ts,
   * docs/battery.md#annex-xiii-point-by-point); none for an element the guidance does not list.
   */
  readonly guidance: readonly number[];
  /**
   * Why the element's obligations differ from what its data points' statuses in the guidance give
   * (mandatory if one is, else if applicable, else pending, else none; stationary storage takes the
   * industrial column): test/unit/battery-annex-xiii.test.ts requires a reason for every difference.
   */
  readonly guidanceDiffers?: string;
  /** Per battery category; a category not listed never has to have it. */
  readonly obligations: Readonly<Partial<Record<BatteryCategory, Obligation>>>;
  /** Where the regulation asks for it, in words. */
  readonly reference: string;
  readonly sources: readonly SourceId[];
  /** False when the point, the audience or the obligation could not be confirmed in the regulation's text (see note). */
  readonly confirmed: boolean;
  readonly note?: string;
}

const ALL: readonly BatteryCategory[] = ['ev', 'lmt', 'industrial', 'stationary'];
const INDUSTRIAL: readonly BatteryCategory[] = ['industrial', 'stationary'];

const mandatory = (categories: readonly BatteryCategory[] = ALL, from: IsoDate = PASSPORT_MANDATORY_FROM) =>
  Object.fromEntries(categories.map((category) => [category, { kind: 'mandatory', from } as const]));
const conditional = (categories: readonly BatteryCategory[], condition: string, from: IsoDate = PASSPORT_MANDATORY_FROM) =>
  Object.fromEntries(categories.map((category) => [category, { kind: 'conditional', from, condition } as const]));
const pending = (notBefore: Partial<Record<BatteryCategory, IsoDate>>, reason: string) =>
  Object.fromEntries(Object.entries(notBefore).map(([category, day]) => [category, { kind: 'pending', notBefore: day, reason } as const]));

type Spec = Omit<BatteryElement, 'path' | 'audiences' | 'tier' | 'level' | 'dynamic' | 'perPlant' | 'confirmed' | 'sources' | 'guidance'> & {
  readonly guidance?: readonly number[];
  /** Without an Annex XIII point: its audiences (AUDIENCES_OF_TIER of `tier` when only that is given). With a point: never (the point's). */
  readonly audiences?: readonly Audience[];
  /** Without an Annex XIII point and without `audiences`: required. Otherwise, if given, it must be the summary of the audiences. */
  readonly tier?: AccessTier;
  readonly level?: 'model' | 'item';
  readonly dynamic?: boolean;
  readonly perPlant?: boolean;
  readonly confirmed?: boolean;
  readonly sources?: readonly SourceId[];
};

function element<const P extends string>(path: P, spec: Spec): BatteryElement & { readonly path: P } {
  if (spec.annexXIII && spec.audiences) throw new Error(`element-map: ${path} has an Annex XIII point, which gives its audiences`);
  const audiences = spec.annexXIII ? AUDIENCES_OF_POINT[spec.annexXIII.point] : (spec.audiences ?? (spec.tier === undefined ? undefined : AUDIENCES_OF_TIER[spec.tier]));
  if (audiences === undefined || audiences.length === 0) throw new Error(`element-map: ${path} has no audience`);
  const tier = tierOfAudiences(audiences);
  if (spec.tier !== undefined && spec.tier !== tier) throw new Error(`element-map: ${path} has a tier its audiences (its Annex XIII point's) contradict`);
  return {
    ...spec,
    path,
    audiences,
    tier,
    level: spec.level ?? (spec.dynamic ? 'item' : 'model'),
    dynamic: spec.dynamic ?? false,
    perPlant: spec.perPlant ?? false,
    guidance: spec.guidance ?? [],
    confirmed: spec.confirmed ?? true,
    sources: spec.sources ?? ['reg-annex-xiii', 'reg-art-77', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
  };
}

const xiii = (point: AnnexXiiiPoint['point'], letter?: string): AnnexXiiiPoint => (letter === undefined ? { point } : { point, letter });

/** Annex XIII points 2 to 4 were read through the guidance and the longlist, which agree, not in the regulation's own text. */
const POINTS_2_TO_4 = 'Annex XIII points 2 to 4 were read through the Commission guidance and the consortium\'s longlist (they agree), not in the regulation\'s text.';
const IF_APPLICABLE = 'only if applicable (Commission guidance)';
const CF_PENDING =
  'Art. 7(1): the later of the day given and 12 (EV) or 18 months after the delegated and implementing acts on the declaration; the Commission guidance says it is not to be filled as of February 2027. Industrial batteries with exclusively external storage: 18 Aug 2030 at the earliest.';
const CF_CLASS_PENDING =
  'Art. 7(2): the later of the day given and 18 months after the delegated act on the performance classes; the Commission guidance says it is not to be filled as of February 2027. Days read in secondary sources.';

export const ELEMENTS = [
  // General product information
  element('generalProductInformation.productIdentifier', {
    name: 'Battery identifier',
    guidance: [7],
    annexXIII: xiii(1, 'a'),
    level: 'item',
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(2); Art. 77(3); Art. 38(6)',
  }),
  element('generalProductInformation.batteryPassportIdentifier', {
    name: 'Battery passport identifier',
    guidance: [1],
    annexXIII: null,
    tier: 'public',
    level: 'item',
    obligations: mandatory(),
    reference: 'Art. 77(3) (unique identifier)',
    confirmed: false,
    note: 'Not an Annex XIII item; public and mandatory as the Commission guidance (data point 1) and the longlist have it.',
  }),
  element('generalProductInformation.batteryCategory', {
    name: 'Battery category',
    guidance: [6],
    annexXIII: xiii(1, 'a'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(2)',
  }),
  element('generalProductInformation.manufacturerInformation', {
    name: 'Manufacturer',
    guidance: [3, 4, 5],
    annexXIII: xiii(1, 'a'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(1)',
  }),
  element('generalProductInformation.manufacturingDate', {
    name: 'Manufacturing date',
    guidance: [9],
    annexXIII: xiii(1, 'a'),
    level: 'item',
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(4)',
  }),
  element('generalProductInformation.batteryStatus', {
    name: 'Battery status',
    guidance: [67],
    annexXIII: xiii(4, 'c'),
    dynamic: true,
    obligations: mandatory(),
    reference: 'Annex XIII 4(c)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('generalProductInformation.batteryMass', {
    name: 'Battery mass',
    guidance: [10],
    annexXIII: xiii(1, 'a'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(5)',
  }),
  element('generalProductInformation.manufacturingPlace', {
    name: 'Manufacturing place',
    guidance: [8],
    annexXIII: xiii(1, 'a'),
    perPlant: true,
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(3)',
  }),
  element('generalProductInformation.operatorInformation', {
    name: 'Economic operator',
    guidance: [2],
    annexXIII: null,
    tier: 'public',
    obligations: mandatory(),
    reference: 'Art. 77(3) (who is responsible for the passport)',
    confirmed: false,
    note: 'Mandatory as the Commission guidance (data point 2) has it; the longlist calls it voluntary.',
  }),
  element('generalProductInformation.puttingIntoService', {
    name: 'Date of putting into service',
    annexXIII: xiii(4, 'b'),
    level: 'item',
    obligations: mandatory(['lmt', 'stationary']),
    reference: 'Annex VII Part B(1) (a parameter of the state of health and expected lifetime, Art. 14)',
    confirmed: false,
    note: `${POINTS_2_TO_4} The longlist gives Annex VII Part B(1) and a legitimate-interest audience; the point 4(b) is our reading.`,
  }),
  element('generalProductInformation.warrentyPeriod', {
    name: 'Commercial warranty period',
    guidance: [35],
    annexXIII: xiii(1, 'm'),
    obligations: conditional(ALL, 'only if a commercial warranty is given'),
    reference: 'Annex XIII 1(m)',
  }),
  element('generalProductInformation.commercialWarrantyPeriod', {
    name: 'Commercial warranty period (years and months)',
    guidance: [35],
    annexXIII: xiii(1, 'm'),
    obligations: conditional(ALL, 'only if a commercial warranty is given'),
    reference: 'Annex XIII 1(m) (the period for which the commercial warranty for the calendar life applies)',
    sources: ['reg-annex-xiii', 'reg-art-77', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    note: 'Extension of the data model (docs/battery.md#extension-members): an ISO 8601 duration, since the model\'s warrentyPeriod is a gMonth that cannot state more than 12 months. Conditional as the Commission guidance (data point 35) has it.',
  }),

  // Carbon footprint
  element('carbonFootprint.batteryCarbonFootprint', {
    name: 'Carbon footprint per functional unit',
    guidance: [17],
    annexXIII: xiii(1, 'c'),
    perPlant: true,
    obligations: pending({ ev: '2025-02-18', industrial: '2026-02-18', stationary: '2026-02-18', lmt: '2028-08-18' }, CF_PENDING),
    reference: 'Annex XIII 1(c) → Art. 7(1)(d)',
    sources: ['reg-annex-xiii', 'reg-art-7', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    confirmed: false,
    note: 'The day the declaration applies depends on acts whose adoption could not be confirmed.',
  }),
  element('carbonFootprint.carbonFootprintPerLifecycleStage', {
    name: 'Carbon footprint per life cycle stage',
    guidance: [17],
    annexXIII: xiii(1, 'c'),
    perPlant: true,
    obligations: pending({ ev: '2025-02-18', industrial: '2026-02-18', stationary: '2026-02-18', lmt: '2028-08-18' }, CF_PENDING),
    reference: 'Annex XIII 1(c) → Art. 7(1)(e)',
    sources: ['reg-annex-xiii', 'reg-art-7', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    confirmed: false,
    note: 'The day the declaration applies depends on acts whose adoption could not be confirmed.',
  }),
  element('carbonFootprint.carbonFootprintPerformanceClass', {
    name: 'Carbon footprint performance class',
    guidance: [18],
    annexXIII: xiii(1, 'c'),
    perPlant: true,
    obligations: pending({ ev: '2026-08-18', industrial: '2027-08-18', stationary: '2027-08-18', lmt: '2030-02-18' }, CF_CLASS_PENDING),
    reference: 'Annex XIII 1(c) → Art. 7(2)',
    sources: ['reg-annex-xiii', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    confirmed: false,
    note: 'Art. 7(2) was not read in the regulation\'s text; its days are from secondary sources.',
  }),
  element('carbonFootprint.carbonFootprintStudy', {
    name: 'Carbon footprint study',
    guidance: [17],
    annexXIII: xiii(1, 'c'),
    perPlant: true,
    obligations: pending({ ev: '2025-02-18', industrial: '2026-02-18', stationary: '2026-02-18', lmt: '2028-08-18' }, CF_PENDING),
    reference: 'Annex XIII 1(c) → Art. 7(1)(g)',
    sources: ['reg-annex-xiii', 'reg-art-7', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    confirmed: false,
    note: 'The day the declaration applies depends on acts whose adoption could not be confirmed.',
  }),
  element('carbonFootprint.absoluteCarbonFootprint', {
    name: 'Absolute carbon footprint',
    annexXIII: null,
    tier: 'public',
    perPlant: true,
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.3.10)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),

  // Supply chain due diligence
  element('supplyChainDueDiligence.supplyChainDueDiligenceReport', {
    name: 'Due diligence report',
    guidance: [19],
    annexXIII: xiii(1, 'd'),
    obligations: pending(
      { ev: '2027-08-18', lmt: '2027-08-18', industrial: '2027-08-18', stationary: '2027-08-18' },
      'Art. 52(3) due diligence obligations; the Commission guidance says it is not to be filled as of February 2027, and secondary sources date the obligations 18 Aug 2027 (postponed by Regulation (EU) 2025/1561).',
    ),
    reference: 'Annex XIII 1(d) → Art. 52(3)',
    confirmed: false,
    note: 'The day the due diligence obligations apply was read in secondary sources only.',
  }),
  element('supplyChainDueDiligence.thirdPartyAussurances', {
    name: 'Third-party supply chain assurances',
    annexXIII: null,
    tier: 'public',
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.4.3)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),
  element('supplyChainDueDiligence.supplyChainIndicies', {
    name: 'Supply chain indices',
    annexXIII: null,
    tier: 'public',
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.4.4)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),

  // Material composition
  element('materialComposition.batteryChemistry', {
    name: 'Battery chemistry',
    guidance: [12],
    annexXIII: xiii(1, 'b'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(b); Annex VI Part A(7)',
  }),
  element('materialComposition.batteryMaterials', {
    name: 'Detailed composition (cathode, anode, electrolyte)',
    guidance: [45],
    annexXIII: xiii(2, 'a'),
    obligations: mandatory(),
    reference: 'Annex XIII 2(a)',
    confirmed: false,
    note: `${POINTS_2_TO_4} The data model keeps the critical raw materials (Annex XIII 1(b), public) only as a flag on these entries; materialComposition.criticalRawMaterials makes them public.`,
  }),
  element('materialComposition.hazardousSubstances', {
    name: 'Hazardous substances',
    guidance: [13],
    annexXIII: xiii(1, 'b'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(b); Annex VI Part A(8); Annex XIII 1(s) → Art. 74(1)(f) (their impact)',
  }),
  element('materialComposition.criticalRawMaterials', {
    name: 'Critical raw materials',
    guidance: [15],
    annexXIII: xiii(1, 'b'),
    obligations: mandatory(['ev', 'lmt', 'industrial', 'stationary']),
    reference: 'Annex XIII 1(b); 1(a) → Annex VI Part A(10) (present in a concentration above 0.1 % weight by weight)',
    confirmed: false,
    note: 'Extension of the data model (docs/battery.md#extension-members), derived from the materials batteryMaterials flags isCriticalRawMaterial. That Annex XIII 1(b) makes the critical raw materials public was read in the regulation (German); the 0.1 % threshold of Annex VI Part A(10) only in the Commission guidance (data point 15, mandatory for EV, LMT and industrial batteries) and the longlist (DIN DKE SPEC 99100 6.5.3), not in the regulation\'s text. Every flagged material is listed, whatever its share.',
  }),

  // Circularity
  element('circularity.dismantlingAndRemovalInformation', {
    name: 'Dismantling and removal information',
    guidance: [48],
    annexXIII: xiii(2, 'c'),
    obligations: mandatory(),
    reference: 'Annex XIII 2(c)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('circularity.sparePartSources', {
    name: 'Part numbers and sources of spare parts',
    guidance: [46, 47],
    annexXIII: xiii(2, 'b'),
    obligations: mandatory(),
    reference: 'Annex XIII 2(b)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('circularity.recycledContent', {
    name: 'Recycled content',
    guidance: [20, 21, 22, 23],
    guidanceDiffers: `The guidance marks data points 20 to 23 mandatory in February 2027; Art. 8(1), read in the regulation (German), makes the documentation they come from apply from 18 August 2028 or 24 months after the delegated act on the method, whichever is later (LMT batteries: 18 August 2033). We follow the article: a battery is not refused for lacking it before then; a maker may give it earlier.`,
    annexXIII: xiii(1, 'e'),
    obligations: pending(
      { ev: '2028-08-18', industrial: '2028-08-18', stationary: '2028-08-18', lmt: '2033-08-18' },
      'Art. 8(1): the later of the day given and 24 months after the delegated act on the method of calculation and verification (due by 18 August 2026; its adoption could not be confirmed). Industrial batteries with exclusively external storage are not named.',
    ),
    reference: 'Annex XIII 1(e) → Art. 8(1)',
    sources: ['reg-annex-xiii', 'reg-art-8', 'bp-data-model', 'bp-longlist', 'ec-guidance'],
    confirmed: false,
    note: 'The day depends on a delegated act whose adoption could not be confirmed; the days of Art. 8(1) were read in the regulation (German).',
  }),
  element('circularity.safetyMeasures.safetyInstructions', {
    name: 'Safety measures',
    guidance: [49],
    annexXIII: xiii(2, 'd'),
    obligations: mandatory(),
    reference: 'Annex XIII 2(d); Art. 74(2)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('circularity.safetyMeasures.extinguishingAgent', {
    name: 'Usable extinguishing agent',
    guidance: [14],
    annexXIII: xiii(1, 'a'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(a) → Annex VI Part A(9)',
  }),
  element('circularity.endOfLifeInformation', {
    name: 'Waste prevention and end-of-life information',
    guidance: [43],
    annexXIII: xiii(1, 's'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(s) → Art. 74(1)(a) to (c)',
  }),
  element('circularity.wasteBatterySafetyInstructions', {
    name: 'Safety instructions for handling waste batteries',
    guidance: [43],
    annexXIII: xiii(1, 's'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(s) → Art. 74(1)(d) (safety instructions for handling waste batteries, including the risks of batteries containing lithium)',
    sources: ['reg-annex-xiii', 'reg-art-74', 'reg-art-77', 'ec-guidance'],
    note: 'Extension of the data model (docs/battery.md#extension-members): the model has no public member for it, only the legitimate-interest safetyMeasures.safetyInstructions (Annex XIII 2(d)). Mandatory as the Commission guidance (data point 43: Art. 74(1) points (a) to (f)) has it.',
  }),
  element('circularity.renewableContent', {
    name: 'Renewable content share',
    guidance: [24],
    annexXIII: xiii(1, 'f'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(f)',
  }),

  // Labeling
  element('labeling.declarationOfConformity', {
    name: 'EU declaration of conformity',
    guidance: [42],
    annexXIII: xiii(1, 'r'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(r) → Art. 18',
  }),
  element('labeling.resultOfTestReport', {
    name: 'Results of test reports',
    guidance: [50],
    annexXIII: xiii(3),
    obligations: mandatory(),
    reference: 'Annex XIII 3',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('labeling.labels', {
    name: 'Labels and symbols and their meaning',
    guidance: [40, 41],
    annexXIII: xiii(1, 'q'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(q) → Art. 13; meaning of the symbols Art. 74(1)(e) via Annex XIII 1(s)',
  }),

  // Performance and durability: model-level values
  element('performanceAndDurability.batteryTechicalProperties.originalPowerCapability', {
    name: 'Original power capability',
    guidance: [29],
    annexXIII: xiii(1, 'i'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(i); Annex IV Part B(4)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.ratedMaximumPower', {
    name: 'Maximum permitted power (power limits)',
    guidance: [30],
    annexXIII: xiii(1, 'i'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(i)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.powerCapabilityRatio', {
    name: 'Ratio of nominal power to energy',
    annexXIII: null,
    tier: 'public',
    obligations: {},
    reference: 'Voluntary (Annex IV Part B(2); DIN DKE SPEC 99100 6.7.3.6)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),
  element('performanceAndDurability.batteryTechicalProperties.ratedEnergy', {
    name: 'Certified usable battery energy',
    annexXIII: null,
    tier: 'public',
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.7.2.5)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),
  element('performanceAndDurability.batteryTechicalProperties.expectedNumberOfCycles', {
    name: 'Expected lifetime in cycles',
    guidance: [31],
    annexXIII: xiii(1, 'j'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, 'only where the lifetime can be stated in cycles (Commission guidance)') },
    reference: 'Annex XIII 1(j)',
    confirmed: false,
    note: 'Conditional for industrial batteries as the Commission guidance has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.initialSelfDischarge', {
    name: 'Initial self-discharge rate',
    annexXIII: null,
    tier: 'legitimate_interest',
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.7.4.6)',
    sources: ['bp-data-model', 'bp-longlist'],
    note: 'Audience as the longlist has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.roundtripEfficiency', {
    name: 'Initial round trip energy efficiency',
    guidance: [36],
    annexXIII: xiii(1, 'n'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 1(n)',
    confirmed: false,
    note: 'Conditional for industrial batteries as the Commission guidance has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.ratedCapacity', {
    name: 'Rated capacity',
    guidance: [11, 25],
    annexXIII: xiii(1, 'g'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(g); Annex VI Part A(6)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.initialInternalResistance', {
    name: 'Internal resistance of cell and pack',
    guidance: [38],
    annexXIII: xiii(1, 'o'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(o)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.expectedLifetime', {
    name: 'Expected lifetime in calendar years',
    guidance: [60],
    annexXIII: xiii(4, 'a'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 4(a) → Annex IV Part A(5)',
    confirmed: false,
    note: `${POINTS_2_TO_4} Kept on the passport version as the data model has it (no lastUpdate); it changes only when the battery's status does.`,
  }),
  element('performanceAndDurability.batteryTechicalProperties.cRate', {
    name: 'C-rate (nominal power to energy)',
    annexXIII: null,
    tier: 'public',
    obligations: {},
    reference: 'Voluntary (Annex IV Part B(2); DIN DKE SPEC 99100 6.7.3.6)',
    sources: ['bp-data-model', 'bp-longlist'],
  }),
  element('performanceAndDurability.batteryTechicalProperties.nominalVoltage', {
    name: 'Nominal voltage',
    guidance: [27],
    annexXIII: xiii(1, 'h'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(h)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.minimumVoltage', {
    name: 'Minimum voltage',
    guidance: [26],
    annexXIII: xiii(1, 'h'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(h)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.maximumVoltage', {
    name: 'Maximum voltage',
    guidance: [28],
    annexXIII: xiii(1, 'h'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(h)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.voltageTemperatureRange', {
    name: 'Temperature range of the voltages',
    guidance: [26, 27, 28],
    guidanceDiffers: `Data points 26 to 28 are mandatory, their temperature range only when relevant (Annex XIII 1(h)): the voltages' own elements carry the mandatory part.`,
    annexXIII: xiii(1, 'h'),
    obligations: conditional(ALL, 'when relevant (Annex XIII 1(h))'),
    reference: 'Annex XIII 1(h) (nominal, minimum and maximum voltage, with temperature ranges when relevant); Commission guidance data points 26 to 28',
    note: 'Extension of the data model (docs/battery.md#extension-members): the model has no member for the temperature range of 1(h).',
  }),
  element('performanceAndDurability.batteryTechicalProperties.powerTemperatureRange', {
    name: 'Temperature range of the power capability and limits',
    guidance: [30],
    guidanceDiffers: `Data point 30 is mandatory, its temperature range only when relevant (Annex XIII 1(i)): ratedMaximumPower carries the mandatory part.`,
    annexXIII: xiii(1, 'i'),
    obligations: conditional(ALL, 'when relevant (Annex XIII 1(i))'),
    reference: 'Annex XIII 1(i) (original power capability and limits, with temperature range when relevant); Commission guidance data point 30',
    note: 'Extension of the data model (docs/battery.md#extension-members): the model has no member for the temperature range of 1(i).',
  }),
  element('performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion', {
    name: 'Capacity threshold for exhaustion',
    guidance: [33],
    annexXIII: xiii(1, 'k'),
    obligations: mandatory(['ev']),
    reference: 'Annex XIII 1(k) (electric vehicle batteries only)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.lifetimeReferenceTest', {
    name: 'Cycle-life reference test',
    guidance: [32],
    annexXIII: xiii(1, 'j'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, 'only where the lifetime can be stated in cycles (Commission guidance)') },
    reference: 'Annex XIII 1(j)',
    confirmed: false,
    note: 'Conditional for industrial batteries as the Commission guidance has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.cRateLifeCycleTest', {
    name: 'C-rate of the cycle-life test',
    guidance: [39],
    annexXIII: xiii(1, 'p'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 1(p)',
    confirmed: false,
    note: 'Conditional for industrial batteries as the Commission guidance has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.temperatureRangeIdleState', {
    name: 'Temperature range when not in use',
    guidance: [34],
    annexXIII: xiii(1, 'l'),
    obligations: mandatory(),
    reference: 'Annex XIII 1(l)',
  }),
  element('performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyat50PerCentCycleLife', {
    name: 'Round trip energy efficiency at 50 % of cycle life',
    guidance: [37],
    annexXIII: xiii(1, 'n'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 1(n)',
    confirmed: false,
    note: 'Conditional for industrial batteries as the Commission guidance has it.',
  }),
  element('performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyFade', {
    name: 'Energy round trip efficiency fade',
    guidance: [58],
    annexXIII: xiii(4, 'a'),
    obligations: conditional(ALL, 'where applicable (Annex IV Part A(4))'),
    reference: 'Annex XIII 4(a) → Annex IV Part A(4)',
    confirmed: false,
    note: `${POINTS_2_TO_4} Kept on the passport version as the data model has it (no lastUpdate).`,
  }),
  element('performanceAndDurability.batteryTechicalProperties.powerFade', {
    name: 'Power fade',
    guidance: [54],
    annexXIII: xiii(4, 'a'),
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 4(a) → Annex IV Part A(4)',
    confirmed: false,
    note: `${POINTS_2_TO_4} Kept on the passport version as the data model has it (no lastUpdate).`,
  }),

  element('performanceAndDurability.measuredPerformance', {
    name: 'Performance and durability values of this battery (Annex IV Part A)',
    guidance: [51, 52, 53, 54, 55, 56, 57, 58, 59, 60],
    guidanceDiffers: `Data points 51 to 56, 59 and 60 are mandatory for EV and LMT batteries; the model's declared values (ratedCapacity, powerFade, expectedLifetime, …) and the battery's condition (capacityFade, internalResistanceIncrease) meet them until a measurement of the battery's own is recorded (our reading, unconfirmed).`,
    annexXIII: xiii(4, 'a'),
    dynamic: true,
    obligations: conditional(ALL, 'when this battery\'s values were measured: at its placing on the market where they differ from the model\'s, and at each status change'),
    reference: 'Annex XIII 4(a) → Annex IV Part A (values when the battery is placed on the market and when its status changes); Commission guidance data points 51 to 60',
    sources: ['reg-annex-xiii', 'reg-art-77', 'ec-guidance'],
    confirmed: false,
    note: `Extension of the data model (docs/battery.md#extension-members): one battery's measured values, beside the model's declared batteryTechicalProperties (public, point 1), which they must not replace. ${POINTS_2_TO_4} The guidance makes data points 51 to 56, 59 and 60 mandatory for EV and LMT batteries; the map counts the model's values and the battery's condition as meeting them until a measurement of its own is recorded, which is our reading.`,
  }),

  // Performance and durability: one battery's dynamic values
  element('performanceAndDurability.batteryCondition.energyThroughput', {
    name: 'Energy throughput',
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: mandatory(['lmt', 'stationary']),
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part B(2)',
    confirmed: false,
    note: `${POINTS_2_TO_4} Categories as the longlist has them.`,
  }),
  element('performanceAndDurability.batteryCondition.capacityThroughput', {
    name: 'Capacity throughput',
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: mandatory(['lmt', 'stationary']),
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part B(3)',
    confirmed: false,
    note: `${POINTS_2_TO_4} Categories as the longlist has them.`,
  }),
  element('performanceAndDurability.batteryCondition.numberOfFullCycles', {
    name: 'Number of full charge-discharge cycles',
    guidance: [68],
    annexXIII: xiii(4, 'd'),
    dynamic: true,
    obligations: conditional(ALL, IF_APPLICABLE),
    reference: 'Annex XIII 4(d)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.stateOfCertifiedEnergy', {
    name: 'State of certified energy (state of health)',
    guidance: [61],
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: mandatory(['ev']),
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part A (electric vehicle batteries)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.capacityFade', {
    name: 'Capacity fade',
    guidance: [52],
    annexXIII: xiii(4, 'a'),
    dynamic: true,
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 4(a) → Annex IV Part A(2)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.remainingEnergy', {
    name: 'Remaining usable battery energy',
    annexXIII: null,
    tier: 'legitimate_interest',
    dynamic: true,
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.7.2.6)',
    sources: ['bp-data-model', 'bp-longlist'],
    note: 'Audience as the longlist has it.',
  }),
  element('performanceAndDurability.batteryCondition.remainingCapacity', {
    name: 'Remaining capacity',
    guidance: [62],
    guidanceDiffers: `The guidance has no column for stationary storage (an industrial battery: if applicable); the consortium's longlist requires it of stationary storage systems, and we follow the stricter.`,
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: { ...mandatory(['lmt', 'stationary']), ...conditional(['industrial'], IF_APPLICABLE) },
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part A(1)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.negativeEvents', {
    name: 'Negative events, such as accidents',
    guidance: [69],
    annexXIII: xiii(4, 'd'),
    dynamic: true,
    obligations: conditional(ALL, 'only if such events happened'),
    reference: 'Annex XIII 4(d)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.temperatureInformation', {
    name: 'Operating environmental conditions (temperature)',
    guidance: [70],
    annexXIII: xiii(4, 'd'),
    dynamic: true,
    obligations: conditional(ALL, IF_APPLICABLE),
    reference: 'Annex XIII 4(d); Annex VII Part B(4)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.remainingPowerCapability', {
    name: 'Remaining power capability',
    guidance: [63],
    guidanceDiffers: `The guidance has no column for stationary storage (an industrial battery: if applicable); the consortium's longlist requires it of stationary storage systems, and we follow the stricter.`,
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: { ...mandatory(['lmt', 'stationary']), ...conditional(['industrial'], IF_APPLICABLE) },
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part A(2) (where possible)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.evolutionOfSelfDischarge', {
    name: 'Evolution of self-discharge rates',
    guidance: [65],
    guidanceDiffers: `The guidance has no column for stationary storage (an industrial battery: if applicable); the consortium's longlist requires it of stationary storage systems, and we follow the stricter.`,
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: { ...mandatory(['lmt', 'stationary']), ...conditional(['industrial'], IF_APPLICABLE) },
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part A(4)',
    confirmed: false,
    note: `${POINTS_2_TO_4} LMT as the Commission guidance has it, stationary as the longlist has it.`,
  }),
  element('performanceAndDurability.batteryCondition.currentSelfDischargingRate', {
    name: 'Current self-discharge rate',
    guidance: [65],
    guidanceDiffers: `Data point 65 (the evolution of self-discharging rates) is met by evolutionOfSelfDischarge; the current rate is voluntary (DIN DKE SPEC 99100 6.7.4.7).`,
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: {},
    reference: 'Voluntary (DIN DKE SPEC 99100 6.7.4.7); the Commission guidance groups it with the evolution of self-discharge (Annex XIII 4(b))',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.internalResistanceIncrease', {
    name: 'Internal resistance increase',
    guidance: [56, 66],
    annexXIII: xiii(4, 'a'),
    dynamic: true,
    obligations: { ...mandatory(['ev', 'lmt']), ...conditional(INDUSTRIAL, IF_APPLICABLE) },
    reference: 'Annex XIII 4(a) → Annex IV Part A(3)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.remainingRoundTripEnergyEfficiency', {
    name: 'Remaining round trip energy efficiency',
    guidance: [64],
    guidanceDiffers: `The guidance has no column for stationary storage (an industrial battery: if applicable); the consortium's longlist requires it of stationary storage systems, and we follow the stricter.`,
    annexXIII: xiii(4, 'b'),
    dynamic: true,
    obligations: { ...mandatory(['lmt', 'stationary']), ...conditional(['industrial'], IF_APPLICABLE) },
    reference: 'Annex XIII 4(b) → Art. 14, Annex VII Part A(3) (where possible)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.stateOfCharge', {
    name: 'State of charge',
    guidance: [71],
    annexXIII: xiii(4, 'd'),
    dynamic: true,
    obligations: conditional(ALL, IF_APPLICABLE),
    reference: 'Annex XIII 4(d)',
    confirmed: false,
    note: POINTS_2_TO_4,
  }),
  element('performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents', {
    name: 'Number of deep discharge events',
    annexXIII: xiii(4, 'd'),
    dynamic: true,
    obligations: conditional(['lmt', 'stationary'], 'only for a battery with a battery management system (longlist: Annex VII Part B(4))'),
    reference: 'Annex VII Part B(4) (DIN DKE SPEC 99100 6.7.8.2); Annex XIII 4(d) (negative events)',
    sources: ['reg-art-77', 'bp-longlist'],
    confirmed: false,
    note: `Extension of the data model (docs/battery.md#extension-members). ${POINTS_2_TO_4} The longlist asks for it of LMT and stationary batteries using a BMS (voluntary for the others) with a legitimate-interest audience; Annex VII Part B(4) and the point 4(d) are its reading and ours, not read in the regulation.`,
  }),
] as const;

export type ElementPath = (typeof ELEMENTS)[number]['path'];
