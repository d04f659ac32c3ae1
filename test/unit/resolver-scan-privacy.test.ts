import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ddb, sqs } from '../support/fake-aws.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem, loadResolver, ORG, PRODUCT_ID, type Handler } from '../support/resolver-events.ts';

/**
 * The resolver decides what a scan records where it builds the scan event (docs/privacy.md): the
 * message it sends for a wine's scan holds the count's keys and nothing of the request.
 */
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver());
});

const QR = `https://id.example.com/${ORG}/live/01/${GTIN}`;
const sent = () => sqs.calls('SendMessage').map((call) => JSON.parse(call.input.MessageBody ?? '{}') as Record<string, unknown>);
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A consumer's GET of the printed link, with everything a phone and the CDN send. */
const scan = () =>
  handler(
    apiGatewayEvent({
      route: '/{orgId}/{environment}/01/{gtin}',
      path: `/${ORG}/live/01/${GTIN}`,
      headers: { accept: 'text/html', 'cloudfront-viewer-country': 'DE', 'user-agent': IPHONE, referer: 'https://www.instagram.com/p/1', 'accept-language': 'de-DE' },
      pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
    }),
    CONTEXT,
  );

function serving(item: Record<string, unknown>): void {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({ Item: item });
  sqs.on('SendMessage').resolves({ MessageId: 'm-1' });
}

beforeEach(() => serving(gtinItem(QR, 1)));

describe('the scan message the resolver sends', () => {
  it.each([
    ['a product of category wine', gtinItem(QR, 1)],
    ['a food product whose passport says productType wine', { ...gtinItem(QR, 1), category: 'food', passport: { ...gtinItem(QR, 1).passport, data: { productType: 'wine' } } }],
  ])('%s: the count alone, no country, device or referrer', async (_, item) => {
    // Prepare
    serving(item);
    // Act
    const response = await scan();
    // Assess
    expect(response.statusCode).toBe(307);
    expect(sent()).toEqual([{ v: 1, orgId: ORG, environment: 'live', productId: PRODUCT_ID, gtin: GTIN, at: expect.stringMatching(/Z$/), countOnly: true }]);
    expect(JSON.stringify(sent())).not.toMatch(/DE|iPhone|mobile|instagram|203\.0\.113\.7/);
  });

  it('a food product: its country, device class and referring host, as before', async () => {
    // Prepare
    serving({ ...gtinItem(QR, 1), category: 'food', passport: { ...gtinItem(QR, 1).passport, data: { productType: 'food' } } });
    // Act
    await scan();
    // Assess
    expect(sent()).toEqual([expect.objectContaining({ productId: PRODUCT_ID, country: 'DE', device: 'mobile', referrer: 'instagram.com' })]);
    expect(sent()[0]).not.toHaveProperty('countOnly');
  });
});
