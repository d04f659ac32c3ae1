import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { eventually } from '../support/queues.ts';
import { sentScans } from '../support/scans.ts';

/**
 * Scans of serials and lots through the local stack (docs/resolver.md#batches-and-items): a
 * registered item or batch answers with its own immutable pages, an unregistered serial is 404 at
 * granularity item and walks up at granularity model, a withdrawn item is 410, and a scan counts for
 * the product and for its registered batch.
 */

let org: TestOrg;
let byItem: CreatedProduct;
let byModel: CreatedProduct;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** One request to the resolver as a client that does not follow redirects sees it. */
const scan = (link: string, headers: Record<string, string> = {}) => fetch(link, { headers: { 'user-agent': PHONE, ...headers }, redirect: 'manual' });

beforeAll(async () => {
  org = await newOrg('Items resolver');
  byItem = await createProduct(org.live, { name: 'Riesling by the bottle', granularity: 'item' });
  byModel = await createProduct(org.live, { name: 'Riesling by model' });
  await publish(org.live, byItem.productId);
  await publish(org.live, byModel.productId);
  for (const [path, body] of [
    [`/v1/products/${byItem.productId}/batches/L1`, { data: { bottlingDate: '2025-03-14', analysis: { alcoholByVolume: 12.5 } } }],
    [`/v1/products/${byItem.productId}/items/SN1`, { lot: 'L1', data: { bottlingDate: '2025-03-14' } }],
    [`/v1/products/${byItem.productId}/items/SN-GONE`, { status: 'withdrawn' }],
  ] as const) {
    const response = await call('PUT', path, { key: org.live, body });
    if (response.status !== 201) throw new Error(`set-up ${path}: ${response.status} ${response.text}`);
  }
});

describe('a registered item', () => {
  it('redirects to the item’s immutable page, whose e-label names its lot and serial and whose JSON carries the serial and the item’s data', async () => {
    // Act
    const redirect = await scan(`${byItem.qrCodeUrl}/21/SN1`, { accept: 'text/html', 'accept-language': 'de' });
    const location = redirect.headers.get('location') ?? '';
    const page = await fetch(location);
    const json = await fetch(location.replace(/\/de$/, '/passport.json'));
    // Assess
    expect(redirect.status).toBe(307);
    expect(location).toBe(`${baseUrl()}/${org.orgId}/live/p/0${byItem.gtin}/1/21/SN1/1/de`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await page.text()).toContain('(10) L1 (21) SN1');
    expect(await json.json()).toMatchObject({ serial: 'SN1', lot: 'L1', version: 1, item: { serial: 'SN1', lot: 'L1', version: 1, data: { bottlingDate: '2025-03-14' } } });
  });

  it('keeps the item’s earlier page readable after it changes, and redirects to the new one', async () => {
    // Prepare
    const first = (await scan(`${byItem.qrCodeUrl}/21/SN1`, { accept: 'application/json' })).headers.get('location') ?? '';
    await call('PATCH', `/v1/products/${byItem.productId}/items/SN1`, { key: org.live, body: { data: { bottlingDate: '2025-03-15' } }, headers: MERGE });
    // Act
    const second = (await scan(`${byItem.qrCodeUrl}/21/SN1`, { accept: 'application/json' })).headers.get('location') ?? '';
    const old = await (await fetch(first)).json();
    const current = await (await fetch(second)).json();
    // Assess
    expect(second).not.toBe(first);
    expect(old).toMatchObject({ item: { version: 1, data: { bottlingDate: '2025-03-14' } } });
    expect(current).toMatchObject({ item: { version: 2, data: { bottlingDate: '2025-03-15' } } });
  });

  it('answers a registered batch for /10/{lot}: its page shows the lot’s own alcoholic strength', async () => {
    // Act
    const redirect = await scan(`${byItem.qrCodeUrl}/10/L1`, { accept: 'text/html' });
    const html = await (await fetch(redirect.headers.get('location') ?? '')).text();
    // Assess
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toContain('/10/L1/1/en');
    expect(html).toContain('12.5');
    expect(html).toContain('(10) L1');
  });

  it('anchors the item’s linkset at the item', async () => {
    // Act
    const response = await scan(`${byItem.qrCodeUrl}/21/SN1?linkType=linkset`);
    const body = (await response.json()) as { linkset: Array<{ anchor: string; itemDescription: string }> };
    // Assess
    expect(response.status).toBe(200);
    expect(body.linkset[0]).toMatchObject({ anchor: `${byItem.qrCodeUrl}/21/SN1`, itemDescription: 'Riesling by the bottle, serial SN1' });
  });
});

describe('unregistered and withdrawn', () => {
  it('answers 404 for an unregistered serial of a product passported by item, and counts no scan', async () => {
    // Act
    const response = await scan(`${byItem.qrCodeUrl}/21/NEVER-MADE`, { accept: 'application/json' });
    // Assess
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('not_found');
  });

  it('walks up to the GTIN for an unregistered serial of a product passported by model', async () => {
    // Act
    const response = await scan(`${byModel.qrCodeUrl}/21/ANY-SERIAL`, { accept: 'text/html' });
    // Assess
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${baseUrl()}/${org.orgId}/live/p/0${byModel.gtin}/1/en`);
  });

  it('answers 410 for a withdrawn item, a page for a browser and the error object otherwise', async () => {
    // Act
    const json = await scan(`${byItem.qrCodeUrl}/21/SN-GONE`, { accept: 'application/json' });
    const page = await scan(`${byItem.qrCodeUrl}/21/SN-GONE`, { accept: 'text/html' });
    // Assess
    expect(json.status).toBe(410);
    expect(((await json.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect(page.status).toBe(410);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it("answers 404 for another organization's item under its own path", async () => {
    // Prepare
    const other = await newOrg('Items resolver elsewhere');
    // Act
    const response = await scan(`${baseUrl()}/${other.orgId}/live/01/0${byItem.gtin}/21/SN1`, { accept: 'application/json' });
    // Assess
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('SN1');
  });
});

describe('scans of items and batches', () => {
  it('counts each scan for the product and, by its lot, for the batch (never for the item alone): analytics ?lot=', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Counted by lot', granularity: 'item' });
    await publish(org.live, product.productId);
    await call('PUT', `/v1/products/${product.productId}/items/C1`, { key: org.live, body: { lot: 'LC' } });
    await call('PUT', `/v1/products/${product.productId}/batches/LC`, { key: org.live, body: {} });
    // Act
    for (const link of [`${product.qrCodeUrl}/21/C1`, `${product.qrCodeUrl}/10/LC/21/C1`, `${product.qrCodeUrl}/10/LC`, product.qrCodeUrl]) {
      expect((await scan(link, { accept: 'text/html' })).status).toBe(307);
    }
    // Assess
    const sent = (await sentScans(product.productId)) as Array<{ lot?: string }>;
    expect(sent.map((s) => s.lot ?? null)).toEqual(['LC', 'LC', 'LC', null]);
    const counted = await eventually(async () => {
      const [all, lot] = await Promise.all([
        call('GET', `/v1/analytics/product/${product.productId}`, { key: org.live }),
        call('GET', `/v1/analytics/product/${product.productId}?lot=LC`, { key: org.live }),
      ]);
      return all.body.totalScans === 4 && lot.body.totalScans === 3 ? { all: all.body.totalScans, lot: lot.body.totalScans } : undefined;
    }, 30_000, 'the scans to be counted');
    expect(counted).toEqual({ all: 4, lot: 3 });
  }, 40_000);
});
