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

/** The most critical raw materials a passport lists: one per material of batteryMaterials at most. */
export const MAX_CRITICAL_RAW_MATERIALS = 100;

export const criticalRawMaterialSchema = z
  .strictObject(
    {
      criticalRawMaterialName: text('criticalRawMaterialName', 200),
      criticalRawMaterialConcentration: percent('criticalRawMaterialConcentration', 'Share of the battery\'s mass, % weight by weight, rounded to two decimals').optional(),
    },
    { error: 'A critical raw material is an object with criticalRawMaterialName and optionally criticalRawMaterialConcentration.' },
  )
  .meta({ id: 'BatteryCriticalRawMaterial', description: 'A critical raw material in the battery: its name and, where the masses allow it, its share of the battery\'s mass; never a mass' });

/**
 * The public list of critical raw materials (Annex XIII point 1(b), Annex VI Part A(10)), derived
 * from the materials the detailed composition flags `isCriticalRawMaterial` (docs/battery.md#extension-members):
 * one entry per CAS number, in the order first flagged, with its name and, when the battery's mass
 * is given, its share of it (the masses of its entries summed, % w/w, two decimals). Never a mass:
 * the detailed composition stays with persons with a legitimate interest (point 2(a)). A share
 * above 100 % (masses that contradict the battery's) is left out rather than shown.
 */
export function deriveCriticalRawMaterials(
  materials: readonly { batteryMaterialIdentifier: string; batteryMaterialName: string; batteryMaterialMass: number; isCriticalRawMaterial: boolean }[],
  batteryMass?: number,
): { criticalRawMaterialName: string; criticalRawMaterialConcentration?: number }[] {
  const byCas = new Map<string, { name: string; mass: number }>();
  for (const material of materials) {
    if (!material.isCriticalRawMaterial) continue;
    const entry = byCas.get(material.batteryMaterialIdentifier);
    if (entry) entry.mass += material.batteryMaterialMass;
    else byCas.set(material.batteryMaterialIdentifier, { name: material.batteryMaterialName, mass: material.batteryMaterialMass });
  }
  return [...byCas.values()].slice(0, MAX_CRITICAL_RAW_MATERIALS).map(({ name, mass }) => {
    const share = batteryMass !== undefined && batteryMass > 0 ? Math.round((mass / batteryMass) * 10_000) / 100 : undefined;
    return share !== undefined && share <= 100 ? { criticalRawMaterialName: name, criticalRawMaterialConcentration: share } : { criticalRawMaterialName: name };
  });
}

export const materialCompositionCompleteSchema = z.strictObject(
  {
    batteryChemistry: batteryChemistrySchema,
    batteryMaterials: list('batteryMaterials', batteryMaterialSchema, 100).describe('Detailed composition: materials of the cathode, anode and electrolyte (Annex XIII point 2(a))'),
    hazardousSubstances: list('hazardousSubstances', hazardousSubstanceSchema, 100).describe('Hazardous substances (Annex VI Part A(8))'),
    // Extension of the data model (docs/battery.md#extension-members), derived: whatever a client sends is replaced.
    criticalRawMaterials: list('criticalRawMaterials', criticalRawMaterialSchema, MAX_CRITICAL_RAW_MATERIALS)
      .optional()
      .describe(
        'Extension of the data model (docs/battery.md#extension-members), public (Annex XIII point 1(b), Annex VI Part A(10)): the critical raw materials, derived by the service from the materials batteryMaterials flags isCriticalRawMaterial; a value sent is replaced by the derived one',
      ),
  },
  { error: 'materialComposition must be an object.' },
);

export const materialCompositionSchema = materialCompositionCompleteSchema
  .partial()
  .meta({ id: 'BatteryMaterialComposition', description: 'Material composition (Battery Pass data model 1.2, MaterialComposition)' });

export type MaterialComposition = z.infer<typeof materialCompositionSchema>;
