import * as z from 'zod';
import { routeKey, ROUTES, type Route } from './routes.ts';
import { maxVintage, vintageSchema } from '../domain/passport.ts';
import { SCOPES } from '../domain/scopes.ts';
import { documentPaths } from './document-paths.ts';
import { OPERATIONS, PATH_PARAMETERS, TAGS, type Answer, type HeaderDoc } from './operations.ts';
import { errorSchema } from './schemas.ts';
import { ERROR_TYPES } from '../http/error-types.ts';

/**
 * The OpenAPI 3.1 document, generated from the route table (paths, methods, authentication,
 * scopes) and the zod schemas the handlers validate and answer with. Nothing here is written by
 * hand twice: a route without an operation entry, or an entry without a route, is an error.
 */
type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
};
interface OperationObject {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, unknown> }>;
  [key: string]: unknown;
}

/** Each error status's meaning, from the table of error types (lib/http/error-types.ts). */
const STATUS_TEXT: Record<number, string> = {};
for (const [type, { statuses }] of Object.entries(ERROR_TYPES)) {
  for (const [status, meaning] of Object.entries(statuses)) {
    const text = `${meaning} (${type})`;
    STATUS_TEXT[Number(status)] = STATUS_TEXT[Number(status)] ? `${STATUS_TEXT[Number(status)]}; ${text}` : text;
  }
}

class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  /** A JSON Schema (2020-12) of `schema`; schemas with a zod `id` become `#/components/schemas/{id}`. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const id = z.globalRegistry.get(schema)?.id;
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        // The one bound that moves with the calendar: stated as of now, when the document is generated.
        if (zodSchema === vintageSchema) jsonSchema.maximum = maxVintage();
      },
    }) as JsonSchema;
    const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $schema: _schema, $defs, id: _id, ...rest } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, def] of Object.entries($defs ?? {})) this.components[name] ??= def;
    if (typeof id === 'string') {
      this.components[id] ??= rest;
      return { $ref: `#/components/schemas/${id}` };
    }
    return rest;
  }
}

/**
 * Security requirements: which credentials an operation takes. Scopes are not in them: Spectral
 * (spectral:oas, oas3-operation-security-defined) accepts scope lists for OAuth schemes only, so an
 * operation lists its scopes in `x-required-scopes.anyOf` (any one authorizes the call, see
 * lib/api/routes.ts), and the ApiKey scheme lists them all in `x-scopes`.
 */
function security(route: Route): Array<Record<string, string[]>> {
  switch (route.auth) {
    case 'apiKey':
      // The dashboard's session cookie is accepted too, and holds every scope (lib/api/handler.ts).
      return [{ ApiKey: [] }, { SessionCookie: [] }];
    case 'session':
      return [{ SessionCookie: [] }];
    case 'webhook':
      return [{ WebhookSignature: [] }];
    case 'optional':
      // Without credentials the caller reads the public tier (docs/access.md#reads).
      return [{ ApiKey: [] }, { SessionCookie: [] }, {}];
    default:
      return [];
  }
}

function content(set: SchemaSet, answer: Answer) {
  if (!answer.schema) return undefined;
  const out: Record<string, { schema: JsonSchema }> = { [answer.contentType ?? 'application/json']: { schema: set.convert(answer.schema, 'output') } };
  for (const [mediaType, schema] of Object.entries(answer.alternatives ?? {})) out[mediaType] = { schema: set.convert(schema, 'output') };
  return out;
}

function headerObjects(set: SchemaSet, headers: Readonly<Record<string, HeaderDoc>> | undefined) {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [name, { description: h.description, required: h.required ?? false, schema: set.convert(h.schema, 'output') }]),
  );
}

export function buildOpenApi(): OpenApiDocument {
  const set = new SchemaSet();
  const errorRef = set.convert(errorSchema, 'output');
  const retryAfter = headerObjects(set, {
    'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: z.string().regex(/^[0-9]+$/) },
  });
  const paths: OpenApiDocument['paths'] = {};
  const documented = new Set<string>();

  for (const route of ROUTES) {
    const key = routeKey(route);
    const doc = OPERATIONS[key];
    if (!doc) throw new Error(`The route ${key} has no entry in lib/api/operations.ts`);
    documented.add(key);
    for (const path of documentPaths(route.path)) {
      const parameters: unknown[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => {
        const param = PATH_PARAMETERS[name];
        if (!param) throw new Error(`The path parameter ${name} of ${key} has no entry in PATH_PARAMETERS (lib/api/operations.ts)`);
        return { name, in: 'path', required: true, description: param.description, schema: set.convert(param.schema, 'input') };
      });
      if (doc.query) {
        const query = set.convert(doc.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
        for (const [name, schema] of Object.entries(query.properties ?? {})) {
          // The description and the rules across parameters (x-…) belong to the parameter, not its schema.
          const { description, ...rest } = schema;
          const extensions = Object.fromEntries(Object.entries(rest).filter(([k]) => k.startsWith('x-') && k !== 'x-check-digit'));
          const own = Object.fromEntries(Object.entries(rest).filter(([k]) => !(k in extensions)));
          parameters.push({
            name,
            in: 'query',
            required: query.required?.includes(name) ?? false,
            description: description ?? `The ${name} parameter`,
            schema: own,
            ...extensions,
          });
        }
      }
      if (route.idempotent) {
        parameters.push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Retry safely: the same key with the same body replays the first answer for 24 hours.',
          schema: { type: 'string', maxLength: 255 },
        });
      }
      const responses: OperationObject['responses'] = {};
      for (const [status, answer] of Object.entries(doc.responses)) {
        const body = content(set, answer);
        const headers = headerObjects(set, answer.headers);
        responses[status] = { description: answer.description, ...(headers ? { headers } : {}), ...(body ? { content: body } : {}) };
      }
      const errors = route.idempotent ? [...new Set([...doc.errors, 400, 409])].sort() : doc.errors;
      const errorContent = {
        'application/json': { schema: errorRef },
        ...Object.fromEntries(Object.entries(doc.errorAlternatives ?? {}).map(([mediaType, schema]) => [mediaType, { schema: set.convert(schema, 'output') }])),
      };
      const errorHeaders = headerObjects(set, doc.errorHeaders);
      for (const status of errors) {
        responses[String(status)] = { description: STATUS_TEXT[status] ?? 'Error', ...(errorHeaders ? { headers: errorHeaders } : {}), content: errorContent };
      }
      responses['500'] = { description: STATUS_TEXT[500] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
      // Every operation may find a dependency down (docs/api.md#when-a-dependency-is-down): 503, in the operation's error forms.
      responses['503'] = { description: STATUS_TEXT[503] ?? 'Error', headers: { ...errorHeaders, ...retryAfter }, content: errorContent };

      const operation: OperationObject = {
        operationId: `${route.method.toLowerCase()}${path.replace(/[{}+]/g, '').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
        summary: doc.summary,
        description: doc.description,
        tags: [doc.tag],
        security: security(route),
        ...(route.scopes.length ? { 'x-required-scopes': { anyOf: [...route.scopes] } } : {}),
        ...doc.extensions,
        ...(parameters.length ? { parameters } : {}),
        ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: set.convert(doc.body, 'input') } } } } : {}),
        ...(doc.bodyContent
          ? { requestBody: { required: true, content: Object.fromEntries(Object.entries(doc.bodyContent).map(([mediaType, schema]) => [mediaType, { schema: set.convert(schema, 'input') }])) } }
          : {}),
        responses,
      };
      paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
    }
  }
  const stale = Object.keys(OPERATIONS).filter((key) => !documented.has(key));
  if (stale.length) throw new Error(`lib/api/operations.ts documents routes that do not exist: ${stale.join(', ')}`);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Product Passport API',
      version: '1.0.0',
      description: [
        'Digital Product Passports: products by GTIN, versioned passports, GS1 Digital Link QR codes, suppliers, scan analytics and signed webhooks. Errors are always {"error": {type, code, message, param?, suggestion?}} with code equal to type; every response carries Request-Id.',
        'Every rule the server checks is stated here: patterns, bounds, formats and enums in the schemas; what no schema keyword can say in an extension as well as in words: `x-check-digit` (a GTIN\'s GS1 mod-10 check digit), `x-mutually-exclusive-with` (query parameters that cannot be combined), `x-date-window` (how far apart start and end may be), `x-refers-to` (a value that must name an existing item).',
        'Scopes: `x-required-scopes.anyOf` of an operation lists the scopes any one of which authorizes it (also its security alternatives); `x-scopes` of the ApiKey scheme lists them all. The bounds that follow the calendar (the latest vintage is next year) are those of the day this document was generated.',
      ].join('\n\n'),
      contact: { name: 'Product Passport API team' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This deployment' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: set.components,
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer sk_live_… or sk_test_…; an operation lists the scopes any one of which suffices (x-required-scopes).',
          'x-scopes': [...SCOPES],
        },
        // The names lib/auth/session.ts (cookieName) gives the cookie; test/unit/openapi-truths.test.ts holds them equal.
        SessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-passport_session',
          description:
            'The dashboard session cookie (HttpOnly, SameSite=Lax, Path=/), set when a user signs in (/v1/auth/login, then /v1/auth/callback) and when the session switches organization (POST /v1/auth/session). Its name is `__Host-passport_session` (Secure, no Domain) wherever the API is served over HTTPS, as every deployment is; only a local stack whose API origin is plain http:// on a loopback host (localhost, 127.0.0.1, [::1]) names it `passport_session`, without the prefix and the Secure flag. State-changing calls also need Origin and X-CSRF-Token.',
        },
        WebhookSignature: { type: 'apiKey', in: 'header', name: 'X-Webhook-Signature', description: 'sha256=<lowercase hex HMAC-SHA256 of the exact body, keyed with the endpoint secret>' },
      },
    },
  };
}
