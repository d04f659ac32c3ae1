import { beforeAll, describe, expect, it } from 'vitest';
import { finishedImport } from '../support/imports.ts';
import { call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { eventually } from '../support/queues.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';
import { batteryModelData, batteryReading } from '../support/battery.ts';

/**
 * What one battery holds beside its model (issue 38, docs/battery.md#model-and-item) through HTTP:
 * its measured Annex IV values (point 9), its plant's manufacturing place and carbon footprint
 * (point 12), and its negative events, which nobody removes (point 2, the owner's side; the
 * grantee's is in access.test.ts).
 */
type Json = Record<string, any>;

let org: TestOrg;
let model: CreatedProduct;

const pathOf = (url: string) => new URL(url).pathname;
/**
 * Today (UTC): a product passported by item holds every element on its version, and the model's data
 * alone is complete only on a day before 18 February 2027, named on purpose; without asOf it is
 * judged on that day (docs/battery.md#the-day-judged).
 */
const today = () => new Date().toISOString().slice(0, 10);
const itemUrl = (serial: string) => `/v1/products/${model.productId}/items/${serial}`;
/** A live battery on the platform's host is registered with force=true (docs/brand-domains.md#battery-items). */
const putUrl = (serial: string) => `${itemUrl(serial)}?force=true`;
const patch = (serial: string, body: Json) =>
  call('PATCH', itemUrl(serial), { key: org.live, rawBody: Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/merge-patch+json' } });

const PLANT_B = { addressCountry: 'Poland', postalCode: '55-200', streetAddress: 'ul. Fabryczna 7, Oława' };
const PLANT_B_FOOTPRINT = { batteryCarbonFootprint: 61.4, carbonFootprintStudy: 'https://compliance.cell-maker.example/evp75/olawa-footprint.pdf' };
const MEASURED = [{ occasion: 'placing_on_market', lastUpdate: '2027-03-04T08:15:00Z', ratedCapacity: 191.2, powerFade: 0, expectedLifetime: 10 }];

beforeAll(async () => {
  org = await newOrg('Two-plant Cell Maker');
  model = await createProduct(org.live, { name: 'EVP75 from two plants', category: 'battery', granularity: 'item' });
  const published = await call('POST', `/v1/passports?asOf=${today()}`, { key: org.live, body: { productId: model.productId, data: batteryModelData('ev') } });
  if (published.status !== 201) throw new Error(`set-up: ${published.text}`);
});

describe('point 9: one battery\'s Annex IV values', () => {
  it('point 9: an item records its measured Annex IV Part A values, read by its owner and never by the public; batteryTechicalProperties on an item points there', async () => {
    // Prepare
    const data = batteryReading(model.gtin, 'MEAS1', 1);
    data.performanceAndDurability.measuredPerformance = MEASURED;
    const declared = batteryReading(model.gtin, 'MEAS2', 1);
    declared.performanceAndDurability.batteryTechicalProperties = { ratedCapacity: 191.2 };

    // Act
    const created = await call('PUT', putUrl('MEAS1'), { key: org.live, body: { data } });
    const refused = await call('PUT', putUrl('MEAS2'), { key: org.live, body: { data: declared } });
    const owner = await call('GET', itemUrl('MEAS1'), { key: org.live });
    const anonymous = await call('GET', `/v1/dpps/${created.body.dppId}`);
    const resolver = await call('GET', pathOf(created.body.digitalLink), { headers: { accept: 'application/json' } });
    const missing = await call('GET', itemUrl('MEAS2'), { key: org.live });

    // Assess: the owner reads the measurement; the public reads the model's declared rated capacity (190 Ah), never the battery's 191.2.
    expect(created.status, created.text).toBe(201);
    expect(owner.body.data.performanceAndDurability.measuredPerformance).toEqual(MEASURED);
    for (const response of [anonymous, resolver]) {
      expect(response.status, response.text).toBe(200);
      expect(response.text).not.toContain('measuredPerformance');
      expect(response.text).not.toContain('191.2');
      expect(response.body.data.performanceAndDurability.batteryTechicalProperties.ratedCapacity).toBe(190);
    }
    expect(expectError(refused, 422, 'validation_error', 'data.performanceAndDurability.batteryTechicalProperties').message).toContain('performanceAndDurability.measuredPerformance');
    expect(missing.status).toBe(404);
  });
});

describe('point 12: per plant', () => {
  it('point 12: a battery from another plant names its plant and its plant\'s carbon footprint; its siblings keep the model\'s', async () => {
    // Prepare
    const fromB = batteryReading(model.gtin, 'PLANTB1', 1);
    fromB.generalProductInformation.manufacturingPlace = PLANT_B;
    fromB.carbonFootprint = PLANT_B_FOOTPRINT;
    const fromA = batteryReading(model.gtin, 'PLANTA1', 1);
    const modelData = batteryModelData('ev');

    // Act
    const b = await call('PUT', putUrl('PLANTB1'), { key: org.live, body: { data: fromB } });
    const a = await call('PUT', putUrl('PLANTA1'), { key: org.live, body: { data: fromA } });
    const publicB = await call('GET', pathOf(b.body.digitalLink), { headers: { accept: 'application/json' } });
    const publicA = await call('GET', pathOf(a.body.digitalLink), { headers: { accept: 'application/json' } });
    const badPlace = await patch('PLANTB1', { data: { generalProductInformation: { manufacturingPlace: { postalCode: ' ' } } } });

    // Assess: the plant's footprint replaces the model's whole (no per-stage values of the model's plant mixed in).
    expect([b.status, a.status], b.text).toEqual([201, 201]);
    expect(publicB.body.data.generalProductInformation.manufacturingPlace).toEqual(PLANT_B);
    expect(publicB.body.data.carbonFootprint).toEqual(PLANT_B_FOOTPRINT);
    expect(publicA.body.data.generalProductInformation.manufacturingPlace).toEqual(modelData.generalProductInformation.manufacturingPlace);
    expect(publicA.body.data.carbonFootprint.batteryCarbonFootprint).toBe(modelData.carbonFootprint.batteryCarbonFootprint);
    expectError(badPlace, 422, 'validation_error', 'data.generalProductInformation.manufacturingPlace.postalCode');
  });
});

describe('point 2: negative events are append-only for everyone', () => {
  it('point 2: the owner cannot remove or rewrite a recorded negative event, by PUT, PATCH or import; appending is accepted', async () => {
    // Prepare
    const data = batteryReading(model.gtin, 'EVENTS1', 1);
    const event = { negativeEvent: 'Dropped from a forklift; casing dented.', lastUpdate: '2028-01-10T09:00:00Z' };
    data.performanceAndDurability.batteryCondition.negativeEvents = [event];
    const created = await call('PUT', putUrl('EVENTS1'), { key: org.live, body: { data } });
    const emptied = structuredClone(data);
    emptied.performanceAndDurability.batteryCondition.negativeEvents = [];
    const rewritten = structuredClone(data);
    rewritten.performanceAndDurability.batteryCondition.negativeEvents = [{ ...event, negativeEvent: 'Nothing happened.' }];
    const later = { negativeEvent: 'Water ingress after flooding.', lastUpdate: '2028-03-02T12:00:00Z' };

    // Act
    const put = await call('PUT', putUrl('EVENTS1'), { key: org.live, body: { data: emptied } });
    const putRewrite = await call('PUT', putUrl('EVENTS1'), { key: org.live, body: { data: rewritten } });
    const removed = await patch('EVENTS1', { data: { performanceAndDurability: { batteryCondition: { negativeEvents: null } } } });
    const appended = await patch('EVENTS1', { data: { performanceAndDurability: { batteryCondition: { negativeEvents: [event, later] } } } });
    const upload = await call('POST', `/v1/imports?type=items&productId=${model.productId}&force=true`, {
      key: org.live,
      rawBody: JSON.stringify({ serial: 'EVENTS1', data: emptied }),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    const job = await finishedImport(org.live, upload.body.id);
    const stored = await call('GET', itemUrl('EVENTS1'), { key: org.live });

    // Assess
    expect(created.status, created.text).toBe(201);
    const param = 'data.performanceAndDurability.batteryCondition.negativeEvents';
    expectError(put, 409, 'conflict', param);
    expectError(putRewrite, 409, 'conflict', param);
    expectError(removed, 409, 'conflict', param);
    expect(appended.status, appended.text).toBe(200);
    expect(upload.status, upload.text).toBe(202);
    expect(job.body.counts).toMatchObject({ rows: 1, failed: 1 });
    expect(job.body.errors).toEqual([expect.objectContaining({ row: 1, column: param })]);
    expect(stored.body.data.performanceAndDurability.batteryCondition.negativeEvents).toEqual([event, later]);
  }, 90_000);

  it('point 13: an import cannot change a battery\'s status either: the row is refused naming both states', async () => {
    // Prepare
    const data = batteryReading(model.gtin, 'STATUS1', 1);
    const created = await call('PUT', putUrl('STATUS1'), { key: org.live, body: { data } });
    const waste = structuredClone(data);
    waste.generalProductInformation.batteryStatus = 'Waste';

    // Act
    const upload = await call('POST', `/v1/imports?type=items&productId=${model.productId}&force=true`, {
      key: org.live,
      rawBody: JSON.stringify({ serial: 'STATUS1', data: waste }),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    const job = await finishedImport(org.live, upload.body.id);
    const stored = await call('GET', itemUrl('STATUS1'), { key: org.live });

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(job.body.errors).toEqual([expect.objectContaining({ row: 1, column: 'data.generalProductInformation.batteryStatus', message: expect.stringMatching(/Original.*Waste/u) })]);
    expect(stored.body.data.generalProductInformation.batteryStatus).toBe('Original');
  }, 90_000);
});

describe('a live battery needs its organization\'s brand domain', () => {
  it('a live battery on the platform\'s host is 409 naming force, by PUT and by import; the test environment, force=true and a verified brand domain register it', async () => {
    // Prepare: a model on the platform's host, and one made after a verified brand domain became the default.
    const maker = await newOrg('Brand-host Cell Maker');
    const onPlatform = await createProduct(maker.live, { name: 'EVP75 on the platform host', category: 'battery', granularity: 'item' });
    const domainId = await verifiedDomainId(maker.orgId);
    const session = await newSession(maker.orgId);
    const made = await call('PATCH', `/v1/domains/${domainId}`, { session, body: { default: true } });
    const onBrand = await createProduct(maker.live, { name: 'EVP75 on the brand host', category: 'battery', granularity: 'item' });
    const inTest = await createProduct(maker.test, { name: 'EVP75 in test', category: 'battery', granularity: 'item' });
    for (const [key, product] of [[maker.live, onPlatform], [maker.live, onBrand], [maker.test, inTest]] as const) {
      const published = await call('POST', `/v1/passports?asOf=${today()}`, { key, body: { productId: product.productId, data: batteryModelData('ev') } });
      if (published.status !== 201) throw new Error(`set-up: ${published.text}`);
    }
    const put = (key: string, product: CreatedProduct, serial: string, query = '') =>
      call('PUT', `/v1/products/${product.productId}/items/${serial}${query}`, { key, body: { data: batteryReading(product.gtin, serial, 1) } });

    // Act
    const refused = await put(maker.live, onPlatform, 'HOST1');
    const importRefused = await call('POST', `/v1/imports?type=items&productId=${onPlatform.productId}`, {
      key: maker.live,
      rawBody: JSON.stringify({ serial: 'HOST2', data: batteryReading(onPlatform.gtin, 'HOST2', 1) }),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    const forced = await put(maker.live, onPlatform, 'HOST1', '?force=true');
    const updated = await put(maker.live, onPlatform, 'HOST1');
    const branded = await put(maker.live, onBrand, 'BRAND1');
    const tested = await put(maker.test, inTest, 'TEST1');
    const missing = await call('GET', `/v1/products/${onPlatform.productId}/items/HOST2`, { key: maker.live });

    // Assess
    expect(made.status, made.text).toBe(200);
    expect(new URL(onBrand.qrCodeUrl).hostname).toMatch(/\.fixture\.example$/u);
    expect(expectError(refused, 409, 'conflict', 'force').message).toContain(new URL(onPlatform.qrCodeUrl).hostname);
    expectError(importRefused, 409, 'conflict', 'force');
    expect(missing.status).toBe(404);
    expect(forced.status, forced.text).toBe(201);
    expect(updated.status, updated.text).toBe(200);
    expect(branded.status, branded.text).toBe(201);
    expect(tested.status, tested.text).toBe(201);
  }, 60_000);
});

describe('point 13: withdrawal is for mistakes and recalls', () => {
  it('point 13: a withdrawn battery\'s page says its producer withdrew it for a mistake or a recall, and that it was not recycled', async () => {
    // Prepare
    const created = await call('PUT', putUrl('RECALL1'), { key: org.live, body: { data: batteryReading(model.gtin, 'RECALL1', 1) } });
    const withdrawn = await patch('RECALL1', { status: 'withdrawn' });

    // Act: the resolver caches a record for at most a second; ask until the 410 comes.
    const text = await eventually(async () => {
      const page = await fetch(created.body.digitalLink, { headers: { accept: 'text/html', 'accept-language': 'en' } });
      const body = await page.text();
      return page.status === 410 ? body : undefined;
    }, 30_000, 'the withdrawn battery’s page');

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(text).toContain('for a mistake or a recall');
    expect(text).toContain('has not been recycled');
    expect(text).not.toContain('ceased to exist');
  });
});
