import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

/**
 * The resolver while DynamoDB is down (docs/resolver.md#when-a-dependency-is-down), against the
 * loopback DynamoDB answering 503 ServiceUnavailable: the visitor gets a page in their language,
 * a client the error object, both 503 with Retry-After and never stored, and no scan is counted.
 * And while the scan queue is down (docs/decisions.md#scans-while-the-queue-is-down): the scan is
 * answered, and its event spilled to the table, one PutItem.
 */
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});

function scan(headers: Record<string, string>, method = 'GET'): HttpEvent {
  return apiGatewayEvent({
    method,
    route: '/{orgId}/{environment}/01/{gtin}',
    path: `/${ORG}/live/01/${GTIN}`,
    headers: { host: 'id.example.com', ...headers },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
  });
}

beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

describe('a scan while DynamoDB is down', () => {
  beforeEach(() => ddb.on('GetItem').rejects('ServiceUnavailable', 503));

  it('answers a browser 503 with a page in its language, Retry-After and no-store, and counts nothing', async () => {
    // Act
    const response = await handler(scan({ accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9' }), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '5', 'Cache-Control': 'no-store', 'Content-Language': 'de', 'Content-Type': 'text/html; charset=utf-8' });
    expect(response.body).toContain('Diese Seite ist vorübergehend nicht verfügbar');
    expect(sqs.calls('SendMessage')).toHaveLength(0);
  });

  it('answers a client that asks for JSON with the error object service_unavailable', async () => {
    // Act
    const response = await handler(scan({ accept: 'application/json' }), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '5', 'Cache-Control': 'no-store' });
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'service_unavailable', code: 'service_unavailable' } });
  });

  it('answers HEAD with the same status and headers and no body', async () => {
    // Act
    const response = await handler(scan({ accept: 'text/html' }, 'HEAD'), CONTEXT);
    // Assess
    expect([response.statusCode, response.headers?.['Retry-After'], response.body]).toEqual([503, '5', undefined]);
  });
});

describe('scans while the scan queue is down', () => {
  it('answers each scan and puts its event in the table instead, trying the queue once and not again for a while', async () => {
    // Prepare
    ddb.on('GetItem').resolves({ Item: gtinItem(`https://id.example.com/${ORG}/live/01/${GTIN}`, 2) });
    sqs.on('SendMessage').rejects('ServiceUnavailable', 503);
    // Act
    const first = await handler(scan({ accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' }), CONTEXT);
    const second = await handler(scan({ accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' }), CONTEXT);
    // Assess
    expect([first.statusCode, second.statusCode]).toEqual([307, 307]);
    const puts = ddb.calls('PutItem');
    expect(puts).toHaveLength(2);
    const items = puts.map((call) => call.input.Item as Record<string, Record<string, unknown>>);
    for (const item of items) {
      // The stored key format (lib/data/keys.ts): a partition per spilled scan.
      expect(item.PK?.S).toMatch(/^SCANSPILL#[0-9a-f-]{36}$/);
      expect(item.SK).toEqual({ S: 'SCANSPILL' });
      expect(item.type).toEqual({ S: 'scanSpill' });
      // A wine's scan, spilled as it would be queued: a count, nothing of the request (docs/privacy.md).
      expect(item.event?.M).toMatchObject({ orgId: { S: ORG }, productId: { S: PRODUCT_ID }, gtin: { S: GTIN }, countOnly: { BOOL: true } });
      for (const dimension of ['country', 'device', 'referrer']) expect(item.event?.M).not.toHaveProperty(dimension);
    }
    expect(new Set(items.map((item) => item.PK?.S)).size).toBe(2);
    // The first scan tried the queue (three attempts within its budget); the second went straight to the table.
    expect(sqs.calls('SendMessage').length).toBeGreaterThanOrEqual(1);
    expect(sqs.calls('SendMessage').length).toBeLessThanOrEqual(3);
  });

  it('keeps the events while the table refuses them too, and sends them with the next scan once the queue takes it', async () => {
    // Prepare: the queue and the table's writes both down
    ddb.on('GetItem').resolves({ Item: gtinItem(`https://id.example.com/${ORG}/live/01/${GTIN}`, 2) });
    sqs.on('SendMessage').rejects('ServiceUnavailable', 503);
    ddb.on('PutItem').rejects('ServiceUnavailable', 503);
    const phone = { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' };
    // Act: three scans during the double outage, then one after both recovered and the resolver's 5 s without the queue passed
    const during = [];
    for (let i = 0; i < 3; i++) during.push((await handler(scan(phone), CONTEXT)).statusCode);
    sqs.on('SendMessage').resolves({});
    ddb.on('PutItem').resolves({});
    sqs.resetHistory();
    ddb.resetHistory();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6000);
    const after = await handler(scan(phone), CONTEXT).finally(() => vi.useRealTimers());
    // Assess: every scan answered; the recovered scan's event and the three kept ones each sent once
    expect([...during, after.statusCode]).toEqual([307, 307, 307, 307]);
    expect(sqs.calls('SendMessage')).toHaveLength(4);
    expect(ddb.calls('PutItem')).toHaveLength(0);
  });
});
