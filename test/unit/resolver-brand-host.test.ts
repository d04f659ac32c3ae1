import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem as gtinItemOf, loadResolver, ORG, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

let handler: Handler;
let HOST_CACHE_MS: number;
beforeAll(async () => {
  ({ handler, HOST_CACHE_MS } = await loadResolver());
});
const context = CONTEXT;
const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

/** A request on some host, as API Gateway hands it to the resolver. */
function onHost(host: string, path = `/01/${GTIN}`, headers: Record<string, string> = {}, method = 'GET'): HttpEvent {
  return apiGatewayEvent({
    method,
    route: path === '/.well-known/gs1resolver' ? path : path.split('/').length > 3 ? '/01/{gtin}/{qualifiers+}' : '/01/{gtin}',
    path,
    headers: { host, accept: BROWSER, ...headers },
    pathParameters: path.startsWith('/01/') ? { gtin: GTIN } : {},
    domainName: host,
  });
}

const gtinItem = gtinItemOf(`https://id.brand.example/01/${GTIN}`, 4);
const claim = (status: 'pending' | 'verified') => ({ PK: 'x', SK: 'HOST', orgId: ORG, domainId: 'dom_1', status, default: true });
const claimReads = () => ddb.calls('GetItem').filter((c) => String(c.input.Key?.PK).startsWith('HOST#'));
/** The reads of the tenant's partition, one entry per call: a GetItem's key, or a BatchGetItem's keys (a lot or serial link, docs/resolver.md#batches-and-items). */
const gtinReads = () =>
  ddb
    .calls()
    .map((c) => (c.operation === 'BatchGetItem' ? c.input.Keys : c.input.Key))
    .filter((key) => String((Array.isArray(key) ? key[0] : key)?.PK).startsWith('T#'));

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({});
  ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` } }).resolves({ Item: gtinItem });
  ddb.on('GetItem', { Key: { PK: 'HOST#id.brand.example', SK: 'HOST' } }).resolves({ Item: claim('verified') });
  ddb.on('GetItem', { Key: { PK: 'HOST#cached.brand.example', SK: 'HOST' } }).resolves({ Item: claim('verified') });
  ddb.on('GetItem', { Key: { PK: 'HOST#pending.brand.example', SK: 'HOST' } }).resolves({ Item: claim('pending') });
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the resolver on a brand’s own domain', () => {
  it('resolves /01/{gtin} on a verified host to the organization’s live product: 307 to the page on the platform origin, anchored at the brand host', async () => {
    // Act
    const response = await handler(onHost('id.brand.example', `/01/${GTIN}/10/LOT1`, { 'accept-language': 'fr' }), context);
    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Location).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/4/fr`);
    expect(response.headers?.Link).toBe(`<https://id.brand.example/01/${GTIN}/10/LOT1?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
    // One call: the GTIN item with the lot's batch (not registered here: the link walks up).
    expect(gtinReads()).toEqual([[{ PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` }, { PK: `T#${ORG}#live`, SK: `BATCH#${GTIN}#LOT1` }]]);
    expect(JSON.parse(sqs.calls('SendMessage')[0]?.input.MessageBody ?? '{}')).toMatchObject({ orgId: ORG, environment: 'live' });
  });

  it('reads the host’s claim once a minute in a warm function, so a scan costs one GetItem (the GTIN item’s)', async () => {
    // Prepare
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    // Act
    await handler(onHost('cached.brand.example'), context);
    const before = ddb.calls().length;
    await handler(onHost('cached.brand.example'), context);
    const warmScanCalls = ddb.calls().length - before;
    vi.setSystemTime(new Date(Date.parse('2026-11-23T10:00:00Z') + HOST_CACHE_MS + 1));
    await handler(onHost('cached.brand.example'), context);
    // Assess
    expect(warmScanCalls).toBe(1);
    expect(claimReads()).toHaveLength(2);
    expect(sqs.calls('SendMessage')).toHaveLength(3);
  });

  it('answers 404 on an unknown or unverified host, remembers an unknown one too, and counts nothing', async () => {
    // Act
    const unknown = await handler(onHost('id.stranger.example'), context);
    const again = await handler(onHost('id.stranger.example', `/01/${GTIN}`, { accept: 'application/json' }), context);
    const pending = await handler(onHost('pending.brand.example'), context);
    // Assess
    expect([unknown.statusCode, again.statusCode, pending.statusCode]).toEqual([404, 404, 404]);
    expect(JSON.parse(again.body ?? '{}')).toMatchObject({ error: { type: 'not_found' } });
    expect(claimReads().map((c) => c.input.Key?.PK)).toEqual(['HOST#id.stranger.example', 'HOST#pending.brand.example']);
    expect(gtinReads()).toHaveLength(0);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('isolation: another organization’s verified host never resolves this organization’s GTIN (it reads its own tenant only)', async () => {
    // Prepare
    const OTHER = 'org_fedcba9876543210';
    ddb.on('GetItem', { Key: { PK: 'HOST#id.other-brand.example', SK: 'HOST' } }).resolves({ Item: { ...claim('verified'), orgId: OTHER } });
    // Act
    const response = await handler(onHost('id.other-brand.example', `/01/${GTIN}`, { accept: 'application/json' }), context);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Riesling');
    expect(gtinReads().map((key) => (Array.isArray(key) ? undefined : key?.PK))).toEqual([`T#${OTHER}#live`]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('answers 404 without any read for /01/{gtin} on the platform host and for a Host that is not a hostname', async () => {
    // Act
    const platform = await handler(onHost('id.example.com'), context);
    const bogus = await handler(onHost('127.0.0.1:3000'), context);
    // Assess
    expect([platform.statusCode, bogus.statusCode]).toEqual([404, 404]);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('takes the viewer’s host from X-Forwarded-Host when the CDN sets it', async () => {
    const response = await handler(onHost('abcdef1234.execute-api.eu-central-1.amazonaws.com', `/01/${GTIN}`, { 'x-forwarded-host': 'ID.Brand.Example' }), context);
    expect(response.statusCode).toBe(307);
  });

  it('describes itself at /.well-known/gs1resolver with the brand host as resolverRoot, and the platform’s on any other host', async () => {
    const brand = JSON.parse((await handler(onHost('id.brand.example', '/.well-known/gs1resolver'), context)).body ?? '{}');
    const other = JSON.parse((await handler(onHost('id.stranger2.example', '/.well-known/gs1resolver'), context)).body ?? '{}');
    expect(brand).toMatchObject({ resolverRoot: 'https://id.brand.example', supportedPrimaryKeys: ['01'] });
    expect(other).toMatchObject({ resolverRoot: 'https://id.example.com', supportedPrimaryKeys: ['01'] });
  });
});
