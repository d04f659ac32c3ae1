import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';
import { BATTERY_EXAMPLE, batteryItemData, batteryModelData } from '../support/battery.ts';

/**
 * The extension members of the battery passport (issue 38, docs/battery.md#extension-members)
 * through HTTP: the critical raw materials public and derived, the commercial warranty as a
 * duration, the waste-battery safety instructions public, the deep-discharge events one battery's
 * own, read by its owner and not by the public.
 */
type Json = Record<string, any>;

/** A day on which the battery passport is mandatory, however late this runs. */
const MANDATORY_DAY = '2027-03-01';

let org: TestOrg;
let product: CreatedProduct;
let published: Json;

const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  // Prepare: a model whose detailed composition flags its critical raw materials, with a made-up list sent that the service must replace.
  org = await newOrg('Extension Cell Maker');
  product = await createProduct(org.live, { name: 'EVP80 traction battery', category: 'battery' });
  const data = batteryModelData('ev');
  data.materialComposition.criticalRawMaterials = [{ criticalRawMaterialName: 'Unobtainium', criticalRawMaterialConcentration: 99 }];
  data.generalProductInformation.warrentyPeriod = '--10';
  data.generalProductInformation.commercialWarrantyPeriod = 'P10Y';
  const response = await call('POST', `/v1/passports?asOf=${MANDATORY_DAY}`, { key: org.live, body: { productId: product.productId, data } });
  if (response.status !== 201) throw new Error(`set-up: ${response.text}`);
  published = response.body;
});

describe('point 1: critical raw materials', () => {
  it('point 1: critical raw materials are public, derived from the flagged materials, without masses', async () => {
    // Prepare
    const dppId = (await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).body.dppId as string;
    const flagged = (BATTERY_EXAMPLE.materialComposition.batteryMaterials as Json[]).filter((material) => material.isCriticalRawMaterial).map((material) => material.batteryMaterialName);

    // Act
    const anonymous = await call('GET', `/v1/dpps/${dppId}`);
    const resolver = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'application/json' } });
    const page = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'text/html', 'accept-language': 'de' } });
    const html = page.status === 307 ? await call('GET', new URL(String(page.headers.get('location')), 'http://x').pathname) : page;

    // Assess: names and shares (lithium 7.1 kg of 452.5 kg is 1.57 %), the sent list replaced, no mass anywhere public.
    for (const response of [anonymous, resolver]) {
      expect(response.status, response.text).toBe(200);
      const materials = response.body.data.materialComposition.criticalRawMaterials as Json[];
      expect(materials.map((material) => material.criticalRawMaterialName)).toEqual(flagged);
      expect(materials[0]).toEqual({ criticalRawMaterialName: 'Lithium', criticalRawMaterialConcentration: 1.57 });
      expect(response.text).not.toContain('Unobtainium');
      expect(response.text).not.toContain('batteryMaterialMass');
      expect(response.text).not.toContain('batteryMaterials');
    }
    expect(html.status).toBe(200);
    expect(html.text).toContain('Kritische Rohstoffe');
    expect(html.text).toContain('Natural graphite');
    expect(published.completeness.missingMandatory).toEqual([]);
  });
});

describe('point 5: the commercial warranty period', () => {
  it('point 5: a 10-year warranty (P10Y) is stated and rendered in words; --10 is never shown as 10 months', async () => {
    // Prepare
    const longer = { generalProductInformation: { commercialWarrantyPeriod: `P${'1'.repeat(20)}Y` } };
    const months = { generalProductInformation: { commercialWarrantyPeriod: 'P18M' } };

    // Act
    const json = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'application/json' } });
    const pages = await Promise.all(
      ['en', 'de', 'fr', 'pl'].map(async (lang) => {
        const first = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'text/html', 'accept-language': lang } });
        return first.status === 307 ? call('GET', new URL(String(first.headers.get('location')), 'http://x').pathname) : first;
      }),
    );
    const overBudget = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: longer } });
    const notCanonical = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: months } });

    // Assess
    expect(json.body.data.generalProductInformation.commercialWarrantyPeriod).toBe('P10Y');
    const [en, de, fr, pl] = pages.map((page) => page.text.replace(/[\u00a0\u202f]/gu, ' '));
    expect(en).toContain('10 years');
    expect(de).toContain('10 Jahre');
    expect(fr).toContain('10 ans');
    expect(pl).toContain('10 lat');
    for (const text of [en, de, fr, pl]) {
      expect(text).not.toContain('--10');
      expect(text).not.toMatch(/10 (months|Monate|mois|miesięcy)/u);
    }
    expect(expectError(overBudget, 422, 'validation_error', 'data.generalProductInformation.commercialWarrantyPeriod').message).toContain('at most 20 characters');
    expectError(notCanonical, 422, 'validation_error', 'data.generalProductInformation.commercialWarrantyPeriod');
  });
});

describe('point 8: waste-battery safety instructions', () => {
  it('point 8: the safety instructions for handling waste batteries are public, beside the end-of-life information', async () => {
    // Act
    const json = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'application/json' } });
    const first = await call('GET', pathOf(product.qrCodeUrl), { headers: { accept: 'text/html', 'accept-language': 'en' } });
    const page = first.status === 307 ? await call('GET', new URL(String(first.headers.get('location')), 'http://x').pathname) : first;

    // Assess: the public link is served, the legitimate-interest safety measures still are not.
    expect(json.body.data.circularity.wasteBatterySafetyInstructions).toBe(BATTERY_EXAMPLE.circularity.wasteBatterySafetyInstructions);
    expect(json.body.data.circularity.safetyMeasures.safetyInstructions).toBeUndefined();
    expect(page.text).toContain('Safety instructions for handling waste batteries');
    expect(page.text).toContain(`href="${BATTERY_EXAMPLE.circularity.wasteBatterySafetyInstructions}"`);
  });
});

describe('point 11: deep-discharge events', () => {
  it('point 11: an item records its deep-discharge events; the public does not read them, the owner does', async () => {
    // Prepare
    const data = batteryItemData();
    // The example's productIdentifier names its own GTIN and serial, not this item's: the service derives this one (issue 38 point 3).
    delete data.generalProductInformation.productIdentifier;
    data.performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents = { value: 3, lastUpdate: '2028-07-31T22:00:00Z' };

    // Act
    const created = await call('PUT', `/v1/products/${product.productId}/items/EVP80X0001?force=true`, { key: org.live, body: { data } });
    const bad = await call('PATCH', `/v1/products/${product.productId}/items/EVP80X0001`, {
      key: org.live,
      rawBody: Buffer.from(JSON.stringify({ data: { performanceAndDurability: { batteryCondition: { numberOfDeepDischargeEvents: { value: 1.5, lastUpdate: '2028-08-31T22:00:00Z' } } } } })),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const owner = await call('GET', `/v1/products/${product.productId}/items/EVP80X0001`, { key: org.live });
    const anonymous = await call('GET', `/v1/dpps/${created.body.dppId}`);
    const resolver = await call('GET', pathOf(created.body.digitalLink), { headers: { accept: 'application/json' } });

    // Assess
    expect(created.status, created.text).toBe(201);
    expectError(bad, 422, 'validation_error', 'data.performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents.value');
    expect(owner.body.data.performanceAndDurability.batteryCondition.numberOfDeepDischargeEvents).toEqual({ value: 3, lastUpdate: '2028-07-31T22:00:00Z' });
    expect(anonymous.status, anonymous.text).toBe(200);
    for (const response of [anonymous, resolver]) expect(response.text).not.toContain('numberOfDeepDischargeEvents');
  });
});
