import * as z from 'zod';

/**
 * The read forms' account of values converted on read (docs/battery.md#units): a passport version
 * or an item version stored before the units of DIN DKE SPEC 99100 is read in them, and names here
 * each value as it was stored, so that its digest, which covers what was stored, can be checked.
 */
export const unitConversionsSchema = z
  .array(
    z
      .object({
        path: z.string().describe('The member in data, dotted: performanceAndDurability.batteryCondition.temperatureInformation.timeExtremeHighTemp'),
        stored: z.number().describe('The value as stored, in storedUnit'),
        storedUnit: z.string().describe('h or kg CO2e'),
        value: z.number().describe('The value as data holds it, in unit'),
        unit: z.string().describe('min or t CO2e'),
      })
      .meta({ id: 'UnitConversion' }),
  )
  .describe(
    'Battery values this version stored in units older than DIN DKE SPEC 99100 (time at extreme temperatures in h, the absolute carbon footprint in kg CO2e), read converted into data. The digest covers the version as stored: put each stored value back at its path to recompute it. Absent when nothing was converted (docs/battery.md#units)',
  );
