import type { Context, SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as aggregate } from '../../functions/aggregator/handler.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, TOMATO_PASSATA, type CreatedProduct } from '../support/fixtures.ts';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/data/client.ts';
import { forgetReferrers, queryRollups } from '../../lib/data/rollups.ts';
import { MAX_REFERRER_HOSTS } from '../../lib/domain/analytics.ts';
import { drained, eventually, queueDepths, sendRawBatch } from '../support/queues.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const today = () => new Date().toISOString().slice(0, 10);

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Analytics Org');
});

/** A published food product: its scans keep their dimensions (a wine's are counts only: scan-privacy.test.ts). */
async function publishedProductOf(owner: TestOrg): Promise<CreatedProduct> {
  const product = await createProduct(owner.live, { name: 'Tomato Passata', category: 'food' });
  await publish(owner.live, product.productId, TOMATO_PASSATA);
  return product;
}
const publishedProduct = () => publishedProductOf(org);

const analytics = (productId: string, query = '') => call('GET', `/v1/analytics/product/${productId}${query}`, { key: org.live });

/** Waits until the analytics endpoint reports `total` scans (humans) and `bots` bots, then returns it. */
const counted = (productId: string, total: number, bots = 0, query = '') =>
  eventually(
    async () => {
      const r = await analytics(productId, query);
      return r.body.totalScans === total && r.body.bots === bots ? r.body : undefined;
    },
    30_000,
    `${total} scans of ${productId}`,
  );

describe('scan analytics, end to end', () => {
  it('counts scans through resolver → queue → aggregator exactly, for day, week and month', async () => {
    // Prepare
    const product = await publishedProduct();
    const scans: Array<[string, string | undefined, string | undefined]> = [
      [IPHONE, 'DE', 'https://www.instagram.com/p/1'],
      [IPHONE, 'DE', 'https://www.instagram.com/p/2'],
      [IPHONE, 'FR', undefined],
      [IPAD, 'FR', 'https://shop.example.com/wine'],
      [DESKTOP, undefined, undefined],
      [DESKTOP, 'IT', 'https://instagram.com/'],
      [BOT, 'US', undefined],
    ];
    // Act
    for (const [ua, country, referer] of scans) {
      const headers: Record<string, string> = { 'user-agent': ua, accept: 'text/html' };
      if (country) headers['cloudfront-viewer-country'] = country;
      if (referer) headers.referer = referer;
      expect((await fetch(product.qrCodeUrl, { headers })).status).toBe(200);
    }
    // Assess
    await counted(product.productId, 6, 1);
    await drained();
    const day = (await analytics(product.productId)).body;
    expect(day).toMatchObject({
      productId: product.productId,
      granularity: 'day',
      totalScans: 6,
      uniqueCountries: 3,
      locations: { DE: 2, FR: 2, IT: 1, unknown: 1 },
      topReferrers: [
        { domain: 'instagram.com', scans: 3 },
        { domain: 'direct', scans: 2 },
        { domain: 'shop.example.com', scans: 1 },
      ],
      devices: { mobile: 3, tablet: 1, desktop: 2 },
    });
    expect(day.scansByDay).toHaveLength(91);
    expect(day.scansByDay.at(-1)).toEqual({ date: today(), scans: 6 });
    expect(day.scansByDay.slice(0, -1).every((b: { scans: number }) => b.scans === 0)).toBe(true);

    const week = (await analytics(product.productId, '?granularity=week')).body;
    expect(week.totalScans).toBe(6);
    expect(week.scansByDay.reduce((n: number, b: { scans: number }) => n + b.scans, 0)).toBe(6);
    expect(new Date(`${week.scansByDay.at(-1).date}T00:00:00Z`).getUTCDay()).toBe(1);
    const month = (await analytics(product.productId, `?granularity=month&start=${today().slice(0, 8)}01`)).body;
    expect(month.scansByDay).toEqual([{ date: `${today().slice(0, 8)}01`, scans: 6 }]);
    expect(month.period).toEqual({ start: `${today().slice(0, 8)}01T00:00:00.000Z`, end: `${today()}T23:59:59.999Z` });
  });

  it('counts the same SQS message delivered twice, and a batch delivered twice, once', async () => {
    // Prepare
    const product = await publishedProduct();
    const scan = (id: string) => ({
      messageId: `dup-${product.productId}-${id}`,
      receiptHandle: id,
      body: JSON.stringify({
        v: 1, orgId: org.orgId, environment: 'live', productId: product.productId, gtin: `0${product.gtin}`,
        at: new Date().toISOString(), country: 'ES', referrer: 'direct', device: 'mobile',
      }),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:scan-events',
      awsRegion: 'eu-central-1',
    });
    const context = { functionName: 'aggregator', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as Context;
    const single: SQSEvent = { Records: [scan('a')] };
    const batch: SQSEvent = { Records: [scan('b'), scan('c'), scan('d')] };
    // Act
    expect(await aggregate(single, context)).toEqual({ batchItemFailures: [] });
    expect(await aggregate(single, context)).toEqual({ batchItemFailures: [] });
    expect(await aggregate(batch, context)).toEqual({ batchItemFailures: [] });
    expect(await aggregate(batch, context)).toEqual({ batchItemFailures: [] });
    expect(await aggregate({ Records: [scan('a'), scan('e'), scan('c')] }, context)).toEqual({ batchItemFailures: [] });
    // Assess
    const body = (await analytics(product.productId)).body;
    expect(body.totalScans).toBe(5);
    expect(body.locations).toEqual({ ES: 5 });
  });

  it('counts the rest of a batch around a poison message, which ends in the DLQ after five receives', async () => {
    // Prepare
    const product = await publishedProduct();
    const event = (country: string) =>
      JSON.stringify({
        v: 1, orgId: org.orgId, environment: 'live', productId: product.productId, gtin: `0${product.gtin}`,
        at: new Date().toISOString(), country, referrer: 'direct', device: 'desktop',
      });
    const poison = `{"v":1,"poison":"${product.productId}"}`;
    // Act
    await sendRawBatch([event('PT'), event('PT'), poison, event('NL')]);
    // Assess
    const counts = await counted(product.productId, 3);
    expect(counts.locations).toEqual({ PT: 2, NL: 1 });
    const dlq = await eventually(
      async () => ((await queueDepths()).dlqBodies.includes(poison) ? true : undefined),
      30_000,
      'the poison message in the DLQ',
    );
    expect(dlq).toBe(true);
    await drained();
    expect((await analytics(product.productId)).body.totalScans).toBe(3);
  });
});

describe('GET /v1/analytics/product/{id}', () => {
  it('answers a product without scans with zeros in every bucket of the requested window', async () => {
    const product = await publishedProduct();
    const response = await analytics(product.productId, '?start=2024-02-27&end=2024-03-02');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      productId: product.productId,
      period: { start: '2024-02-27T00:00:00.000Z', end: '2024-03-02T23:59:59.999Z' },
      granularity: 'day',
      totalScans: 0,
      uniqueCountries: 0,
      locations: {},
      topReferrers: [],
      devices: { mobile: 0, desktop: 0, tablet: 0 },
      bots: 0,
      scansByDay: ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02'].map((date) => ({ date, scans: 0 })),
    });
  });

  it.each([
    ['?start=2026-13-01', 'start'],
    ['?start=2026-02-30', 'start'],
    ['?end=yesterday', 'end'],
    ['?start=2026-03-02&end=2026-03-01', 'end'],
    ['?start=2024-01-01&end=2025-01-02', 'start'],
    ['?granularity=hour', 'granularity'],
  ])('answers 422 for %s with param %s', async (query, param) => {
    const product = await createProduct(org.live);
    expectError(await analytics(product.productId, query), 422, 'validation_error', param);
  });

  it('answers 404 for an unknown or foreign product, 400 for an unknown parameter, 401 and 403', async () => {
    const product = await createProduct(org.live);
    expectError(await analytics('01900000-0000-7000-8000-000000000000'), 404, 'not_found');
    expectError(await call('GET', `/v1/analytics/product/${product.productId}`, { key: (await newOrg()).live }), 404, 'not_found');
    expectError(await call('GET', `/v1/analytics/product/${product.productId}`, { key: org.test }), 404, 'not_found');
    expectError(await analytics(product.productId, '?country=DE'), 400, 'invalid_request_error', 'country');
    expectError(await call('GET', `/v1/analytics/product/${product.productId}`), 401, 'authentication_error');
    expectError(await call('GET', `/v1/analytics/product/${product.productId}`, { key: await org.keyWith(['products:read']) }), 403, 'permission_error');
  });
});

describe('scan counting isolation and the referrer bound, in the aggregator', () => {
  const context = { functionName: 'aggregator', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as Context;
  const record = (messageId: string, owner: TestOrg, product: CreatedProduct, referrer = 'direct') => ({
    messageId,
    receiptHandle: messageId,
    body: JSON.stringify({
      v: 1, orgId: owner.orgId, environment: 'live', productId: product.productId, gtin: `0${product.gtin}`,
      at: new Date().toISOString(), country: 'AT', referrer, device: 'desktop',
    }),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:scan-events',
    awsRegion: 'eu-central-1',
  });

  it('attack: a product-day that cannot be written fails only its own records, never another product or tenant in the batch', async () => {
    // Prepare: a day rollup whose counter has the wrong type, so every write to it fails
    const other = await newOrg('Isolation Org');
    const [broken, sibling, foreign] = await Promise.all([publishedProduct(), publishedProduct(), publishedProductOf(other)]);
    await db().send(new PutCommand({
      TableName: tableName(),
      Item: { PK: `STATS#${org.orgId}#live#${broken.productId}`, SK: `DAY#${today()}`, type: 'rollup', scans: 'not a number' },
    }));
    const id = crypto.randomUUID();
    // Act
    const response = await aggregate({
      Records: [
        record(`${id}-1`, org, broken), record(`${id}-2`, org, sibling), record(`${id}-3`, other, foreign),
        record(`${id}-4`, org, broken), record(`${id}-5`, org, sibling),
      ],
    }, context);
    // Assess
    expect(response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([`${id}-1`, `${id}-4`]);
    expect((await analytics(sibling.productId)).body.totalScans).toBe(2);
    expect((await call('GET', `/v1/analytics/product/${foreign.productId}`, { key: other.live })).body.totalScans).toBe(1);
  });

  it('keeps counting exactly and within 50 hosts when a fresh aggregator meets a rollup it has not seen', async () => {
    // Prepare: 48 hosts counted by one aggregator instance
    const product = await publishedProduct();
    const host = (i: number) => `site${i}.example.org`;
    const id = crypto.randomUUID();
    const first = Array.from({ length: 48 }, (_, i) => record(`${id}-a${i}`, org, product, host(i)));
    expect(await aggregate({ Records: first }, context)).toEqual({ batchItemFailures: [] });
    // Act: a new instance (nothing learned) counts 2 known hosts, 5 new ones, direct, and a redelivery
    forgetReferrers();
    const second = [
      record(`${id}-b0`, org, product, host(0)), record(`${id}-b1`, org, product, host(1)),
      ...Array.from({ length: 5 }, (_, i) => record(`${id}-c${i}`, org, product, host(100 + i))),
      record(`${id}-d`, org, product, 'direct'), first[2] as ReturnType<typeof record>,
    ];
    expect(await aggregate({ Records: second }, context)).toEqual({ batchItemFailures: [] });
    // Assess
    const body = (await analytics(product.productId)).body;
    expect(body.totalScans).toBe(48 + 8);
    expect(body.topReferrers.reduce((n: number, r: { scans: number }) => n + r.scans, 0)).toBe(56);
    const [stored] = await queryRollups({ orgId: org.orgId, environment: 'live' }, product.productId, today(), today());
    const hosts = Object.keys(stored?.referrers ?? {}).filter((r) => r !== 'other' && r !== 'direct');
    expect(hosts).toHaveLength(50);
    expect(stored?.referrers).toMatchObject({ [host(0)]: 2, [host(1)]: 2, [host(2)]: 1, direct: 1, other: 3 });
  });
});

// Last in this file: the flood fills the one scan queue, which the tests above wait on.
const FLOOD = 2000;
const VICTIM_EVERY = 10; // one scan of the other tenant's product after every 10 flood scans
/** Scans in flight at once (4 until 2026-11-26; 12 sends the flood sooner, its batches still mixing both tenants' scans). */
const IN_FLIGHT = 12;

/** A unique, valid host name of 240 characters (labels of at most 63). */
const floodHost = (i: number) => `${String(i).padStart(5, '0')}${'a'.repeat(58)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(40)}.example`;

/** Runs `count` jobs with at most `limit` in flight. */
async function limited(count: number, limit: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) await job(next++);
  }));
}

describe('scan counting under a referrer flood', () => {
  it(
    'attack: 2,000 scans with unique 240-character referrers on one product leave the DLQ empty, count another tenant exactly, and keep at most 50 hosts plus other',
    async () => {
      // Prepare
      expect(floodHost(0)).toHaveLength(240);
      const [attacker, victim] = await Promise.all([newOrg('Flooded Org'), newOrg('Bystander Org')]);
      const flooded = await publishedProductOf(attacker);
      const bystander = await publishedProductOf(victim);
      const victimScans = FLOOD / VICTIM_EVERY;
      const scan = async (url: string, referer?: string) => {
        const headers: Record<string, string> = { 'user-agent': IPHONE, accept: 'application/json' };
        if (referer) headers.referer = referer;
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        expect(response.status).toBe(200);
      };

      // Act: the flood, with the other tenant's scans interleaved so that they share batches
      await limited(FLOOD + victimScans, IN_FLIGHT, async (i) => {
        if (i % (VICTIM_EVERY + 1) === VICTIM_EVERY) {
          const v = Math.floor(i / (VICTIM_EVERY + 1));
          await scan(bystander.qrCodeUrl, v % 2 === 0 ? `https://www.instagram.com/p/${v}` : undefined);
        } else {
          await scan(flooded.qrCodeUrl, `https://${floodHost(i)}/path?q=${i}`);
        }
      });
      // Every message either counted and deleted, or (old code) moved to the DLQ after five receives.
      await eventually(
        async () => {
          const { scan: depth } = await queueDepths();
          return depth.ready + depth.inflight + depth.delayed === 0 ? true : undefined;
        },
        120_000,
        'the scan queue to drain',
      );

      // Assess
      const { dlqBodies } = await queueDepths();
      expect(dlqBodies.filter((body) => body.includes(flooded.productId) || body.includes(bystander.productId))).toEqual([]);

      const other = await call('GET', `/v1/analytics/product/${bystander.productId}`, { key: victim.live });
      expect(other.status).toBe(200);
      expect(other.body.totalScans).toBe(victimScans);
      expect(other.body.topReferrers).toEqual([
        { domain: 'direct', scans: victimScans / 2 },
        { domain: 'instagram.com', scans: victimScans / 2 },
      ]);

      const target = await call('GET', `/v1/analytics/product/${flooded.productId}`, { key: attacker.live });
      expect(target.status).toBe(200);
      expect(target.body.totalScans).toBe(FLOOD);
      const referrers = target.body.topReferrers as Array<{ domain: string; scans: number }>;
      const hosts = referrers.filter((r) => r.domain !== 'other');
      expect(hosts.length).toBeLessThanOrEqual(MAX_REFERRER_HOSTS);
      expect(hosts.every((r) => r.domain.endsWith('.example') && r.domain.length === 240)).toBe(true);
      expect(referrers.at(-1)?.domain).toBe('other');
      expect(referrers.reduce((sum, r) => sum + r.scans, 0)).toBe(FLOOD);
      // The stored day rollup itself keeps at most 50 hosts (the answer shows the top 10 of them).
      const [stored] = await queryRollups({ orgId: attacker.orgId, environment: 'live' }, flooded.productId, today(), today());
      const storedHosts = Object.keys(stored?.referrers ?? {}).filter((r) => r !== 'other');
      expect(storedHosts.length).toBeGreaterThan(0);
      expect(storedHosts.length).toBeLessThanOrEqual(MAX_REFERRER_HOSTS);
      expect(stored?.referrers.other).toBe(FLOOD - storedHosts.length);
    },
    240_000,
  );
});
