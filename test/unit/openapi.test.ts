import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routeKey, ROUTES } from '../../lib/api/routes.ts';
import { buildOpenApi } from '../../lib/api/openapi.ts';

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
      const operation = document.paths[route.path.replace(/\{(\w+)\+\}/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation, routeKey(route)).toBeDefined();
      if (route.auth === 'apiKey') expect(operation?.security).toEqual([{ ApiKey: [...route.scopes] }]);
      if (route.auth === 'none') expect(operation?.security).toEqual([]);
    }
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
});
