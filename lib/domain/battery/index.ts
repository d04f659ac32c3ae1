import * as z from 'zod';
import { carbonFootprintCompleteSchema, carbonFootprintSchema } from './carbon-footprint.ts';
import { circularityCompleteSchema, circularitySchema } from './circularity.ts';
import { generalProductInformationCompleteSchema, generalProductInformationSchema } from './general-product-information.ts';
import { labelingCompleteSchema, labelingSchema } from './labeling.ts';
import { deriveCriticalRawMaterials, materialCompositionCompleteSchema, materialCompositionSchema } from './material-composition.ts';
import { overlayItemData as overlay } from './overlay.ts';
import { batteryConditionSchema, measuredPerformanceSchema, performanceAndDurabilityCompleteSchema, performanceAndDurabilitySchema } from './performance-and-durability.ts';
import { supplyChainDueDiligenceCompleteSchema, supplyChainDueDiligenceSchema } from './supply-chain-due-diligence.ts';

/**
 * The battery passport's data (docs/battery.md): one member per aspect of the Battery Pass data
 * model 1.2, each with the aspect's own property names and types. A passport version holds the
 * model-level data, an item (one battery) its own data (batteryItemDataSchema); the item's view is
 * overlayItemData(model, item). Which elements are mandatory, and who may read each, is in
 * lib/domain/battery/elements.ts.
 */

/** The aspects, in the order docs and pages show them. */
export const BATTERY_ASPECTS = [
  'generalProductInformation',
  'carbonFootprint',
  'supplyChainDueDiligence',
  'materialComposition',
  'circularity',
  'labeling',
  'performanceAndDurability',
] as const;
export type BatteryAspect = (typeof BATTERY_ASPECTS)[number];

/**
 * The members this service adds to the data model's aspects (docs/battery.md#extension-members), by
 * path. The model's generated JSON Schemas allow members they do not name (no
 * additionalProperties); the project's stricter copies of them (test/support/schemas/battery/) do
 * not, and test/unit/battery-schemas.test.ts validates an aspect against them without these.
 */
export const BATTERY_EXTENSION_MEMBERS = [
  'generalProductInformation.commercialWarrantyPeriod',
  'materialComposition.criticalRawMaterials',
  'circularity.wasteBatterySafetyInstructions',
  'performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents',
  'performanceAndDurability.batteryTechicalProperties.voltageTemperatureRange',
  'performanceAndDurability.batteryTechicalProperties.powerTemperatureRange',
  'performanceAndDurability.measuredPerformance',
] as const;

/** A passport's data: every aspect and every element optional; completeness() says what is missing. */
export const batteryPassportDataSchema = z
  .strictObject(
    {
      generalProductInformation: generalProductInformationSchema.optional(),
      carbonFootprint: carbonFootprintSchema.optional(),
      circularity: circularitySchema.optional(),
      labeling: labelingSchema.optional(),
      materialComposition: materialCompositionSchema.optional(),
      performanceAndDurability: performanceAndDurabilitySchema.optional(),
      supplyChainDueDiligence: supplyChainDueDiligenceSchema.optional(),
    },
    { error: 'A battery passport\'s data must be an object of aspects.' },
  )
  // The public critical raw materials are derived from the detailed composition on every write
  // (docs/battery.md#extension-members): a value sent is replaced, and without materials there is none.
  .overwrite((data) => {
    const composition = data.materialComposition;
    if (composition === undefined) return data;
    const { criticalRawMaterials: _sent, ...rest } = composition;
    const materials = composition.batteryMaterials;
    data.materialComposition =
      materials === undefined ? rest : { ...rest, criticalRawMaterials: deriveCriticalRawMaterials(materials, data.generalProductInformation?.batteryMass) };
    return data;
  })
  .meta({
    id: 'BatteryPassportData',
    description:
      'A battery passport (Regulation (EU) 2023/1542 Art. 77, Annex XIII) in the Battery Pass data model 1.2: one member per aspect, with the aspect\'s property names, misspellings included (warrentyPeriod, batteryTechicalProperties, thirdPartyAussurances, supplyChainIndicies). Every element is optional here; which are mandatory depends on the battery category and the day (docs/battery.md).',
  });
export type BatteryPassportData = z.infer<typeof batteryPassportDataSchema>;

/**
 * What one battery holds itself: its identifiers, manufacturing and putting-into-service dates, the
 * values that change over its life (status and every element of batteryCondition), its measured
 * Annex IV values (measuredPerformance), and, where its plant's differ from the model's, the
 * plant's manufacturing place and carbon footprint (docs/battery.md#model-and-item).
 */
export const batteryItemDataSchema = z
  .strictObject(
    {
      generalProductInformation: generalProductInformationSchema
        .pick({ productIdentifier: true, batteryPassportIdentifier: true, manufacturingDate: true, puttingIntoService: true, batteryStatus: true, manufacturingPlace: true })
        .meta({ id: 'BatteryItemGeneralProductInformation', description: 'The general product information each battery holds itself, and its plant\'s manufacturing place where it differs from the model\'s' })
        .optional(),
      // The carbon footprint of the plant that made this battery, where it differs from the model's: it replaces the model's whole (Art. 7(1)).
      carbonFootprint: carbonFootprintSchema.optional(),
      performanceAndDurability: z
        .strictObject(
          { batteryCondition: batteryConditionSchema.optional(), measuredPerformance: measuredPerformanceSchema.optional() },
          {
            error: (issue) =>
              issue.code === 'unrecognized_keys' && issue.keys.includes('batteryTechicalProperties')
                ? 'batteryTechicalProperties are the model\'s declared values, held by the passport version: record this battery\'s measured values in performanceAndDurability.measuredPerformance.'
                : 'performanceAndDurability must be an object.',
          },
        )
        .meta({ id: 'BatteryItemPerformanceAndDurability', description: 'The dynamic values of one battery and its measured Annex IV values' })
        .optional(),
    },
    { error: 'A battery\'s data must be an object of aspects.' },
  )
  .meta({
    id: 'BatteryItemData',
    description:
      'The data of one battery, laid over its passport version\'s data element by element: identifiers, dates, status, the dynamic values, its measured Annex IV values, and, where its plant\'s differ from the model\'s, its plant\'s manufacturingPlace and carbonFootprint (the latter replaces the model\'s whole: Art. 7(1), per battery model per manufacturing plant) (docs/battery.md#model-and-item)',
  });
export type BatteryItemData = z.infer<typeof batteryItemDataSchema>;

/** The item's view: the model data with the item's data laid over it, element by element (a copy; neither input changes). */
export const overlayItemData = (model: BatteryPassportData, item: BatteryItemData): BatteryPassportData => overlay(model, item);

/**
 * Each aspect as the data model requires it: every required member of the model's JSON Schema
 * present. A passport need not be complete (drafts, items); this states what "complete" means.
 */
export const completeAspectSchemas = {
  generalProductInformation: generalProductInformationCompleteSchema,
  carbonFootprint: carbonFootprintCompleteSchema,
  supplyChainDueDiligence: supplyChainDueDiligenceCompleteSchema,
  materialComposition: materialCompositionCompleteSchema,
  circularity: circularityCompleteSchema,
  labeling: labelingCompleteSchema,
  performanceAndDurability: performanceAndDurabilityCompleteSchema,
} as const satisfies Record<BatteryAspect, z.ZodType>;

/** Each aspect as a passport holds it (every element optional). */
export const aspectSchemas = {
  generalProductInformation: generalProductInformationSchema,
  carbonFootprint: carbonFootprintSchema,
  supplyChainDueDiligence: supplyChainDueDiligenceSchema,
  materialComposition: materialCompositionSchema,
  circularity: circularitySchema,
  labeling: labelingSchema,
  performanceAndDurability: performanceAndDurabilitySchema,
} as const satisfies Record<BatteryAspect, z.ZodType>;

export { BATTERY_CATEGORIES, BATTERY_STATUSES, PASSPORT_MANDATORY_FROM, type BatteryCategory, type BatteryStatus } from './categories.ts';
export { completeness, elementAt, elementOf, elementsFor, ELEMENTS, filterByTier, type BatteryElement, type ElementPath } from './elements.ts';
export { ACCESS_TIERS, canRead, type AccessTier, type Reader } from './access-tiers.ts';
