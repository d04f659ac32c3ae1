import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { passportVersionSk, tenantPk } from '../../lib/data/keys.ts';
import { admin } from '../support/admin.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';

/**
 * The passport lifecycle through HTTP (docs/lifecycle.md): drafts, withdrawal, point-in-time
 * reads and the digest chain. Digests are recomputed here with the `canonicalize` package (the
 * RFC 8785 reference implementation), not the service's own JCS.
 */
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Lifecycle Org');
});

interface Version {
  passportId: string;
  productId: string;
  version: number;
  gtin: string;
  data: unknown;
  publishedAt: string;
  digest: string;
  previousDigest: string | null;
}

/** The digest as an outsider computes it from what the API shows. */
function independentDigest(v: Version): string {
  const canonical = canonicalize({ data: v.data, gtin: v.gtin, previousDigest: v.previousDigest, productId: v.productId, publishedAt: v.publishedAt, version: v.version });
  return `sha256:${createHash('sha256').update(canonical ?? '', 'utf8').digest('hex')}`;
}

async function history(productId: string): Promise<Version[]> {
  const response = await call('GET', `/v1/products/${productId}/passports?limit=100`, { key: org.live });
  expect(response.status).toBe(200);
  return (response.body.data as Version[]).slice().reverse();
}

const mergePatch = (key: string, productId: string, patch: unknown) =>
  call('PATCH', `/v1/products/${productId}/draft`, { key, body: patch, headers: { 'content-type': 'application/merge-patch+json' } });

describe('drafts', () => {
  it('creates, merges (null removes a member), reads, publishes as the next version and removes the draft', async () => {
    // Prepare
    const product = await createProduct(org.live);
    await publish(org.live, product.productId);
    // Act
    const created = await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: RED_WINE } });
    const patched = await mergePatch(org.live, product.productId, { data: { vintage: 2023, producers: null, origin: { region: 'Médoc' } } });
    const read = await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live });
    const published = await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live });
    const afterwards = await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live });
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    // Assess
    expect(created.status).toBe(200);
    expect(patched.status).toBe(200);
    expect(patched.body.data.vintage).toBe(2023);
    expect(patched.body.data).not.toHaveProperty('producers');
    expect(patched.body.data.origin).toEqual({ country: 'FR', region: 'Médoc', designation: RED_WINE.origin.designation });
    expect(read.body).toEqual(patched.body);
    expect(published.status).toBe(201);
    expect(Object.keys(published.body).sort()).toEqual(['createdAt', 'passportId', 'productId', 'status', 'version']);
    expect(published.body.version).toBe(2);
    expectError(afterwards, 404, 'not_found', 'productId');
    expect(current.body.version).toBe(2);
    expect(current.body.data).toEqual(patched.body.data);
  });

  it('refuses a patch that is not a merge patch (415) or leaves invalid data (422 naming the field), and changes nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);
    await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: RED_WINE } });
    // Act
    const plainJson = await call('PATCH', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: { vintage: 2023 } } });
    const invalid = await mergePatch(org.live, product.productId, { data: { vintage: 1492 } });
    const unknownMember = await mergePatch(org.live, product.productId, { data: { sparkling: true } });
    const removesData = await mergePatch(org.live, product.productId, { data: null });
    const draft = await call('GET', `/v1/products/${product.productId}/draft`, { key: org.live });
    // Assess
    expectError(plainJson, 415, 'invalid_request_error', 'Content-Type');
    expectError(invalid, 422, 'validation_error', 'data.vintage');
    expectError(unknownMember, 422, 'validation_error', 'data.sparkling');
    expectError(removesData, 422, 'validation_error', 'data');
    expect(draft.body.data).toEqual(RED_WINE);
  });

  it('discards a draft; patching or publishing without one is 404', async () => {
    // Prepare
    const product = await createProduct(org.live);
    await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: RED_WINE } });
    // Act
    const discarded = await call('DELETE', `/v1/products/${product.productId}/draft`, { key: org.live });
    const patch = await mergePatch(org.live, product.productId, { data: { vintage: 2023 } });
    const publishNone = await call('POST', `/v1/products/${product.productId}/draft/publish`, { key: org.live });
    // Assess
    expect(discarded.status).toBe(200);
    expect(discarded.body).toEqual({ productId: product.productId, deleted: true });
    expectError(patch, 404, 'not_found', 'productId');
    expectError(publishNone, 404, 'not_found', 'productId');
  });

  it("never shows a draft's data on the resolver: the Digital Link keeps serving the published version", async () => {
    // Prepare
    const product = await createProduct(org.live);
    await publish(org.live, product.productId);
    await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: { ...RED_WINE, vintage: 2024, origin: { region: 'Secret draft region' } } } });
    // Act
    const json = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json' } });
    const page = await fetch(product.qrCodeUrl, { headers: { accept: 'text/html', 'accept-language': 'en' } });
    const linkset = await fetch(`${product.qrCodeUrl}?linkType=linkset`);
    // Assess
    const body = (await json.json()) as { version: number; data: { vintage: number } };
    expect(body.version).toBe(1);
    expect(body.data.vintage).toBe(RED_WINE.vintage);
    const html = await page.text();
    expect(html).not.toContain('Secret draft region');
    expect(html).not.toContain('2024');
    expect(await linkset.text()).not.toContain('Secret draft region');
  });

  it('is refused to a read-only key (403) and readable by it', async () => {
    // Prepare
    const product = await createProduct(org.live);
    const readOnly = await org.keyWith(['products:read', 'passports:read']);
    await call('PUT', `/v1/products/${product.productId}/draft`, { key: org.live, body: { data: RED_WINE } });
    // Act
    const write = await call('PUT', `/v1/products/${product.productId}/draft`, { key: readOnly, body: { data: RED_WINE } });
    const read = await call('GET', `/v1/products/${product.productId}/draft`, { key: readOnly });
    // Assess
    expectError(write, 403, 'permission_error');
    expect(read.status).toBe(200);
  });
});

describe('withdrawal', () => {
  it('answers 410 on the Digital Link (page in the visitor’s language, JSON, linkset) while the API still reads; reinstating resolves again', async () => {
    // Prepare
    const product = await createProduct(org.live);
    await publish(org.live, product.productId);
    // Act
    const withdrawn = await call('POST', `/v1/products/${product.productId}/withdraw`, { key: org.live, body: { reason: 'Recalled: cork taint in lot 7' } });
    const page = await fetch(product.qrCodeUrl, { headers: { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9' }, redirect: 'manual' });
    const json = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json' }, redirect: 'manual' });
    const linkset = await fetch(`${product.qrCodeUrl}?linkType=linkset`, { redirect: 'manual' });
    const apiProduct = await call('GET', `/v1/products/${product.productId}`, { key: org.live });
    const apiPassport = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const again = await call('POST', `/v1/products/${product.productId}/withdraw`, { key: org.live, body: { reason: 'twice' } });
    const reinstated = await call('POST', `/v1/products/${product.productId}/reinstate`, { key: org.live });
    const resolvedAgain = await fetch(product.qrCodeUrl, { headers: { accept: 'text/html' }, redirect: 'manual' });
    // Assess
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ productId: product.productId, status: 'withdrawn', withdrawalReason: 'Recalled: cork taint in lot 7' });
    expect(Date.parse(withdrawn.body.withdrawnAt)).not.toBeNaN();
    expect(page.status).toBe(410);
    expect(page.headers.get('content-language')).toBe('de');
    expect(await page.text()).toContain('Dieses Produkt wurde zurückgezogen');
    expect(json.status).toBe(410);
    expect(((await json.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect(linkset.status).toBe(410);
    expect(apiProduct.body.status).toBe('withdrawn');
    expect(apiPassport.status).toBe(200);
    expectError(again, 409, 'duplicate_error', 'productId');
    expect(reinstated.status).toBe(200);
    expect(reinstated.body).toMatchObject({ status: 'active', withdrawnAt: null, withdrawalReason: null });
    expect(resolvedAgain.status).toBe(307);
  });

  it('refuses a withdrawal without a reason (422) and a reinstatement of an active product (409), changing nothing', async () => {
    // Prepare
    const product = await createProduct(org.live);
    // Act
    const noReason = await call('POST', `/v1/products/${product.productId}/withdraw`, { key: org.live, body: {} });
    const notWithdrawn = await call('POST', `/v1/products/${product.productId}/reinstate`, { key: org.live });
    const read = await call('GET', `/v1/products/${product.productId}`, { key: org.live });
    // Assess
    expectError(noReason, 422, 'validation_error', 'reason');
    expectError(notWithdrawn, 409, 'duplicate_error', 'productId');
    expect(read.body.status).toBe('active');
  });
});

describe('point in time', () => {
  it('answers the version current at, between and before versions', async () => {
    // Prepare: three versions, with an instant noted between each
    const product = await createProduct(org.live);
    const before = new Date(Date.now() - 60_000).toISOString();
    const v1 = await publish(org.live, product.productId, { ...RED_WINE, vintage: 2020 });
    const v2 = await publish(org.live, product.productId, { ...RED_WINE, vintage: 2021 });
    const v3 = await publish(org.live, product.productId, { ...RED_WINE, vintage: 2022 });
    const at = (instant: string) => call('GET', `/v1/products/${product.productId}/passport?at=${encodeURIComponent(instant)}`, { key: org.live });
    // Act
    const atV1 = await at(v1.createdAt);
    const atV2 = await at(v2.createdAt);
    const afterV3 = await at(new Date(Date.parse(v3.createdAt) + 1000).toISOString());
    const withOffset = await at(v2.createdAt.replace('Z', '+00:00'));
    const tooEarly = await at(before);
    const bad = await at('yesterday');
    // Assess
    expect(atV1.body).toMatchObject({ version: 1, passportId: v1.passportId });
    expect(atV2.body).toMatchObject({ version: 2, passportId: v2.passportId });
    expect(afterV3.body).toMatchObject({ version: 3, passportId: v3.passportId });
    expect(withOffset.body.version).toBe(2);
    expectError(tooEarly, 404, 'not_found', 'at');
    expectError(bad, 422, 'validation_error', 'at');
  });
});

describe('digest chain', () => {
  it('gives every version a digest an outsider recomputes with RFC 8785, chained to the previous one; shown in the read form, history, resolver JSON and linkset', async () => {
    // Prepare
    const product = await createProduct(org.live);
    await publish(org.live, product.productId, { ...RED_WINE, vintage: 2020, nutrition: { ...RED_WINE.nutrition, sugarsG: 0.6, alcoholG: 10.1 } });
    await publish(org.live, product.productId, { ...RED_WINE, vintage: 2021, producers: [{ name: 'Ωmega Vins «Réserve»', role: 'bottler', country: 'GR' }] });
    await publish(org.live, product.productId, { ...RED_WINE, vintage: 2022 });
    // Act
    const versions = await history(product.productId);
    const current = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    const resolverJson = (await (await fetch(product.qrCodeUrl, { headers: { accept: 'application/json' } })).json()) as { digest: string };
    const linkset = (await (await fetch(`${product.qrCodeUrl}?linkType=linkset`)).json()) as { linkset: Record<string, { type: string; title: string }[]>[] };
    // Assess
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(versions[0]?.previousDigest).toBeNull();
    for (const [i, version] of versions.entries()) {
      expect(version.gtin).toBe(`0${product.gtin}`);
      expect(version.digest).toBe(independentDigest(version));
      if (i > 0) expect(version.previousDigest).toBe(versions[i - 1]?.digest);
    }
    const newest = versions[2]!;
    expect(current.body).toMatchObject({ digest: newest.digest, previousDigest: newest.previousDigest, publishedAt: newest.publishedAt });
    expect(resolverJson.digest).toBe(newest.digest);
    const jsonLink = linkset.linkset[0]?.['https://gs1.org/voc/pip']?.find((link) => link.type === 'application/json');
    expect(jsonLink?.title).toContain(`version 3, ${newest.digest}`);
  });

  it('stays gap-free under 20 concurrent publishes, and the admin command finds it intact', async () => {
    // Prepare
    const product = await createProduct(org.live);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', '/v1/passports', { key: org.live, body: { productId: product.productId, data: { ...RED_WINE, vintage: 2000 + i } } })),
    );
    const versions = await history(product.productId);
    const verified = await admin(['passports', 'verify', '--org', org.orgId, '--product', product.productId, '--json']);
    // Assess
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const [i, version] of versions.entries()) {
      expect(version.digest).toBe(independentDigest(version));
      expect(version.previousDigest).toBe(i === 0 ? null : versions[i - 1]?.digest);
    }
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ intact: true, productId: product.productId });
  });

  it('the admin command names the first version whose stored data no longer matches its digest', async () => {
    // Prepare: three versions, then version 2's data changed in storage behind the API's back
    const product = await createProduct(org.live);
    for (const vintage of [2020, 2021, 2022]) await publish(org.live, product.productId, { ...RED_WINE, vintage });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: tenantPk({ orgId: org.orgId, environment: 'live' }), SK: passportVersionSk(product.productId, 2) },
        UpdateExpression: 'SET #data.vintage = :forged',
        ExpressionAttributeNames: { '#data': 'data' },
        ExpressionAttributeValues: { ':forged': 1999 },
      }),
    );
    // Act
    const verified = await admin(['passports', 'verify', '--org', org.orgId, '--product', product.productId]);
    // Assess
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain('BROKEN at version 2: digest');
  });
});
