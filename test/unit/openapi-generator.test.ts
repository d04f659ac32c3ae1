import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { OPERATIONS } from '../../lib/api/operations.ts';
import { routeKey, ROUTES } from '../../lib/api/routes.ts';
import { checkDigit, normalizeGtin } from '../../lib/domain/gtin.ts';
import { arbitraryOf, gs1CheckDigit, queryArbitrary, type JsonSchema, type QueryParameter } from '../support/json-schema-arbitrary.ts';

/**
 * The JSON Schema → fast-check generator of the contract property test (test/fuzz/contract.fuzz.test.ts):
 * what it generates is valid by ajv, and, run over the OpenAPI document itself, every request body
 * and query it generates from the document is one the handlers' own zod schemas accept (the
 * document states every rule they enforce: issue 12 item 6).
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SEED = 20_261_123;
const document = buildOpenApi();
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const validatorOf = (schema: JsonSchema) => ajv.compile(typeof schema === 'boolean' ? schema : { ...schema, components: document.components });

function expectAllValid(schema: JsonSchema, runs = 200) {
  const validate = validatorOf(schema);
  fc.assert(
    fc.property(arbitraryOf(schema, { root: document }), (value) => {
      if (!validate(value)) throw new Error(`${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
    }),
    { seed: SEED, numRuns: runs },
  );
}

interface Operation {
  parameters?: Array<QueryParameter & { in: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation: operation as unknown as Operation })),
);
/**
 * The route table's key of a document operation: the route with that very path, or else the route
 * whose greedy `{name+}` covers the rest of it (API Gateway's greedy parameter is one or more
 * path items in the document).
 */
function routeKeyOf(key: string): string {
  const [method = '', path = ''] = key.split(' ');
  const segments = path.split('/');
  const same = ROUTES.find((r) => r.method === method && r.path.replace(/\{(\w+)\+\}/g, '{$1}') === path);
  const covering = ROUTES.find((r) => {
    if (r.method !== method || !r.path.includes('+}')) return false;
    const parts = r.path.split('/');
    const greedy = parts.findIndex((p) => p.endsWith('+}'));
    return segments.length > greedy && parts.slice(0, greedy).every((p, i) => p.startsWith('{') || p === segments[i]);
  });
  const route = same ?? covering;
  if (!route) throw new Error(`no route of the table for ${key}`);
  return routeKey(route);
}

describe('the JSON Schema generator', () => {
  it('generates only values ajv accepts: types, bounds, patterns, enums, unions, nested objects and arrays', () => {
    expectAllValid({
      type: 'object',
      required: ['name', 'n', 'kind'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 10, pattern: '\\S' },
        n: { type: 'integer', minimum: 3, exclusiveMaximum: 9 },
        x: { type: 'number', minimum: 0, maximum: 1, anyOf: [{ const: 0 }, { minimum: 0.5 }] },
        kind: { enum: ['a', 'b'] },
        maybe: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        list: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: 2 },
        when: { type: 'string', format: 'date-time' },
      },
    });
  });

  it('generates maps whose keys come from a propertyNames enum, with the keys allOf requires', () => {
    const schema = {
      type: 'object',
      propertyNames: { enum: ['gtin', 'name', 'brand'] },
      additionalProperties: { type: 'string', pattern: '^[a-z]+$' },
      allOf: [{ properties: { gtin: true }, required: ['gtin'] }],
    };
    expectAllValid(schema);
    fc.assert(fc.property(arbitraryOf(schema), (value) => 'gtin' in (value as object)), { seed: SEED });
  });

  it('gives a value the GS1 check digit when the schema carries x-check-digit, as the server checks it', () => {
    const schema = { type: 'string', pattern: '^(?:\\d{8}|\\d{12}|\\d{13}|\\d{14})$', 'x-check-digit': 'GS1 mod-10' };
    expectAllValid(schema);
    fc.assert(fc.property(arbitraryOf(schema), (gtin) => normalizeGtin(gtin as string).ok), { seed: SEED, numRuns: 300 });
    fc.assert(fc.property(fc.stringMatching(/^\d{7,13}$/), (body) => gs1CheckDigit(body) === checkDigit(body)), { seed: SEED });
  });

  it('never sends two query parameters that x-mutually-exclusive-with keeps apart, and sends both forms', () => {
    const parameters: QueryParameter[] = [
      { name: 'offset', schema: { type: 'integer', minimum: 0, maximum: 10 }, 'x-mutually-exclusive-with': ['starting_after'] },
      { name: 'starting_after', schema: { type: 'string', format: 'uuid' }, 'x-mutually-exclusive-with': ['offset'] },
    ];
    const seen = new Set<string>();
    fc.assert(
      fc.property(queryArbitrary(parameters), (query) => {
        seen.add(Object.keys(query).sort().join(','));
        return !('offset' in query && 'starting_after' in query);
      }),
      { seed: SEED },
    );
    expect(seen).toEqual(new Set(['', 'offset', 'starting_after']));
  });

  it('keeps strings out of a `not` pattern (a hostname that is not localhost)', () => {
    const schema = { type: 'string', pattern: '^[a-z]{1,2}\\.(?:localhost|[a-z]{2,3})$', not: { pattern: '(?:^|\\.)localhost$' } };
    expectAllValid(schema);
  });

  it('refuses a keyword it does not know, rather than generate values that ignore a rule', () => {
    expect(() => arbitraryOf({ type: 'string', contentEncoding: 'base64' })).toThrow(/unsupported keyword 'contentEncoding'/);
  });
});

describe('requests generated from the OpenAPI document', () => {
  const withBody = operations.filter(({ operation }) => operation.requestBody?.content['application/json']);

  it.each(withBody.map(({ key, operation }) => [key, operation] as const))('%s: every generated body validates and the handler schema accepts it', (key, operation) => {
    // Prepare
    const schema = operation.requestBody!.content['application/json']!.schema;
    const zodSchema = OPERATIONS[routeKeyOf(key)]?.body;
    expect(zodSchema, key).toBeDefined();
    const validate = validatorOf(schema);
    // Act & Assess
    fc.assert(
      fc.property(arbitraryOf(schema, { root: document }), (body) => {
        if (!validate(body)) throw new Error(`not valid by the document: ${ajv.errorsText(validate.errors)}`);
        const parsed = zodSchema!.safeParse(body);
        if (!parsed.success) throw new Error(`refused by the handler's schema: ${JSON.stringify(parsed.error.issues)}`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  const withQuery = operations.filter(({ operation }) => operation.parameters?.some((p) => p.in === 'query'));

  it.each(withQuery.map(({ key, operation }) => [key, operation] as const))('%s: every generated query the operation’s schema accepts', (key, operation) => {
    const parameters = operation.parameters!.filter((p) => p.in === 'query');
    const zodSchema = OPERATIONS[routeKeyOf(key)]?.query;
    fc.assert(
      fc.property(queryArbitrary(parameters, { root: document }), (query) => {
        const parsed = zodSchema!.safeParse(query);
        if (!parsed.success) throw new Error(`refused: ${JSON.stringify(parsed.error.issues)}`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
