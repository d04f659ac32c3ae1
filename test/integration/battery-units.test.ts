import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { toItem as draftToItem } from '../../lib/data/drafts.ts';
import { getImportChunk } from '../../lib/data/imports.ts';
import { currentItem, unitKey, unitVersionKey } from '../../lib/data/items.ts';
import { draftSk, gtinSk, importChunkSk, passportVersionSk, tenantPk, versionPageSk } from '../../lib/data/keys.ts';
import { insertPassportVersion } from '../../lib/data/passports.ts';
import { getProduct } from '../../lib/data/products.ts';
import { DATA_UNITS } from '../../lib/domain/battery/units-migration.ts';
import type { DraftRecord } from '../../lib/domain/draft.ts';
import { nextPassportVersion } from '../../lib/domain/passport-version.ts';
import { nextUnitVersion } from '../../lib/domain/unit.ts';
import { admin } from '../support/admin.ts';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { batteryModelData, batteryReading } from '../support/battery.ts';
import { createProduct, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Issue 38 point 10 through HTTP (docs/battery.md#units): units as DIN DKE SPEC 99100 states them.
 * Battery data stored before, with the time at extreme temperatures in hours and the absolute
 * carbon footprint in kg CO2e and no `dataUnits` marker, is seeded straight into the local table
 * (as other tests seed records of an older shape); every read returns it in minutes and t CO2e,
 * naming what was stored, and the digests over what was stored still hold.
 */

type Json = Record<string, any>;

const sha256 = (value: unknown) => `sha256:${createHash('sha256').update(canonicalize(value) ?? '', 'utf8').digest('hex')}`;
/** `data` with each converted value put back as it was stored: what the digest covers. */
function asStored(data: Json, conversions: { path: string; stored: number }[]): Json {
  const copy = structuredClone(data);
  for (const { path, stored } of conversions) {
    const keys = path.split('.');
    const last = keys.pop()!;
    keys.reduce((node, key) => node[key], copy)[last] = stored;
  }
  return copy;
}
const payloadOf = (jwt: string): Json => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
const patch = (key: string, path: string, body: unknown) => call('PATCH', path, { key, body, headers: { 'content-type': 'application/merge-patch+json' } });

let org: TestOrg;
let product: CreatedProduct;
let tenant: { orgId: string; environment: 'live' };
let gtin14: string;

/** One battery's data as stored before: its reading with 1.5, 0.25, 0 and 2 hours at extreme temperatures, its plant's footprint 2,345 kg. */
const oldItemData = (serial: string): Json => {
  const data = batteryReading(product.gtin, serial, 1);
  data.performanceAndDurability.batteryCondition.temperatureInformation = {
    timeExtremeHighTemp: 1.5,
    timeExtremeLowTemp: 0.25,
    timeExtremeHighTempCharging: 0,
    timeExtremeLowTempCharging: 2,
    lastUpdate: '2028-01-28T22:00:00Z',
  };
  data.carbonFootprint = { absoluteCarbonFootprint: 2345 };
  return data;
};

beforeAll(async () => {
  org = await newOrg('Cell Maker units');
  product = await createProduct(org.live, { name: 'EVP75 units', category: 'battery' });
  tenant = { orgId: org.orgId, environment: 'live' };
  const stored = (await getProduct(tenant, product.productId, true))!;
  gtin14 = stored.gtin;

  // Version 1 as published before: the model's absolute footprint 6,897 kg, no marker on the version, its page or the GTIN item's copy.
  const data = batteryModelData('ev');
  data.carbonFootprint.absoluteCarbonFootprint = 6897;
  const version = nextPassportVersion(stored, data, '2026-10-01T08:00:00.000Z');
  expect(await insertPassportVersion(tenant, stored, version)).toBe('created');
  const pk = tenantPk(tenant);
  const unmark = (SK: string, attribute: string) => db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: pk, SK }, UpdateExpression: `REMOVE ${attribute}` }));
  await Promise.all([unmark(passportVersionSk(product.productId, 1), 'dataUnits'), unmark(versionPageSk(gtin14, 1), 'passport.dataUnits'), unmark(gtinSk(gtin14), 'passport.dataUnits')]);

  // A battery registered before: version 1 in hours and kg, no marker.
  const item = nextUnitVersion({ kind: 'item', productId: product.productId, gtin: gtin14, value: 'SNOLD1' }, undefined, { status: 'active', data: oldItemData('SNOLD1') }, '2026-10-02T08:00:00.000Z');
  const { dataUnits: _marker, ...unmarked } = currentItem(tenant, item);
  await db().send(new PutCommand({ TableName: tableName(), Item: unmarked }));

  // A draft saved before, with its footprint in kg.
  const draft = { productId: product.productId, data: { carbonFootprint: { absoluteCarbonFootprint: 1500 } }, createdAt: '2026-10-03T08:00:00.000Z', updatedAt: '2026-10-03T08:00:00.000Z' };
  const { dataUnits: _draftMarker, ...draftItem } = draftToItem(tenant, draft as DraftRecord);
  await db().send(new PutCommand({ TableName: tableName(), Item: draftItem }));
}, 120_000);

describe('point 10: units as DIN DKE SPEC 99100 states them', () => {
  it('point 10: a passport version stored in kg CO2e reads back in t CO2e, in the API, the history, the export, the public JSON and a new credential, and its chain still verifies', async () => {
    // Act
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const history = await call('GET', `/v1/products/${product.productId}/passports`, { key: org.live });
    const exported = await call('GET', `/v1/exports/products?format=ndjson`, { key: org.live });
    const publicJson = await call('GET', new URL(product.qrCodeUrl).pathname, { headers: { accept: 'application/json' } });
    const credential = await call('GET', `/v1/products/${product.productId}/passports/${current.body.passportId}/credential`, { key: org.live });
    const verified = await admin(['passports', 'verify', '--org', org.orgId, '--product', product.productId, '--json']);

    // Assess: 6,897 kg is 6.897 t everywhere a client reads it
    expect(current.status, current.text).toBe(200);
    expect(current.body.data.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    expect(current.body.unitConversions).toEqual([{ path: 'carbonFootprint.absoluteCarbonFootprint', stored: 6897, storedUnit: 'kg CO2e', value: 6.897, unit: 't CO2e' }]);
    expect(history.body.data[0].data.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    const line = exported.text.split('\n').filter(Boolean).map((text) => JSON.parse(text) as Json).find((row) => row.gtin === product.gtin || row.gtin === gtin14);
    expect(line?.passport.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    expect(publicJson.status, publicJson.text).toBe(200);
    expect(publicJson.body.data.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    expect(publicJson.body.unitConversions).toBeUndefined();
    expect(credential.status, credential.text).toBe(200);
    const subject = payloadOf(credential.text).credentialSubject;
    expect(subject.data.carbonFootprint.absoluteCarbonFootprint).toBe(6.897);
    expect(subject.dataUnits).toBe(DATA_UNITS);
    // The digest covers the version as stored: the stored value put back gives it, the converted data does not
    const v = current.body;
    const digestOf = (data: Json) => sha256({ data, gtin: v.gtin, previousDigest: v.previousDigest, productId: v.productId, publishedAt: v.publishedAt, version: v.version });
    expect(digestOf(asStored(v.data, v.unitConversions))).toBe(v.digest);
    expect(digestOf(v.data)).not.toBe(v.digest);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ intact: true });
    // Nothing stored was rewritten
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: passportVersionSk(product.productId, 1) }, ConsistentRead: true }));
    expect(Item?.data.carbonFootprint.absoluteCarbonFootprint).toBe(6897);
    expect(Item?.dataUnits).toBeUndefined();
  });

  it('point 10: a battery stored in hours reads back in minutes; its next version is written in minutes with the marker, and version 1 stays as stored and readable', async () => {
    // Prepare
    const path = `/v1/products/${product.productId}/items/SNOLD1`;

    // Act
    const before = await call('GET', path, { key: org.live });
    const exported = await call('GET', `/v1/exports/items?productId=${product.productId}&format=ndjson`, { key: org.live });
    const changed = await patch(org.live, path, { data: { performanceAndDurability: { batteryCondition: { stateOfCharge: { stateOfChargeValue: 55, lastUpdate: '2028-02-28T22:00:00Z' } } } } });
    const atFirst = await call('GET', `${path}?at=2026-10-02T09:00:00Z`, { key: org.live });
    const [{ Item: storedCurrent }, { Item: storedFirst }] = await Promise.all([
      db().send(new GetCommand({ TableName: tableName(), Key: unitKey(tenant, 'item', gtin14, 'SNOLD1'), ConsistentRead: true })),
      db().send(new GetCommand({ TableName: tableName(), Key: unitVersionKey(tenant, 'item', gtin14, 'SNOLD1', 1), ConsistentRead: true })),
    ]);
    const repair = await admin(['items', 'repair', '--org', org.orgId, '--product', product.productId, '--serial', 'SNOLD1', '--dry-run', '--json']);

    // Assess: 1.5 h, 0.25 h, 0 h and 2 h are 90, 15, 0 and 120 minutes; 2,345 kg is 2.345 t
    const minutes = { timeExtremeHighTemp: 90, timeExtremeLowTemp: 15, timeExtremeHighTempCharging: 0, timeExtremeLowTempCharging: 120, lastUpdate: '2028-01-28T22:00:00Z' };
    expect(before.status, before.text).toBe(200);
    expect(before.body.data.performanceAndDurability.batteryCondition.temperatureInformation).toEqual(minutes);
    expect(before.body.data.carbonFootprint.absoluteCarbonFootprint).toBe(2.345);
    expect(before.body.unitConversions.map((c: Json) => `${c.path.split('.').at(-1)} ${c.stored} ${c.storedUnit} = ${c.value} ${c.unit}`)).toEqual([
      'timeExtremeHighTemp 1.5 h = 90 min',
      'timeExtremeLowTemp 0.25 h = 15 min',
      'timeExtremeHighTempCharging 0 h = 0 min',
      'timeExtremeLowTempCharging 2 h = 120 min',
      'absoluteCarbonFootprint 2345 kg CO2e = 2.345 t CO2e',
    ]);
    const unitDigestOf = (u: Json, data: Json) =>
      sha256({ data, gtin: u.gtin, lot: u.lot, previousDigest: u.previousDigest, productId: u.productId, serial: u.serial, status: u.status, updatedAt: u.updatedAt, version: u.version });
    expect(unitDigestOf(before.body, asStored(before.body.data, before.body.unitConversions))).toBe(before.body.digest);
    // The next version: minutes, no conversion, chained to version 1's digest, stored with the marker
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, previousDigest: before.body.digest });
    expect(changed.body.data.performanceAndDurability.batteryCondition.temperatureInformation).toEqual(minutes);
    expect(changed.body.unitConversions).toBeUndefined();
    expect(unitDigestOf(changed.body, changed.body.data)).toBe(changed.body.digest);
    expect(storedCurrent).toMatchObject({ version: 2, dataUnits: DATA_UNITS, data: { carbonFootprint: { absoluteCarbonFootprint: 2.345 } } });
    expect(storedCurrent?.data.performanceAndDurability.batteryCondition.temperatureInformation.timeExtremeHighTemp).toBe(90);
    // Version 1 archived as it was stored, and read converted
    expect(storedFirst?.data.performanceAndDurability.batteryCondition.temperatureInformation.timeExtremeHighTemp).toBe(1.5);
    expect(storedFirst?.dataUnits).toBeUndefined();
    expect(atFirst.body).toMatchObject({ version: 1, digest: before.body.digest });
    expect(atFirst.body.data.performanceAndDurability.batteryCondition.temperatureInformation).toEqual(minutes);
    // The items export (cells, as an items file has them) before the change: minutes too
    const row = exported.text.split('\n').filter(Boolean).map((text) => JSON.parse(text) as Json).find((r) => r.serial === 'SNOLD1');
    expect(row?.['data.performanceAndDurability.batteryCondition.temperatureInformation.timeExtremeLowTempCharging']).toBe('120');
    expect(row?.['data.carbonFootprint.absoluteCarbonFootprint']).toBe('2.345');
    // The chain holds over what is stored
    expect(repair.code, repair.stderr).toBe(0);
    expect(JSON.parse(repair.stdout)).toMatchObject({ outcome: 'intact', findings: [] });
  });

  it('point 10: a draft saved in kg reads back in t, and its next save is stored in t with the marker', async () => {
    // Prepare
    const path = `/v1/products/${product.productId}/draft`;

    // Act
    const read = await call('GET', path, { key: org.live });
    const saved = await patch(org.live, path, { data: { carbonFootprint: { carbonFootprintPerformanceClass: 'B' } } });
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: draftSk(product.productId) }, ConsistentRead: true }));

    // Assess
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.carbonFootprint.absoluteCarbonFootprint).toBe(1.5);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.carbonFootprint).toEqual({ absoluteCarbonFootprint: 1.5, carbonFootprintPerformanceClass: 'B' });
    expect(Item).toMatchObject({ dataUnits: DATA_UNITS, data: { carbonFootprint: { absoluteCarbonFootprint: 1.5 } } });
  });

  it('point 10: an import uploaded before the change and written after converts its battery passports', async () => {
    // Prepare: a chunk stored before, without the marker, one row's passport in kg and one row of a wine
    const key = { PK: tenantPk(tenant), SK: importChunkSk('imp_units_old', 0) };
    const rows = [
      { row: 2, cells: { gtin: product.gtin, name: 'EVP75 units', passport: JSON.stringify({ carbonFootprint: { absoluteCarbonFootprint: 6897 } }) } },
      { row: 3, cells: { gtin: '4012345000016', name: 'Wine', 'passport.productType': 'wine' } },
    ];
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, type: 'importChunk', importId: 'imp_units_old', chunk: 0, rows, outcomes: {}, requestId: null } }));

    // Act
    const chunk = await getImportChunk(tenant, 'imp_units_old', 0);

    // Assess
    expect(chunk?.currentUnits).toBe(false);
    expect(JSON.parse(chunk!.rows[0]!.cells.passport!)).toEqual({ carbonFootprint: { absoluteCarbonFootprint: 6.897 } });
    expect(chunk!.rows[1]).toEqual(rows[1]);
  });

  it('point 10: the OpenAPI document states minutes, t CO2e and % per month for those fields', async () => {
    // Act
    const document = await call('GET', '/v1/openapi.json');

    // Assess
    const schemas = document.body.components.schemas as Record<string, Json>;
    const text = (schema: string, property: string) => String(schemas[schema]?.properties?.[property]?.description);
    for (const name of ['timeExtremeHighTemp', 'timeExtremeLowTemp', 'timeExtremeHighTempCharging', 'timeExtremeLowTempCharging']) {
      expect(text('BatteryTemperatureInformation', name)).toContain('In minutes, 0 to 600000000');
    }
    expect(text('BatteryCarbonFootprint', 'absoluteCarbonFootprint')).toContain('In t CO2e (tonnes of CO2 equivalent)');
    expect(text('BatteryTechnicalProperties', 'initialSelfDischarge')).toContain('In % per month');
    expect(text('BatteryCurrentSelfDischargingRate', 'currentSelfDischargingRateValue')).toContain('In % per month');
    expect(text('Passport', 'unitConversions')).toContain('put each stored value back at its path');
  });
});
