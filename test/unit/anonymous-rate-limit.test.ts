import { readFileSync } from 'node:fs';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { addressBucket, addressCounter } from '../../lib/auth/anonymous-rate-limit.ts';
import type { HttpEvent } from '../../lib/http/types.ts';
import { handler } from '../../functions/access/handler.ts';

/**
 * Requests without credentials to the read API are limited per client address (docs/security.md,
 * finding 3 of the third review), decided before anything is read: through the access function's
 * real pipeline, with DynamoDB mocked (the counter is an UpdateItem that answers the window's total).
 */
// The default limit (120), whatever the environment the suite's workers inherit (its shared stack sets a high one).
process.env.ANON_RATE_LIMIT_PER_MINUTE = '120';
const base = JSON.parse(readFileSync(new URL('../../events/products-get.json', import.meta.url), 'utf8')) as HttpEvent;
const context = { awsRequestId: 'req-anon', functionName: 'access', getRemainingTimeInMillis: () => 10_000 } as Context;
const ddb = mockClient(DynamoDBDocumentClient);

/** An anonymous batch read from `sourceIp`. */
function batchRead(sourceIp: string): HttpEvent {
  const body = JSON.stringify({ productIds: ['https://id.example/01/09520123456788/21/A1'] });
  return {
    ...base,
    routeKey: 'POST /v1/dppsByProductIds',
    rawPath: '/v1/dppsByProductIds',
    headers: { accept: 'application/json', 'content-type': 'application/json', host: 'api.example.com' },
    pathParameters: {},
    body,
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method: 'POST', path: '/v1/dppsByProductIds', sourceIp } },
  };
}

beforeEach(() => ddb.reset());

describe('anonymous reads are limited per client address', () => {
  it('attack: an address past its limit gets 429 with Retry-After, and nothing is read', async () => {
    // Prepare: the address's window already holds 120 requests (the default limit)
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 121 } });

    // Act
    const response = await handler(batchRead('198.51.100.20'), context);

    // Assess
    expect(response.statusCode).toBe(429);
    expect(JSON.parse(response.body ?? '{}').error).toMatchObject({ type: 'rate_limit_error', message: expect.stringContaining('without credentials from this address') });
    expect(response.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input.Key?.PK).toContain('ip:198.51.100.20');
  });

  it('counts each address in its own window, and answers under the limit with the rate-limit headers', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
    ddb.on(GetCommand).resolves({});

    // Act
    const response = await handler(batchRead('2001:db8:1:2:3:4:5:6'), context);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['X-RateLimit-Limit']).toBe('120');
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input.Key?.PK).toContain('ip:2001:db8:1:2::/64');
  });
});

describe('addressBucket', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0000:ffff::1', '2001:db8:0:0::/64'],
    ['2001:DB8:aa:bb:1:2:3:4', '2001:db8:aa:bb::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (address, bucket) => {
    // Act / Assess
    expect(addressBucket(address)).toBe(bucket);
  });

  it('gives two addresses of one /64 one counter, and never a key id or a user counter', () => {
    // Act / Assess
    expect(addressCounter('2001:db8:aa:bb::1')).toBe(addressCounter('2001:db8:aa:bb:ffff:ffff:ffff:ffff'));
    expect(addressCounter('2001:db8:aa:bb::1')).not.toBe(addressCounter('2001:db8:aa:bc::1'));
    expect(addressCounter('10.0.0.1')).toMatch(/^ip:/);
  });
});
