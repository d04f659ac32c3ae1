import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-keys.ts';
import type { HttpEvent } from '../../lib/http/types.ts';
import { handler } from '../../functions/products/handler.ts';

const event = JSON.parse(readFileSync(new URL('../../events/products-get.json', import.meta.url), 'utf8')) as HttpEvent;
const KEY = 'sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const context = { awsRequestId: 'req-1', functionName: 'products', getRemainingTimeInMillis: () => 10_000 } as Context;
const ddb = mockClient(DynamoDBDocumentClient);

const keyItem = {
  keyId: 'key_1',
  orgId: 'org_1',
  environment: 'test',
  name: 'k',
  scopes: ['products:read'],
  hash: hashApiKey(KEY),
  prefix: 'sk_test_',
  last4: 'AAAA',
  createdAt: '2026-11-01T00:00:00.000Z',
};
const productItem = {
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  orgId: 'org_1',
  environment: 'test',
  gtin: '04006381333931',
  name: 'Riesling',
  category: 'wine',
  qrCodeUrl: 'http://localhost:3000/org_1/test/01/04006381333931',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

beforeEach(() => ddb.reset());

describe('products handler', () => {
  it('serves a warm request with one DynamoDB call: the key lookup is cached', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: `APIKEY#${hashApiKey(KEY)}`, SK: 'APIKEY' } }).resolves({ Item: keyItem });
    ddb.on(GetCommand, { Key: { PK: 'T#org_1#test', SK: `PRODUCT#${productItem.productId}` } }).resolves({ Item: productItem });
    // Act
    const first = await handler(event, context);
    const second = await handler(event, context);
    // Assess
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(second.body ?? '{}')).toMatchObject({ name: 'Riesling', tenantId: 'org_1' });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(3);
    expect(first.headers?.['Request-Id']).toBe('JKJaXmPLvHcESHA=');
  });

  it('answers a failing DynamoDB call with a 500 api_error that leaks nothing', async () => {
    // Prepare
    ddb.on(GetCommand).rejects(new Error('connect ECONNREFUSED 10.1.2.3:443 table product-passport'));
    // Act
    const response = await handler({ ...event, headers: { ...event.headers, authorization: `Bearer sk_test_${'B'.repeat(32)}` } }, context);
    // Assess
    expect(response.statusCode).toBe(500);
    const body = JSON.parse(response.body ?? '{}');
    expect(body).toEqual({
      error: {
        type: 'api_error',
        code: 'api_error',
        message: 'An internal error occurred. Quote request id JKJaXmPLvHcESHA= when contacting support.',
      },
    });
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|product-passport|at /);
    expect(response.headers?.['Request-Id']).toBe('JKJaXmPLvHcESHA=');
  });
});
