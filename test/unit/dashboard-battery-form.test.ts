import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dashboard/src/api.ts';
import { ASPECTS, dataOf, FIELD_CHOICES, formAspects, placeParams, valuesOf, type FieldKind, type FormField } from '../../dashboard/src/battery-form.ts';
import { aspectSchemas, BATTERY_ASPECTS } from '../../lib/domain/battery/index.ts';
import { ELEMENTS } from '../../lib/domain/battery/element-map.ts';

/**
 * The battery passport form's model (dashboard/src/battery-form.ts, docs/dashboard.md#the-battery-passport-form):
 * its controls agree with the zod schemas the API validates with, the example passport goes into
 * the form and comes out unchanged, and a refusal's params land at the elements they name.
 */

type Json = Record<string, any>;
const EXAMPLE = JSON.parse(readFileSync(new URL('../../docs/examples/battery-passport.json', import.meta.url), 'utf8')) as Json;

const unwrap = (schema: z.ZodType): z.ZodType => {
  let inner: any = schema;
  while (['optional', 'nullable', 'default'].includes(inner._zod.def.type)) inner = inner._zod.def.innerType;
  return inner as z.ZodType;
};

/** The schema of an element, through the aspect's objects. */
function schemaAt(path: string): z.ZodType {
  const [aspect = '', ...rest] = path.split('.');
  let schema = unwrap((aspectSchemas as Record<string, z.ZodType>)[aspect] as z.ZodType);
  for (const key of rest) schema = unwrap((schema as unknown as { shape: Record<string, z.ZodType> }).shape[key] as z.ZodType);
  return schema;
}

/** The control an element's schema calls for, as the form names it. */
function expectedKind(schema: z.ZodType): { kind: FieldKind; list?: boolean; choices?: readonly string[] } {
  const type = (schema as any)._zod.def.type as string;
  if (type === 'enum') return { kind: 'choice', choices: (schema as unknown as z.ZodEnum).options as string[] };
  if (type === 'number') return { kind: 'number' };
  if (type === 'object') return { kind: 'json', list: false };
  if (type === 'array') return { kind: 'json', list: true };
  if (type === 'string') {
    const format = (z.toJSONSchema(schema, { unrepresentable: 'any' }) as { format?: string }).format;
    return { kind: format === 'uri' ? 'url' : format === 'date-time' ? 'datetime' : 'text' };
  }
  throw new Error(`no control for a ${type}`);
}

const ALL = formAspects('all');
const ALL_FIELDS = ALL.flatMap((aspect) => aspect.fields);

describe('the battery passport form', () => {
  it('has one section per aspect in the data model’s order, one field per element, each with the control its schema calls for', () => {
    // Act
    const mismatches = ALL_FIELDS.flatMap((field) => {
      const expected = expectedKind(schemaAt(field.path));
      const actual = { kind: field.kind, ...(expected.list === undefined ? {} : { list: field.list }), ...(expected.choices === undefined ? {} : { choices: FIELD_CHOICES[field.path] }) };
      return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${field.path}: form ${JSON.stringify(actual)}, schema ${JSON.stringify(expected)}`];
    });

    // Assess
    expect(ASPECTS).toEqual([...BATTERY_ASPECTS]);
    expect(ALL.map((aspect) => aspect.title)).toEqual([
      'General product information',
      'Carbon footprint',
      'Supply chain due diligence',
      'Material composition',
      'Circularity',
      'Labeling',
      'Performance and durability',
    ]);
    expect(ALL_FIELDS.map((field) => field.path)).toEqual(ELEMENTS.map((element) => element.path));
    expect(mismatches).toEqual([]);
  });

  it('leaves what each battery holds itself out of a model’s form', () => {
    // Act
    const model = formAspects('model').flatMap((aspect) => aspect.fields.map((field) => field.path));

    // Assess
    expect(model).not.toContain('generalProductInformation.batteryStatus');
    expect(model).not.toContain('performanceAndDurability.batteryCondition.stateOfCertifiedEnergy');
    expect(model).toContain('generalProductInformation.batteryCategory');
    expect(model).toHaveLength(ELEMENTS.filter((element) => element.level === 'model').length);
  });

  it('takes the example passport into its fields and gives it back unchanged', () => {
    // Act
    const values = valuesOf(EXAMPLE, ALL_FIELDS);
    const { data, jsonErrors } = dataOf(values, ALL_FIELDS, {});

    // Assess
    expect(values['generalProductInformation.batteryMass']).toBe('452.5');
    expect(JSON.parse(values['generalProductInformation.manufacturerInformation'] ?? '')).toEqual(EXAMPLE.generalProductInformation.manufacturerInformation);
    expect(jsonErrors).toEqual({});
    expect(data).toEqual(EXAMPLE);
  });

  it('keeps what a model’s form does not show, removes an emptied element with the objects it leaves empty, reads a decimal comma, and names bad JSON', () => {
    // Prepare
    const fields = formAspects('model').flatMap((aspect) => aspect.fields);
    const values = {
      ...valuesOf(EXAMPLE, fields),
      'supplyChainDueDiligence.supplyChainDueDiligenceReport': '',
      'supplyChainDueDiligence.thirdPartyAussurances': '',
      'supplyChainDueDiligence.supplyChainIndicies': '',
      'generalProductInformation.batteryMass': '452,5',
      'labeling.labels': '[{"labelingSymbol": ',
    };

    // Act
    const result = dataOf(values, fields, EXAMPLE);
    const data = result.data as Json;
    const { jsonErrors } = result;

    // Assess
    expect(data.generalProductInformation.batteryStatus).toBe(EXAMPLE.generalProductInformation.batteryStatus);
    expect(data.performanceAndDurability.batteryCondition).toEqual(EXAMPLE.performanceAndDurability.batteryCondition);
    expect(data.supplyChainDueDiligence).toBeUndefined();
    expect(data.generalProductInformation.batteryMass).toBe(452.5);
    expect(Object.keys(jsonErrors)).toEqual(['labeling.labels']);
    expect(jsonErrors['labeling.labels']).toMatch(/^Labels and symbols and their meaning: not valid JSON/);
    expect(EXAMPLE.supplyChainDueDiligence).toBeDefined();
  });

  it('places a refusal’s params at the elements they lie in, an aspect’s at its section, the rest at the top', () => {
    // Prepare
    const fields: FormField[] = formAspects('model').flatMap((aspect) => aspect.fields);

    // Act
    const placed = placeParams(
      [
        'data.generalProductInformation.operatorInformation.emailAddress',
        'data.labeling.labels[0].labelingSymbol',
        'data.labeling.declarationOfConformity',
        'data.performanceAndDurability.batteryCondition.stateOfCharge',
        'data.carbonFootprint',
        'data',
        'asOf',
      ],
      fields,
    );

    // Assess
    expect(placed.fields).toEqual(['generalProductInformation.operatorInformation', 'labeling.labels', 'labeling.declarationOfConformity']);
    expect(placed.aspects).toEqual(['performanceAndDurability', 'carbonFootprint']);
    expect(placed.top).toBe(true);
  });

  it('reads every field a publication names as missing, and a single param as one', () => {
    // Act
    const several = new ApiError(422, { type: 'validation_error', message: 'The battery passport lacks 2 elements…', param: 'data.a', params: ['data.a', 'data.b'] });
    const one = new ApiError(422, { type: 'validation_error', message: 'x must be…', param: 'data.x' });
    const none = new ApiError(422, { type: 'validation_error', message: 'Bad.' });

    // Assess
    expect(several.params).toEqual(['data.a', 'data.b']);
    expect(one.params).toEqual(['data.x']);
    expect(none.params).toEqual([]);
  });
});
