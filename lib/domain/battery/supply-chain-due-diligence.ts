import * as z from 'zod';
import { measure, url } from './fields.ts';

/**
 * The SupplyChainDueDiligence aspect of the Battery Pass data model 1.2
 * (docs/battery.md#supply-chain-due-diligence), `thirdPartyAussurances` and `supplyChainIndicies`
 * misspelt as the model spells them.
 */
export const supplyChainDueDiligenceCompleteSchema = z.strictObject(
  {
    supplyChainDueDiligenceReport: url('supplyChainDueDiligenceReport').describe('Link to the report on the battery due diligence policy (Art. 52(3))'),
    thirdPartyAussurances: url('thirdPartyAussurances').describe('Voluntary: link to third-party supply chain assurances, such as certifications of recognised schemes').optional(),
    supplyChainIndicies: measure('supplyChainIndicies', { min: -1_000_000, max: 1_000_000, description: 'Voluntary: a supply chain due diligence index (its scale is not fixed yet)' }).optional(),
  },
  { error: 'supplyChainDueDiligence must be an object.' },
);

export const supplyChainDueDiligenceSchema = supplyChainDueDiligenceCompleteSchema
  .partial()
  .meta({ id: 'BatterySupplyChainDueDiligence', description: 'Supply chain due diligence (Battery Pass data model 1.2, SupplyChainDueDiligence)' });

export type SupplyChainDueDiligence = z.infer<typeof supplyChainDueDiligenceSchema>;
