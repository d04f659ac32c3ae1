import * as z from 'zod';
import { choice, email, list, measure, mimeType, percent, text, url } from './fields.ts';
import { postalAddressSchema } from './general-product-information.ts';

/** The Circularity aspect of the Battery Pass data model 1.2 (docs/battery.md#circularity). */

/** The data model's Documenttype. */
export const DOCUMENT_TYPES = ['BillOfMaterial', 'Model3D', 'DismantlingManual', 'RemovalManual', 'OtherManual', 'Drawing'] as const;
/** The data model's RecycledMaterial (listed twice there; once here). */
export const RECYCLED_MATERIALS = ['Cobalt', 'Nickel', 'Lithium', 'Lead'] as const;

export const documentSchema = z
  .strictObject(
    {
      documentType: choice('documentType', DOCUMENT_TYPES),
      mimeType: mimeType('mimeType'),
      documentURL: url('documentURL'),
    },
    { error: 'A document is an object with documentType, mimeType and documentURL.' },
  )
  .meta({ id: 'BatteryDocument', description: 'A document for dismantling or removal' });

export const componentSchema = z
  .strictObject({ partName: text('partName', 200), partNumber: text('partNumber', 100) }, { error: 'A component is an object with partName and partNumber.' })
  .meta({ id: 'BatterySparePart', description: 'A spare part and its part number' });

export const sparePartSupplierSchema = z
  .strictObject(
    {
      nameOfSupplier: text('nameOfSupplier', 200),
      addressOfSupplier: postalAddressSchema,
      emailAddressOfSupplier: email('emailAddressOfSupplier'),
      supplierWebAddress: url('supplierWebAddress'),
      components: list('components', componentSchema, 500),
    },
    { error: 'A spare part source is an object.' },
  )
  .meta({ id: 'BatterySparePartSource', description: 'A source of spare parts and the parts it supplies' });

export const recycledContentSchema = z
  .strictObject(
    {
      preConsumerShare: percent('preConsumerShare', 'Share recovered from battery manufacturing waste, %'),
      recycledMaterial: choice('recycledMaterial', RECYCLED_MATERIALS),
      postConsumerShare: percent('postConsumerShare', 'Share recovered from post-consumer waste, %'),
    },
    { error: 'A recycled content entry is an object with preConsumerShare, recycledMaterial and postConsumerShare.' },
  )
  .meta({ id: 'BatteryRecycledContent', description: 'Recycled content of one material in the active materials (lead: in the battery)' });

export const safetyMeasuresCompleteSchema = z.strictObject(
  {
    safetyInstructions: url('safetyInstructions').describe('Link to the safety measures and instructions, e.g. for handling waste batteries (Annex XIII point 2(d))'),
    extinguishingAgent: list('extinguishingAgent', text('extinguishingAgent', 200), 20).describe('Usable extinguishing agents (Annex VI Part A(9))'),
  },
  { error: 'safetyMeasures must be an object.' },
);

export const endOfLifeInformationSchema = z
  .strictObject(
    {
      wastePrevention: url('wastePrevention').describe('The end-user\'s role in waste prevention (Art. 74(1)(a))'),
      separateCollection: url('separateCollection').describe('The end-user\'s role in separate collection (Art. 74(1)(b))'),
      informationOnCollection: url('informationOnCollection').describe('Collection, take-back, preparation for re-use and repurposing, recycling (Art. 74(1)(c))'),
    },
    { error: 'endOfLifeInformation is an object with wastePrevention, separateCollection and informationOnCollection.' },
  )
  .meta({ id: 'BatteryEndOfLifeInformation', description: 'Information on the prevention and management of waste batteries' });

const circularityShape = {
  dismantlingAndRemovalInformation: list('dismantlingAndRemovalInformation', documentSchema, 50).describe('Dismantling and removal documents (Annex XIII point 2(c))'),
  sparePartSources: list('sparePartSources', sparePartSupplierSchema, 50).describe('Part numbers and sources of spare parts (Annex XIII point 2(b))'),
  recycledContent: list('recycledContent', recycledContentSchema, RECYCLED_MATERIALS.length).describe('Recycled content per material (Annex XIII point 1(e))'),
  endOfLifeInformation: endOfLifeInformationSchema,
  renewableContent: measure('renewableContent', { min: 0, max: 100, unit: '%', description: 'Share of renewable content, % (Annex XIII point 1(f))' }),
  // Extension of the data model (docs/battery.md#extension-members): optional in the complete aspect too.
  wasteBatterySafetyInstructions: url('wasteBatterySafetyInstructions')
    .optional()
    .describe(
      'Extension of the data model (docs/battery.md#extension-members): link to the safety instructions for handling waste batteries, including the risks of batteries containing lithium (Art. 74(1)(d), public through Annex XIII point 1(s))',
    ),
};

export const circularityCompleteSchema = z.strictObject({ ...circularityShape, safetyMeasures: safetyMeasuresCompleteSchema }, { error: 'circularity must be an object.' });

/** As a passport holds it: every element optional, the two elements of safetyMeasures too (they have different audiences). */
export const circularitySchema = circularityCompleteSchema
  .partial()
  .extend({
    safetyMeasures: safetyMeasuresCompleteSchema
      .partial()
      .meta({ id: 'BatterySafetyMeasures', description: 'Safety instructions (Annex XIII point 2(d)) and extinguishing agents (Annex VI Part A(9))' })
      .optional(),
  })
  .meta({ id: 'BatteryCircularity', description: 'Circularity (Battery Pass data model 1.2, Circularity)' });

export type Circularity = z.infer<typeof circularitySchema>;
