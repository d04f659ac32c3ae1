import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { backupKey, publicPassportKey, publicUnitKey } from '../../lib/domain/backup.ts';
import { passportJsonUrl } from '../../lib/domain/page-urls.ts';
import { ALTERNATE } from '../../functions/resolver/linkset.ts';
import type { BackupObject } from '../../lib/domain/backup.ts';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { admin } from '../support/admin.ts';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { batteryModelData, batteryReading as readingOf } from '../support/battery.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';
import { until as waitUntil } from '../support/until.ts';

/**
 * The backup copy of every published version (issue 30, docs/backup.md), through HTTP against the
 * suite's stack: each passport, batch and item version lands in the backup store (fauxqs's S3
 * behind infra/local/backup-store.ts) under its key with its digest, and a version in the store
 * cannot be replaced or deleted through any way the store offers.
 */
const stack = inject('stack');
// The store as the backup function reaches it (lib/data/backup-store.ts reads these).
Object.assign(process.env, { BACKUP_BUCKET: stack.backupBucket, S3_ENDPOINT: stack.backupEndpoint });
const { getObject, putOnce } = await import('../../lib/data/backup-store.ts');

let org: TestOrg;
let wine: CreatedProduct;
let jam: CreatedProduct;
let battery: CreatedProduct;

type Json = any;
/** One battery's own data at its n-th reading. */
const batteryReading = (serial: string, reading: number): Json => readingOf(battery.gtin, serial, reading);
const tenant = () => ({ orgId: org.orgId, environment: 'live' as const });
const gtin14 = (product: CreatedProduct) => `0${product.gtin}`;

/** Waits for a condition, every 250 ms for at most 60 s. */
const until = <T>(what: string, check: () => Promise<T | undefined>) => waitUntil(what, check, 60_000);

/** The object under `key` once the copy has written it. */
const copied = (key: string) => until(key, async () => (await getObject(key)) ?? undefined);

beforeAll(async () => {
  org = await newOrg('Backup');
  wine = await createProduct(org.live, { name: 'Backed-up Bordeaux', granularity: 'batch' });
  jam = await createProduct(org.live, { name: 'Backed-up jam', category: 'food', granularity: 'item' });
  battery = await createProduct(org.live, { name: 'Backed-up traction battery', category: 'battery' });
});

describe('every published version is copied to the backup store', () => {
  it('copies three passport versions, each under its key with its digest in the metadata, and a version\'s credential once signed', async () => {
    // Prepare
    const digests: string[] = [];
    let passportId = '';
    // Act
    for (const vintage of [2021, 2022, 2023]) {
      passportId = (await publish(org.live, wine.productId, { ...RED_WINE, vintage })).passportId;
      const read = await call('GET', `/v1/products/${wine.productId}/passport`, { key: org.live });
      digests.push(read.body.digest as string);
    }
    const credential = await call('GET', `/v1/products/${wine.productId}/passports/${passportId}/credential`, { key: org.live });
    // Assess
    for (const [i, digest] of digests.entries()) {
      const object = await copied(backupKey(tenant(), 'passport', gtin14(wine), i + 1));
      const body = JSON.parse(object.body) as BackupObject;
      expect(object.digest).toBe(digest);
      expect(body).toMatchObject({ format: 'dpp-backup/1', kind: 'passport', orgId: org.orgId, environment: 'live', gtin: gtin14(wine), version: i + 1, digest });
      expect((body.item.passport as { data: { vintage: number } }).data.vintage).toBe(2021 + i);
    }
    expect(credential.status, credential.text).toBe(200);
    const copiedCredential = JSON.parse((await copied(backupKey(tenant(), 'credential', gtin14(wine), 3))).body) as BackupObject;
    expect(copiedCredential).toMatchObject({ kind: 'credential', version: 3, item: { jwt: credential.text } });
  });

  it('copies three versions of a batch and of a serialised item, a lot or serial with a slash kept in one key segment', async () => {
    // Prepare
    const lot = 'L/2026-01';
    const serial = 'SN-7/B';
    const batchDigests: string[] = [];
    const itemDigests: string[] = [];
    // Act
    for (const fill of [1, 2, 3]) {
      const batch = await call('PUT', `/v1/products/${wine.productId}/batches/${encodeURIComponent(lot)}`, { key: org.live, body: { data: { bottlingDate: `2025-03-1${fill}`, analysis: { alcoholByVolume: 12.5 } } } });
      const item = await call('PUT', `/v1/products/${jam.productId}/items/${encodeURIComponent(serial)}`, { key: org.live, body: { data: { weightG: 240 + fill } } });
      expect([200, 201]).toContain(batch.status);
      expect([200, 201]).toContain(item.status);
      batchDigests.push(batch.body.digest as string);
      itemDigests.push(item.body.digest as string);
    }
    // Assess
    for (const [i, digest] of batchDigests.entries()) {
      const key = backupKey(tenant(), 'batch', gtin14(wine), i + 1, lot);
      expect(key).toBe(`${org.orgId}/live/${gtin14(wine)}/10/L%2F2026-01/v${i + 1}.json`);
      expect((await copied(key)).digest).toBe(digest);
    }
    for (const [i, digest] of itemDigests.entries()) {
      const object = await copied(backupKey(tenant(), 'item', gtin14(jam), i + 1, serial));
      expect(object.digest).toBe(digest);
      expect((JSON.parse(object.body) as BackupObject).item).toMatchObject({ serial, version: i + 1, data: { weightG: 241 + i } });
    }
  });
});

describe('a battery model and one battery', () => {
  it('copies three passport versions and three versions of a battery, restricted elements included in the private copy', async () => {
    // Prepare
    const serial = 'EVP75B0001';
    const passportDigests: string[] = [];
    const itemDigests: string[] = [];
    // Act
    for (const reading of [1, 2, 3]) {
      const published = await call('POST', '/v1/passports?asOf=2027-03-01', { key: org.live, body: { productId: battery.productId, data: batteryModelData('ev', { massKg: 430 + reading }) } });
      expect(published.status, published.text).toBe(201);
      passportDigests.push((await call('GET', `/v1/products/${battery.productId}/passport`, { key: org.live })).body.digest as string);
      const item = await call('PUT', `/v1/products/${battery.productId}/items/${serial}?force=true`, { key: org.live, body: { data: batteryReading(serial, reading) } });
      expect([200, 201], item.text).toContain(item.status);
      itemDigests.push(item.body.digest as string);
    }
    // Assess
    for (const [i, digest] of passportDigests.entries()) expect((await copied(backupKey(tenant(), 'passport', gtin14(battery), i + 1))).digest).toBe(digest);
    for (const [i, digest] of itemDigests.entries()) expect((await copied(backupKey(tenant(), 'item', gtin14(battery), i + 1, serial))).digest).toBe(digest);
    // A restricted element (Annex XIII point 2(a), materialComposition.batteryMaterials) is in the copy: a restore needs it for the digest.
    expect((await copied(backupKey(tenant(), 'passport', gtin14(battery), 3))).body).toContain('Polyvinylidene fluoride');
  });
});

describe('restore and verify', { timeout: 240_000 }, () => {
  it('rebuilds the organization in a new table from the copy: backup verify finds nothing missing or different, and passports verify holds', async () => {
    // Prepare: every version of this organization is in the copy (the tests above waited for each).
    const table = `restored-${process.pid}-${Date.now()}`;
    const before = await admin(['backup', 'verify', '--org', org.orgId, '--json']);
    // Act
    const restored = await admin(['backup', 'restore', '--org', org.orgId, '--to-table', table, '--json']);
    const [compared, chain, batteryChain] = await Promise.all([
      admin(['backup', 'verify', '--org', org.orgId, '--table', table, '--json']),
      admin(['passports', 'verify', '--org', org.orgId, '--product', wine.productId, '--table', table, '--json']),
      admin(['passports', 'verify', '--org', org.orgId, '--product', battery.productId, '--table', table, '--json']),
    ]);
    // Assess
    expect(before.code, before.stderr).toBe(0);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ table, products: 2, passportVersions: 6, unitVersions: 9, credentials: 1, unreadable: [] });
    expect(compared.code, compared.stdout).toBe(0);
    expect(JSON.parse(compared.stdout)).toEqual({ versions: 16, findings: [] });
    expect(chain.code, chain.stdout).toBe(0);
    expect(JSON.parse(chain.stdout)).toMatchObject({ productId: wine.productId, intact: true, versions: [{ version: 1 }, { version: 2 }, { version: 3 }] });
    expect(batteryChain.code, batteryChain.stdout).toBe(0);
    expect(JSON.parse(batteryChain.stdout)).toMatchObject({ productId: battery.productId, intact: true, versions: [{ version: 1 }, { version: 2 }, { version: 3 }] });
  });

  it('lists each version that is in the copy but not in the table', async () => {
    // Prepare: an empty table holds none of the copy's versions.
    const table = `empty-${process.pid}-${Date.now()}`;
    await ensureTable(stack.dynamodbEndpoint, table, stack.region);
    // Act
    const compared = await admin(['backup', 'verify', '--org', org.orgId, '--table', table, '--json']);
    // Assess
    expect(compared.code).toBe(1);
    const findings = (JSON.parse(compared.stdout) as { findings: { problem: string; key: string }[] }).findings;
    expect(findings).toHaveLength(16);
    expect(new Set(findings.map((f) => f.problem))).toEqual(new Set(['missing_in_table']));
    expect(findings.map((f) => f.key)).toContain(backupKey(tenant(), 'passport', gtin14(wine), 3));
  });
});

describe('a version in the backup store is never overwritten', () => {
  it('keeps the first object when a conditional put, a plain put or a delete tries to replace it', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Kept as written' });
    await publish(org.live, product.productId);
    const key = backupKey(tenant(), 'passport', gtin14(product), 1);
    const first = await copied(key);
    const url = `${stack.backupEndpoint}/${stack.backupBucket}/${key}`;
    // Act
    const conditional = await putOnce(key, '{"forged":true}\n', 'sha256:forged');
    const plain = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-amz-meta-digest': 'sha256:forged' }, body: '{"forged":true}' });
    const deleted = await fetch(url, { method: 'DELETE' });
    // Assess
    expect(conditional).toEqual({ written: false, existingDigest: first.digest });
    expect(plain.status).toBe(403);
    expect(deleted.status).toBe(403);
    expect(await getObject(key)).toEqual(first);
  });
});

describe('the backup relay refuses every way to delete or replace an object', () => {
  it('attack: the backup relay refuses every delete form (POST ?Delete, ?DELETE, ?%64elete, …) and the object stays as written', async () => {
    // Prepare: an object written as the backup function writes one, and a decoy to copy from
    const key = `${org.orgId}/live/relay-attack-${Date.now()}/v1.json`;
    const decoy = `${key}.decoy`;
    await putOnce(key, '{"kept":true}\n', 'sha256:kept');
    await putOnce(decoy, '{"forged":true}\n', 'sha256:forged');
    const first = await getObject(key);
    const bucket = `/${stack.backupBucket}`;
    const object = `${bucket}/${key}`;
    const deleteBody = `<?xml version="1.0" encoding="UTF-8"?><Delete><Object><Key>${key}</Key></Object></Delete>`;
    const statuses: Record<string, number> = {};
    const attempt = async (name: string, path: string, init: RequestInit) => {
      const response = await fetch(`${stack.backupEndpoint}${path}`, init);
      statuses[name] = response.status;
      return response.text();
    };
    // Act: each delete form S3 knows, in the spellings a relay matching raw text misses; the
    // bucket settings that would let an object expire or be replaced; a copy onto the key; and a
    // multipart upload onto the key (its part sent through another key's URL)
    await attempt('DELETE the object', object, { method: 'DELETE' });
    await attempt('DELETE the object ?versionId', `${object}?versionId=null`, { method: 'DELETE' });
    for (const query of ['delete', 'Delete', 'DELETE', '%64elete', 'delete=', 'x-id=DeleteObjects&delete']) {
      await attempt(`POST ?${query}`, `${bucket}?${query}`, { method: 'POST', body: deleteBody });
    }
    await attempt('POST the bucket, no query', bucket, { method: 'POST', body: deleteBody });
    await attempt('POST the object, no query', object, { method: 'POST', body: deleteBody });
    await attempt('PUT ?lifecycle', `${bucket}?lifecycle`, { method: 'PUT', body: '<LifecycleConfiguration><Rule><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>' });
    await attempt('PUT ?Versioning', `${bucket}?Versioning`, { method: 'PUT', body: '<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>' });
    await attempt('PUT ?object-lock', `${bucket}?object-lock`, { method: 'PUT', body: '<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled></ObjectLockConfiguration>' });
    await attempt('PUT ?policy', `${bucket}?policy`, { method: 'PUT', body: '{"Statement":[]}' });
    await attempt('PUT x-amz-copy-source onto the object', object, { method: 'PUT', headers: { 'x-amz-copy-source': `${bucket}/${decoy}`, 'x-amz-metadata-directive': 'COPY' } });
    await attempt('PUT ?retention', `${object}?retention`, { method: 'PUT', body: '<Retention><Mode>GOVERNANCE</Mode></Retention>' });
    const created = await attempt('POST ?uploads onto the object', `${object}?uploads`, { method: 'POST' });
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1] ?? 'none';
    await attempt('PUT a part through another key', `${bucket}/${key}.other?partNumber=1&uploadId=${uploadId}`, { method: 'PUT', body: '{"forged":true}' });
    const etag = `"${createHash('md5').update('{"forged":true}').digest('hex')}"`;
    await attempt('POST ?uploadId onto the object', `${object}?uploadId=${uploadId}`, {
      method: 'POST',
      body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${etag}</ETag></Part></CompleteMultipartUpload>`,
    });
    // Assess: every form refused, the object as first written, and the relay still writes a new key once
    const refused = Object.fromEntries(Object.keys(statuses).map((name) => [name, 403]));
    expect(statuses).toEqual(refused);
    expect(await getObject(key)).toEqual(first);
    expect(first).toEqual({ body: '{"kept":true}\n', digest: 'sha256:kept' });
    expect(await putOnce(`${key}.next`, '{}\n', 'sha256:next')).toEqual({ written: true });
  });
});

describe('the public copy: each version\'s public read form at its backupUrl', () => {
  /** The answer at `url` once the copy has written it. */
  const served = (url: string) =>
    until(url, async () => {
      const response = await fetch(url);
      return response.status === 200 ? { type: response.headers.get('content-type'), language: response.headers.get('content-language'), text: await response.text() } : undefined;
    });

  it('names the backupUrl in the API read and the linkset, and serves there the same JSON read form as the primary, apart from the table', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Mirrored Merlot' });
    await publish(org.live, product.productId);
    const read = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const backupUrl = read.body.backupUrl as string;
    const primaryJson = await fetch(passportJsonUrl(stack.resolverOrigin, tenant(), gtin14(product), 1));
    const links = await fetch(`${product.qrCodeUrl}?linkType=linkset`);
    // Act
    const json = await served(backupUrl);
    // Assess
    expect(backupUrl).toBe(`${stack.backupPublicOrigin}/${publicPassportKey(tenant(), gtin14(product), 1, 'passport.json')}`);
    expect(json.type).toBe('application/json; charset=utf-8');
    // The same read form (its keys may come in another order: the copy is made from the stream's image of the item).
    expect(JSON.parse(json.text)).toEqual(await primaryJson.json());
    expect(JSON.parse(json.text)).toMatchObject({ productId: product.productId, version: 1, digest: read.body.digest, backupUrl });
    const linkset = (await links.json()) as { linkset: Record<string, unknown>[] };
    expect(linkset.linkset[0]![ALTERNATE]).toEqual([{ href: backupUrl, title: 'Mirrored Merlot: backup copy of the digital product passport (JSON), version 1', type: 'application/json' }]);
  });

  it('keeps a battery\'s restricted elements out of its public copy, and names each item version\'s own backupUrl', async () => {
    // Prepare: the battery model and its battery from the test above (three versions each)
    const serial = 'EVP75B0001';
    const item = await call('GET', `/v1/products/${battery.productId}/items/${serial}`, { key: org.live });
    const passport = await call('GET', `/v1/products/${battery.productId}/passport`, { key: org.live });
    // Act
    const itemCopy = await served(item.body.backupUrl as string);
    const passportCopy = await served(passport.body.backupUrl as string);
    // Assess
    expect(item.body.backupUrl).toBe(`${stack.backupPublicOrigin}/${publicUnitKey(tenant(), gtin14(battery), 'item', serial, 3)}`);
    expect(JSON.parse(itemCopy.text)).toMatchObject({ serial, backupUrl: item.body.backupUrl, item: { version: 3, digest: item.body.digest } });
    // Annex XIII point 2(a) (materialComposition.batteryMaterials) and point 4 (the battery's state of health) are not public.
    for (const copy of [itemCopy.text, passportCopy.text]) expect(copy).not.toContain('Polyvinylidene fluoride');
    expect(itemCopy.text).not.toContain('stateOfCertifiedEnergy');
    expect(JSON.parse(passportCopy.text)).toMatchObject({ version: 3, digest: passport.body.digest });
  });

  it('keeps a public object as first written when a plain put or a delete tries to replace it', async () => {
    // Prepare
    const product = await createProduct(org.live, { name: 'Mirrored and kept' });
    await publish(org.live, product.productId);
    const backupUrl = (await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live })).body.backupUrl as string;
    const first = await served(backupUrl);
    // Act
    const plain = await fetch(backupUrl, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"forged":true}' });
    const conditional = await fetch(backupUrl, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-none-match': '*' }, body: '{"forged":true}' });
    const deleted = await fetch(backupUrl, { method: 'DELETE' });
    // Assess
    expect([plain.status, conditional.status, deleted.status]).toEqual([403, 412, 403]);
    expect(await served(backupUrl)).toEqual(first);
  });
});
