import { beforeAll, describe, expect, it } from 'vitest';
import { finishedImport } from '../support/imports.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { BATTERY_EXAMPLE, batteryModelData, batteryReading } from '../support/battery.ts';

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
  // A product passported by item holds every element on its version: the model's data alone is complete only on a day before 18 February 2027, named on purpose (docs/battery.md#the-day-judged).
  const asOf = granularity === 'item' ? `?asOf=${new Date().toISOString().slice(0, 10)}` : '';
  const published = await call('POST', `/v1/passports${asOf}`, { key: org.live, body: { productId: product.productId, data: batteryModelData(category) } });
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
    const registered = await call('PUT', `/v1/products/${byModel.productId}/items/SNREAL1?force=true`, { key: org.live, body: { data: batteryReading(byModel.gtin, 'SNREAL1', 1) } });

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
    const registered = await call('PUT', `/v1/products/${withBattery.productId}/items/SN1?force=true`, { key: org.live, body: { data: batteryReading(withBattery.gtin, 'SN1', 1) } });

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

/** One battery's own data, complete on MANDATORY_DAY: its identifiers, dates and status, and the example's whole condition. */
function completeBattery(gtin13: string, serial: string): Json {
  const data = batteryReading(gtin13, serial, 1);
  data.performanceAndDurability.batteryCondition = structuredClone(BATTERY_EXAMPLE.performanceAndDurability.batteryCondition);
  return data;
}

describe('point 3: the individual battery', () => {
  let model: CreatedProduct;
  beforeAll(async () => {
    model = await publishedModel('EVP75 judged batteries');
  });

  it('point 3: an empty battery item is judged: refused from the day the passport is mandatory, listing every missing element; registered before it with its report and its derived identifier', async () => {
    // Act
    const onMandatoryDay = await call('PUT', `/v1/products/${model.productId}/items/EMPTY1?asOf=${MANDATORY_DAY}&force=true`, { key: org.live, body: { data: {} } });
    const notRegistered = await call('GET', `/v1/products/${model.productId}/items/EMPTY1`, { key: org.live });
    const complete = await call('PUT', `/v1/products/${model.productId}/items/FULL1?asOf=${MANDATORY_DAY}&force=true`, { key: org.live, body: { data: completeBattery(model.gtin, 'FULL1') } });
    const today = await call('PUT', `/v1/products/${model.productId}/items/EARLY1?force=true`, { key: org.live, body: { data: {} } });

    // Assess
    const error = expectError(onMandatoryDay, 422, 'validation_error', 'data.generalProductInformation.batteryPassportIdentifier');
    expect(error.params).toEqual(expect.arrayContaining([
      'data.generalProductInformation.batteryPassportIdentifier',
      'data.generalProductInformation.manufacturingDate',
      'data.generalProductInformation.batteryStatus',
    ]));
    expect(error.params).not.toContain('data.generalProductInformation.productIdentifier');
    expect(error.message).toContain(`an ev battery on ${MANDATORY_DAY}`);
    expect(notRegistered.status).toBe(404);
    expect(complete.status, complete.text).toBe(201);
    expect(complete.body.completeness).toMatchObject({ asOf: MANDATORY_DAY, batteryCategory: 'ev', level: 'all', complete: true, missingMandatory: [] });
    expect(today.status, today.text).toBe(201);
    expect(today.body.data.generalProductInformation.productIdentifier).toBe(today.body.digitalLink);
    expect(today.body.digitalLink).toBe(`${model.qrCodeUrl}/21/EARLY1`);
    expect(today.body.completeness.elements).toContainEqual(expect.objectContaining({ path: 'data.generalProductInformation.manufacturingDate', status: 'missing' }));
  });

  it('point 3: a productIdentifier naming another serial is 422', async () => {
    // Prepare
    const data = batteryReading(model.gtin, 'OTHER1', 1);

    // Act
    const refused = await call('PUT', `/v1/products/${model.productId}/items/MINE1?force=true`, { key: org.live, body: { data } });
    const read = await call('GET', `/v1/products/${model.productId}/items/MINE1`, { key: org.live });

    // Assess
    const error = expectError(refused, 422, 'validation_error', 'data.generalProductInformation.productIdentifier');
    expect(error.message).toContain('MINE1');
    expect(read.status).toBe(404);
  });

  it('point 3: a second item with the same batteryPassportIdentifier (other case) is 409 naming the first', async () => {
    // Prepare
    const first = await call('PUT', `/v1/products/${model.productId}/items/DUPA1?force=true`, { key: org.live, body: { data: batteryReading(model.gtin, 'DUPA1', 1) } });
    const second = batteryReading(model.gtin, 'DUPB1', 1);
    second.generalProductInformation.batteryPassportIdentifier = 'urn:cellmaker:dupa1';
    const upper = structuredClone(second);
    upper.generalProductInformation.batteryPassportIdentifier = 'urn:CELLMAKER:DUPA1';

    // Act
    const refused = await call('PUT', `/v1/products/${model.productId}/items/DUPB1?force=true`, { key: org.live, body: { data: second } });
    // The data model's pattern admits lower case only: the other case is refused before any claim is read.
    const upperRefused = await call('PUT', `/v1/products/${model.productId}/items/DUPB1?force=true`, { key: org.live, body: { data: upper } });
    const read = await call('GET', `/v1/products/${model.productId}/items/DUPB1`, { key: org.live });
    const renamed = await call('PATCH', `/v1/products/${model.productId}/items/DUPA1`, {
      key: org.live,
      body: { data: { generalProductInformation: { batteryPassportIdentifier: 'urn:cellmaker:dupa1renamed' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const afterRename = await call('PUT', `/v1/products/${model.productId}/items/DUPB1?force=true`, { key: org.live, body: { data: second } });

    // Assess
    expect(first.status, first.text).toBe(201);
    const error = expectError(refused, 409, 'duplicate_error', 'data.generalProductInformation.batteryPassportIdentifier');
    expect(error.message).toContain("'DUPA1'");
    expectError(upperRefused, 422, 'validation_error', 'data.generalProductInformation.batteryPassportIdentifier');
    expect(read.status).toBe(404);
    expect(renamed.status, renamed.text).toBe(200);
    expect(afterRename.status, afterRename.text).toBe(201);
  });
});

describe('point 3: batteries imported', () => {
  it('point 3: an import judges each battery row by the rules of PUT, reporting each refusal on its row, and claims the identifiers it writes', async () => {
    // Prepare
    const model = await publishedModel('EVP75 imported batteries');
    const lines = [
      { serial: 'IMP1', data: batteryReading(model.gtin, 'IMP1', 1) },
      { serial: 'IMP2', data: batteryReading(model.gtin, 'SOMEONE', 1) },
      { serial: 'IMP3', data: { ...batteryReading(model.gtin, 'IMP3', 1), generalProductInformation: { ...batteryReading(model.gtin, 'IMP3', 1).generalProductInformation, batteryPassportIdentifier: 'urn:cellmaker:imp1' } } },
    ];
    const uploaded = await call('POST', `/v1/imports?type=items&productId=${model.productId}&force=true`, { key: org.live, rawBody: lines.map((line) => JSON.stringify(line)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } });

    // Act
    const job = await finishedImport(org.live, uploaded.body.id);
    // IMP1 and IMP3 claim one passport identifier; the chunk writes its rows concurrently, so either may win.
    const first = await call('GET', `/v1/products/${model.productId}/items/IMP1`, { key: org.live });
    const [winner, loser] = first.status === 200 ? (['IMP1', { row: 3, serial: 'IMP3' }] as const) : (['IMP3', { row: 1, serial: 'IMP1' }] as const);
    const imported = await call('GET', `/v1/products/${model.productId}/items/${winner}`, { key: org.live });
    const sameId = batteryReading(model.gtin, 'PUT1', 1);
    sameId.generalProductInformation.batteryPassportIdentifier = 'urn:cellmaker:imp1';
    const put = await call('PUT', `/v1/products/${model.productId}/items/PUT1?force=true`, { key: org.live, body: { data: sameId } });

    // Assess
    expect(uploaded.status, uploaded.text).toBe(202);
    expect(job.body.counts).toMatchObject({ rows: 3, created: 1, failed: 2 });
    expect(job.body.errors).toHaveLength(2);
    expect(job.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 2, column: 'data.generalProductInformation.productIdentifier' }),
        expect.objectContaining({ row: loser.row, column: 'data.generalProductInformation.batteryPassportIdentifier', message: expect.stringContaining(`'${winner}'`) }),
      ]),
    );
    expect(imported.status).toBe(200);
    expectError(put, 409, 'duplicate_error', 'data.generalProductInformation.batteryPassportIdentifier');
  }, 90_000);
});
