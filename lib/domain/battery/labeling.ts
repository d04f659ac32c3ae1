import * as z from 'zod';
import { choice, list, multiLanguageText, url } from './fields.ts';

/** The Labeling aspect of the Battery Pass data model 1.2 (docs/battery.md#labeling). */

/** The data model's LabelingSubject. */
export const LABELING_SUBJECTS = ['SeparateCollection', 'HazardousMaterial', 'CarbonFootPrint', 'ExtinguishingAgent'] as const;

export const labelSchema = z
  .strictObject(
    {
      labelingSymbol: url('labelingSymbol').describe('Link to the symbol'),
      labelingMeaning: multiLanguageText('labelingMeaning').describe('What the symbol means, by language'),
      labelingSubject: choice('labelingSubject', LABELING_SUBJECTS),
    },
    { error: 'A label is an object with labelingSymbol, labelingMeaning and labelingSubject.' },
  )
  .meta({ id: 'BatteryLabel', description: 'A symbol or label on the battery and its meaning' });

export const labelingCompleteSchema = z.strictObject(
  {
    declarationOfConformity: url('declarationOfConformity').describe('Link to the EU declaration of conformity (Art. 18)'),
    resultOfTestReport: url('resultOfTestReport').describe('Link to the results of the test reports proving compliance (Annex XIII point 3)'),
    labels: list('labels', labelSchema, 50).describe('The symbols and labels of the battery with their meaning (Art. 13)'),
  },
  { error: 'labeling must be an object.' },
);

export const labelingSchema = labelingCompleteSchema
  .partial()
  .meta({ id: 'BatteryLabeling', description: 'Labels and conformity (Battery Pass data model 1.2, Labeling)' });

export type Labeling = z.infer<typeof labelingSchema>;
