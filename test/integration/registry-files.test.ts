import { readXml } from '../support/registry-xml.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRegistration, updateRegistration } from '../../lib/data/registrations.ts';
import { MAX_RESULT_FILE_BYTES } from '../../lib/domain/registry/results.ts';
import { registrationIdOf } from '../../lib/domain/registry/registration.ts';
import { call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';
import { until } from '../support/until.ts';

/**
 * The EU registry's web upload through HTTP (issue 39 points 2 and 3, docs/registry.md#files-out,
 * docs/registry.md#results-in): registration on, a wine model, a battery model, a lot and 250
 * batteries published; POST /v1/registry/files puts those that pass the pre-checks in JSON (then XML)
 * files of at most 100 entries, models first, every entry valid against the CIRPASS-2 mock's schema,
 * and marks them submitted; an entry whose backup copy does not answer and one on the platform's
 * host (no https brand Digital Link) stay pending_checks with their reasons and are in no file; the registry's result file
 * marks entries registered and rejected, with their events.
 */

type Json = Record<string, any>;

const SETTINGS = { enabled: true, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000' };
const ITEMS = 250;
const MORE_ITEMS = 120;
const LOT = 'L2026A';
const serialOf = (i: number) => `RF${String(i).padStart(4, '0')}`;

let org: TestOrg;
let stranger: TestOrg;
let offDomain: CreatedProduct;
let wine: CreatedProduct;
let battery: CreatedProduct;
/** The backup copies the set-up waits for: every published version's. */
const backups = new Set<string>();
/** The battery whose registration's backupURL is made to name a copy that is not there. */
const GONE = serialOf(13);

const idOf = (upi: string) => registrationIdOf(org.orgId, 'live', upi);
const itemUpi = (i: number) => `${battery.qrCodeUrl}/21/${serialOf(i)}`;
const registration = async (upi: string): Promise<Json> => {
  const response = await call('GET', `/v1/registry/registrations/${idOf(upi)}`, { key: org.live });
  if (response.status !== 200) throw new Error(`read registration: ${response.status} ${response.text}`);
  return response.body;
};
const files = (format: string, key = org.live) => call('POST', '/v1/registry/files', { key, body: { format } });
const results = (csv: string | Buffer, key = org.live, contentType = 'text/csv') => call('POST', '/v1/registry/results', { key, rawBody: csv, headers: { 'content-type': contentType } });

async function inBatches<T>(values: readonly T[], size: number, task: (value: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < values.length; i += size) await Promise.all(values.slice(i, i + size).map(task));
}

async function putItems(from: number, to: number): Promise<void> {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  await inBatches(numbers, 8, async (i) => {
    const serial = serialOf(i);
    const put = await call('PUT', `/v1/products/${battery.productId}/items/${serial}`, {
      key: org.live,
      body: { lot: LOT, data: batteryItemData({ digitalLink: itemUpi(i), serial }) },
    });
    if (put.status !== 201) throw new Error(`set-up: item ${serial}: ${put.status} ${put.text}`);
    backups.add(put.body.backupUrl as string);
  });
}

/** Waits until every backup copy named so far answers (the copy is written from the table's stream). */
async function backupsWritten(): Promise<void> {
  const waiting = new Set(backups);
  await until(
    `${waiting.size} backup copies`,
    async () => {
      await inBatches([...waiting], 16, async (url) => {
        if ((await fetch(url)).status === 200) waiting.delete(url);
      });
      return waiting.size === 0 ? true : undefined;
    },
    120_000,
    500,
  );
}

beforeAll(async () => {
  [org, stranger] = await Promise.all([newOrg('Registry Files Maker'), newOrg('Registry Files Stranger')]);
  const enabled = await call('PUT', '/v1/registry/settings', { key: org.live, body: SETTINGS });
  if (enabled.status !== 200) throw new Error(`set-up: settings: ${enabled.status} ${enabled.text}`);
  // A wine made before the brand domain became the default: its Digital Link is on the platform's host (locally http://localhost).
  offDomain = await createProduct(org.live, { name: 'RF wine on the platform host' });
  await publish(org.live, offDomain.productId);
  const session = await newSession(org.orgId);
  const domain = await call('PATCH', `/v1/domains/${await verifiedDomainId(org.orgId)}`, { session, body: { default: true } });
  if (domain.status !== 200) throw new Error(`set-up: default domain: ${domain.text}`);
  wine = await createProduct(org.live, { name: 'RF Riesling' });
  await publish(org.live, wine.productId);
  battery = await createProduct(org.live, { name: 'RF traction battery', category: 'battery' });
  await publish(org.live, battery.productId, batteryModelData('ev'));
  for (const product of [offDomain, wine, battery]) backups.add((await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).body.backupUrl as string);
  const lot = await call('PUT', `/v1/products/${battery.productId}/batches/${LOT}`, { key: org.live, body: {} });
  if (lot.status !== 201) throw new Error(`set-up: batch: ${lot.text}`);
  backups.add(lot.body.backupUrl as string);
  await putItems(1, ITEMS);
  await backupsWritten();
  // One battery's registration names a backup copy that is not there (another serial's path: the checks fetch it as it is).
  const gone = await until('the registration of the battery made on publication', () => getRegistration({ orgId: org.orgId, environment: 'live' }, idOf(itemUpi(13))), 10_000);
  const written = await updateRegistration({ orgId: org.orgId, environment: 'live' }, gone, {
    ...gone,
    entry: { ...gone.entry, backupURL: gone.entry.backupURL.replace(`/21/${GONE}/`, `/21/GONE${GONE}/`) },
    version: gone.version + 1,
  });
  if (written !== 'written' || !gone.entry.backupURL.includes(`/21/${GONE}/`)) throw new Error(`set-up: the missing backup copy: ${written} ${gone.entry.backupURL}`);
}, 300_000);

describe('files out (issue 39 point 3)', () => {
  let json: Json;

  it('point 3: puts the wine model, the battery model, the lot and 249 batteries in 3 JSON files of at most 100, models first, every entry valid against the mock\'s schema, and marks them submitted', async () => {
    // Act
    const response = await files('json');
    json = response.body;

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(json).toMatchObject({ object: 'registry_files', submitted: 252, more: false });
    expect(json.correlationId).toMatch(/^rfs_[0-9a-z]{20}$/);
    expect(json.files.map((f: Json) => [f.name, f.entries, f.mediaType])).toEqual([
      ['registry-001-of-003.json', 100, 'application/json'],
      ['registry-002-of-003.json', 100, 'application/json'],
      ['registry-003-of-003.json', 52, 'application/json'],
    ]);
    const entries = json.files.flatMap((f: Json) => JSON.parse(f.content) as Json[]);
    expect(entries.flatMap((e: Json) => registryEntryErrors(e))).toEqual([]);
    expect(entries.slice(0, 3).map((e: Json) => e.granularityLevel)).toEqual(['MODEL', 'MODEL', 'BATCH']);
    expect(entries.slice(3).every((e: Json) => e.granularityLevel === 'ITEM')).toBe(true);
    expect(entries.slice(0, 2).map((e: Json) => e.upi).sort()).toEqual([wine.qrCodeUrl, battery.qrCodeUrl].sort());
    expect(new Set(entries.map((e: Json) => e.upi)).size).toBe(252);
    // Each record in a file is submitted under the call's correlation id.
    for (const upi of [wine.qrCodeUrl, battery.qrCodeUrl, itemUpi(1), itemUpi(ITEMS)]) {
      expect(await registration(upi)).toMatchObject({ status: 'submitted', correlationId: json.correlationId, submittedAt: expect.any(String) });
    }
  }, 120_000);

  it('point 2: holds back a battery whose backup copy is not there and a wine on the platform\'s host, each pending_checks with its reasons and in no file', async () => {
    // Prepare
    const entries = json.files.flatMap((f: Json) => JSON.parse(f.content) as Json[]);

    // Act
    const gone = await registration(itemUpi(13));
    const off = await registration(offDomain.qrCodeUrl);

    // Assess
    const held = Object.fromEntries(json.pendingChecks.map((p: Json) => [p.upi, p.reasons.map((r: Json) => r.code)]));
    // The platform's host is the local stack's http://localhost: not an https Digital Link of the brand, for the identifier and for liveURL.
    expect(held).toEqual({ [itemUpi(13)]: ['backup_missing'], [offDomain.qrCodeUrl]: ['upi_not_https', 'live_url_invalid'] });
    expect(entries.map((e: Json) => e.upi)).not.toContain(itemUpi(13));
    expect(entries.map((e: Json) => e.upi)).not.toContain(offDomain.qrCodeUrl);
    expect(gone).toMatchObject({ status: 'pending_checks', correlationId: null, reasons: [{ source: 'precheck', code: 'backup_missing', field: 'backupURL', message: expect.stringContaining('HTTP 404') }] });
    expect(off).toMatchObject({ status: 'pending_checks', reasons: [{ source: 'precheck', code: 'upi_not_https', field: 'upi' }, { code: 'live_url_invalid', field: 'liveURL' }] });
  });

  it('point 3: writes one registry.registration.submitted event per registration in the files', async () => {
    // Act
    const listed: Json[] = [];
    let after = '';
    for (;;) {
      const page = await call('GET', `/v1/events?type=registry.registration.submitted&limit=100${after}`, { key: org.live });
      listed.push(...page.body.data);
      if (!page.body.hasMore) break;
      after = `&starting_after=${page.body.data.at(-1).id}`;
    }

    // Assess
    expect(listed).toHaveLength(252);
    expect(listed.every((e) => e.data.object.object === 'registration' && e.data.object.status === 'submitted' && e.data.object.correlationId === json.correlationId)).toBe(true);
  });

  it('point 3: puts the batteries registered since in XML files of at most 100, split likewise, each entry valid; nothing is sent twice', async () => {
    // Prepare
    await putItems(ITEMS + 1, ITEMS + MORE_ITEMS);
    await backupsWritten();

    // Act
    const response = await files('xml');
    const again = await files('json');

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.submitted).toBe(MORE_ITEMS);
    expect(response.body.correlationId).not.toBe(json.correlationId);
    expect(response.body.files.map((f: Json) => [f.name, f.entries, f.mediaType])).toEqual([
      ['registry-001-of-002.xml', 100, 'application/xml'],
      ['registry-002-of-002.xml', 20, 'application/xml'],
    ]);
    const entries = response.body.files.flatMap((f: Json) => readXml(f.content));
    expect(entries).toHaveLength(MORE_ITEMS);
    expect(entries.flatMap((e: Json) => registryEntryErrors(e))).toEqual([]);
    expect(entries.map((e: Json) => e.upi).sort()).toEqual(Array.from({ length: MORE_ITEMS }, (_, i) => itemUpi(ITEMS + 1 + i)).sort());
    // The two held back are checked again and stay; nothing else waits.
    expect(again.body).toMatchObject({ correlationId: null, files: [], submitted: 0 });
    expect(again.body.pendingChecks.map((p: Json) => p.upi).sort()).toEqual([itemUpi(13), offDomain.qrCodeUrl].sort());
  }, 180_000);

  it('refuses a format it does not make (422 naming format), an organization that has not turned registration on (409 naming enabled), and one that sends by the API (409 naming submission)', async () => {
    // Act
    const pdf = await files('pdf');
    const off = await files('json', stranger.live);
    const byApi = await call('PUT', '/v1/registry/settings', { key: stranger.test, body: { ...SETTINGS, submission: 'api' } });
    const twice = await files('json', stranger.test);

    // Assess
    expectError(pdf, 422, 'validation_error', 'format');
    expectError(off, 409, 'conflict', 'enabled');
    expect(byApi.status, byApi.text).toBe(200);
    expectError(twice, 409, 'conflict', 'submission');
  });
});

describe('results in (issue 39 point 3)', () => {
  it('point 3: marks entries registered with the registry\'s id and a proof for 90 days, and one rejected with its reasons, each with its event; a row that matches nothing is reported', async () => {
    // Prepare
    const submitted = await registration(wine.qrCodeUrl);
    const csv = [
      'upi,status,registryId,registryUri,errors,correlationId',
      `${wine.qrCodeUrl},registered,EU-REG-0001,https://registry.example/dpp/EU-REG-0001,,${submitted.correlationId}`,
      `${battery.qrCodeUrl},REGISTERED,EU-REG-0002,,,`,
      `${itemUpi(2)},rejected,,,"Unknown facility|Backup link answers 404",`,
      `${itemUpi(3)},pending,,,,`,
      `${itemUpi(13)},registered,EU-REG-0013,,,`,
      `https://id.nowhere.example/01/04006381333931,registered,EU-REG-0099,,,`,
    ].join('\n');

    // Act
    const response = await results(csv);
    const again = await results(csv);
    const registered = await call('GET', '/v1/events?type=registry.registration.registered&limit=100', { key: org.live });
    const rejected = await call('GET', '/v1/events?type=registry.registration.rejected&limit=100', { key: org.live });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ object: 'registry_results', rows: 6, registered: 2, rejected: 1, pending: 1, unchanged: 0 });
    expect(response.body.unmatched).toEqual([
      { row: 6, upi: itemUpi(13), reason: expect.stringContaining('pending_checks, not submitted') },
      { row: 7, upi: 'https://id.nowhere.example/01/04006381333931', reason: expect.stringContaining('No registration') },
    ]);
    const wineNow = await registration(wine.qrCodeUrl);
    expect(wineNow).toMatchObject({ status: 'registered', registryId: 'EU-REG-0001', registryUri: 'https://registry.example/dpp/EU-REG-0001' });
    expect(Date.parse(wineNow.proofExpiresAt) - Date.parse(wineNow.registeredAt)).toBe(90 * 86_400_000);
    expect(await registration(battery.qrCodeUrl)).toMatchObject({ status: 'registered', registryId: 'EU-REG-0002', registryUri: null });
    expect(await registration(itemUpi(2))).toMatchObject({
      status: 'rejected',
      reasons: [
        { source: 'registry', code: 'registry_rejected', message: 'Unknown facility' },
        { source: 'registry', code: 'registry_rejected', message: 'Backup link answers 404' },
      ],
    });
    expect(await registration(itemUpi(3))).toMatchObject({ status: 'submitted' });
    expect(registered.body.data.map((e: Json) => e.data.object.upi).sort()).toEqual([wine.qrCodeUrl, battery.qrCodeUrl].sort());
    expect(rejected.body.data.map((e: Json) => [e.data.object.upi, e.data.object.status])).toEqual([[itemUpi(2), 'rejected']]);
    // The same file again changes nothing, and writes no event.
    expect(again.body).toMatchObject({ registered: 0, rejected: 0, unchanged: 3 });
    expect((await call('GET', '/v1/events?type=registry.registration.registered&limit=100', { key: org.live })).body.data).toHaveLength(2);
  });

  it('applies nothing of a row naming another correlation id, nor another organization\'s file naming these identifiers', async () => {
    // Prepare
    const csv = `upi,status,registryId,correlationId\n${itemUpi(4)},registered,EU-REG-0004,rfs_0000000000000000000z\n`;
    const foreign = `upi,status,registryId\n${itemUpi(5)},registered,EU-REG-0005\n`;

    // Act
    const response = await results(csv);
    const fromStranger = await results(foreign, stranger.live);

    // Assess
    expect(response.body).toMatchObject({ registered: 0, unmatched: [{ row: 2, upi: itemUpi(4), reason: expect.stringContaining('rfs_0000000000000000000z') }] });
    expect(fromStranger.status, fromStranger.text).toBe(200);
    expect(fromStranger.body).toMatchObject({ registered: 0, unmatched: [{ row: 2, upi: itemUpi(5) }] });
    expect(await registration(itemUpi(4))).toMatchObject({ status: 'submitted', registryId: null });
    expect(await registration(itemUpi(5))).toMatchObject({ status: 'submitted', registryId: null });
  });

  it('refuses a file over its budget (413), of another type (415), or with a column it does not know (422 naming it), and changes nothing', async () => {
    // Prepare
    const header = 'upi,status,registryId\n';
    const row = `${itemUpi(6)},registered,EU-REG-0006\n`;
    const over = Buffer.alloc(MAX_RESULT_FILE_BYTES + 1, ' ');
    Buffer.from(header + row).copy(over);

    // Act
    const tooLarge = await results(over);
    const wrongType = await results(header + row, org.live, 'application/json');
    const unknown = await results(`upi,status,registryId,colour\n${itemUpi(6)},registered,EU-REG-0006,red\n`);

    // Assess
    expectError(tooLarge, 413, 'invalid_request_error');
    expectError(wrongType, 415, 'invalid_request_error', 'Content-Type');
    expectError(unknown, 422, 'validation_error', 'colour');
    expect(await registration(itemUpi(6))).toMatchObject({ status: 'submitted' });
  });
});
