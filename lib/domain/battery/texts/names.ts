/**
 * The keys of the names the battery passport page shows (lib/domain/battery/texts.ts,
 * docs/battery.md#the-public-page-json-and-links): the public elements by path, the members inside
 * them by the data model's member name, and the enumerations' values. Each language's file under
 * names/ gives every one of them (the compiler holds it to that), and says which of its names were
 * read in the regulation's own text in that language (`confirmed`, with the source); every other
 * name but the English is our translation, unconfirmed (docs/battery.md#what-is-unconfirmed).
 * No imports.
 */

/** The public elements' paths; a language's file names each by its last segment (all different). */
export const ELEMENT_NAME_PATHS = [
  'generalProductInformation.productIdentifier',
  'generalProductInformation.batteryPassportIdentifier',
  'generalProductInformation.batteryCategory',
  'generalProductInformation.manufacturerInformation',
  'generalProductInformation.manufacturingDate',
  'generalProductInformation.batteryMass',
  'generalProductInformation.manufacturingPlace',
  'generalProductInformation.operatorInformation',
  'generalProductInformation.warrentyPeriod',
  'generalProductInformation.commercialWarrantyPeriod',
  'carbonFootprint.batteryCarbonFootprint',
  'carbonFootprint.carbonFootprintPerLifecycleStage',
  'carbonFootprint.carbonFootprintPerformanceClass',
  'carbonFootprint.carbonFootprintStudy',
  'carbonFootprint.absoluteCarbonFootprint',
  'supplyChainDueDiligence.supplyChainDueDiligenceReport',
  'supplyChainDueDiligence.thirdPartyAussurances',
  'supplyChainDueDiligence.supplyChainIndicies',
  'materialComposition.batteryChemistry',
  'materialComposition.hazardousSubstances',
  'materialComposition.criticalRawMaterials',
  'circularity.recycledContent',
  'circularity.safetyMeasures.extinguishingAgent',
  'circularity.endOfLifeInformation',
  'circularity.wasteBatterySafetyInstructions',
  'circularity.renewableContent',
  'labeling.declarationOfConformity',
  'labeling.labels',
  'performanceAndDurability.batteryTechicalProperties.originalPowerCapability',
  'performanceAndDurability.batteryTechicalProperties.ratedMaximumPower',
  'performanceAndDurability.batteryTechicalProperties.powerCapabilityRatio',
  'performanceAndDurability.batteryTechicalProperties.ratedEnergy',
  'performanceAndDurability.batteryTechicalProperties.expectedNumberOfCycles',
  'performanceAndDurability.batteryTechicalProperties.roundtripEfficiency',
  'performanceAndDurability.batteryTechicalProperties.ratedCapacity',
  'performanceAndDurability.batteryTechicalProperties.initialInternalResistance',
  'performanceAndDurability.batteryTechicalProperties.cRate',
  'performanceAndDurability.batteryTechicalProperties.nominalVoltage',
  'performanceAndDurability.batteryTechicalProperties.minimumVoltage',
  'performanceAndDurability.batteryTechicalProperties.maximumVoltage',
  'performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion',
  'performanceAndDurability.batteryTechicalProperties.lifetimeReferenceTest',
  'performanceAndDurability.batteryTechicalProperties.cRateLifeCycleTest',
  'performanceAndDurability.batteryTechicalProperties.temperatureRangeIdleState',
  'performanceAndDurability.batteryTechicalProperties.voltageTemperatureRange',
  'performanceAndDurability.batteryTechicalProperties.powerTemperatureRange',
  'performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyat50PerCentCycleLife',
] as const;
type LastSegment<S extends string> = S extends `${string}.${infer Rest}` ? LastSegment<Rest> : S;
/** An element's key in a language's file: the last segment of its path (`ratedCapacity`). */
export type ElementNameKey = LastSegment<(typeof ELEMENT_NAME_PATHS)[number]>;
/** The last segment of an element's path, its key in a language's file. */
export const elementNameKey = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

export const FIELD_NAME_KEYS = [
  'contactName',
  'postalAddress',
  'addressCountry',
  'postalCode',
  'streetAddress',
  'identifier',
  'emailAddress',
  'webAddress',
  'lifecycleStage',
  'carbonFootprint',
  'shortName',
  'clearName',
  'hazardousSubstanceClass',
  'hazardousSubstanceName',
  'hazardousSubstanceConcentration',
  'hazardousSubstanceImpact',
  'hazardousSubstanceLocation',
  'hazardousSubstanceIdentifier',
  'componentName',
  'criticalRawMaterialName',
  'criticalRawMaterialConcentration',
  'componentId',
  'preConsumerShare',
  'recycledMaterial',
  'postConsumerShare',
  'wastePrevention',
  'separateCollection',
  'informationOnCollection',
  'labelingSymbol',
  'labelingMeaning',
  'labelingSubject',
  'atSoC',
  'powerCapabilityAt',
  'ohmicResistance',
  'batteryComponent',
  'minimum',
  'maximum',
] as const;
export type FieldNameKey = (typeof FIELD_NAME_KEYS)[number];

export const VALUE_NAME_KEYS = [
  'RawMaterialExtraction',
  'MainProduction',
  'Distribution',
  'Recycling',
  'AcuteToxicity',
  'SkinCorrosionOrIrritation',
  'EyeDamageOrIrritation',
  'Cobalt',
  'Nickel',
  'Lithium',
  'Lead',
  'SeparateCollection',
  'HazardousMaterial',
  'CarbonFootPrint',
  'ExtinguishingAgent',
  'pack',
  'module',
  'cell',
] as const;
export type ValueNameKey = (typeof VALUE_NAME_KEYS)[number];

/** The three tables of names. */
export type NameTable = 'elements' | 'fields' | 'values';

/** A name's key with its table: `elements:labels`, `fields:contactName`, `values:Lead`. */
export type QualifiedNameKey = `elements:${ElementNameKey}` | `fields:${FieldNameKey}` | `values:${ValueNameKey}`;

/** The names in one language. */
export interface LanguageNames {
  readonly elements: Readonly<Record<ElementNameKey, string>>;
  readonly fields: Readonly<Record<FieldNameKey, string>>;
  readonly values: Readonly<Record<ValueNameKey, string>>;
  /**
   * The names read in the regulation's own text in this language, each with where it was read.
   * Every name not listed here is our translation, unconfirmed (English excepted: the element map's
   * own names, lib/domain/battery/element-map.ts).
   */
  readonly confirmed?: Readonly<Partial<Record<QualifiedNameKey, string>>>;
}
