import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  ALLERGEN_FIELDS,
  API_KEY_SCOPES,
  CATEGORIES,
  ENVIRONMENTS,
  GRANULARITIES,
  NUTRITION_FIELDS,
  PROTECTIVE_ATMOSPHERES,
  SUPPLIER_ROLES,
  WEBHOOK_SOURCES,
  WINE_COLOURS,
} from '../../dashboard/src/constants.ts';
import { labelOf, printedGtin, utcDay } from '../../dashboard/src/format.ts';
import { createApiKeySchema } from '../../lib/domain/api-key.ts';
import { analyticsQuerySchema } from '../../lib/domain/analytics.ts';
import { NEGLIGIBLE_NUTRIENTS } from '../../lib/domain/nutrition.ts';
import { allergensSchema, nutritionSchema, passportDataSchema, producerSchema } from '../../lib/domain/passport.ts';
import { createProductSchema } from '../../lib/domain/product.ts';
import { createEndpointSchema } from '../../lib/domain/webhook.ts';

const DASHBOARD = join(import.meta.dirname, '../../dashboard');

describe('the dashboard', () => {
  it('offers exactly the values the API schemas accept', () => {
    // Act
    const accepted = {
      categories: createProductSchema.shape.category.options,
      colours: passportDataSchema.shape.colour.unwrap().options,
      roles: producerSchema.shape.role.unwrap().options,
      nutrition: Object.keys(nutritionSchema.shape).filter((field) => field !== 'energyCalculated' && field !== 'negligible'), // set by the service, not in the form; negligible has its checkboxes
      negligible: nutritionSchema.shape.negligible.unwrap().element.options,
      protectiveAtmospheres: passportDataSchema.shape.protectiveAtmosphere.unwrap().options,
      allergens: Object.keys(allergensSchema.shape),
      sources: createEndpointSchema.shape.source.options,
      granularities: analyticsQuerySchema.shape.granularity.unwrap().options,
      environments: createApiKeySchema.shape.environment.unwrap().options,
    };
    // Assess
    expect(accepted).toEqual({
      categories: [...CATEGORIES],
      colours: [...WINE_COLOURS],
      roles: [...SUPPLIER_ROLES],
      nutrition: [...NUTRITION_FIELDS],
      negligible: [...NEGLIGIBLE_NUTRIENTS],
      protectiveAtmospheres: [...PROTECTIVE_ATMOSPHERES],
      allergens: [...ALLERGEN_FIELDS],
      sources: [...WEBHOOK_SOURCES],
      granularities: [...GRANULARITIES],
      environments: [...ENVIRONMENTS],
    });
    expect(API_KEY_SCOPES).not.toContain('api_keys:manage');
  });

  it('bundles no zod and no other server package: the API types cross as types only', async () => {
    // Act
    const result = await build({
      entryPoints: [join(DASHBOARD, 'src/main.tsx')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      tsconfig: join(DASHBOARD, 'tsconfig.json'),
      logLevel: 'silent',
    });
    // Assess
    const packages = new Set(Object.keys(result.metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []));
    expect([...packages].sort()).toEqual(['preact']);
  });

  it('labels passport fields, prints GTINs as under the barcode, and counts days in UTC', () => {
    expect(labelOf('saturatedFatG')).toBe('Saturated fat (g)');
    expect(labelOf('energyKj')).toBe('Energy (kJ)');
    expect(labelOf('containsSulphites')).toBe('Contains sulphites');
    expect(printedGtin('04006381333931')).toBe('4006381333931');
    expect(printedGtin('14006381333938')).toBe('14006381333938');
    expect(utcDay(1, new Date('2026-03-01T23:30:00Z'))).toBe('2026-02-28');
  });
});
