import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';
import { finishedImport } from '../support/imports.ts';

/**
 * Registrations in the EU registry as data (issue 39 point 1, docs/registry.md#settings and
 * #registrations): an organization's settings, checked field by field; once enabled, every
 * passport published, batch and item registered gets exactly one `pending_checks` registration in
 * the publication's own transaction, and publishing again adds none; what was published before is
 * registered on demand; the listing filters and pages; nobody else sees any of it.
 */

type Json = Record<string, any>;
/** GLEIF's own LEI (its check digits hold), a GLN with its check digit, a CN code of wine. */
const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: '529900t8bm49aursdo55' }, facilities: ['4006381000017'], commodityCode: '2204 21 10' };

const settings = (key: string, body: Json) => call('PUT', '/v1/registry/settings', { key, body });
const list = async (key: string, query = ''): Promise<Json[]> => {
  const page = await call('GET', `/v1/registry/registrations?limit=100${query}`, { key });
  if (page.status !== 200) throw new Error(`list: ${page.status} ${page.text}`);
  return page.body.data as Json[];
};

let org: TestOrg;
let stranger: TestOrg;

beforeAll(async () => {
  [org, stranger] = await Promise.all([newOrg('Registry Winery and Cells'), newOrg('Registry Stranger')]);
});

describe('settings', () => {
  it('answers the defaults before any are saved, naming the registry of each environment', async () => {
    // Act
    const live = await call('GET', '/v1/registry/settings', { key: stranger.live });
    const test = await call('GET', '/v1/registry/settings', { key: stranger.test });
    // Assess
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ object: 'registry_settings', environment: 'live', registry: 'production', enabled: false, operator: null, facilities: [], commodityCode: null });
    expect(test.body).toMatchObject({ environment: 'test', registry: 'acceptance', enabled: false });
  });

  it('refuses each wrong field with a 422 naming it, and stores nothing', async () => {
    // Act
    const badLei = await settings(org.test, { ...SETTINGS, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO56' } });
    const badScheme = await settings(org.test, { ...SETTINGS, operator: { scheme: 'DUNS', identifier: '123456789' } });
    const badGln = await settings(org.test, { ...SETTINGS, facilities: ['4006381000016'] });
    const noFacility = await settings(org.test, { ...SETTINGS, facilities: [] });
    const badCode = await settings(org.test, { ...SETTINGS, commodityCode: '2204' });
    const noEnabled = await settings(org.test, { ...SETTINGS, enabled: 'yes' });
    const stored = await call('GET', '/v1/registry/settings', { key: org.test });
    // Assess
    expect(expectError(badLei, 422, 'validation_error', 'operator.identifier').message).toMatch(/check digits/);
    expectError(badScheme, 422, 'validation_error');
    expect(badScheme.body.error.param).toBe('operator.scheme');
    expectError(badGln, 422, 'validation_error', 'facilities[0]');
    expectError(noFacility, 422, 'validation_error', 'facilities');
    expectError(badCode, 422, 'validation_error', 'commodityCode');
    expectError(noEnabled, 422, 'validation_error', 'enabled');
    expect(stored.body.enabled).toBe(false);
    expect(stored.body.operator).toBeNull();
  });

  it('saves the settings normalized, per environment, and a key without registry scopes may not', async () => {
    // Prepare
    const readOnly = await org.keyWith(['registry:read'], 'test');
    const productsOnly = await org.keyWith(['products:read', 'products:write'], 'test');
    // Act
    const saved = await settings(org.test, { ...SETTINGS, enabled: false });
    const read = await call('GET', '/v1/registry/settings', { key: readOnly });
    const refused = await settings(readOnly, SETTINGS);
    const unread = await call('GET', '/v1/registry/settings', { key: productsOnly });
    const live = await call('GET', '/v1/registry/settings', { key: org.live });
    // Assess
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ enabled: false, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, reoId: 'LEI-529900T8BM49AURSDO55', facilities: ['4006381000017'], commodityCode: '22042110' });
    expect(read.body).toEqual(saved.body);
    expectError(refused, 403, 'permission_error');
    expectError(unread, 403, 'permission_error');
    expect(live.body.enabled).toBe(false);
    expect(live.body.operator).toBeNull();
  });
});

describe('registrations created with each publication', () => {
  let wine: CreatedProduct;
  let battery: CreatedProduct;
  const serials = ['REGCELL001', 'REGCELL002'];

  beforeAll(async () => {
    expect((await settings(org.live, SETTINGS)).status).toBe(200);
    wine = await createProduct(org.live, { name: 'Registry Riesling' });
    await publish(org.live, wine.productId);
    const lot = await call('PUT', `/v1/products/${wine.productId}/batches/L2026`, { key: org.live, body: {} });
    battery = await createProduct(org.live, { name: 'Registry traction battery', category: 'battery' });
    await publish(org.live, battery.productId, batteryModelData('ev'));
    for (const serial of serials) {
      const item = await call('PUT', `/v1/products/${battery.productId}/items/${serial}?force=true`, {
        key: org.live,
        body: { data: batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/${serial}`, serial }) },
      });
      if (item.status !== 201) throw new Error(`set-up: ${item.status} ${item.text}`);
    }
    if (lot.status !== 201) throw new Error(`set-up: ${lot.status} ${lot.text}`);
  });

  it('gives the wine model, its batch, the battery model and each battery exactly one pending_checks registration, its entry built from the settings', async () => {
    // Act
    const all = await list(org.live);
    const passport = await call('GET', `/v1/products/${wine.productId}/passport`, { key: org.live });
    const cell = await call('GET', `/v1/products/${battery.productId}/items/${serials[0]}`, { key: org.live });
    // Assess
    const upis = all.map((r) => r.upi).sort();
    expect(upis).toEqual([wine.qrCodeUrl, `${wine.qrCodeUrl}/10/L2026`, battery.qrCodeUrl, ...serials.map((s) => `${battery.qrCodeUrl}/21/${s}`)].sort());
    expect(new Set(all.map((r) => r.status))).toEqual(new Set(['pending_checks']));
    const model = all.find((r) => r.upi === wine.qrCodeUrl) as Json;
    expect(model).toMatchObject({ object: 'registration', granularity: 'MODEL', productId: wine.productId, gtin: `0${wine.gtin}`.slice(-14), lot: null, serial: null, reasons: [], registryId: null });
    expect(model.entry).toEqual({
      upi: wine.qrCodeUrl,
      reoId: 'LEI-529900T8BM49AURSDO55',
      facilitiesId: ['GLN-4006381000017'],
      liveURL: wine.qrCodeUrl,
      backupURL: passport.body.backupUrl,
      commodityCode: '22042110',
      granularityLevel: 'MODEL',
    });
    const item = all.find((r) => r.serial === serials[0]) as Json;
    expect(item).toMatchObject({ granularity: 'ITEM', productId: battery.productId, entry: { granularityLevel: 'ITEM', deactivated: false, backupURL: cell.body.backupUrl } });
    expect(all.find((r) => r.lot === 'L2026')?.entry).not.toHaveProperty('deactivated');
    // Read one by id: the same view.
    const one = await call('GET', `/v1/registry/registrations/${item.id}`, { key: org.live });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(item);
  });

  it('filters by granularity, product and status, and pages with a cursor', async () => {
    // Act
    const items = await list(org.live, '&granularity=ITEM');
    const ofBattery = await list(org.live, `&productId=${battery.productId}`);
    const registered = await list(org.live, '&status=registered');
    const seen: string[] = [];
    let after = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await call('GET', `/v1/registry/registrations?limit=2${after}`, { key: org.live });
      seen.push(...page.body.data.map((r: Json) => r.id as string));
      if (!page.body.hasMore) break;
      after = `&starting_after=${page.body.data.at(-1).id}`;
    }
    const bad = await call('GET', '/v1/registry/registrations?granularity=LOT', { key: org.live });
    const badCursor = await call('GET', '/v1/registry/registrations?starting_after=evt_1', { key: org.live });
    // Assess
    expect(items.map((r) => r.serial).sort()).toEqual(serials);
    expect(ofBattery.map((r) => r.granularity).sort()).toEqual(['ITEM', 'ITEM', 'MODEL']);
    expect(registered).toEqual([]);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expectError(bad, 422, 'validation_error', 'granularity');
    expectError(badCursor, 422, 'validation_error', 'starting_after');
  });

  it('publishing again, updating a batch and an item add no second registration and leave the first as it was', async () => {
    // Prepare: a wine item registered (its one registration) and the listing as it stands
    const created = await call('PUT', `/v1/products/${wine.productId}/items/W9`, { key: org.live, body: {} });
    const before = await list(org.live);
    // Act
    await publish(org.live, wine.productId, { ...RED_WINE, vintage: 2020 });
    const lot = await call('PUT', `/v1/products/${wine.productId}/batches/L2026`, { key: org.live, body: { data: { bottlingDate: '2026-03-14' } } });
    const item = await call('PATCH', `/v1/products/${wine.productId}/items/W9`, { key: org.live, body: { data: { bottlingDate: '2026-03-14' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    // Assess
    expect(created.status).toBe(201);
    expect(before.filter((r) => r.serial === 'W9')).toHaveLength(1);
    expect([lot.status, item.status]).toEqual([200, 200]);
    expect(await list(org.live)).toEqual(before);
  });

  it('another organization reads none of them: 404 by id, an empty list', async () => {
    // Prepare
    const [first] = await list(org.live);
    // Act
    const byId = await call('GET', `/v1/registry/registrations/${first?.id}`, { key: stranger.live });
    const otherEnvironment = await call('GET', `/v1/registry/registrations/${first?.id}`, { key: org.test });
    const theirs = await list(stranger.live);
    const unknown = await call('GET', '/v1/registry/registrations/not-an-id', { key: org.live });
    // Assess
    expectError(byId, 404, 'not_found', 'registrationId');
    expectError(otherEnvironment, 404, 'not_found', 'registrationId');
    expect(JSON.stringify(byId.body)).not.toContain(first?.upi);
    expect(theirs).toEqual([]);
    expectError(unknown, 404, 'not_found', 'registrationId');
  });
});

describe('registrations created by an items import', () => {
  it('gives each item a file creates one registration, and a second file changing them adds none', async () => {
    // Prepare
    const importer = await newOrg('Registry Items Importer');
    expect((await settings(importer.live, SETTINGS)).status).toBe(200);
    const wine = await createProduct(importer.live, { name: 'Imported Riesling' });
    await publish(importer.live, wine.productId);
    const upload = (csv: string) => call('POST', `/v1/imports?type=items&productId=${wine.productId}`, { key: importer.live, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    // Act
    const first = await upload('serial\nIMP1\nIMP2\nIMP3\n');
    const firstJob = await finishedImport(importer.live, first.body.id);
    const afterFirst = await list(importer.live, '&granularity=ITEM');
    const second = await upload('serial,status\nIMP1,withdrawn\nIMP4,active\n');
    const secondJob = await finishedImport(importer.live, second.body.id);
    const afterSecond = await list(importer.live, '&granularity=ITEM');
    // Assess
    expect(firstJob.body.counts).toMatchObject({ created: 3, failed: 0 });
    expect(secondJob.body.counts).toMatchObject({ created: 1, updated: 1, failed: 0 });
    expect(afterFirst.map((r) => r.serial).sort()).toEqual(['IMP1', 'IMP2', 'IMP3']);
    expect(afterSecond.map((r) => r.serial).sort()).toEqual(['IMP1', 'IMP2', 'IMP3', 'IMP4']);
    expect(afterSecond.filter((r) => r.serial !== 'IMP4')).toEqual(afterFirst);
    expect(new Set(afterSecond.map((r) => r.status))).toEqual(new Set(['pending_checks']));
  });
});

describe('registrations on demand', () => {
  it('creates the missing registrations of what was published before registration was enabled, once', async () => {
    // Prepare: an organization that publishes a wine with two batches, then turns registration on
    const late = await newOrg('Registry Late Starter');
    const product = await createProduct(late.live, { name: 'Late Riesling' });
    const other = await createProduct(late.live, { name: 'Late Silvaner' });
    await publish(late.live, product.productId);
    await publish(late.live, other.productId);
    for (const lot of ['A1', 'A2']) expect((await call('PUT', `/v1/products/${product.productId}/batches/${lot}`, { key: late.live, body: {} })).status).toBe(201);
    const off = await call('POST', '/v1/registry/registrations', { key: late.live, body: { all: true } });
    const nothingYet = await list(late.live);
    expect((await settings(late.live, SETTINGS)).status).toBe(200);

    // Act
    const named = await call('POST', '/v1/registry/registrations', { key: late.live, body: { productIds: [product.productId] } });
    const again = await call('POST', '/v1/registry/registrations', { key: late.live, body: { productIds: [product.productId, product.productId] } });
    const all = await call('POST', '/v1/registry/registrations', { key: late.live, body: { all: true } });
    const events = await call('GET', '/v1/events?type=registry.registrations.created', { key: late.live });

    // Assess
    expectError(off, 409, 'conflict', 'enabled');
    expect(nothingYet).toEqual([]);
    expect(named.body).toEqual({ object: 'registration_creation', created: 3, existing: 0, hasMore: false });
    expect(again.body).toEqual({ object: 'registration_creation', created: 0, existing: 3, hasMore: false });
    expect(all.body).toEqual({ object: 'registration_creation', created: 1, existing: 3, hasMore: false });
    const registrations = await list(late.live);
    expect(registrations.map((r) => r.upi).sort()).toEqual([product.qrCodeUrl, `${product.qrCodeUrl}/10/A1`, `${product.qrCodeUrl}/10/A2`, other.qrCodeUrl].sort());
    expect(events.body.data.map((e: Json) => e.data.object.created)).toEqual([1, 3]);
  });

  it('names the client’s mistakes: neither or both forms 422, an unknown product 404', async () => {
    // Act
    const neither = await call('POST', '/v1/registry/registrations', { key: org.live, body: {} });
    const both = await call('POST', '/v1/registry/registrations', { key: org.live, body: { all: true, productIds: ['00000000-0000-4000-8000-000000000000'] } });
    const notUuid = await call('POST', '/v1/registry/registrations', { key: org.live, body: { productIds: ['abc'] } });
    const unknown = await call('POST', '/v1/registry/registrations', { key: org.live, body: { productIds: ['00000000-0000-4000-8000-000000000000'] } });
    const allFalse = await call('POST', '/v1/registry/registrations', { key: org.live, body: { all: false } });
    // Assess
    expectError(neither, 422, 'validation_error', 'productIds');
    // Both: with productIds, all is a field that form does not have.
    expectError(both, 422, 'validation_error', 'all');
    expectError(notUuid, 422, 'validation_error', 'productIds[0]');
    expectError(unknown, 404, 'not_found', 'productIds[0]');
    expectError(allFalse, 422, 'validation_error', 'all');
  });
});
