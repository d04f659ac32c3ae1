import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-keys.ts';
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
