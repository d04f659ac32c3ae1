import { createHash } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { baseUrl, call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { batteryModelData, batteryReading } from '../support/battery.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';

/**
 * The organization's whole archive (issue 30, item 4; docs/import-export.md#leaving-the-archive),
 * through HTTP against the suite's stack: the ZIP behind the presigned URL holds every version with
 * its digest chain, every credential verifies with the DID document's key alone, the manifest's
 * hashes hold, and nothing of another organization is in it.
 */
type Json = any;

let org: TestOrg;
let other: TestOrg;
let wine: CreatedProduct;
let battery: CreatedProduct;
let foreign: CreatedProduct;
const wineDigests: string[] = [];
const serial = 'EVP75A0001';
const lot = 'L/2026-07';

/** The files of a ZIP by name, as text. */
function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(files));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const jsonl = (text: string | undefined): Json[] => (text ?? '').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Asks for the archive with `key` and downloads it through its URL, as a brand would. */
async function archiveOf(key: string) {
  const answer = await call('POST', '/v1/exports/archive', { key });
  expect(answer.status, answer.text).toBe(200);
  const download = await fetch(answer.body.url as string);
  expect(download.status).toBe(200);
  const zip = Buffer.from(await download.arrayBuffer());
  return { answer: answer.body as Json, zip, files: await unzip(zip) };
}

/** The versions of each record in `lines` (grouped by `keyOf`), checked to form one digest chain from version 1. */
function expectChains(lines: Json[], keyOf: (line: Json) => string) {
  const groups = new Map<string, Json[]>();
  for (const line of lines) groups.set(keyOf(line), [...(groups.get(keyOf(line)) ?? []), line]);
  for (const versions of groups.values()) {
    versions.sort((a, b) => a.version - b.version);
    versions.forEach((version, i) => {
      expect(version.version).toBe(i + 1);
      expect(version.previousDigest).toBe(i === 0 ? null : versions[i - 1].digest);
    });
  }
  return groups;
}

beforeAll(async () => {
  [org, other] = await Promise.all([newOrg('Archive'), newOrg('Archive neighbour')]);
  [wine, battery, foreign] = await Promise.all([
    createProduct(org.live, { name: 'Archived Riesling', granularity: 'batch' }),
    createProduct(org.live, { name: 'Archived traction battery', category: 'battery' }),
    createProduct(other.live, { name: 'Neighbour wine' }),
  ]);
  // Prepare: a wine with three versions and a batch, a battery model with one serialised battery, and a neighbour's wine.
  const wineVersions = async () => {
    for (const vintage of [2021, 2022, 2023]) {
      await publish(org.live, wine.productId, { ...RED_WINE, vintage });
      wineDigests.push((await call('GET', `/v1/products/${wine.productId}/passport`, { key: org.live })).body.digest as string);
    }
  };
  const batteryVersions = async () => {
    const model = await call('POST', '/v1/passports?asOf=2027-03-01', { key: org.live, body: { productId: battery.productId, data: batteryModelData('ev') } });
    expect(model.status, model.text).toBe(201);
    for (const reading of [1, 2]) {
      const item = await call('PUT', `/v1/products/${battery.productId}/items/${serial}?force=true`, { key: org.live, body: { data: batteryReading(battery.gtin, serial, reading) } });
      expect([200, 201], item.text).toContain(item.status);
      const batch = await call('PUT', `/v1/products/${wine.productId}/batches/${encodeURIComponent(lot)}`, { key: org.live, body: { data: { bottlingDate: `2025-03-1${reading}` } } });
      expect([200, 201], batch.text).toContain(batch.status);
    }
  };
  await Promise.all([wineVersions(), batteryVersions(), publish(other.live, foreign.productId)]);
  // One version's credential is signed already; the archive signs the others.
  const versions = await call('GET', `/v1/products/${wine.productId}/passports`, { key: org.live });
  await call('GET', `/v1/products/${wine.productId}/passports/${versions.body.data[0].passportId}/credential`, { key: org.live });
});

describe('POST /v1/exports/archive', () => {
  it('answers a URL to a ZIP holding every version with its digest chain, each credential verifiable with the DID document alone, and a manifest whose hashes hold', async () => {
    // Act
    const { answer, zip, files } = await archiveOf(org.live);

    // Assess: the answer describes the ZIP, and the manifest each file.
    expect(answer).toMatchObject({ object: 'archive', bytes: zip.length, sha256: sha256(zip) });
    expect([...files.keys()]).toEqual(['products.jsonl', 'passports.jsonl', 'batches.jsonl', 'items.jsonl', 'credentials.jsonl', 'did.json', 'manifest.json']);
    const manifest = JSON.parse(files.get('manifest.json') ?? '{}') as Json;
    expect(manifest).toMatchObject({ format: 'dpp-archive/1', orgId: org.orgId, environment: 'live' });
    expect(manifest.files.map((f: Json) => f.name)).toEqual([...files.keys()].slice(0, -1));
    for (const file of manifest.files) {
      expect(sha256(files.get(file.name) ?? ''), file.name).toBe(file.sha256);
      if (file.name.endsWith('.jsonl')) expect(jsonl(files.get(file.name)), file.name).toHaveLength(file.lines);
    }
    expect(answer.files).toContainEqual({ name: 'passports.jsonl', lines: 4 });

    // Every version, its chain unbroken; the battery's restricted elements are in (Annex XIII point 2(a): materialComposition).
    expect(jsonl(files.get('products.jsonl')).map((p) => p.gtin).sort()).toEqual([`0${battery.gtin}`, `0${wine.gtin}`].sort());
    const passports = expectChains(jsonl(files.get('passports.jsonl')), (p) => p.productId);
    expect(passports.get(wine.productId)?.map((p) => p.digest)).toEqual(wineDigests);
    expect(passports.get(battery.productId)).toHaveLength(1);
    expect(files.get('passports.jsonl')).toContain('Polyvinylidene fluoride');
    expect(expectChains(jsonl(files.get('items.jsonl')), (i) => i.serial).get(serial)).toHaveLength(2);
    expect(expectChains(jsonl(files.get('batches.jsonl')), (b) => b.lot).get(lot)).toHaveLength(2);

    // Each version's credential, signed now where it was not, verifies offline with the key the DID document lists.
    const did = JSON.parse(files.get('did.json') ?? '{}') as Json;
    const credentials = jsonl(files.get('credentials.jsonl'));
    expect(credentials).toHaveLength(4);
    for (const credential of credentials) {
      const { kid } = decodeProtectedHeader(credential.jwt);
      expect(did.assertionMethod).toContain(kid);
      const method = did.verificationMethod.find((m: Json) => m.id === kid);
      const { payload } = await compactVerify(credential.jwt, await importJWK(method.publicKeyJwk as JWK, 'ES256'));
      const subject = (JSON.parse(new TextDecoder().decode(payload)) as Json).credentialSubject;
      expect(subject).toMatchObject({ productId: credential.productId, version: credential.version, digest: credential.digest });
    }
  });

  it("holds nothing of another organization, and another organization's archive nothing of this one", async () => {
    // Act
    const [mine, theirs] = await Promise.all([archiveOf(org.live), archiveOf(other.live)]);
    // Assess
    const text = (files: Map<string, string>) => [...files.values()].join('\n');
    expect(text(mine.files)).not.toContain(foreign.productId);
    expect(text(mine.files)).not.toContain(other.orgId);
    expect(jsonl(theirs.files.get('passports.jsonl')).map((p) => p.productId)).toEqual([foreign.productId]);
    for (const id of [wine.productId, battery.productId, org.orgId]) expect(text(theirs.files)).not.toContain(id);
  });

  it('refuses a key without both products:read and passports:read (403)', async () => {
    // Prepare
    const [productsOnly, passportsOnly] = await Promise.all([org.keyWith(['products:read']), org.keyWith(['passports:read'])]);
    // Act
    const answers = await Promise.all([productsOnly, passportsOnly].map((key) => call('POST', '/v1/exports/archive', { key })));
    // Assess
    for (const answer of answers) expectError(answer, 403, 'permission_error');
  });

  it('attack: the archive cannot be made with a session cookie from another origin or without the CSRF token', async () => {
    // Prepare: a member's dashboard session; a cross-site page can make the browser send its cookie, not read its CSRF token.
    const session = await newSession(org.orgId);
    const cookie = { cookie: session.cookie };
    // Act: the cookie from another origin (with or without the token), from the dashboard's origin without the token, and as a GET (the route was one).
    const foreignOrigin = await call('POST', '/v1/exports/archive', { headers: { ...cookie, origin: 'https://evil.example', 'x-csrf-token': session.csrfToken } });
    const noOrigin = await call('POST', '/v1/exports/archive', { headers: { ...cookie, 'x-csrf-token': session.csrfToken } });
    const noToken = await call('POST', '/v1/exports/archive', { headers: { ...cookie, origin: baseUrl() } });
    const wrongToken = await call('POST', '/v1/exports/archive', { headers: { ...cookie, origin: baseUrl(), 'x-csrf-token': 'x'.repeat(43) } });
    const asGet = await call('GET', '/v1/exports/archive', { headers: { ...cookie, origin: 'https://evil.example' } });
    const fromDashboard = await call('POST', '/v1/exports/archive', { session });
    // Assess: each refused before anything is built (403, or the gateway's 405 for a GET); the dashboard's own call with its proof builds it.
    expect([404, 405], asGet.text).toContain(asGet.status);
    expect(asGet.body.url).toBeUndefined();
    for (const refused of [foreignOrigin, noOrigin, noToken, wrongToken]) expectError(refused, 403, 'permission_error');
    expect(expectError(foreignOrigin, 403, 'permission_error').message).toMatch(/Origin/);
    expect(expectError(noToken, 403, 'permission_error').message).toMatch(/CSRF/);
    expect(fromDashboard.status, fromDashboard.text).toBe(200);
    expect(fromDashboard.body).toMatchObject({ object: 'archive' });
  });

  it('answers a URL that expires 15 minutes after it was signed', async () => {
    // Act
    const answer = await call('POST', '/v1/exports/archive', { key: org.test });
    // Assess: the presigned URL's own expiry parameters, and expiresAt, say 15 minutes.
    expect(answer.status, answer.text).toBe(200);
    const url = new URL(answer.body.url as string);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const date = url.searchParams.get('X-Amz-Date') ?? '';
    const signedAt = Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
    expect(Math.abs(Date.parse(answer.body.expiresAt as string) - (signedAt + 900_000))).toBeLessThan(5_000);
    expect(answer.body.files.map((f: Json) => f.name)).toContain('manifest.json');
  });
});
