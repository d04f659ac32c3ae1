import * as z from 'zod';
import { choice, list, measure, text, url } from './fields.ts';

/**
 * The CarbonFootprintForBatteries aspect of the Battery Pass data model 1.2, held in a passport as
 * `carbonFootprint` (docs/battery.md#carbon-footprint). Values per functional unit are kg CO2e per
 * kWh of the total energy the battery provides over its expected service life (Art. 7(1)(d)), each
 * life cycle stage's too (DIN DKE SPEC 99100:2025-02 Table 4); the absolute footprint is in t CO2e
 * (6.3.10). Where the consortium's longlist and the data model say otherwise: docs/battery.md#units.
 */

/** The data model's LifecycleStage: the four stages of Annex II point 4. */
export const LIFECYCLE_STAGES = ['RawMaterialExtraction', 'MainProduction', 'Distribution', 'Recycling'] as const;

/** Per functional unit; negative allowed (end-of-life credits can lower the total). */
const footprintPerUnit = (field: string, description?: string) => measure(field, { min: -100_000, max: 100_000, unit: 'kg CO2e per kWh', description });

export const carbonFootprintPerLifecycleStageSchema = z
  .strictObject(
    {
      lifecycleStage: choice('lifecycleStage', LIFECYCLE_STAGES),
      carbonFootprint: footprintPerUnit(
        'carbonFootprint',
        'The stage\'s contribution to the battery carbon footprint per functional unit (DIN DKE SPEC 99100 6.3.3 to 6.3.6, Table 4; the consortium\'s longlist gives a % share instead: docs/battery.md#units)',
      ),
    },
    { error: 'A lifecycle stage entry is an object with lifecycleStage and carbonFootprint.' },
  )
  .meta({ id: 'BatteryCarbonFootprintPerLifecycleStage', description: 'The carbon footprint of one life cycle stage' });

export const carbonFootprintCompleteSchema = z.strictObject(
  {
    batteryCarbonFootprint: footprintPerUnit('batteryCarbonFootprint', 'The battery carbon footprint per functional unit, as declared (Art. 7(1)(d))'),
    carbonFootprintPerLifecycleStage: list('carbonFootprintPerLifecycleStage', carbonFootprintPerLifecycleStageSchema, LIFECYCLE_STAGES.length).describe(
      'The footprint per life cycle stage (Art. 7(1)(e)), at most one entry per stage',
    ),
    carbonFootprintPerformanceClass: text('carbonFootprintPerformanceClass', 20).describe(
      'The carbon footprint performance class of the battery model per manufacturing plant (Art. 7(2)); the classes are set by a delegated act',
    ),
    carbonFootprintStudy: url('carbonFootprintStudy').describe('Web link to the public version of the study behind the values (Art. 7(1)(g))'),
    // In t CO2e (DIN DKE SPEC 99100 6.3.10); kg CO2e until issue 38 point 10: the bounds are the old ones
    // of ±1e12 kg in t, so every value stored then holds converted (units-migration.ts, docs/battery.md#units).
    absoluteCarbonFootprint: measure('absoluteCarbonFootprint', {
      min: -1e9,
      max: 1e9,
      unit: 't CO2e (tonnes of CO2 equivalent)',
      description: 'Voluntary: the footprint in absolute terms, without the functional unit (DIN DKE SPEC 99100 6.3.10)',
    }).optional(),
  },
  { error: 'carbonFootprint must be an object.' },
);

export const carbonFootprintSchema = carbonFootprintCompleteSchema
  .partial()
  .meta({ id: 'BatteryCarbonFootprint', description: 'Carbon footprint (Battery Pass data model 1.2, CarbonFootprintForBatteries)' });

export type CarbonFootprint = z.infer<typeof carbonFootprintSchema>;
