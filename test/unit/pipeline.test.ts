import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-keys.ts';
import { logger } from '../../lib/http/logger.ts';
import type { HttpEvent } from '../../lib/http/types.ts';
import { handler } from '../../functions/products/handler.ts';

/**
 * The API pipeline (lib/api/handler.ts) through a real function group, with DynamoDB mocked: what
 * runs, in which order, and what the caller gets back.
 */
const base = JSON.parse(readFileSync(new URL('../../events/products-get.json', import.meta.url), 'utf8')) as HttpEvent;
const context = { awsRequestId: 'req-1', functionName: 'products', getRemainingTimeInMillis: () => 10_000 } as Context;
const ddb = mockClient(DynamoDBDocumentClient);

let keys = 0;
/** A fresh API key (the key cache is per process) with the given scopes and limit. */
function apiKey(options: { scopes: string[]; rateLimitPerMinute?: number }) {
  keys++;
  const key = `sk_test_${String(keys).padStart(32, 'P')}`;
  const item = {
    keyId: `key_pipeline_${keys}`,
    orgId: 'org_1',
    environment: 'test',
    name: 'k',
    scopes: options.scopes,
    hash: hashApiKey(key),
    prefix: 'sk_test_',
    last4: key.slice(-4),
    createdAt: '2026-11-01T00:00:00.000Z',
    ...(options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: options.rateLimitPerMinute }),
  };
  ddb.on(GetCommand, { Key: { PK: `APIKEY#${item.hash}`, SK: 'APIKEY' } }).resolves({ Item: item });
  return { key, item };
}

const request = (key: string, change: Partial<HttpEvent>): HttpEvent => ({
  ...base,
  ...change,
  headers: { ...base.headers, authorization: `Bearer ${key}`, ...change.headers },
});

beforeEach(() => ddb.reset());

describe('the rate limit is decided before the operation runs', () => {
  it('attack: a rate-limited search never reads the partition', async () => {
    // Prepare: a key limited to 1 a minute whose window already holds another request
    const { key } = apiKey({ scopes: ['products:read'], rateLimitPerMinute: 1 });
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 2 } });
    ddb.on(QueryCommand).resolves({ Items: [], Count: 0 });
    // Act
    const response = await handler(
      request(key, { routeKey: 'GET /v1/products', rawPath: '/v1/products', rawQueryString: 'q=Ries', queryStringParameters: { q: 'Ries' }, pathParameters: {} }),
      context,
    );
    // Assess
    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body ?? '{}').error.type).toBe('rate_limit_error');
    expect(response.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('attack: a rate-limited offset listing never counts the partition', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:read'], rateLimitPerMinute: 1 });
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 5 } });
    ddb.on(QueryCommand).resolves({ Items: [], Count: 0 });
    // Act
    const response = await handler(
      request(key, { routeKey: 'GET /v1/products', rawPath: '/v1/products', rawQueryString: 'offset=0', queryStringParameters: { offset: '0' }, pathParameters: {} }),
      context,
    );
    // Assess
    expect(response.statusCode).toBe(429);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('still runs an admitted read, with the rate-limit headers', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:read'], rateLimitPerMinute: 1 });
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
    ddb.on(QueryCommand).resolves({ Items: [], Count: 0 });
    // Act
    const response = await handler(
      request(key, { routeKey: 'GET /v1/products', rawPath: '/v1/products', rawQueryString: 'q=Ries', queryStringParameters: { q: 'Ries' }, pathParameters: {} }),
      context,
    );
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0' });
    expect(ddb.commandCalls(QueryCommand).length).toBeGreaterThan(0);
  });
});

describe('the JSON body: @middy/http-json-body-parser, answered with the error object of docs/api.md', () => {
  beforeEach(() => ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } }));
  const post = (key: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, isBase64Encoded = false): HttpEvent =>
    request(key, {
      routeKey: 'POST /v1/products',
      rawPath: '/v1/products',
      requestContext: { ...base.requestContext, routeKey: 'POST /v1/products', http: { ...base.requestContext.http, method: 'POST', path: '/v1/products' } },
      pathParameters: {},
      headers,
      body,
      isBase64Encoded,
    });
  const errorOf = (response: Awaited<ReturnType<typeof handler>>) => JSON.parse(response.body ?? '{}').error;

  it('answers malformed JSON, an empty body and a non-JSON content type with 400 invalid_request_error, Request-Id and the rate-limit headers', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:write'] });
    // Act
    const malformed = await handler(post(key, '{"name": "x",'), context);
    const empty = await handler(post(key, undefined), context);
    const blank = await handler(post(key, ''), context);
    const form = await handler(post(key, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), context);
    const untyped = await handler(post(key, '{"name": "x"}', {}), context);
    // Assess
    for (const response of [malformed, empty, blank, form, untyped]) {
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error' });
      expect(response.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'Request-Id': 'JKJaXmPLvHcESHA=', 'X-RateLimit-Limit': '1000' });
    }
    expect(errorOf(malformed).message).toBe('The request body is not valid JSON.');
    expect(errorOf(empty).message).toBe('The request body is empty.');
    expect(errorOf(blank).message).toBe('The request body is empty.');
    expect(errorOf(form).message).toBe('The request body must be JSON.');
    expect(errorOf(untyped).message).toBe('The request body must be JSON.');
  });

  it('answers 413 for a body over 256 KiB, before parsing it', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:write'] });
    // Act
    const response = await handler(post(key, JSON.stringify({ name: 'x'.repeat(300 * 1024) })), context);
    // Assess
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatchObject({ type: 'invalid_request_error', message: 'The request body exceeds 262144 bytes.' });
  });

  it('answers a __proto__ key, at the top or nested, with 422 naming its full path', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:write'] });
    // Act
    const top = await handler(post(key, '{"name": "N", "__proto__": {"admin": true}}'), context);
    const nested = await handler(post(key, '{"name": "N", "brand": {"constructor": {"prototype": {}}}}'), context);
    // Assess
    expect(top.statusCode).toBe(422);
    expect(errorOf(top)).toMatchObject({ type: 'validation_error', param: '__proto__', message: "Unknown field '__proto__'." });
    expect(nested.statusCode).toBe(422);
    expect(errorOf(nested)).toMatchObject({ type: 'validation_error', param: 'brand.constructor', message: "Unknown field 'brand.constructor'." });
  });

  it('parses a base64-encoded body (the handler sees its fields)', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:write'] });
    // Act
    const response = await handler(post(key, Buffer.from('{"name": "N", "category": "beer", "gtin": "96385074"}').toString('base64'), undefined, true), context);
    // Assess
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({ type: 'validation_error', param: 'category' });
  });

  it('reads an application/*+json body as JSON, as the package does', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:write'] });
    // Act
    const response = await handler(post(key, '{"name": "N", "category": "beer", "gtin": "96385074"}', { 'content-type': 'application/merge-patch+json' }), context);
    // Assess
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({ type: 'validation_error', param: 'category' });
  });

  it('authenticates and checks the scope before reading the body', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:read'] });
    // Act
    const forbidden = await handler(post(key, '{'), context);
    const anonymous = await handler({ ...post(key, '{'), headers: { 'content-type': 'application/json' } }, context);
    // Assess
    expect(forbidden.statusCode).toBe(403);
    expect(errorOf(forbidden).type).toBe('permission_error');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers).toMatchObject({ 'WWW-Authenticate': 'Bearer', 'Request-Id': 'JKJaXmPLvHcESHA=' });
  });

  it('logs an unexpected failure through the Powertools logger and answers a 500 api_error that leaks nothing', async () => {
    // Prepare
    const { key } = apiKey({ scopes: ['products:read'] });
    ddb.on(QueryCommand).rejects(new Error('connect ECONNREFUSED 10.1.2.3:443'));
    const logged = vi.spyOn(logger(), 'error').mockImplementation(() => undefined);
    // Act
    const response = await handler(
      request(key, { routeKey: 'GET /v1/products', rawPath: '/v1/products', rawQueryString: 'q=Ries', queryStringParameters: { q: 'Ries' }, pathParameters: {} }),
      context,
    );
    // Assess
    expect(response.statusCode).toBe(500);
    expect(errorOf(response)).toEqual({ type: 'api_error', code: 'api_error', message: 'An internal error occurred. Quote request id JKJaXmPLvHcESHA= when contacting support.' });
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.1\.2\.3/);
    expect(response.headers?.['Request-Id']).toBe('JKJaXmPLvHcESHA=');
    expect(logged).toHaveBeenCalledWith('Unhandled error', expect.objectContaining({ requestId: 'JKJaXmPLvHcESHA=', routeKey: 'GET /v1/products' }));
    logged.mockRestore();
  });
});
