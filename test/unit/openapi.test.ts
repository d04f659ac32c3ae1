import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routeKey, ROUTES } from '../../lib/api/routes.ts';
import { documentPathOf, documentPaths } from '../../lib/api/document-paths.ts';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { COUNTRY_CODES } from '../../lib/domain/countries.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { ASPECT_JSON_SEGMENTS } from '../../lib/domain/battery/page-urls.ts';
import { SCOPES } from '../../lib/domain/scopes.ts';

type Json = Record<string, any>;
const parameter = (operation: Json, name: string): Json => operation.parameters.find((p: Json) => p.name === name);
/** The wine and food branch of a passport's `data` (docs/api.md#passport-data), beside the battery passport's $ref. */
const generalData = (data: Json): Json => data.anyOf.find((branch: Json) => branch.$ref === undefined);
const jsonBody = (operation: Json): Json => operation.requestBody.content['application/json'].schema;

describe('the OpenAPI document', () => {
  const document = buildOpenApi();

  it('validates as OpenAPI 3.1', async () => {
    // Act
    const result = await new Validator().validate(structuredClone(document) as Parameters<Validator["validate"]>[0]);
    // Assess
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('has every route of the route table, with its security and scopes', () => {
    for (const route of ROUTES) {
      for (const path of documentPaths(route.path)) {
        const operation = document.paths[path]?.[route.method.toLowerCase()];
        expect(operation, `${routeKey(route)} as ${path}`).toBeDefined();
        if (route.auth === 'apiKey') expect(operation?.security).toEqual([{ ApiKey: [] }, { SessionCookie: [] }]);
        if (route.auth === 'none') expect(operation?.security).toEqual([]);
        if (route.scopes.length) expect(operation?.['x-required-scopes'], routeKey(route)).toEqual({ anyOf: [...route.scopes] });
        else expect(operation?.['x-required-scopes']).toBeUndefined();
      }
    }
    expect((document.components.securitySchemes.ApiKey as Record<string, unknown>)['x-scopes']).toEqual([...SCOPES]);
  });

  it('has no operation that is not a route, or a form of one (each document path and method comes from exactly one route)', () => {
    // Prepare
    const fromRoutes = ROUTES.flatMap((route) => documentPaths(route.path).map((path) => `${route.method.toLowerCase()} ${path}`));
    // Act
    const inDocument = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    // Assess
    expect(new Set(fromRoutes).size).toBe(fromRoutes.length);
    expect([...inDocument].sort()).toEqual([...fromRoutes].sort());
  });

  it('writes the key qualifiers out as path items, in GS1 order, so a validating proxy routes a real scan', () => {
    // Prepare
    const platform = Object.keys(document.paths).filter((path) => path.startsWith('/{orgId}/{environment}/01/{gtin}/'));
    // Act
    const lot = document.paths['/{orgId}/{environment}/01/{gtin}/10/{lot}']?.get as Json | undefined;
    // Assess
    expect(platform.sort()).toEqual(
      [
        '/{orgId}/{environment}/01/{gtin}/10/{lot}',
        '/{orgId}/{environment}/01/{gtin}/10/{lot}/21/{serial}',
        '/{orgId}/{environment}/01/{gtin}/21/{serial}',
        '/{orgId}/{environment}/01/{gtin}/22/{cpv}',
        '/{orgId}/{environment}/01/{gtin}/22/{cpv}/10/{lot}',
        '/{orgId}/{environment}/01/{gtin}/22/{cpv}/10/{lot}/21/{serial}',
        '/{orgId}/{environment}/01/{gtin}/22/{cpv}/21/{serial}',
        '/{orgId}/{environment}/01/{gtin}/235/{tpx}',
      ].sort(),
    );
    expect(new RegExp(parameter(lot!, 'lot').schema.pattern).test('LOT1')).toBe(true);
    expect(documentPathOf('/{orgId}/{environment}/01/{gtin}/{qualifiers+}', '/org_a/live/01/04006381333931/10/LOT1')).toBe(
      '/{orgId}/{environment}/01/{gtin}/10/{lot}',
    );
    expect(documentPathOf('/{orgId}/{environment}/01/{gtin}/{qualifiers+}', '/org_a/live/01/04006381333931/22/V/21/S1')).toBe(
      '/{orgId}/{environment}/01/{gtin}/22/{cpv}/21/{serial}',
    );
  });

  it('routes each real scan and page URL to exactly one path item, whose parameter schemas accept its values (as a validating proxy does)', () => {
    // Prepare
    const org = 'org_0123456789abcdef';
    const gtin = '04006381333931';
    const requests = [
      [`/${org}/live/01/${gtin}`, '/{orgId}/{environment}/01/{gtin}'],
      [`/${org}/live/01/${gtin}/10/LOT1`, '/{orgId}/{environment}/01/{gtin}/10/{lot}'],
      [`/${org}/test/01/${gtin}/21/SERIAL-7`, '/{orgId}/{environment}/01/{gtin}/21/{serial}'],
      [`/${org}/live/01/${gtin}/22/V1/10/L2/21/S3`, '/{orgId}/{environment}/01/{gtin}/22/{cpv}/10/{lot}/21/{serial}'],
      [`/${org}/live/01/${gtin}/235/TPX_1`, '/{orgId}/{environment}/01/{gtin}/235/{tpx}'],
      [`/01/${gtin}`, '/01/{gtin}'],
      [`/01/${gtin}/10/LOT1`, '/01/{gtin}/10/{lot}'],
      [`/01/${gtin}/22/V1/21/S3`, '/01/{gtin}/22/{cpv}/21/{serial}'],
      [`/${org}/live/p/${gtin}/3/de`, '/{orgId}/{environment}/p/{gtin}/{version}/{page}'],
      [`/${org}/live/p/${gtin}/3/passport.json`, '/{orgId}/{environment}/p/{gtin}/{version}/{page}'],
    ] as const;
    const templates = Object.keys(document.paths);
    const matching = (path: string) =>
      templates.filter((template) => {
        const parts = template.split('/');
        const segments = path.split('/');
        return parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]);
      });
    for (const [path, expected] of requests) {
      // Act
      const found = matching(path);
      // Assess
      expect(found, path).toEqual([expected]);
      const operation = document.paths[expected]!.get as Json;
      const segments = path.split('/');
      expected.split('/').forEach((part, i) => {
        if (!part.startsWith('{')) return;
        const schema = parameter(operation, part.slice(1, -1)).schema;
        if (schema.pattern) expect(new RegExp(schema.pattern).test(segments[i]!), `${path} ${part}`).toBe(true);
        if (schema.enum) expect(schema.enum, `${path} ${part}`).toContain(segments[i]);
      });
    }
  });

  it('declares every answer of the resolver: 307 with Location and Link, the linkset, and errors as the error object or a page', () => {
    // Act
    const resolve = document.paths['/{orgId}/{environment}/01/{gtin}/10/{lot}']?.get as Json;
    // Assess
    expect(resolve.responses['307'].headers.Location).toMatchObject({ required: true, schema: { type: 'string', format: 'uri' } });
    expect(resolve.responses['307'].headers.Link.required).toBe(true);
    expect(resolve.responses['307'].content).toBeUndefined();
    expect(resolve.responses['200'].content['application/linkset+json'].schema).toEqual({ $ref: '#/components/schemas/Linkset' });
    for (const status of ['400', '404']) {
      expect(Object.keys(resolve.responses[status].content).sort(), status).toEqual(['application/json', 'text/html']);
    }
    expect(parameter(resolve, 'linkType').description).toContain('gs1:pip');
  });

  it('declares the version pages: HTML or JSON at 200, cacheable for a year, and a short-lived 404', () => {
    // Act
    const page = document.paths['/{orgId}/{environment}/p/{gtin}/{version}/{page}']?.get as Json;
    // Assess
    expect(Object.keys(page.responses['200'].content).sort()).toEqual(['application/json', 'text/html']);
    expect(page.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Passport' });
    expect(page.responses['200'].headers['Cache-Control'].description).toContain('max-age=31536000, immutable');
    expect(page.responses['404'].headers['Cache-Control'].description).toContain('max-age=60');
    // A battery passport's aspects each have their public JSON too (docs/battery.md#the-public-page-json-and-links).
    expect(parameter(page, 'page').schema.enum).toEqual([...LANGUAGES, 'passport.json', ...ASPECT_JSON_SEGMENTS]);
    expect(ASPECT_JSON_SEGMENTS).toContain('carbonFootprint.json');
    expect(page.responses['302']).toBeUndefined();
  });

  it('describes every operation, tag and path parameter, with contact and licence', () => {
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
    for (const operation of operations) {
      expect(typeof operation.description, operation.operationId).toBe('string');
      for (const parameter of (operation.parameters ?? []) as Array<{ name: string; description?: string }>) {
        expect(parameter.description, `${operation.operationId} ${parameter.name}`).toBeTruthy();
      }
    }
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    const tags = document.tags as Array<{ name: string; description?: string }>;
    expect(new Set(operations.flatMap((o) => o.tags as string[]))).toEqual(new Set(tags.map((t) => t.name)));
    for (const tag of tags) expect(tag.description, tag.name).toBeTruthy();
    const info = document.info as Record<string, any>;
    expect(info.contact.name).toBeTruthy();
    expect(info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
  });

  it('describes request bodies from the handlers’ own schemas, and every error with the Error object', () => {
    const create = document.paths['/v1/products']?.post as Record<string, any>;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['name', 'category', 'gtin']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.category.enum).toEqual(['wine', 'food', 'textile', 'electronics', 'battery']);
    expect(create.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const error = document.components.schemas.Error as Record<string, any>;
    expect(error.properties.error.required).toEqual(['type', 'code', 'message']);
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
  });

  describe('states every rule the server enforces (issue 12 item 6)', () => {
    const paths = document.paths as Record<string, Record<string, Json>>;
    const listProducts = paths['/v1/products']!.get!;
    const createProduct = paths['/v1/products']!.post!;
    const publish = paths['/v1/passports']!.post!;

    it('country: the ISO 3166-1 alpha-2 codes the server accepts, as an enum', () => {
      const data = generalData(jsonBody(publish).properties.data);
      const country = data.properties.origin.properties.country;
      expect(country.enum).toEqual([...COUNTRY_CODES].sort());
      expect(data.properties.producers.items.properties.country.enum).toHaveLength(COUNTRY_CODES.size);
      expect(jsonBody(paths['/v1/suppliers']!.post!).properties.country.enum).toContain('FR');
    });

    it('vintage: 1800 to next year, the maximum as of the day the document is generated', () => {
      const vintage = generalData(jsonBody(publish).properties.data).properties.vintage;
      expect(vintage).toMatchObject({ type: 'integer', minimum: 1800, maximum: new Date().getUTCFullYear() + 1 });
      expect(vintage.description).toContain('next year');
    });

    it('offset: at most 10,000, and never with starting_after (both ways, in words and in x-mutually-exclusive-with)', () => {
      const offset = parameter(listProducts, 'offset');
      const startingAfter = parameter(listProducts, 'starting_after');
      expect(offset.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 10_000 });
      expect(offset['x-mutually-exclusive-with']).toEqual(['starting_after']);
      expect(startingAfter['x-mutually-exclusive-with']).toEqual(['offset']);
      expect(offset.description).toContain('starting_after');
      expect(startingAfter.description).toContain('offset');
      expect(startingAfter.schema.format).toBe('uuid');
      expect(parameter(listProducts, 'q').schema.pattern).toBe('\\S');
    });

    it('gtin: the digit counts as a pattern, the check digit in words and in x-check-digit', () => {
      const gtin = jsonBody(createProduct).properties.gtin;
      expect(gtin.pattern).toBe('^(?:\\d{8}|\\d{12}|\\d{13}|\\d{14})$');
      expect(gtin['x-check-digit']).toBe('GS1 mod-10');
      expect(gtin.description).toContain('check digit');
      expect(parameter(paths['/{orgId}/{environment}/01/{gtin}']!.get!, 'gtin').schema['x-check-digit']).toBe('GS1 mod-10');
    });

    it('analytics start and end: dates (YYYY-MM-DD), and the window rule in x-date-window', () => {
      const analytics = paths['/v1/analytics/product/{productId}']!.get!;
      for (const name of ['start', 'end']) {
        expect(parameter(analytics, name).schema).toMatchObject({ type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
      }
      expect(analytics['x-date-window']).toMatchObject({ start: 'start', end: 'end', maxDays: 366 });
    });

    it('blank names, unknown scopes and mapping targets are outside the schemas too', () => {
      expect(jsonBody(createProduct).properties.name).toMatchObject({ minLength: 1, maxLength: 200, pattern: '\\S' });
      const keys = jsonBody(paths['/v1/auth/api-keys']!.post!);
      expect(keys.properties.scopes.items.enum).toEqual(SCOPES.filter((s) => s !== 'api_keys:manage'));
      const endpoint = jsonBody(paths['/v1/webhooks/endpoints']!.post!);
      expect(endpoint.properties.mapping.propertyNames.enum).toContain('nutrition.fatG');
      expect(endpoint.then.required).toEqual(['mapping']);
    });
  });
});
