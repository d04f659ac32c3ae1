import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem as gtinItemOf, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

/**
 * The resolver's answer to a Digital Link that names a serial or a lot (docs/resolver.md#batches-and-items),
 * against the loopback DynamoDB and SQS: one BatchGetItem and one SendMessage per scan, the most
 * specific registered record answered, 404 or walk-up by the product's granularity, 410 for a
 * withdrawn record, and the batch's lot on the scan event.
 */
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});

const LINK = `https://id.example.com/${ORG}/live/01/${GTIN}`;
const PK = `T#${ORG}#live`;

function scan(qualifiers: string, headers: Record<string, string> = {}, query = ''): HttpEvent {
  return apiGatewayEvent({
    route: '/{orgId}/{environment}/01/{gtin}/{qualifiers+}',
    path: `/${ORG}/live/01/${GTIN}${qualifiers}`,
    ...(query ? { query } : {}),
    headers: { host: 'id.example.com', ...headers },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN, qualifiers: qualifiers.slice(1) },
  });
}

const unit = (kind: 'item' | 'batch', value: string, extra: Record<string, unknown> = {}) => ({
  kind,
  productId: PRODUCT_ID,
  gtin: GTIN,
  ...(kind === 'item' ? { serial: value } : { lot: value }),
  status: 'active',
  data: {},
  version: 3,
  digest: `sha256:${'c'.repeat(64)}`,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
  ...extra,
});

function store(granularity: string, records: Record<string, Record<string, unknown>> = {}) {
  ddb.reset();
  ddb.on('GetItem', { Key: { PK, SK: `GTIN#${GTIN}` } }).resolves({ Item: { ...gtinItemOf(LINK, 2), granularity } });
  for (const [sk, item] of Object.entries(records)) ddb.on('GetItem', { Key: { PK, SK: sk } }).resolves({ Item: item });
}

const sentEvents = () => sqs.calls('SendMessage').map((c) => JSON.parse(c.input.MessageBody ?? '{}') as Record<string, unknown>);

beforeEach(() => {
  sqs.reset();
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
});

describe('a scan of a registered serial or lot', () => {
  it('answers an item with a 307 to its own page (passport version and item version), in one BatchGetItem and one SendMessage, counting its lot', async () => {
    // Prepare
    store('item', { [`ITEM#${GTIN}#SN1`]: unit('item', 'SN1', { lot: 'L7' }) });
    // Act
    const response = await handler(scan('/21/SN1', { 'accept-language': 'de' }), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(307);
    expect(response.headers?.Location).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/2/21/SN1/3/de`);
    expect(ddb.calls().map((c) => c.operation)).toEqual(['BatchGetItem']);
    expect(ddb.calls('BatchGetItem')[0]?.input.Keys).toEqual([{ PK, SK: `GTIN#${GTIN}` }, { PK, SK: `ITEM#${GTIN}#SN1` }]);
    expect(sentEvents()).toEqual([expect.objectContaining({ productId: PRODUCT_ID, lot: 'L7' })]);
  });

  it('anchors an item’s linkset at the item’s Digital Link, its JSON link at the item’s page and its title naming the item’s version and digest', async () => {
    // Prepare
    store('item', { [`ITEM#${GTIN}#SN1`]: unit('item', 'SN1') });
    // Act
    const response = await handler(scan('/21/SN1', {}, 'linkType=linkset'), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(200);
    const context = JSON.parse(response.body ?? '{}').linkset[0];
    expect(context.anchor).toBe(`${LINK}/21/SN1`);
    expect(context.itemDescription).toBe('Riesling 2023, serial SN1');
    const json = context['https://gs1.org/voc/pip'].find((l: { type: string }) => l.type === 'application/json');
    expect(json.href).toBe(`https://id.example.com/${ORG}/live/p/${GTIN}/2/21/SN1/3/passport.json`);
    expect(json.title).toContain(`serial SN1, version 3, sha256:${'c'.repeat(64)}`);
  });

  it('answers a registered batch for /10/{lot}, and counts the scan for it', async () => {
    // Prepare
    store('batch', { [`BATCH#${GTIN}#L7`]: unit('batch', 'L7', { version: 1 }) });
    // Act
    const response = await handler(scan('/10/L7'), CONTEXT);
    // Assess
    expect([response.statusCode, response.headers?.Location]).toEqual([307, `https://id.example.com/${ORG}/live/p/${GTIN}/2/10/L7/1/en`]);
    expect(ddb.calls()).toHaveLength(1);
    expect(sentEvents()).toEqual([expect.objectContaining({ lot: 'L7' })]);
  });
});

describe('an unregistered serial or lot', () => {
  it('is 404 at granularity item (nothing counted), so that an unregistered serial cannot look genuine', async () => {
    // Prepare
    store('item');
    // Act
    const response = await handler(scan('/21/FAKE', { accept: 'application/json' }), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body ?? '{}').error.message).toContain('serial');
    expect(ddb.calls()).toHaveLength(1);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('walks up to the GTIN at granularity model: the version page, the scan counted for the product only', async () => {
    // Prepare
    store('model');
    // Act
    const response = await handler(scan('/10/L9/21/ANY'), CONTEXT);
    // Assess
    expect([response.statusCode, response.headers?.Location]).toEqual([307, `https://id.example.com/${ORG}/live/p/${GTIN}/2/en`]);
    expect(sentEvents()[0]).not.toHaveProperty('lot');
  });

  it('is 404 for an unregistered lot at granularity batch, and walks up for an unregistered serial without a lot', async () => {
    // Prepare
    store('batch');
    // Act
    const lot = await handler(scan('/10/L9', { accept: 'application/json' }), CONTEXT);
    const serial = await handler(scan('/21/ANY'), CONTEXT);
    // Assess
    expect(lot.statusCode).toBe(404);
    expect([serial.statusCode, serial.headers?.Location]).toEqual([307, `https://id.example.com/${ORG}/live/p/${GTIN}/2/en`]);
  });

  it('treats an item whose lot differs from the link’s as not registered under that link', async () => {
    // Prepare
    store('item', { [`ITEM#${GTIN}#SN1`]: unit('item', 'SN1', { lot: 'L1' }) });
    // Act
    const response = await handler(scan('/10/L2/21/SN1', { accept: 'application/json' }), CONTEXT);
    // Assess
    expect(response.statusCode).toBe(404);
  });
});

describe('withdrawn records', () => {
  it('answers 410 for a withdrawn item and for an item whose named batch is withdrawn, counting nothing', async () => {
    // Prepare
    store('item', {
      [`ITEM#${GTIN}#SN1`]: unit('item', 'SN1', { status: 'withdrawn' }),
      [`ITEM#${GTIN}#SN2`]: unit('item', 'SN2', { lot: 'L1' }),
      [`BATCH#${GTIN}#L1`]: unit('batch', 'L1', { status: 'withdrawn' }),
    });
    // Act
    const item = await handler(scan('/21/SN1', { accept: 'application/json' }), CONTEXT);
    const ofBatch = await handler(scan('/10/L1/21/SN2', { accept: 'application/json' }), CONTEXT);
    const page = await handler(scan('/21/SN1', { accept: 'text/html' }), CONTEXT);
    // Assess
    expect([item.statusCode, ofBatch.statusCode, page.statusCode]).toEqual([410, 410, 410]);
    expect(page.headers?.['Content-Type']).toContain('text/html');
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('a record’s immutable page', () => {
  const pageEvent = (tail: string) =>
    apiGatewayEvent({
      route: '/{orgId}/{environment}/p/{gtin}/{version}/{ai}/{unit}/{unitVersion}/{page}',
      path: `/${ORG}/live/p/${GTIN}/2/${tail}`,
      headers: { host: 'id.example.com' },
      pathParameters: Object.fromEntries(['orgId', 'environment', 'gtin', 'version', 'ai', 'unit', 'unitVersion', 'page'].map((name, i) => [name, [ORG, 'live', GTIN, '2', ...tail.split('/')][i] ?? ''])),
    });

  it('serves an earlier item version from its archived item, with its serial and lot, in one BatchGetItem, counting no scan', async () => {
    // Prepare
    ddb.reset();
    ddb.on('GetItem', { Key: { PK, SK: `PAGE#${GTIN}#000002` } }).resolves({ Item: { ...gtinItemOf(LINK, 2), passport: { ...gtinItemOf(LINK, 2).passport, data: { alcoholByVolume: 12 } } } });
    ddb.on('GetItem', { Key: { PK, SK: `ITEM#${GTIN}#SN1` } }).resolves({ Item: unit('item', 'SN1', { version: 3 }) });
    ddb.on('GetItem', { Key: { PK, SK: `ITEMV#${GTIN}#SN1#000002` } }).resolves({ Item: unit('item', 'SN1', { version: 2, lot: 'L7', data: { analysis: { alcoholByVolume: 12.5 } } }) });
    // Act
    const json = await handler(pageEvent('21/SN1/2/passport.json'), CONTEXT);
    const html = await handler(pageEvent('21/SN1/2/de'), CONTEXT);
    const missing = await handler(pageEvent('21/SN1/9/de'), CONTEXT);
    // Assess
    expect(json.statusCode).toBe(200);
    expect(json.headers?.['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(JSON.parse(json.body ?? '{}')).toMatchObject({ serial: 'SN1', lot: 'L7', version: 2, data: { alcoholByVolume: 12.5 }, item: { version: 2, data: { analysis: { alcoholByVolume: 12.5 } } } });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('(10) L7 (21) SN1');
    expect(html.body).toContain('12,5');
    expect(missing.statusCode).toBe(404);
    // The missing page asks whether its product moved to another organization (one GetItem of the GTIN item: functions/resolver/moved.ts).
    expect(ddb.calls().map((c) => c.operation)).toEqual(['BatchGetItem', 'BatchGetItem', 'BatchGetItem', 'GetItem']);
    expect(sqs.calls()).toHaveLength(0);
  });
});
