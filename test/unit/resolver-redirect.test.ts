import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem as gtinItemOf, loadResolver, ORG, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});
const context = CONTEXT;
const LINK = `https://id.example.com/${ORG}/live/01/${GTIN}`;
const page = (lang: string) => `https://id.example.com/${ORG}/live/p/${GTIN}/2/${lang}`;
const JSON_URL = `https://id.example.com/${ORG}/live/p/${GTIN}/2/passport.json`;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A request to the platform resolver as API Gateway hands it over. */
function request(suffix = '', options: { headers?: Record<string, string>; query?: string; method?: string } = {}): HttpEvent {
  return apiGatewayEvent({
    ...(options.method ? { method: options.method } : {}),
    route: suffix.replace(/\/$/, '') ? '/{orgId}/{environment}/01/{gtin}/{qualifiers+}' : '/{orgId}/{environment}/01/{gtin}',
    path: `/${ORG}/live/01/${GTIN}${suffix}`,
    ...(options.query ? { query: options.query } : {}),
    headers: { host: 'id.example.com', ...options.headers },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
  });
}

const gtinItem = gtinItemOf(LINK, 2);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({ Item: gtinItem });
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
});

describe('the resolver’s redirects', () => {
  it('answers a browser scan with 307 to the current version’s e-label in its language, a linkset Link, Vary and no-store, with one read and one send', async () => {
    // Act
    const response = await handler(request('', { headers: { accept: BROWSER, 'accept-language': 'de-DE,de;q=0.9' } }), context);
    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers).toMatchObject({
      Location: page('de'),
      Link: `<${LINK}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`,
      Vary: 'Accept, Accept-Language',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
    });
    expect(ddb.calls('GetItem')).toHaveLength(1);
    expect(ddb.calls()).toHaveLength(1);
    expect(sqs.calls('SendMessage')).toHaveLength(1);
    expect(sqs.calls()).toHaveLength(1);
  });

  it('redirects a request with no Accept preference to the English e-label', async () => {
    const response = await handler(request(), context);
    expect([response.statusCode, response.headers?.Location]).toEqual([307, page('en')]);
  });

  it('passes the query string on to the target, without linkType', async () => {
    const response = await handler(request('/10/LOT1', { query: 'linkType=gs1%3Apip&17=261231&utm_source=label', headers: { accept: BROWSER } }), context);
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Location).toBe(`${page('en')}?17=261231&utm_source=label`);
    expect(response.headers?.Link).toContain(`<${LINK}/10/LOT1?linkType=linkset>`);
  });

  it('sends Accept: application/json to the JSON passport of the current version', async () => {
    const response = await handler(request('', { headers: { accept: 'application/json' } }), context);
    expect([response.statusCode, response.headers?.Location]).toEqual([307, JSON_URL]);
  });

  it('answers gs1:pip in both forms (CURIE and full URI) with the best link of that type', async () => {
    const curie = await handler(request('', { query: 'linkType=gs1:pip', headers: { 'accept-language': 'fr' } }), context);
    const uri = await handler(request('', { query: 'linkType=https%3A%2F%2Fgs1.org%2Fvoc%2Fpip', headers: { accept: 'application/json' } }), context);
    expect([curie.statusCode, curie.headers?.Location]).toEqual([307, page('fr')]);
    expect([uri.statusCode, uri.headers?.Location]).toEqual([307, JSON_URL]);
  });

  it('answers 404 naming linkType for a link type the product has no link of, and counts no scan', async () => {
    const response = await handler(request('', { query: 'linkType=gs1:recallStatus', headers: { accept: 'application/json' } }), context);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'not_found', param: 'linkType' } });
    expect(sqs.calls()).toHaveLength(0);
  });

  it('answers the linkset with 200 for linkType=linkset, linkType=all and Accept: application/linkset+json, each counted once', async () => {
    for (const event of [
      request('', { query: 'linkType=linkset' }),
      request('', { query: 'linkType=all', headers: { accept: BROWSER } }),
      request('', { headers: { accept: 'application/linkset+json' } }),
    ]) {
      const response = await handler(event, context);
      expect(response.statusCode).toBe(200);
      expect(response.headers?.['Content-Type']).toBe('application/linkset+json');
      expect(JSON.parse(response.body ?? '{}').linkset[0]['https://gs1.org/voc/defaultLink'][0].href).toBe(page('en'));
    }
    expect(ddb.calls()).toHaveLength(3);
    expect(sqs.calls()).toHaveLength(3);
  });

  it('answers HEAD with the redirect’s headers, no body and no scan; a trailing slash the same as without', async () => {
    const head = await handler(request('', { method: 'HEAD', headers: { accept: BROWSER } }), context);
    const slash = await handler(request('/', { headers: { accept: BROWSER } }), context);
    expect([head.statusCode, head.headers?.Location, head.body]).toEqual([307, page('en'), undefined]);
    expect([slash.statusCode, slash.headers?.Location]).toEqual([307, page('en')]);
    expect(slash.headers?.Link).toContain(`<${LINK}?linkType=linkset>`);
    expect(sqs.calls()).toHaveLength(1);
  });

  it('reads nothing and counts nothing for a malformed link (400), and counts nothing for an unknown GTIN (404)', async () => {
    const bad = await handler(request('/99/X', { headers: { accept: 'application/json' } }), context);
    ddb.on('GetItem').resolves({});
    const unknown = await handler(request('', { headers: { accept: 'application/json' } }), context);
    expect([bad.statusCode, unknown.statusCode]).toEqual([400, 404]);
    expect(ddb.calls()).toHaveLength(1);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('still redirects when the queue fails or answers a body checksum that does not match what was sent, not retrying a client error', async () => {
    // Prepare
    sqs.on('SendMessage').resolves({ MD5OfMessageBody: '0'.repeat(32) });
    // Act
    const mismatched = await handler(request('', { headers: { accept: BROWSER } }), context);
    sqs.on('SendMessage').rejects('QueueDoesNotExist');
    const missing = await handler(request('', { headers: { accept: BROWSER } }), context);
    // Assess
    expect([mismatched.statusCode, missing.statusCode]).toEqual([307, 307]);
    expect(sqs.calls('SendMessage')).toHaveLength(2);
  });
});
