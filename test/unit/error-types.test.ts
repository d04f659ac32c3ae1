import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { IdempotencyKeyInFlightError, IdempotencyKeyReusedError } from '../../lib/api/idempotency.ts';
import { ERROR_TYPES, ERROR_TYPE_NAMES, statusesOf, typesOfStatus } from '../../lib/http/error-types.ts';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  DuplicateError,
  InternalError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
} from '../../lib/http/errors.ts';

describe('the table of error types', () => {
  it('gives every error class a type and status of the table', () => {
    // Prepare
    const errors = [
      new InvalidRequestError('x'),
      new AuthenticationError(),
      new PermissionError('x'),
      new NotFoundError('x'),
      new MethodNotAllowedError('PUT', ['GET']),
      new DuplicateError('x'),
      new ConflictError('x'),
      new PayloadTooLargeError(10),
      new ValidationError('x', 'name'),
      new RateLimitError(3),
      new InternalError('req'),
      new ServiceUnavailableError(5),
      new IdempotencyKeyReusedError(),
      new IdempotencyKeyInFlightError(),
    ];
    // Act
    const pairs = errors.map((error) => [error.type, error.status] as const);
    // Assess
    for (const [type, status] of pairs) expect(statusesOf(type), `${type} ${status}`).toContain(status);
    expect(new Set(pairs.map(([type]) => type))).toEqual(new Set(ERROR_TYPE_NAMES));
  });

  it('refuses an error whose status its type does not answer with', () => {
    // Act and assess
    expect(() => new ApiError(404 as never, 'rate_limit_error', 'x')).toThrow(/rate_limit_error does not answer 404/);
  });

  it('describes every error status of the OpenAPI document from the table, naming each type that answers it', () => {
    // Act
    const document = buildOpenApi();
    const create = document.paths['/v1/products']?.post;
    const errorEnum = (document.components.schemas.Error as { properties: { error: { properties: { type: { enum: string[] } } } } }).properties.error.properties.type.enum;
    // Assess
    expect(errorEnum).toEqual(Object.keys(ERROR_TYPES));
    expect(typesOfStatus(409)).toEqual(['duplicate_error', 'conflict', 'idempotency_error']);
    expect(create?.responses['409']?.description).toBe(
      'Conflict: a duplicate (duplicate_error); the request conflicts with the state of the resource: a concurrent change kept winning (read it again and retry), or the resource is in a state the change cannot leave (a battery status moves by operations only); nothing was changed (conflict); the same Idempotency-Key in flight (idempotency_error)',
    );
    expect(create?.responses['413']?.description).toBe('Body over its limit: 256 KiB; a bulk import file over 5 MB (XLSX 4 MB) or 10,000 rows (invalid_request_error)');
  });

  it('declares 503 service_unavailable with Retry-After on every operation, in the forms its other errors take', () => {
    // Act
    const document = buildOpenApi();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method} ${path}`, operation })));
    const scan = document.paths['/{orgId}/{environment}/01/{gtin}']?.get;
    // Assess
    expect(operations.length).toBeGreaterThan(50);
    for (const { name, operation } of operations) {
      const answer = operation.responses['503'];
      expect(answer?.description, name).toContain('(service_unavailable)');
      expect(answer?.headers?.['Retry-After'], name).toMatchObject({ required: true });
      expect(answer?.content?.['application/json']?.schema, name).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(Object.keys(scan?.responses['503']?.content ?? {}).sort()).toEqual(['application/json', 'text/html']);
  });

  it('answers a 503 with Retry-After, a suggestion to retry, and nothing about the dependency', () => {
    // Act
    const error = new ServiceUnavailableError(5);
    // Assess
    expect([error.status, error.headers]).toEqual([503, { 'Retry-After': '5' }]);
    expect(error.toBody().error).toMatchObject({ type: 'service_unavailable', code: 'service_unavailable', suggestion: expect.stringContaining('Retry after 5 seconds') });
    expect(error.message).not.toMatch(/dynamo|sqs|kms|table|queue/i);
  });
});
