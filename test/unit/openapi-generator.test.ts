import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { OPERATIONS } from '../../lib/api/operations.ts';
import { routeKey, ROUTES } from '../../lib/api/routes.ts';
import { checkDigit, normalizeGtin } from '../../lib/domain/gtin.ts';
import { anyUnitDataSchema } from '../../lib/domain/unit-data.ts';
import { formatPath, parseBody, parseOrThrow } from '../../lib/http/validation.ts';
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

/**
 * The text rule on every way in (docs/api.md#text-and-json-rules, issue 42): no write route stores a
 * noncharacter or a lone surrogate. Each string of a body the document calls valid, with U+FFFE,
 * U+FFFF or a lone surrogate put in it, is refused by the handler's schema with a 422 whose `param`
 * names that string (or the list or object holding it, when the refusal comes from there: a battery
 * batch's data, whose category picks its schema; a list of scopes); a member name with one is
 * refused or dropped, never kept.
 */
describe('no noncharacter or lone surrogate in any string of a request body', () => {
  const withBody = operations.filter(({ operation }) => operation.requestBody?.content['application/json']);
  const BAD = ['\uFFFE', '\uFFFF', '\uD800'];
  type Path = (string | number)[];
  const strings = (value: unknown, path: Path = [], out: Path[] = []): Path[] => {
    if (typeof value === 'string') out.push(path);
    else if (Array.isArray(value)) value.forEach((v, i) => strings(v, [...path, i], out));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, [...path, k], out);
    return out;
  };
  const members = (value: unknown, path: Path = [], out: Path[] = []): Path[] => {
    if (Array.isArray(value)) value.forEach((v, i) => members(v, [...path, i], out));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        out.push([...path, k]);
        members(v, [...path, k], out);
      }
    }
    return out;
  };
  const parentOf = (root: unknown, path: Path): Record<string | number, unknown> => path.slice(0, -1).reduce<any>((o, k) => o[k], root);
  const refusal = (parse: () => unknown): { param: string } | undefined => {
    try {
      parse();
      return undefined;
    } catch (error) {
      return { param: (error as { param?: string }).param ?? '' };
    }
  };
  /**
   * A batch's or item's data as the handler checks it: against its product's category's schema
   * (lib/domain/unit-data.ts unitSpecOf), one branch of the document's union, each branch that
   * takes the data as generated. The union itself reports from a branch of its own choosing.
   */
  const dataRefusals = (original: unknown, mutated: unknown): ({ param: string } | undefined)[] =>
    anyUnitDataSchema.options.filter((branch) => branch.safeParse(original).success).map((branch) => refusal(() => parseOrThrow(branch, mutated, ['data'])));
  const names = (param: string, path: Path): boolean => {
    const leaf = formatPath(path);
    return param === leaf || leaf.startsWith(`${param}.`) || leaf.startsWith(`${param}[`);
  };

  it.each(withBody.map(({ key, operation }) => [key, operation] as const))('%s: a string holding one is a 422 naming it', (key, operation) => {
    // Prepare
    const schema = operation.requestBody!.content['application/json']!.schema;
    const zodSchema = OPERATIONS[routeKeyOf(key)]?.body;
    expect(zodSchema, key).toBeDefined();
    // Act & Assess
    fc.assert(
      fc.property(arbitraryOf(schema, { root: document }), fc.nat(), (body, pick) => {
        strings(body).forEach((path, i) => {
          const mutated = structuredClone(body);
          const parent = parentOf(mutated, path);
          const last = path[path.length - 1] as string | number;
          const value = parent[last] as string;
          const bad = BAD[(pick + i) % BAD.length] as string;
          parent[last] = `${value.slice(0, 1)}${bad}${value.slice(1)}`;
          const what = `${formatPath(path)} with U+${bad.charCodeAt(0).toString(16).toUpperCase()}`;
          const refused = refusal(() => parseBody(zodSchema!, mutated));
          if (!refused) throw new Error(`${what} accepted`);
          if (names(refused.param, path)) return;
          const unitData = path[0] === 'data' && /\/(batches|items)\//.test(key) ? dataRefusals((body as { data: unknown }).data, (mutated as { data: unknown }).data) : [];
          if (unitData.length === 0 || !unitData.every((r) => r && names(r.param, path))) throw new Error(`${what}: refused naming ${refused.param}`);
        });
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it.each(withBody.map(({ key, operation }) => [key, operation] as const))('%s: a member name holding one is refused or dropped', (key, operation) => {
    // Prepare
    const schema = operation.requestBody!.content['application/json']!.schema;
    const zodSchema = OPERATIONS[routeKeyOf(key)]!.body!;
    // Act & Assess
    fc.assert(
      fc.property(arbitraryOf(schema, { root: document }), (body) => {
        for (const path of members(body)) {
          const mutated = structuredClone(body);
          const parent = parentOf(mutated, path);
          const name = String(path[path.length - 1]);
          const value = parent[name];
          delete parent[name];
          parent[`${name.slice(0, 1)}\uFFFE${name.slice(1)}`] = value;
          const parsed = zodSchema.safeParse(mutated);
          if (parsed.success && JSON.stringify(parsed.data).includes('\uFFFE')) throw new Error(`the member ${formatPath(path)} renamed with U+FFFE is kept`);
        }
      }),
      { seed: SEED, numRuns: 30 },
    );
  });
});
