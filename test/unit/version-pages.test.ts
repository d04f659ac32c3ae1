import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});
const context = CONTEXT;
const ROUTE = '/{orgId}/{environment}/p/{gtin}/{version}/{page}';

/** A request for a version page as API Gateway hands it over. */
function request(version: string, page: string, method = 'GET'): HttpEvent {
  return apiGatewayEvent({
    method,
    route: ROUTE,
    path: `/${ORG}/live/p/${GTIN}/${version}/${page}`,
    headers: { host: 'id.example.com', 'accept-language': 'de' },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN, version, page },
  });
}

const passport = (version: number, ingredient: string) => ({
  passportId: `ps_${version}`,
  productId: PRODUCT_ID,
  version,
  status: 'published',
  data: { ingredients: [ingredient] },
  createdAt: '2026-11-01T00:00:00.000Z',
});
const publicFields = { productId: PRODUCT_ID, name: 'Riesling 2023', category: 'wine', gtin: GTIN, qrCodeUrl: `https://id.example.com/${ORG}/live/01/${GTIN}` };

const keysRead = () => ddb.calls('GetItem').map((call) => call.input.Key?.SK);

beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

describe('a version page', () => {
  it('is one GetItem of the version’s page item, immutable for a year, and counts no scan', async () => {
    // Prepare
    ddb.on('GetItem').resolves({ Item: { ...publicFields, passport: passport(2, 'Grapes') } });
    // Act
    const result = await handler(request('2', 'de'), context);
    // Assess
    expect(result.statusCode).toBe(200);
    expect(keysRead()).toEqual([`PAGE#${GTIN}#000002`]);
    expect(sqs.calls()).toHaveLength(0);
    expect(result.headers).toMatchObject({
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Language': 'de',
      'Content-Type': 'text/html; charset=utf-8',
      'Referrer-Policy': 'no-referrer',
    });
    expect(result.headers?.['Set-Cookie']).toBeUndefined();
    expect(String(result.body)).toContain('Grapes');
  });

  it('reads a version published before page items existed from the GTIN item and the version item', async () => {
    // Prepare: no page item; the GTIN item holds version 3, the version item version 1.
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `PAGE#${GTIN}#000001` } }).resolves({});
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` } }).resolves({ Item: { ...publicFields, passport: passport(3, 'Current') } });
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `PASSPORT#${PRODUCT_ID}#000001` } }).resolves({ Item: passport(1, 'First grapes') });
    // Act
    const result = await handler(request('1', 'passport.json'), context);
    // Assess
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(String(result.body))).toMatchObject({ version: 1, name: 'Riesling 2023', data: { ingredients: ['First grapes'] } });
    expect(keysRead()).toEqual([`PAGE#${GTIN}#000001`, `GTIN#${GTIN}`, `PASSPORT#${PRODUCT_ID}#000001`]);
  });

  it('is 404 for a version after the current one without reading the version item, cacheable for a minute', async () => {
    // Prepare
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `PAGE#${GTIN}#000009` } }).resolves({});
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` } }).resolves({ Item: { ...publicFields, passport: passport(3, 'Current') } });
    // Act
    const result = await handler(request('9', 'en'), context);
    // Assess
    expect(result.statusCode).toBe(404);
    expect(result.headers?.['Cache-Control']).toBe('public, max-age=60');
    // A page not found asks once more whether its product moved to another organization (functions/resolver/moved.ts, docs/transfers.md).
    expect(keysRead()).toEqual([`PAGE#${GTIN}#000009`, `GTIN#${GTIN}`, `GTIN#${GTIN}`]);
  });

  it('is 404 without any read for a URL that was never handed out (language, version form)', async () => {
    // Act
    const results = await Promise.all([handler(request('1', 'ja'), context), handler(request('01', 'en'), context), handler(request('1', 'EN'), context)]);
    // Assess
    expect(results.map((r) => r.statusCode)).toEqual([404, 404, 404]);
    expect(keysRead()).toEqual([]);
  });
});
