import * as z from 'zod';
import { CATEGORIES } from '../enums.ts';
import { nutritionSchema } from '../passport.ts';
import { LANGUAGES } from './languages.ts';

/**
 * Request and answer schemas of the labelling endpoints (docs/api.md): the ingredient vocabulary
 * and the energy calculator. Used by functions/labelling and the OpenAPI document alike.
 */

const names = z
  .object(Object.fromEntries(LANGUAGES.map((lang) => [lang, z.string()])) as Record<(typeof LANGUAGES)[number], z.ZodString>)
  .describe('The name in each of the 24 official EU languages');

export const vocabularyEntrySchema = z
  .object({
    code: z.string().describe('What a passport ingredient names: {"code": "…"}'),
    category: z
      .object({ id: z.string(), names })
      .nullable()
      .describe('The additive category the e-label names before the ingredient ("Acidity regulator: tartaric acid"), or null'),
    eNumber: z.string().nullable().describe('The E-number (Regulation (EC) No 1333/2008), such as "E 334", or null'),
    allergen: z.enum(['sulphites', 'egg', 'milk', 'fish']).nullable().describe('The allergen the ingredient carries (emphasised on the e-label), or null'),
    names,
  })
  .meta({ id: 'VocabularyIngredient' });

export const vocabularyListSchema = z.object({ data: z.array(vocabularyEntrySchema) }).meta({ id: 'IngredientVocabulary' });

export const calculateNutritionSchema = z.strictObject({
  nutrition: nutritionSchema,
  alcoholPercentVol: z
    .number({ error: 'alcoholPercentVol must be a number.' })
    .min(0, { error: 'alcoholPercentVol must be 0 or more.' })
    .max(100, { error: 'alcoholPercentVol must be at most 100.' })
    .optional()
    .describe('Alcohol in % vol: gives alcoholG (× 0.789 g/ml) when nutrition has none'),
  productType: z
    .enum(CATEGORIES, { error: `productType must be one of: ${CATEGORIES.join(', ')}.` })
    .optional()
    .describe(
      'As in passport data. A wine needs its alcohol (nutrition.alcoholG or alcoholPercentVol) for the energy to be computed, and a request without productType counts as a wine, as publishing does: left out with no alcohol given, the answer has computed: null, no calculated energy and no disagreement. Send the product type (or alcoholG: 0) to compute the energy of a product other than wine from fat, carbohydrate and protein',
    ),
});
export type CalculateNutrition = z.infer<typeof calculateNutritionSchema>;

const source = z.enum(['declared', 'calculated', 'absent']);

export const calculatedNutritionSchema = z
  .object({
    nutrition: nutritionSchema.describe('The nutrition as a passport would store it: energy computed when not declared'),
    sources: z
      .object({ energyKj: source, energyKcal: source, alcoholG: source })
      .describe('Whether each figure was declared, calculated, or is absent (too few nutrients to compute it)'),
    computed: z
      .object({ energyKj: z.number(), energyKcal: z.number() })
      .nullable()
      .describe(
        "The energy the nutrients give, unrounded (Annex XIV factors); null when fat, carbohydrate or protein is missing, or when a wine's alcohol is, and productType left out counts as wine: null for a request without productType and without alcohol",
      ),
    disagreement: z
      .object({ field: z.enum(['energyKj', 'energyKcal']), declaredKj: z.number(), computedKj: z.number(), message: z.string() })
      .nullable()
      .describe('A declared energy more than 20 % and 10 kJ from what the nutrients give: publishing such data is a 422 naming the field (docs/labelling.md#energy-and-rounding)'),
  })
  .meta({ id: 'CalculatedNutrition' });
