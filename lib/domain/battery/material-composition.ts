import * as z from 'zod';
import { casNumber, choice, list, measure, percent, text } from './fields.ts';

/** The MaterialComposition aspect of the Battery Pass data model 1.2 (docs/battery.md#material-composition). */

/** The data model's HazardousSubstanceClassChrateristicEnum. */
export const HAZARDOUS_SUBSTANCE_CLASSES = ['AcuteToxicity', 'SkinCorrosionOrIrritation', 'EyeDamageOrIrritation'] as const;

export const batteryChemistrySchema = z
  .strictObject(
    {
      shortName: text('shortName', 50).describe('Short name, e.g. NMC811 or LFP'),
      clearName: text('clearName', 200).describe('Full name of the chemistry'),
    },
    { error: 'batteryChemistry is an object with shortName and clearName.' },
  )
  .meta({ id: 'BatteryChemistry', description: 'The battery chemistry (Annex VI Part A(7))' });

export const batteryComponentLocationSchema = z
  .strictObject(
    {
      componentName: text('componentName', 200).describe('e.g. Cathode, Anode, Electrolyte'),
      componentId: text('componentId', 200).optional(),
    },
    { error: 'A location is an object with componentName and optionally componentId.' },
  )
  .meta({ id: 'BatteryComponentLocation', description: 'The battery component a material or substance is in' });

export const batteryMaterialSchema = z
  .strictObject(
    {
      batteryMaterialLocation: batteryComponentLocationSchema,
      batteryMaterialIdentifier: casNumber('batteryMaterialIdentifier').describe('CAS Registry Number (its check digit is checked)'),
      batteryMaterialName: text('batteryMaterialName', 200),
      batteryMaterialMass: measure('batteryMaterialMass', { min: 0, max: 100_000, unit: 'kg' }),
      isCriticalRawMaterial: z.boolean({ error: (issue) => (issue.input === undefined ? 'isCriticalRawMaterial is required.' : 'isCriticalRawMaterial must be true or false.') }),
    },
    { error: 'A battery material is an object.' },
  )
  .meta({ id: 'BatteryMaterial', description: 'A material of the cathode, anode or electrolyte' });

export const hazardousSubstanceSchema = z
  .strictObject(
    {
      hazardousSubstanceClass: choice('hazardousSubstanceClass', HAZARDOUS_SUBSTANCE_CLASSES),
      hazardousSubstanceName: text('hazardousSubstanceName', 200),
      hazardousSubstanceConcentration: percent('hazardousSubstanceConcentration', 'Concentration, % weight by weight (the data model names no unit)'),
      hazardousSubstanceImpact: list('hazardousSubstanceImpact', text('hazardousSubstanceImpact', 500, { multiLine: true }), 30).describe(
        'Impact statements, e.g. hazard statements of Regulation (EC) No 1272/2008',
      ),
      hazardousSubstanceLocation: batteryComponentLocationSchema,
      hazardousSubstanceIdentifier: casNumber('hazardousSubstanceIdentifier').describe('CAS Registry Number (its check digit is checked)'),
    },
    { error: 'A hazardous substance is an object.' },
  )
  .meta({ id: 'BatteryHazardousSubstance', description: 'A hazardous substance in the battery other than mercury, cadmium or lead' });

export const materialCompositionCompleteSchema = z.strictObject(
  {
    batteryChemistry: batteryChemistrySchema,
    batteryMaterials: list('batteryMaterials', batteryMaterialSchema, 100).describe('Detailed composition: materials of the cathode, anode and electrolyte (Annex XIII point 2(a))'),
    hazardousSubstances: list('hazardousSubstances', hazardousSubstanceSchema, 100).describe('Hazardous substances (Annex VI Part A(8))'),
  },
  { error: 'materialComposition must be an object.' },
);

export const materialCompositionSchema = materialCompositionCompleteSchema
  .partial()
  .meta({ id: 'BatteryMaterialComposition', description: 'Material composition (Battery Pass data model 1.2, MaterialComposition)' });

export type MaterialComposition = z.infer<typeof materialCompositionSchema>;
