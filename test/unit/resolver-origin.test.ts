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

const gtinItem = gtinItemOf(`https://id.example.com/${ORG}/live/01/${GTIN}`, 1);

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
