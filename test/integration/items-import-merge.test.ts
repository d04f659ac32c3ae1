import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { BATTERY_EXAMPLE, batteryModelData, batteryReading } from '../support/battery.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';
import { finishedImport } from '../support/imports.ts';

/**
 * An items import never erases a battery (issue 41, Blocker 1; docs/imports.md#merge-or-replace),
 * through HTTP: a file with only `serial` and two state-of-health columns changes those two values
 * and keeps the battery's identifiers and manufacturing date, on the item and on its public page
 * (its Digital Link resolved by the local resolver); `?mode=replace` replaces; the dry run names
 * the fields each row changes; a JSON Lines `null` removes a member; a bad mode is a 422 naming `mode`.
 */

type Json = Record<string, any>;

const SOCE = 'data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy';
const SOH_FILE = `serial,${SOCE}.stateOfCertifiedEnergyValue,${SOCE}.lastUpdate\nSN1,96.5,2028-06-30T10:00:00Z\n`;

let org: TestOrg;
let model: CreatedProduct;

/** A battery complete on any day (the example's whole condition), so that no test here depends on the day it runs. */
function completeBattery(serial: string): Json {
  const data = batteryReading(model.gtin, serial, 1);
  data.performanceAndDurability.batteryCondition = structuredClone(BATTERY_EXAMPLE.performanceAndDurability.batteryCondition);
  return data;
}

const itemUrl = (serial: string) => `/v1/products/${model.productId}/items/${serial}`;
/** A live battery on the platform's host is registered with force=true (docs/brand-domains.md#battery-items). */
const upload = (text: string, query: string, contentType = 'text/csv') =>
  call('POST', `/v1/imports?type=items&productId=${model.productId}&force=true${query}`, { key: org.live, rawBody: text, headers: { 'content-type': contentType } });
const imported = async (text: string, query = '', contentType = 'text/csv') => {
  const queued = await upload(text, query, contentType);
  if (queued.status !== 202) throw new Error(`import: ${queued.status} ${queued.text}`);
  return (await finishedImport(org.live, queued.body.id)).body;
};
/** The battery's public JSON, its Digital Link resolved by the local resolver. */
const publicJson = async (digitalLink: string) => call('GET', new URL(digitalLink).pathname, { headers: { accept: 'application/json' } });

beforeAll(async () => {
  org = await newOrg('Cell Maker imports');
  model = await createProduct(org.live, { name: 'EVP75 updated by file', category: 'battery' });
  const published = await call('POST', '/v1/passports', { key: org.live, body: { productId: model.productId, data: batteryModelData('ev') } });
  if (published.status !== 201) throw new Error(`set-up: ${published.text}`);
});

describe('an items import merges by default', () => {
  it('a file of serial and two state-of-health columns changes those two values; identifiers and manufacturing date stay on the item and its public page; the dry run names the two fields', async () => {
    // Prepare: a battery registered with its identifiers, manufacturing date and condition
    const registered = await call('PUT', `${itemUrl('SN1')}?force=true`, { key: org.live, body: { data: completeBattery('SN1') } });
    expect(registered.status, registered.text).toBe(201);
    const general = registered.body.data.generalProductInformation;

    // Act
    const dry = await upload(SOH_FILE, '&dryRun=true');
    const job = await imported(SOH_FILE);
    const item = await call('GET', itemUrl('SN1'), { key: org.live });
    const page = await publicJson(item.body.digitalLink);

    // Assess: the dry run says which fields the row changes, and wrote nothing
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, mode: 'merge', counts: { rows: 1, updated: 1, failed: 0 }, rowChangesTruncated: false });
    expect(dry.body.rowChanges).toEqual([{ row: 2, serial: 'SN1', outcome: 'update', changes: [`${SOCE}.lastUpdate`, `${SOCE}.stateOfCertifiedEnergyValue`] }]);
    // Assess: only the two values changed, in the item's next version
    expect(job).toMatchObject({ status: 'succeeded', mode: 'merge', counts: { rows: 1, updated: 1, failed: 0 } });
    expect(item.body.version).toBe(2);
    expect(item.body.data.performanceAndDurability.batteryCondition.stateOfCertifiedEnergy).toEqual({ stateOfCertifiedEnergyValue: 96.5, lastUpdate: '2028-06-30T10:00:00Z' });
    expect(item.body.data.generalProductInformation).toEqual(general);
    expect({ ...item.body.data.performanceAndDurability.batteryCondition, stateOfCertifiedEnergy: null }).toEqual({
      ...registered.body.data.performanceAndDurability.batteryCondition,
      stateOfCertifiedEnergy: null,
    });
    // Assess: the public page still shows the battery's own identifiers and manufacturing date, not the model's
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.generalProductInformation).toMatchObject({
      productIdentifier: general.productIdentifier,
      batteryPassportIdentifier: 'urn:cellmaker:sn1',
      manufacturingDate: general.manufacturingDate,
    });
  });

  it('a JSON Lines null removes that member and keeps the rest (RFC 7396), as PATCH does', async () => {
    // Prepare
    const registered = await call('PUT', `${itemUrl('SN2')}?force=true`, { key: org.live, body: { data: completeBattery('SN2') } });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.data.generalProductInformation.puttingIntoService).toBeDefined();
    const line = JSON.stringify({ serial: 'SN2', data: { generalProductInformation: { puttingIntoService: null } } });

    // Act
    const dry = await upload(line, '&dryRun=true', 'application/x-ndjson');
    const job = await imported(line, '', 'application/x-ndjson');
    const item = await call('GET', itemUrl('SN2'), { key: org.live });

    // Assess
    expect(dry.body.rowChanges).toEqual([{ row: 1, serial: 'SN2', outcome: 'update', changes: ['data.generalProductInformation.puttingIntoService'] }]);
    expect(job).toMatchObject({ status: 'succeeded', counts: { updated: 1 } });
    const { puttingIntoService: _gone, ...kept } = registered.body.data.generalProductInformation;
    expect(item.body.data.generalProductInformation).toEqual(kept);
    expect(item.body.data.performanceAndDurability).toEqual(registered.body.data.performanceAndDurability);
  });
});

describe('?mode=replace', () => {
  it('makes the row the battery\'s whole data: what the row leaves out is gone, the dry run names it', async () => {
    // Prepare: a battery, and a line with its data but without its date of putting into service (not mandatory for an EV battery on any day)
    const registered = await call('PUT', `${itemUrl('SN3')}?force=true`, { key: org.live, body: { data: completeBattery('SN3') } });
    expect(registered.status, registered.text).toBe(201);
    const data = completeBattery('SN3');
    delete data.generalProductInformation.puttingIntoService;
    const line = JSON.stringify({ serial: 'SN3', data });

    // Act
    const dry = await upload(line, '&mode=replace&dryRun=true', 'application/x-ndjson');
    const merged = await upload(line, '&dryRun=true', 'application/x-ndjson');
    const job = await imported(line, '&mode=replace', 'application/x-ndjson');
    const item = await call('GET', itemUrl('SN3'), { key: org.live });

    // Assess: replacing drops the member the line leaves out; merging the same line would change nothing
    expect(dry.body).toMatchObject({ mode: 'replace', counts: { updated: 1 } });
    expect(dry.body.rowChanges).toEqual([{ row: 1, serial: 'SN3', outcome: 'update', changes: ['data.generalProductInformation.puttingIntoService'] }]);
    expect(merged.body).toMatchObject({ mode: 'merge', counts: { unchanged: 1, updated: 0 }, rowChanges: [] });
    expect(job).toMatchObject({ status: 'succeeded', mode: 'replace', counts: { updated: 1 } });
    expect(item.body.version).toBe(2);
    expect(item.body.data.generalProductInformation.puttingIntoService).toBeUndefined();
    expect(item.body.data.generalProductInformation.batteryPassportIdentifier).toBe('urn:cellmaker:sn3');
  });
});

describe('the mode', () => {
  it('is merge or replace, for an items file only: anything else is a 422 naming mode, and nothing is written', async () => {
    // Act
    const unknown = await upload(SOH_FILE, '&mode=overwrite');
    const empty = await upload(SOH_FILE, '&mode=');
    const products = await call('POST', '/v1/imports?mode=merge', { key: org.live, rawBody: 'gtin,name,category\n4006381333931,Riesling,wine\n', headers: { 'content-type': 'text/csv' } });
    const jobs = await call('GET', '/v1/imports?limit=100', { key: org.live });

    // Assess
    expect(expectError(unknown, 422, 'validation_error', 'mode').message).toContain('merge, replace');
    expectError(empty, 422, 'validation_error', 'mode');
    expectError(products, 422, 'validation_error', 'mode');
    expect(jobs.body.data.filter((job: Json) => job.type === 'products')).toEqual([]);
  });
});
