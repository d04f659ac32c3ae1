import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { batteryModelData, batteryReading } from '../support/battery.ts';

/**
 * The individual battery through HTTP (issue 38, docs/battery.md#model-and-item,
 * docs/resolver.md#batches-and-items): a made-up serial is no passport, a model's category is fixed
 * once it has batteries, and each battery is judged and its identifiers checked at registration.
 */

type Json = Record<string, any>;
/** A day on which the battery passport is mandatory, however late this runs (an earlier asOf counts as today). */
const MANDATORY_DAY = '2027-03-01';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** One request to the resolver as a client that does not follow redirects sees it. */
const scan = (link: string, headers: Record<string, string> = {}) => fetch(link, { headers: { 'user-agent': PHONE, ...headers }, redirect: 'manual' });

let org: TestOrg;

/** A battery model published (as an EV battery unless told), under `granularity`. */
async function publishedModel(name: string, granularity?: 'model' | 'batch' | 'item', category: 'ev' | 'lmt' = 'ev'): Promise<CreatedProduct> {
  const product = await createProduct(org.live, { name, category: 'battery', ...(granularity ? { granularity } : {}) });
  const published = await call('POST', `/v1/passports`, { key: org.live, body: { productId: product.productId, data: batteryModelData(category) } });
  if (published.status !== 201) throw new Error(`set-up ${name}: ${published.status} ${published.text}`);
  return product;
}

beforeAll(async () => {
  org = await newOrg('Cell Maker items');
});

describe('point 4: a made-up serial of a battery', () => {
  it('point 4: a made-up serial of a battery is 404 whatever the granularity; the model\'s page says it is model information', async () => {
    // Prepare
    const byModel = await publishedModel('EVP75 by model', 'model');
    const byBatch = await publishedModel('EVP75 by batch', 'batch');
    const byItem = await publishedModel('EVP75 by item', 'item');
    const registered = await call('PUT', `/v1/products/${byModel.productId}/items/SNREAL1`, { key: org.live, body: { data: batteryReading(byModel.gtin, 'SNREAL1', 1) } });

    // Act
    const madeUp = await Promise.all([byModel, byBatch, byItem].map((product) => scan(`${product.qrCodeUrl}/21/FAKE0000001`, { accept: 'text/html' })));
    const madeUpJson = await scan(`${byModel.qrCodeUrl}/21/FAKE0000001`, { accept: 'application/json' });
    const real = await scan(`${byModel.qrCodeUrl}/21/SNREAL1`, { accept: 'text/html' });
    const model = await scan(byModel.qrCodeUrl, { accept: 'text/html', 'accept-language': 'de' });
    const modelPage = model.status === 307 ? await (await fetch(model.headers.get('location') ?? '')).text() : await model.text();
    const realPage = real.status === 307 ? await (await fetch(real.headers.get('location') ?? '')).text() : await real.text();

    // Assess
    expect(registered.status, registered.text).toBe(201);
    expect([real.status, model.status]).toEqual([307, 307]);
    expect(madeUp.map((response) => response.status)).toEqual([404, 404, 404]);
    expect(madeUpJson.status).toBe(404);
    expect(await madeUpJson.json()).toMatchObject({ error: { type: 'not_found', message: 'No item is registered under this serial number.' } });
    expect(real.status).toBe(307);
    expect(model.status).toBe(307);
    expect(modelPage).toContain('Angaben zum Modell: Diese Seite beschreibt das Batteriemodell, nicht den Pass einer einzelnen Batterie.');
    expect(realPage).not.toContain('Angaben zum Modell');
    expect(realPage).not.toContain('Model information');
  });

  it('keeps the walk-up for a made-up serial of a product of another category', async () => {
    // Prepare
    const wine = await createProduct(org.live, { name: 'Riesling by model' });
    await publish(org.live, wine.productId);

    // Act
    const madeUp = await scan(`${wine.qrCodeUrl}/21/FAKE0000001`, { accept: 'text/html' });

    // Assess
    expect(madeUp.status).toBe(307);
  });
});

describe('point 15: a model\'s category once it has batteries', () => {
  it('point 15: a category change of a model with batteries is 409', async () => {
    // Prepare
    const withBattery = await publishedModel('EVP75 with a battery');
    const without = await publishedModel('EVP75 without batteries');
    const registered = await call('PUT', `/v1/products/${withBattery.productId}/items/SN1`, { key: org.live, body: { data: batteryReading(withBattery.gtin, 'SN1', 1) } });

    // Act
    const refused = await call('POST', '/v1/passports', { key: org.live, body: { productId: withBattery.productId, data: batteryModelData('lmt') } });
    const sameCategory = await call('POST', '/v1/passports', { key: org.live, body: { productId: withBattery.productId, data: batteryModelData('ev', { massKg: 451 }) } });
    const changedWithout = await call('POST', '/v1/passports', { key: org.live, body: { productId: without.productId, data: batteryModelData('lmt') } });
    const item = await call('GET', `/v1/products/${withBattery.productId}/items/SN1`, { key: org.live });
    const model = await call('GET', `/v1/products/${withBattery.productId}/passport`, { key: org.live });

    // Assess
    expect(registered.status, registered.text).toBe(201);
    const error = expectError(refused, 409, 'conflict', 'data.generalProductInformation.batteryCategory');
    expect(error.message).toContain('SN1');
    expect(sameCategory.status, sameCategory.text).toBe(201);
    expect(changedWithout.status, changedWithout.text).toBe(201);
    expect(model.body.data.generalProductInformation.batteryCategory).toBe('ev');
    expect(item.status).toBe(200);
  });
});
