import fc from 'fast-check';

/**
 * fast-check arbitraries of the values a JSON Schema (2020-12) accepts: the subset the OpenAPI
 * document (lib/api/openapi.ts) uses. type, enum, const, pattern, minimum/maximum (and exclusive),
 * minLength/maxLength, minItems/maxItems, required/properties/additionalProperties, propertyNames
 * with an enum, allOf/anyOf/oneOf, if/then (then's required fields are always sent), `not` with a
 * pattern (strings only), formats
 * date/date-time/uuid/uri/email, `$ref` to `#/components/schemas/…`, and two extensions the
 * document defines: `x-check-digit: "GS1 mod-10"` (the value's last digit is the GS1 check digit;
 * `"CAS"` a CAS Registry Number's; `"ISO 7064 MOD 97-10"` an LEI's two check digits), `uniqueItems`
 * and, on query parameters, `x-mutually-exclusive-with` (see queryArbitrary).
 *
 * Only valid values are generated: a keyword the generator does not know is an error, so the
 * document cannot grow a rule the property tests silently ignore.
 */
export type JsonSchema = boolean | { [keyword: string]: any };

/** Keywords that do not constrain a value (or are handled by the caller). */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$schema', 'id', '$id', 'x-refers-to']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  'type', 'enum', 'const', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'items', 'minItems', 'maxItems', 'properties', 'required', 'additionalProperties', 'propertyNames', 'allOf', 'anyOf', 'oneOf',
  'if', 'then', '$ref', 'x-check-digit', 'not', 'uniqueItems',
]);

/** The GS1 mod-10 check digit of the digits before it: weights 3, 1, 3, … from the right. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** A CAS Registry Number's check digit (`x-check-digit: "CAS"`): the digits before it (dashes skipped) weighted 1, 2, 3, … from the right, modulo 10. */
export function casCheckDigit(body: string): number {
  const digits = body.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i + 1);
  return sum % 10;
}

/** The two check digits of ISO/IEC 7064 MOD 97-10 over letters and digits (A = 10 … Z = 35), as an LEI's (`x-check-digit: "ISO 7064 MOD 97-10"`). */
export function mod97CheckDigits(body: string): string {
  let remainder = 0;
  for (const char of `${body}00`) {
    const value = Number.parseInt(char, 36);
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return String(98 - remainder).padStart(2, '0');
}

const DAY_MS = 86_400_000;
const DATE_FROM = Date.UTC(2000, 0, 1);
const DATE_TO = Date.UTC(2099, 11, 31);

export interface ArbitraryOptions {
  /** The document whose `#/components/schemas/…` a `$ref` names. */
  root?: { components?: { schemas?: Record<string, JsonSchema> } };
  /** At most this many items in an array and optional keys of a map (keeps requests small). */
  maxItems?: number;
}

function resolve(schema: Record<string, any>, options: ArbitraryOptions): Record<string, any> {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = options.root?.components?.schemas?.[name];
  if (target === undefined) throw new Error(`json-schema-arbitrary: cannot resolve ${schema.$ref}`);
  const { $ref: _ref, ...rest } = schema;
  return { ...(target as Record<string, any>), ...rest };
}

/** allOf folded into its parent: required fields add up; `properties: {x: true}` only requires x. */
function foldAllOf(schema: Record<string, any>): Record<string, any> {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...out } = schema as { allOf: Array<Record<string, any>> } & Record<string, any>;
  for (const part of allOf) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'required') out.required = [...new Set([...(out.required ?? []), ...value])];
      else if (key === 'properties') {
        for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) {
          if (sub !== true) out.properties = { ...out.properties, [name]: sub };
        }
      } else out[key] = value;
    }
  }
  return out;
}

export function arbitraryOf(input: JsonSchema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  if (input === true) return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  if (input === false) throw new Error('json-schema-arbitrary: false accepts nothing');
  const schema = foldAllOf(resolve(input, options));
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword)) throw new Error(`json-schema-arbitrary: unsupported keyword '${keyword}' in ${JSON.stringify(schema).slice(0, 200)}`);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const { [key]: branches, ...base } = schema;
      return fc.oneof(...(branches as Array<Record<string, any>>).map((branch) => arbitraryOf({ ...base, ...resolve(branch, options) }, options)));
    }
  }
  const type = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [inferType(schema)] : [schema.type];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => arbitraryOf({ ...schema, type: t }, options)));
  switch (type[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({ min: bound(schema, 'min', true), max: bound(schema, 'max', true) });
    case 'number':
      return fc.double({ min: bound(schema, 'min', false), max: bound(schema, 'max', false), noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const max = Math.min(schema.maxItems ?? Number.MAX_SAFE_INTEGER, Math.max(schema.minItems ?? 0, options.maxItems ?? 3));
      if (schema.uniqueItems === true) return fc.uniqueArray(arbitraryOf(schema.items ?? true, options), { minLength: schema.minItems ?? 0, maxLength: max, selector: (value) => JSON.stringify(value) });
      return fc.array(arbitraryOf(schema.items ?? true, options), { minLength: schema.minItems ?? 0, maxLength: max });
    }
    case 'object':
      return objectArbitrary(schema, options);
    default:
      return arbitraryOf(true, options);
  }
}

function inferType(schema: Record<string, any>): string {
  if (schema.properties || schema.additionalProperties !== undefined || schema.propertyNames || schema.required) return 'object';
  if (schema.items) return 'array';
  if (schema.pattern || schema.format || schema.minLength !== undefined || schema.maxLength !== undefined) return 'string';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return 'any';
}

function bound(schema: Record<string, any>, side: 'min' | 'max', integer: boolean): number {
  const inclusive = side === 'min' ? schema.minimum : schema.maximum;
  const exclusive = side === 'min' ? schema.exclusiveMinimum : schema.exclusiveMaximum;
  const fallback = side === 'min' ? -1_000_000 : 1_000_000;
  let value = typeof inclusive === 'number' ? inclusive : fallback;
  if (typeof exclusive === 'number') {
    const step = integer ? 1 : Math.max(Number.EPSILON, Math.abs(exclusive) * Number.EPSILON);
    value = side === 'min' ? Math.max(value, exclusive + step) : Math.min(value, exclusive - step);
  }
  return integer ? (side === 'min' ? Math.ceil(value) : Math.floor(value)) : value;
}

const codePoints = (s: string): number => [...s].length;

function stringArbitrary(schema: Record<string, any>): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength: number | undefined = schema.maxLength;
  let base: fc.Arbitrary<string>;
  if (schema.format === 'date') {
    base = fc.integer({ min: DATE_FROM / DAY_MS, max: DATE_TO / DAY_MS }).map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));
  } else if (schema.format === 'date-time') {
    base = fc.integer({ min: DATE_FROM, max: DATE_TO }).map((ms) => new Date(ms).toISOString());
  } else if (schema.format === 'uuid') {
    base = fc.uuid();
  } else if (schema.format === 'email') {
    base = fc.emailAddress();
  } else if (schema.format === 'uri' || schema.format === 'url') {
    base = fc.webUrl();
  } else if (typeof schema.pattern === 'string') {
    base = fc.stringMatching(new RegExp(schema.pattern, 'u'));
  } else if (schema.format !== undefined) {
    throw new Error(`json-schema-arbitrary: unsupported format '${String(schema.format)}'`);
  } else {
    base = fc.string({ minLength, maxLength: Math.min(maxLength ?? 40, minLength + 40) });
  }
  if (schema['x-check-digit'] !== undefined) {
    if (schema['x-check-digit'] === 'CAS') base = base.map((cas) => `${cas.slice(0, -1)}${casCheckDigit(cas.slice(0, -1))}`);
    else if (schema['x-check-digit'] === 'ISO 7064 MOD 97-10') base = base.map((value) => `${value.slice(0, -2)}${mod97CheckDigits(value.slice(0, -2))}`);
    else if (schema['x-check-digit'] !== 'GS1 mod-10') throw new Error(`json-schema-arbitrary: unknown x-check-digit '${String(schema['x-check-digit'])}'`);
    else base = base.map((digits) => `${digits.slice(0, -1)}${gs1CheckDigit(digits.slice(0, -1))}`);
  }
  // A format or pattern and the length bounds: keep what satisfies both (and the pattern, again, after x-check-digit).
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  // `not` is supported for a pattern a string must not match, and only that.
  if (schema.not !== undefined && (typeof schema.not?.pattern !== 'string' || Object.keys(schema.not).length !== 1)) {
    throw new Error(`json-schema-arbitrary: unsupported not ${JSON.stringify(schema.not)}`);
  }
  const excluded = schema.not ? new RegExp(schema.not.pattern, 'u') : undefined;
  return base.filter(
    (s) => codePoints(s) >= minLength && (maxLength === undefined || codePoints(s) <= maxLength) && (!pattern || pattern.test(s)) && !excluded?.test(s),
  );
}

function objectArbitrary(schema: Record<string, any>, options: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>([...(schema.required ?? []), ...(schema.if && schema.then?.required ? schema.then.required : [])]);
  const extra = schema.additionalProperties;
  const names: string[] | undefined = schema.propertyNames?.enum;
  if (schema.propertyNames && !names) throw new Error('json-schema-arbitrary: propertyNames without an enum');
  // Keys beyond `properties`: only from a propertyNames enum, with additionalProperties' schema.
  const others = extra && extra !== false && names ? names.filter((n) => !(n in properties)) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (names && !names.includes(name)) continue;
    model[name] = arbitraryOf(sub, options);
  }
  for (const name of required) {
    if (!(name in model)) {
      if (!others.includes(name)) throw new Error(`json-schema-arbitrary: required '${name}' has no schema`);
      model[name] = arbitraryOf(extra, options);
    }
  }
  const fixed = fc.record(model, { requiredKeys: [...required].filter((n) => n in model) });
  const optional = others.filter((n) => !required.has(n));
  if (optional.length === 0) return fixed;
  const more = fc.subarray(optional, { maxLength: Math.min(optional.length, options.maxItems ?? 3) }).chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, arbitraryOf(extra, options)]))));
  return fc.tuple(fixed, more).map(([a, b]) => ({ ...b, ...a }));
}

export interface QueryParameter {
  name: string;
  required?: boolean;
  schema: JsonSchema;
  'x-mutually-exclusive-with'?: string[];
}

/**
 * Query strings an operation accepts: each optional parameter present or not, a value from its
 * schema written as text, and never two parameters that `x-mutually-exclusive-with` keeps apart.
 */
export function queryArbitrary(parameters: readonly QueryParameter[], options: ArbitraryOptions = {}): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of parameters) model[p.name] = arbitraryOf(p.schema, options).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const requiredKeys = parameters.filter((p) => p.required).map((p) => p.name);
  return fc.record(model, { requiredKeys }).map((query) => {
    const out: Record<string, string> = { ...query } as Record<string, string>;
    for (const p of parameters) {
      // Of two exclusive parameters, the first one listed stays.
      if (p.name in out) for (const other of p['x-mutually-exclusive-with'] ?? []) delete out[other];
    }
    return out;
  });
}
