import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  BATTERY_ASPECTS,
  BATTERY_EXTENSION_MEMBERS,
  batteryItemDataSchema,
  batteryPassportDataSchema,
  completeAspectSchemas,
  overlayItemData,
  type BatteryAspect,
  type BatteryItemData,
  type BatteryPassportData,
} from '../../lib/domain/battery/index.ts';
import { MODEL_EMAIL_PATTERN_AS_PUBLISHED } from '../../lib/domain/battery/fields.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { parseOrThrow } from '../../lib/http/validation.ts';
import { arbitraryOf, type JsonSchema } from '../support/json-schema-arbitrary.ts';

/**
 * The battery passport's zod schemas against the project's own JSON Schemas of the Battery Pass
 * data model's aspects (test/support/schemas/battery/, written from the model's generated schemas
 * with the tightenings of docs/battery.md#tightenings), and the tightenings themselves.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const example = JSON.parse(readFileSync(`${ROOT}docs/examples/battery-passport.json`, 'utf8')) as BatteryPassportData;

const SCHEMA_FILES: Record<BatteryAspect, string> = {
  generalProductInformation: 'general-product-information',
  carbonFootprint: 'carbon-footprint',
  supplyChainDueDiligence: 'supply-chain-due-diligence',
  materialComposition: 'material-composition',
  circularity: 'circularity',
  labeling: 'labeling',
  performanceAndDurability: 'performance-and-durability',
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true }));
const validators = Object.fromEntries(
  BATTERY_ASPECTS.map((aspect) => [
    aspect,
    ajv.compile(JSON.parse(readFileSync(`${ROOT}test/support/schemas/battery/${SCHEMA_FILES[aspect]}.schema.json`, 'utf8')) as object),
  ]),
) as Record<BatteryAspect, ReturnType<typeof ajv.compile>>;

/**
 * A copy of an aspect without the service's extension members (docs/battery.md#extension-members):
 * the data model's own schemas allow members they do not name, the project's stricter copies do not.
 */
function withoutExtensions(aspect: BatteryAspect, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const path of BATTERY_EXTENSION_MEMBERS) {
    const [head, ...rest] = path.split('.');
    if (head !== aspect) continue;
    let node: Record<string, unknown> | undefined = copy;
    for (const key of rest.slice(0, -1)) node = typeof node?.[key] === 'object' && node[key] !== null ? (node[key] as Record<string, unknown>) : undefined;
    if (node) delete node[rest.at(-1) as string];
  }
  return copy;
}

/** The JSON Schema's complaints about `value` without its extension members, one line each; empty when it validates. */
function jsonSchemaErrors(aspect: BatteryAspect, value: unknown): string[] {
  const validate = validators[aspect];
  return validate(withoutExtensions(aspect, value)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The error parseOrThrow raises for `value`, or a failure when it parses. */
function refusal(schema: z.ZodType, value: unknown, prefix: string[] = ['data']): ValidationError {
  try {
    parseOrThrow(schema, value, prefix);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('the value was accepted');
}

/**
 * A zod schema as JSON Schema for the generator of test/support/json-schema-arbitrary.ts: `$defs`
 * become components, and a string with both a pattern and a format (e-mail, URL) is sampled from
 * its pattern, which is the stricter of the two.
 */
function generatorSchema(schema: z.ZodType): { root: { components: { schemas: Record<string, JsonSchema> } }; top: JsonSchema } {
  const json = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' })).replaceAll('"#/$defs/', '"#/components/schemas/'));
  const strip = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(strip);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === 'string' && (record.format === 'email' || record.format === 'uri')) delete record.format;
      Object.values(record).forEach(strip);
    }
  };
  strip(json);
  const { $defs, $schema: _schema, ...top } = json as { $defs?: Record<string, JsonSchema>; $schema?: string };
  return { root: { components: { schemas: $defs ?? {} } }, top };
}

describe('the battery passport data against the data model (docs/battery.md)', () => {
  it('each aspect of the full example passport validates against the JSON Schema written from the data model, and parses with our zod schemas', () => {
    // Prepare
    const aspects = BATTERY_ASPECTS.map((aspect) => [aspect, example[aspect]] as const);

    // Act
    const outcomes = aspects.map(([aspect, value]) => ({
      aspect,
      jsonSchema: jsonSchemaErrors(aspect, value),
      complete: completeAspectSchemas[aspect].safeParse(value).success,
    }));
    const parsed = batteryPassportDataSchema.parse(example);

    // Assess
    expect(aspects.every(([, value]) => value !== undefined)).toBe(true);
    expect(outcomes).toEqual(BATTERY_ASPECTS.map((aspect) => ({ aspect, jsonSchema: [], complete: true })));
    expect(parsed).toEqual(example);
  });

  it('the JSON Schemas still have the data model\'s required members: an aspect without one is refused by both', () => {
    // Prepare: drop a required member of each aspect.
    const dropped: Record<BatteryAspect, string> = {
      generalProductInformation: 'batteryCategory',
      carbonFootprint: 'carbonFootprintStudy',
      supplyChainDueDiligence: 'supplyChainDueDiligenceReport',
      materialComposition: 'batteryChemistry',
      circularity: 'renewableContent',
      labeling: 'labels',
      performanceAndDurability: 'batteryCondition',
    };

    // Act
    const outcomes = BATTERY_ASPECTS.map((aspect) => {
      const { [dropped[aspect]]: _gone, ...rest } = example[aspect] as Record<string, unknown>;
      return { aspect, jsonSchema: jsonSchemaErrors(aspect, rest).length > 0, zod: completeAspectSchemas[aspect].safeParse(rest).success };
    });

    // Assess
    expect(outcomes).toEqual(BATTERY_ASPECTS.map((aspect) => ({ aspect, jsonSchema: true, zod: false })));
  });

  it('whatever our zod schema of a complete aspect accepts, the JSON Schema of that aspect accepts as stored (property)', () => {
    // Prepare: values sampled from each zod schema's own JSON Schema, kept when zod accepts them.
    let accepted = 0;
    let sampled = 0;

    // Act and Assess
    for (const aspect of BATTERY_ASPECTS) {
      const { root, top } = generatorSchema(completeAspectSchemas[aspect]);
      fc.assert(
        fc.property(arbitraryOf(top, { root, maxItems: 2 }), (value) => {
          sampled++;
          const parsed = completeAspectSchemas[aspect].safeParse(value);
          if (!parsed.success) return;
          accepted++;
          // What is stored and served is the parsed value (a month of manufacture becomes the model's date-time).
          expect(jsonSchemaErrors(aspect, parsed.data)).toEqual([]);
        }),
        { numRuns: 60, seed: 20270218 },
      );
    }
    // The property means something only if zod accepted a fair share of what was sampled.
    expect(sampled).toBe(60 * BATTERY_ASPECTS.length);
    expect(accepted).toBeGreaterThan(sampled / 4);
  });

  it('the extension members are exactly the documented ones, and nothing else outside the data model\'s schemas is accepted', () => {
    // Prepare: the full example, which holds every extension member.
    const raw = BATTERY_ASPECTS.map((aspect) => {
      const validate = validators[aspect];
      return validate(example[aspect]) ? [] : (validate.errors ?? []).filter((e) => e.keyword === 'additionalProperties').map((e) => `${aspect}${e.instancePath.replaceAll('/', '.')}.${String(e.params.additionalProperty)}`);
    }).flat();

    // Act
    const unknown = batteryPassportDataSchema.safeParse({ circularity: { wasteSafetyInstructions: 'https://www.cell-maker.example/x.pdf' } });

    // Assess
    expect(raw.sort()).toEqual([...BATTERY_EXTENSION_MEMBERS].sort());
    expect(unknown.success).toBe(false);
  });

  it('the data model\'s misspelt names are the ones accepted: the correct spellings are unknown fields', () => {
    // Prepare
    const { warrentyPeriod, ...rest } = example.generalProductInformation ?? {};
    const correctlySpelt = { generalProductInformation: { ...rest, warrantyPeriod: warrentyPeriod } };

    // Act
    const error = refusal(batteryPassportDataSchema, correctlySpelt);

    // Assess
    expect(error).toMatchObject({ status: 422, param: 'data.generalProductInformation.warrantyPeriod' });
    expect(batteryPassportDataSchema.safeParse({ performanceAndDurability: { batteryTechnicalProperties: {} } }).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse({ supplyChainDueDiligence: { thirdPartyAussurances: 'https://a.example/x', supplyChainIndicies: 1 } }).success).toBe(true);
  });
});

describe('e-mail addresses: the data model\'s pattern lost its backslashes', () => {
  it('the pattern as published refuses a real address, which our schema accepts in both aspects that carry one', () => {
    // Prepare
    const address = 'ops@cell-maker.example';
    const gpi = example.generalProductInformation ?? {};
    const data = {
      generalProductInformation: { manufacturerInformation: { ...gpi.manufacturerInformation, emailAddress: address } },
      circularity: { sparePartSources: (example.circularity?.sparePartSources ?? []).map((source) => ({ ...source, emailAddressOfSupplier: address })) },
    };

    // Act
    const published = new RegExp(MODEL_EMAIL_PATTERN_AS_PUBLISHED, 'u').test(address);
    const parsed = batteryPassportDataSchema.safeParse(data);

    // Assess
    expect(published).toBe(false);
    expect(parsed.success).toBe(true);
    expect(jsonSchemaErrors('circularity', { ...example.circularity, ...data.circularity })).toEqual([]);
  });

  it('refuses not-an-email with a 422 naming the field', () => {
    // Prepare
    const data = { generalProductInformation: { operatorInformation: { ...example.generalProductInformation?.operatorInformation, emailAddress: 'not-an-email' } } };

    // Act
    const error = refusal(batteryPassportDataSchema, data);

    // Assess
    expect(error).toMatchObject({ status: 422, type: 'validation_error', param: 'data.generalProductInformation.operatorInformation.emailAddress' });
    expect(error.message).toContain('emailAddress must be an e-mail address');
  });

  it('refuses a spare part supplier\'s address that only the broken pattern would take', () => {
    // Prepare: the model's own sample of what its broken pattern accepts.
    const source = { ...example.circularity?.sparePartSources?.[0], emailAddressOfSupplier: '.ww-...-ww...@ww.-..w.-www' };

    // Act
    const error = refusal(batteryPassportDataSchema, { circularity: { sparePartSources: [source] } });

    // Assess
    expect(error.param).toBe('data.circularity.sparePartSources[0].emailAddressOfSupplier');
  });
});

describe('the other tightenings (docs/battery.md#tightenings)', () => {
  it('a link must be an https URL: the data model\'s own sample telnet://192.0.2.16:80/ is refused, naming the field', () => {
    // Prepare
    const data = { labeling: { declarationOfConformity: 'telnet://192.0.2.16:80/' } };

    // Act
    const error = refusal(batteryPassportDataSchema, data);

    // Assess
    expect(error.param).toBe('data.labeling.declarationOfConformity');
    expect(batteryPassportDataSchema.safeParse({ labeling: { declarationOfConformity: 'http://www.cell-maker.example/doc.pdf' } }).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse({ labeling: { declarationOfConformity: 'https://www.cell-maker.example/doc%20v2.pdf?lang=de#p3' } }).success).toBe(true);
  });

  it('numbers are finite, within their budget, and never too small for DynamoDB (5e-324 used to be a 500)', () => {
    // Prepare
    const mass = (value: number) => ({ generalProductInformation: { batteryMass: value } });

    // Act
    const tiny = refusal(batteryPassportDataSchema, mass(5e-324));

    // Assess
    expect(tiny.param).toBe('data.generalProductInformation.batteryMass');
    expect(batteryPassportDataSchema.safeParse(mass(1e308)).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse(mass(Number.POSITIVE_INFINITY)).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse(mass(-1)).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse(mass(0)).success).toBe(true);
  });

  it('every string and list has a budget: an over-long name and an over-long list are refused, naming them', () => {
    // Prepare
    const longName = { materialComposition: { batteryChemistry: { shortName: 'N'.repeat(51), clearName: 'x' } } };
    const source = example.circularity?.sparePartSources?.[0];
    const tooManyParts = { circularity: { sparePartSources: [{ ...source, components: Array.from({ length: 501 }, (_, i) => ({ partName: 'Cell', partNumber: `P${i}` })) }] } };

    // Act
    const name = refusal(batteryPassportDataSchema, longName);
    const parts = refusal(batteryPassportDataSchema, tooManyParts);

    // Assess
    expect(name.param).toBe('data.materialComposition.batteryChemistry.shortName');
    expect(parts.param).toBe('data.circularity.sparePartSources[0].components');
  });

  it('a CAS number must have its check digit right; the data model\'s own sample with a trailing space is refused', () => {
    // Prepare
    const material = example.materialComposition?.batteryMaterials?.[0];
    const withCas = (cas: string) => ({ materialComposition: { batteryMaterials: [{ ...material, batteryMaterialIdentifier: cas }] } });

    // Act
    const wrongDigit = refusal(batteryPassportDataSchema, withCas('7439-93-3'));

    // Assess
    expect(wrongDigit.param).toBe('data.materialComposition.batteryMaterials[0].batteryMaterialIdentifier');
    expect(batteryPassportDataSchema.safeParse(withCas('7439-93-2 ')).success).toBe(false);
    expect(batteryPassportDataSchema.safeParse(withCas('7439-93-2')).success).toBe(true);
  });

  it('timestamps need their offset from UTC, and the warranty period keeps the data model\'s --MM form', () => {
    // Prepare
    const gpi = (fields: Record<string, unknown>) => ({ generalProductInformation: fields });

    // Act
    const noOffset = refusal(batteryPassportDataSchema, gpi({ manufacturingDate: '2027-03-04T08:15:00' }));
    const period = refusal(batteryPassportDataSchema, gpi({ warrentyPeriod: 'P8Y' }));

    // Assess
    expect(noOffset.param).toBe('data.generalProductInformation.manufacturingDate');
    expect(period.param).toBe('data.generalProductInformation.warrentyPeriod');
    expect(batteryPassportDataSchema.safeParse(gpi({ manufacturingDate: '2027-03-04T08:15:00+01:00', warrentyPeriod: '--12' })).success).toBe(true);
  });
});

describe('model and item', () => {
  const item: BatteryItemData = {
    generalProductInformation: { productIdentifier: 'https://id.cell-maker.example/01/04012345000016/21/EVP2027000124', batteryStatus: 'Repurposed' },
    performanceAndDurability: {
      batteryCondition: { stateOfCertifiedEnergy: { stateOfCertifiedEnergyValue: 81.5, lastUpdate: '2031-01-31T12:00:00Z' } },
    },
  };

  it('an item holds its identifiers, dates, status and dynamic values, nothing of the model', () => {
    // Prepare
    const modelLevel = { generalProductInformation: { batteryMass: 452.5 } };

    // Act
    const error = refusal(batteryItemDataSchema, modelLevel, ['data']);

    // Assess
    expect(batteryItemDataSchema.parse(item)).toEqual(item);
    expect(error.param).toBe('data.generalProductInformation.batteryMass');
  });

  it('the item\'s view is the model data with the item\'s data laid over it, and neither input changes', () => {
    // Prepare
    const model = structuredClone(example);
    const before = JSON.stringify(model);

    // Act
    const view = overlayItemData(model, item);

    // Assess
    expect(view.generalProductInformation?.batteryStatus).toBe('Repurposed');
    expect(view.generalProductInformation?.batteryMass).toBe(452.5);
    expect(view.performanceAndDurability?.batteryCondition?.stateOfCertifiedEnergy?.stateOfCertifiedEnergyValue).toBe(81.5);
    expect(view.performanceAndDurability?.batteryCondition?.capacityFade).toEqual(example.performanceAndDurability?.batteryCondition?.capacityFade);
    expect(JSON.stringify(model)).toBe(before);
    expect(jsonSchemaErrors('performanceAndDurability', view.performanceAndDurability)).toEqual([]);
  });
});
