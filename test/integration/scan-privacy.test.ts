import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { statsPk } from '../../lib/data/keys.ts';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE, TOMATO_PASSATA, type CreatedProduct } from '../support/fixtures.ts';
import { sentScans } from '../support/scans.ts';
import { until } from '../support/until.ts';

/**
 * What a scan records, by category (docs/privacy.md), through the local stack: a wine's e-label
 * ("no user data shall be collected or tracked", Regulation (EU) No 1308/2013 Art. 119(4) and
 * (5)(a) as amended by Regulation (EU) 2021/2117) is counted per product and day and nothing else,
 * on the queue and in the rollup; a food product's scans keep their country, device and referrer.
 */
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** Everything a phone and the CDN send with a scan. */
const PHONE = { accept: 'text/html', 'user-agent': IPHONE, 'cloudfront-viewer-country': 'DE', referer: 'https://www.instagram.com/p/1', 'accept-language': 'de-DE' };
/** The names of the rollup counters that come from the request (lib/data/rollups.ts). */
const FROM_THE_REQUEST = /^(c_|r_|mobile$|tablet$|desktop$|bots$|referrerHosts$)/;

let org: TestOrg;
let wine: CreatedProduct;
let wineByType: CreatedProduct;
let food: CreatedProduct;

const analytics = (productId: string) => call('GET', `/v1/analytics/product/${productId}`, { key: org.live });

/** Every counter name on the product's day rollups, read straight from the table. */
async function rollupAttributes(productId: string): Promise<{ names: string[]; scans: number }> {
  const { Items = [] } = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': statsPk({ orgId: org.orgId, environment: 'live' }, productId) }, ConsistentRead: true }),
  );
  return { names: [...new Set(Items.flatMap((item) => Object.keys(item)))], scans: Items.reduce((n, item) => n + Number(item.scans ?? 0), 0) };
}

/** Scans `product` with the phone's headers, then once as a bot (the resolver's 307 is the scan: the page it leads to counts none). */
async function scanTwice(product: CreatedProduct): Promise<void> {
  for (const headers of [PHONE, { ...PHONE, 'user-agent': BOT }]) {
    const response = await fetch(product.qrCodeUrl, { headers, redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.status).toBe(307);
  }
}

beforeAll(async () => {
  org = await newOrg('Scan Privacy Org');
  [wine, wineByType, food] = await Promise.all([
    createProduct(org.live, { name: 'Riesling 2023', category: 'wine' }),
    // A wine filed under another category: its passport says productType wine.
    createProduct(org.live, { name: 'Red wine filed as food', category: 'food' }),
    createProduct(org.live, { name: 'Tomato Passata', category: 'food' }),
  ]);
  await Promise.all([publish(org.live, wine.productId, RED_WINE), publish(org.live, wineByType.productId, RED_WINE), publish(org.live, food.productId, TOMATO_PASSATA)]);
});

describe('a scan of a wine\'s e-label', () => {
  it.each([
    ['category wine', () => wine],
    ['productType wine under category food', () => wineByType],
  ])('%s: the queue message and the rollup hold a count and no country, device or referrer; the answer says why', async (_, product) => {
    // Prepare
    const scanned = product();
    // Act
    await scanTwice(scanned);
    // Assess: the messages the resolver put on the scan queue
    const messages = await until('the two scan messages', async () => {
      const sent = await sentScans(scanned.productId);
      return sent.length === 2 ? sent : undefined;
    }, 30_000);
    for (const message of messages) {
      expect(message).toEqual({ v: 1, orgId: org.orgId, environment: 'live', productId: scanned.productId, gtin: `0${scanned.gtin}`, at: expect.stringMatching(/Z$/), countOnly: true });
    }
    expect(JSON.stringify(messages)).not.toMatch(/DE|iPhone|Googlebot|instagram|127\.0\.0\.1/);
    // The rollup: both scans counted (a bot cannot be told apart without the User-Agent), nothing else
    const rollup = await until('the rollup to count both scans', async () => {
      const read = await rollupAttributes(scanned.productId);
      return read.scans === 2 ? read : undefined;
    }, 30_000);
    expect(rollup.names.filter((name) => FROM_THE_REQUEST.test(name))).toEqual([]);
    // The analytics answer
    const answer = await analytics(scanned.productId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      totalScans: 2,
      uniqueCountries: 0,
      locations: {},
      topReferrers: [],
      devices: { mobile: 0, tablet: 0, desktop: 0 },
      bots: 0,
      notCollected: ['country', 'device', 'referrer'],
      notCollectedReason: expect.stringMatching(/Regulation \(EU\) No 1308\/2013, Art\. 119\(4\) and \(5\)\(a\), as amended by Regulation \(EU\) 2021\/2117.*no user data shall be collected or tracked/),
    });
  });
});

describe('a scan of a food product', () => {
  it('still puts its country, device and referrer on the queue and in the rollup, and the answer says nothing is left out', async () => {
    // Act
    await scanTwice(food);
    // Assess
    const messages = await until('the two scan messages', async () => {
      const sent = await sentScans(food.productId);
      return sent.length === 2 ? sent : undefined;
    }, 30_000);
    expect(messages).toEqual([
      expect.objectContaining({ country: 'DE', device: 'mobile', referrer: 'instagram.com' }),
      expect.objectContaining({ country: 'DE', device: 'bot', referrer: 'instagram.com' }),
    ]);
    expect(messages.every((message) => !('countOnly' in message))).toBe(true);
    const rollup = await until('the rollup to count the scan and the bot', async () => {
      const read = await rollupAttributes(food.productId);
      return read.scans === 1 && read.names.includes('bots') ? read : undefined;
    }, 30_000);
    expect(rollup.names).toEqual(expect.arrayContaining(['c_DE', 'mobile', 'r_instagram.com', 'bots']));
    const answer = await analytics(food.productId);
    expect(answer.body).toMatchObject({ totalScans: 1, bots: 1, locations: { DE: 1 }, devices: { mobile: 1 }, topReferrers: [{ domain: 'instagram.com', scans: 1 }] });
    expect(answer.body).not.toHaveProperty('notCollected');
    expect(answer.body).not.toHaveProperty('notCollectedReason');
  });
});
