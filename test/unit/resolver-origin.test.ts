import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';

// In AWS the resolver gets RESOLVER_ORIGIN_SECRET, which CloudFront sends as X-Origin-Verify
// (infra/cdk/constructs/resolver-cdn.ts); config() reads it once, so it is set before the import.
const SECRET = 'Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1zZWNyZXQ';
Object.assign(process.env, {
  RESOLVER_ORIGIN_SECRET: SECRET,
  RESOLVER_ORIGIN: 'https://id.example.com',
  TABLE_NAME: 'product-passport',
  SCAN_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/123456789012/scan-events',
  AWS_REGION: 'eu-central-1',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
});
let handler: (event: HttpEvent, context: Context) => Promise<HttpResult>;
beforeAll(async () => {
  ({ handler } = await import('../../functions/resolver/handler.ts'));
});

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const context = { awsRequestId: 'req-1', functionName: 'resolver', getRemainingTimeInMillis: () => 10_000 } as Context;
const ORG = 'org_0123456789abcdef';
const GTIN = '04006381333931';

/** A consumer's scan as API Gateway hands it to the resolver, with the given headers. */
function scan(headers: Record<string, string>): HttpEvent {
  const path = `/${ORG}/live/01/${GTIN}`;
  return {
    version: '2.0',
    routeKey: 'GET /{orgId}/{environment}/01/{gtin}',
    rawPath: path,
    rawQueryString: '',
    headers: { accept: 'application/json', ...headers },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      domainName: 'abcdef1234.execute-api.eu-central-1.amazonaws.com',
      domainPrefix: 'abcdef1234',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: 'GET /{orgId}/{environment}/01/{gtin}',
      stage: '$default',
      time: '21/Nov/2026:10:15:30 +0000',
      timeEpoch: 1795256130000,
    },
    isBase64Encoded: false,
  } as HttpEvent;
}

const gtinItem = {
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  name: 'Riesling 2023',
  category: 'wine',
  gtin: GTIN,
  qrCodeUrl: `https://id.example.com/${ORG}/live/01/${GTIN}`,
  passport: { passportId: 'ps_1', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', version: 1, data: {}, createdAt: '2026-11-01T00:00:00.000Z' },
};

const sentCountries = () => sqs.commandCalls(SendMessageCommand).map((call) => (JSON.parse(call.args[0].input.MessageBody ?? '{}') as { country: string }).country);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on(GetCommand).resolves({ Item: gtinItem });
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('the resolver behind CloudFront', () => {
  it('attack: a scan on the execute-api domain with a forged CloudFront-Viewer-Country and no origin header is refused, and nothing is counted', async () => {
    // Act
    const response = await handler(scan({ 'cloudfront-viewer-country': 'KP' }), context);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'permission_error', code: 'permission_error' } });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('attack: a guessed origin header (wrong value, or the right value\'s prefix) is refused too', async () => {
    // Act
    const wrong = await handler(scan({ 'cloudfront-viewer-country': 'KP', 'x-origin-verify': 'guess' }), context);
    const prefix = await handler(scan({ 'cloudfront-viewer-country': 'KP', 'x-origin-verify': SECRET.slice(0, -1) }), context);
    // Assess
    expect([wrong.statusCode, prefix.statusCode]).toEqual([403, 403]);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('serves a scan that came through CloudFront and counts it under the viewer\'s country', async () => {
    // Act
    const response = await handler(scan({ 'cloudfront-viewer-country': 'FR', 'x-origin-verify': SECRET }), context);
    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Location).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
    expect(sentCountries()).toEqual(['FR']);
  });
});
