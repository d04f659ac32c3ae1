import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem as gtinItemOf, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

// In AWS, CloudFront reaches the resolver through its Lambda function URL with origin access control
// (infra/cdk/constructs/resolver-cdn.ts, docs/deploy.md#the-public-path). A function URL hands the
// function the payload 2.0 event without a route: route key `$default`, no path parameters, the
// function URL's own domain as Host.
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});
const URL_HOST = 'abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-central-1.on.aws';

/** A request as a Lambda function URL hands it over (docs.aws.amazon.com, "Invoking Lambda function URLs": request payload format). */
function functionUrlEvent(path: string, options: { method?: string; query?: string; headers?: Record<string, string> } = {}): HttpEvent {
  const method = options.method ?? 'GET';
  const query = options.query ?? '';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers: { host: URL_HOST, 'x-amzn-trace-id': 'Root=1-5f84c7a9-0e5b1e1b1d2b1c1b1a1b1c1b', ...options.headers },
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abcdefghijklmnopqrstuvwxyz012345',
      domainName: URL_HOST,
      domainPrefix: 'abcdefghijklmnopqrstuvwxyz012345',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '130.176.0.1', userAgent: 'Amazon CloudFront' },
      requestId: 'c5e1c8a4-4b3a-4f7c-9d0e-1f2a3b4c5d6e',
      routeKey: '$default',
      stage: '$default',
      time: '23/Nov/2026:10:15:30 +0000',
      timeEpoch: 1795428930000,
    },
    isBase64Encoded: false,
  } as HttpEvent;
}

// A food product: a wine's scans record no country at all (docs/privacy.md).
const gtinItem = { ...gtinItemOf(`https://id.example.com/${ORG}/live/01/${GTIN}`, 2), category: 'food' };
const sent = () => sqs.calls('SendMessage').map((call) => JSON.parse(call.input.MessageBody ?? '{}') as Record<string, unknown>);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({});
  ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` } }).resolves({ Item: gtinItem });
  ddb.on('GetItem', { Key: { PK: 'HOST#id.brand.example', SK: 'HOST' } }).resolves({
    Item: { PK: 'HOST#id.brand.example', SK: 'HOST', orgId: ORG, domainId: 'dom_1', status: 'verified', default: true },
  });
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
});

describe('the resolver behind its function URL', () => {
  it('answers a scan exactly as through API Gateway: the same 307, one read, one scan event with the viewer country', async () => {
    // Prepare
    const path = `/${ORG}/live/01/${GTIN}/10/LOT%2F7`;
    const headers = { accept: 'application/json', 'cloudfront-viewer-country': 'AT', 'user-agent': 'Mozilla/5.0 (iPhone)' };
    const viaGateway = await handler(
      apiGatewayEvent({ route: '/{orgId}/{environment}/01/{gtin}/{qualifiers+}', path, headers, pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN, qualifiers: '10/LOT%2F7' } }),
      CONTEXT,
    );
    ddb.resetHistory();
    sqs.resetHistory();

    // Act
    const response = await handler(functionUrlEvent(path, { headers }), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Location).toBe(viaGateway.headers?.Location);
    expect(response.headers?.Link).toBe(`<https://id.example.com${path}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
    // One call: a lot link reads the GTIN item and the batch together (docs/resolver.md#batches-and-items).
    expect(ddb.calls()).toHaveLength(1);
    expect(sent()).toEqual([expect.objectContaining({ orgId: ORG, environment: 'live', productId: PRODUCT_ID, country: 'AT', device: 'mobile' })]);
  });

  it('resolves a brand host’s /01/{gtin} by the X-Forwarded-Host CloudFront passes on, not by the function URL’s own Host', async () => {
    // Act
    const response = await handler(functionUrlEvent(`/01/${GTIN}`, { headers: { accept: 'application/json', 'x-forwarded-host': 'id.brand.example' } }), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Link).toContain(`<https://id.brand.example/01/${GTIN}?linkType=linkset>`);
    expect(sent()).toEqual([expect.objectContaining({ orgId: ORG, environment: 'live' })]);
  });

  it('names the pages under the platform origin CloudFront forwards in X-Resolver-Origin (the distribution\'s own domain), and ignores a malformed one', async () => {
    // Prepare
    const path = `/${ORG}/live/01/${GTIN}`;

    // Act
    const forwarded = await handler(functionUrlEvent(path, { headers: { accept: 'application/json', 'x-resolver-origin': 'https://d111111abcdef8.cloudfront.net' } }), CONTEXT);
    const malformed = await handler(functionUrlEvent(path, { headers: { accept: 'application/json', 'x-resolver-origin': 'javascript:alert(1)//' } }), CONTEXT);

    // Assess
    expect(forwarded.headers?.Location).toBe(`https://d111111abcdef8.cloudfront.net/${ORG}/live/p/${GTIN}/2/passport.json`);
    expect(forwarded.headers?.Link).toContain(`<https://d111111abcdef8.cloudfront.net${path}?linkType=linkset>`);
    expect(malformed.headers?.Location).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/2/passport.json`);
  });

  it('answers 404 for a brand path on the platform distribution (no X-Forwarded-Host: the function URL\'s own Host) without looking the host up', async () => {
    // Act
    const response = await handler(functionUrlEvent(`/01/${GTIN}`, { headers: { accept: 'application/json' } }), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(404);
    expect(ddb.calls('GetItem')).toHaveLength(0);
    expect(sqs.calls('SendMessage')).toHaveLength(0);
  });

  it('serves a version page with its year-long immutable Cache-Control and counts no scan', async () => {
    // Prepare
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `PAGE#${GTIN}#000002` } }).resolves({
      Item: { productId: PRODUCT_ID, name: 'Riesling 2023', category: 'wine', gtin: GTIN, passport: gtinItem.passport },
    });

    // Act
    const response = await handler(functionUrlEvent(`/${ORG}/live/p/${GTIN}/2/passport.json`), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(sqs.calls('SendMessage')).toHaveLength(0);
  });

  it('answers the resolver description at /.well-known/gs1resolver', async () => {
    // Act
    const response = await handler(functionUrlEvent('/.well-known/gs1resolver'), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ resolverRoot: 'https://id.example.com' });
  });

  it('answers 404 (the error object, or the page for a browser) for a path no resolver route has, reading and counting nothing', async () => {
    // Act
    const json = await handler(functionUrlEvent('/v1/products', { headers: { accept: 'application/json' } }), CONTEXT);
    const page = await handler(functionUrlEvent(`/${ORG}/live/02/${GTIN}`, { headers: { accept: 'text/html' } }), CONTEXT);

    // Assess
    expect(json.statusCode).toBe(404);
    expect(JSON.parse(json.body ?? '{}')).toMatchObject({ error: { type: 'not_found', code: 'not_found' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers?.['Content-Type']).toContain('text/html');
    expect(ddb.calls('GetItem')).toHaveLength(0);
    expect(sqs.calls('SendMessage')).toHaveLength(0);
  });

  it('answers 405 with Allow for a method the path does not take', async () => {
    // Act
    const response = await handler(functionUrlEvent('/.well-known/gs1resolver', { method: 'DELETE', headers: { accept: 'application/json' } }), CONTEXT);

    // Assess
    expect(response.statusCode).toBe(405);
    expect(response.headers?.Allow).toBe('GET');
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});
