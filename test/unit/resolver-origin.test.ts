import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem as gtinItemOf, loadResolver, ORG, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

// In AWS the resolver gets RESOLVER_ORIGIN_SECRET, which CloudFront sends as X-Origin-Verify
// (infra/cdk/constructs/resolver-cdn.ts); config() reads it once, so it is set before the import.
const SECRET = 'Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1zZWNyZXQ';
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver({ RESOLVER_ORIGIN_SECRET: SECRET }));
});
const context = CONTEXT;

/** A consumer's scan as API Gateway hands it to the resolver, with the given headers. */
function scan(headers: Record<string, string>): HttpEvent {
  return apiGatewayEvent({
    route: '/{orgId}/{environment}/01/{gtin}',
    path: `/${ORG}/live/01/${GTIN}`,
    headers: { accept: 'application/json', ...headers },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
    domainName: 'abcdef1234.execute-api.eu-central-1.amazonaws.com',
    userAgent: 'curl/8.5.0',
  });
}

// A food product: a wine's scans record no country at all (docs/privacy.md).
const gtinItem = { ...gtinItemOf(`https://id.example.com/${ORG}/live/01/${GTIN}`, 1), category: 'food' };

const sentCountries = () => sqs.calls('SendMessage').map((call) => (JSON.parse(call.input.MessageBody ?? '{}') as { country: string }).country);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({ Item: gtinItem });
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
});

describe('the resolver behind CloudFront', () => {
  it('attack: a scan on the execute-api domain with a forged CloudFront-Viewer-Country and no origin header is refused, and nothing is counted', async () => {
    // Act
    const response = await handler(scan({ 'cloudfront-viewer-country': 'KP' }), context);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'permission_error', code: 'permission_error' } });
    expect(ddb.calls('GetItem')).toHaveLength(0);
    expect(sqs.calls('SendMessage')).toHaveLength(0);
  });

  it('attack: a guessed origin header (wrong value, or the right value\'s prefix) is refused too', async () => {
    // Act
    const wrong = await handler(scan({ 'cloudfront-viewer-country': 'KP', 'x-origin-verify': 'guess' }), context);
    const prefix = await handler(scan({ 'cloudfront-viewer-country': 'KP', 'x-origin-verify': SECRET.slice(0, -1) }), context);
    // Assess
    expect([wrong.statusCode, prefix.statusCode]).toEqual([403, 403]);
    expect(sqs.calls('SendMessage')).toHaveLength(0);
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

/**
 * X-Resolver-Origin (docs/security.md, finding 11): the origin every page link of a redirect is built
 * on. The function takes it only when it expects it: RESOLVER_ORIGIN itself, or a CloudFront
 * distribution's own domain on a request through the function URL (route key `$default`), which only
 * CloudFront can reach and whose viewer-request function overwrites the header. Anything else a
 * client names is ignored: the redirect stays on RESOLVER_ORIGIN (here https://id.example.com).
 */
describe('the platform origin a request names', () => {
  /** The scan as the function URL hands it over: route key `$default`, no path parameters. */
  function viaFunctionUrl(headers: Record<string, string>): HttpEvent {
    const event = scan({ 'x-origin-verify': SECRET, ...headers });
    return { ...event, routeKey: '$default', pathParameters: undefined, requestContext: { ...event.requestContext, routeKey: '$default' } } as HttpEvent;
  }
  const location = (response: { headers?: Record<string, unknown> }) => String(response.headers?.Location);

  it('attack: X-Resolver-Origin: https://evil.example moves no redirect, through API Gateway or through the function URL', async () => {
    // Act
    const viaGateway = await handler(scan({ 'x-origin-verify': SECRET, 'x-resolver-origin': 'https://evil.example' }), context);
    const viaUrl = await handler(viaFunctionUrl({ 'x-resolver-origin': 'https://evil.example' }), context);
    // Assess
    expect(location(viaGateway)).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
    expect(location(viaUrl)).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
    expect(String(viaUrl.headers?.Link)).not.toContain('evil.example');
  });

  it('attack: a CloudFront distribution domain in X-Resolver-Origin is ignored unless the request came through the function URL', async () => {
    // Act
    const viaGateway = await handler(scan({ 'x-origin-verify': SECRET, 'x-resolver-origin': 'https://d111111abcdef8.cloudfront.net' }), context);
    const viaUrl = await handler(viaFunctionUrl({ 'x-resolver-origin': 'https://d111111abcdef8.cloudfront.net' }), context);
    // Assess
    expect(location(viaGateway)).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
    expect(location(viaUrl)).toBe(`https://d111111abcdef8.cloudfront.net/${ORG}/live/p/${GTIN}/1/passport.json`);
  });

  it.each([
    ['a look-alike under cloudfront.net', 'https://d1.cloudfront.net.evil.example'],
    ['plain http', 'http://d111111abcdef8.cloudfront.net'],
    ['a path', 'https://d111111abcdef8.cloudfront.net/x'],
    ['credentials', 'https://user@d111111abcdef8.cloudfront.net'],
    ['a port', 'https://d111111abcdef8.cloudfront.net:8443'],
  ])('ignores %s in X-Resolver-Origin, even through the function URL', async (_label, origin) => {
    // Act
    const response = await handler(viaFunctionUrl({ 'x-resolver-origin': origin }), context);
    // Assess
    expect(location(response)).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
  });

  it('takes RESOLVER_ORIGIN itself in X-Resolver-Origin, as the brand distribution sends it with a custom resolver domain', async () => {
    // Act
    const response = await handler(viaFunctionUrl({ 'x-resolver-origin': 'https://id.example.com', 'x-forwarded-host': 'id.example.com' }), context);
    // Assess
    expect(location(response)).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/1/passport.json`);
  });
});
