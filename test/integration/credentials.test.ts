import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDomain } from '../../lib/data/domains.ts';
import { admin } from '../support/admin.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish, RED_WINE, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Signed passports (docs/credentials.md), verified as a third party would: the credential over
 * HTTP, the issuer's DID document resolved over HTTP from its did:web, the ES256 signature checked
 * with node:crypto alone (none of the service's code), and the status list read and decoded.
 */
let org: TestOrg;
let product: CreatedProduct;
let passportIds: string[];

interface Jws {
  header: Record<string, unknown>;
  payload: Record<string, any>;
  parts: [string, string, string];
}

function parseJws(jwt: string): Jws {
  const parts = jwt.split('.');
  expect(parts).toHaveLength(3);
  const [h, p, s] = parts as [string, string, string];
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')), payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')), parts: [h, p, s] };
}

/**
 * did:web → the DID document's URL (the did:web method's read operation): `%3A` in the host is its
 * port; further `:` segments are path segments; no path means /.well-known. The local stack
 * speaks http.
 */
function didWebUrl(did: string): string {
  const [method, name, host = '', ...path] = did.split(':');
  expect(`${method}:${name}`).toBe('did:web');
  const origin = `http://${decodeURIComponent(host)}`;
  return path.length ? `${origin}/${path.map(decodeURIComponent).join('/')}/did.json` : `${origin}/.well-known/did.json`;
}

/** Resolves the kid's DID over HTTP and checks the JWS against its key with node:crypto. */
async function verifyJws(jwt: string): Promise<boolean> {
  const { header, parts } = parseJws(jwt);
  const kid = String(header.kid);
  const did = kid.split('#')[0]!;
  const response = await fetch(didWebUrl(did));
  expect(response.status).toBe(200);
  const document = (await response.json()) as { id: string; verificationMethod: Array<{ id: string; type: string; publicKeyJwk: JsonWebKey }>; assertionMethod: string[] };
  expect(document.id).toBe(did);
  expect(document.assertionMethod).toContain(kid);
  const method = document.verificationMethod.find((m) => m.id === kid);
  expect(method?.type).toBe('JsonWebKey');
  const key = createPublicKey({ key: method!.publicKeyJwk, format: 'jwk' });
  return verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2], 'base64url'));
}

const credentialPath = (passportId: string) => `/v1/products/${product.productId}/passports/${passportId}/credential`;

beforeAll(async () => {
  org = await newOrg('Credentials Org');
  product = await createProduct(org.live, { name: 'Domaine Signé 2022' });
  const first = await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes and sulphites, signed'] });
  const second = await publish(org.live, product.productId, { ...RED_WINE, ingredients: ['Grapes and sulphites, signed again'] });
  passportIds = [first.passportId, second.passportId];
});

describe('a published version as a signed credential', () => {
  it('verifies with the key of the issuer’s DID document, and its digest is the version’s', async () => {
    // Act
    const response = await call('GET', credentialPath(passportIds[1]!), { key: org.live });
    const passport = await call('GET', `/v1/products/${product.productId}/passport`, { key: org.live });
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vc+jwt');
    const { header, payload } = parseJws(response.text);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'vc+jwt', cty: 'vc' });
    expect(String(header.kid)).toMatch(new RegExp(`^did:web:[^:]+:orgs:${org.orgId}#key_[0-9a-z]+$`));
    expect(payload['@context']).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/']);
    expect(payload.type).toEqual(['VerifiableCredential', 'DigitalProductPassport']);
    expect(payload.issuer).toMatchObject({ id: String(header.kid).split('#')[0], name: 'Credentials Org' });
    expect(payload.validFrom).toBe(passport.body.publishedAt);
    expect(payload.credentialSubject).toMatchObject({
      gtin: `0${product.gtin}`,
      digitalLink: product.qrCodeUrl,
      version: 2,
      digest: passport.body.digest,
      previousDigest: passport.body.previousDigest,
      product: { id: product.qrCodeUrl, name: 'Domaine Signé 2022', registeredId: `0${product.gtin}` },
    });
    expect(payload.credentialSubject.data.ingredients).toEqual(['Grapes and sulphites, signed again']);
    expect(await verifyJws(response.text)).toBe(true);
  });

  it('attack: a tampered payload (another digest) or a signature moved onto other data fails verification', async () => {
    // Prepare
    const jwt = (await call('GET', credentialPath(passportIds[0]!), { key: org.live })).text;
    const { payload, parts } = parseJws(jwt);
    const forged = { ...payload, credentialSubject: { ...payload.credentialSubject, digest: `sha256:${'0'.repeat(64)}` } };
    const tampered = `${parts[0]}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${parts[2]}`;
    const other = parseJws((await call('GET', credentialPath(passportIds[1]!), { key: org.live })).text);
    const spliced = `${parts[0]}.${other.parts[1]}.${parts[2]}`;
    // Act
    const results = [await verifyJws(jwt), await verifyJws(tampered), await verifyJws(spliced)];
    // Assess
    expect(results).toEqual([true, false, false]);
  });

  it('is signed once: the public URL beside the version’s pages answers the same bytes, immutable, and the linkset links it', async () => {
    // Prepare
    const api = (await call('GET', credentialPath(passportIds[0]!), { key: org.live })).text;
    const url = String(parseJws(api).payload.id);
    // Act
    const first = await call('GET', new URL(url).pathname);
    const again = await call('GET', new URL(url).pathname);
    const linkset = await call('GET', `${new URL(product.qrCodeUrl).pathname}?linkType=linkset`);
    // Assess
    expect(url).toBe(`${baseUrl()}/${org.orgId}/live/p/0${product.gtin}/1/credential.jwt`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.text).toBe(api);
    expect(again.text).toBe(api);
    const links = linkset.body.linkset[0]['https://gs1.org/voc/certificationInfo'];
    expect(links).toEqual([expect.objectContaining({ href: `${baseUrl()}/${org.orgId}/live/p/0${product.gtin}/2/credential.jwt`, type: 'application/vc+jwt' })]);
  });

  it('is 404 for an unknown passport, another organization’s product, another environment and an unknown version', async () => {
    // Prepare
    const other = await newOrg('Credentials Other');
    // Act
    const unknown = await call('GET', credentialPath('ps_00000000000000000000'), { key: org.live });
    const foreign = await call('GET', credentialPath(passportIds[0]!), { key: other.live });
    const testEnv = await call('GET', credentialPath(passportIds[0]!), { key: org.test });
    const publicUnknown = await call('GET', `/${org.orgId}/live/p/0${product.gtin}/9/credential.jwt`);
    const publicOtherOrg = await call('GET', `/${other.orgId}/live/p/0${product.gtin}/1/credential.jwt`);
    // Assess
    expectError(unknown, 404, 'not_found', 'passportId');
    expectError(foreign, 404, 'not_found', 'productId');
    expectError(testEnv, 404, 'not_found', 'productId');
    expectError(publicUnknown, 404, 'not_found');
    expect(publicUnknown.headers.get('cache-control')).toBe('public, max-age=60');
    expectError(publicOtherOrg, 404, 'not_found');
    expect(foreign.text).not.toContain(product.gtin);
  });

  it('two concurrent first credentials of a new organization both verify, whichever key each was signed with', async () => {
    // Prepare
    const fresh = await newOrg('Credentials Race');
    const item = await createProduct(fresh.live);
    const versions = [await publish(fresh.live, item.productId), await publish(fresh.live, item.productId)];
    // Act
    const jwts = await Promise.all(versions.map(async (v) => (await call('GET', `/v1/products/${item.productId}/passports/${v.passportId}/credential`, { key: fresh.live })).text));
    const document = (await call('GET', `/orgs/${fresh.orgId}/did.json`)).body as { assertionMethod: string[] };
    // Assess
    expect(await Promise.all(jwts.map(verifyJws))).toEqual([true, true]);
    expect(document.assertionMethod.length).toBeGreaterThanOrEqual(1);
    for (const jwt of jwts) expect(document.assertionMethod).toContain(parseJws(jwt).header.kid);
  });

  it('needs products:read or passports:read', async () => {
    // Prepare
    const narrow = await org.keyWith(['suppliers:read']);
    const passportsOnly = await org.keyWith(['passports:read']);
    // Act
    const refused = await call('GET', credentialPath(passportIds[0]!), { key: narrow });
    const allowed = await call('GET', credentialPath(passportIds[0]!), { key: passportsOnly });
    // Assess
    expectError(refused, 403, 'permission_error');
    expect(allowed.status).toBe(200);
  });
});

describe('the DID documents', () => {
  it('are served as DID Core’s JSON representation (application/did+json), which a did:web resolver reads as web-did-resolver does', async () => {
    // Prepare
    const did = `did:web:${encodeURIComponent(new URL(baseUrl()).host)}:orgs:${org.orgId}`;
    // Act: a plain GET with no Accept header, the body taken as JSON whatever its type (web-did-resolver's read).
    const response = await fetch(didWebUrl(did));
    const document = (await response.json()) as { id: string };
    const described = await call('GET', `/orgs/${org.orgId}/did.json`);
    // Assess
    expect(response.status).toBeLessThan(400);
    expect(response.headers.get('content-type')).toBe('application/did+json');
    expect(document.id).toBe(did);
    expect(described.headers.get('content-type')).toBe('application/did+json');
  });

  it('are 404 for an unknown organization, and on a host that is no verified brand domain', async () => {
    // Act
    const unknown = await call('GET', '/orgs/org_0000000000000000/did.json');
    const wellKnown = await call('GET', '/.well-known/did.json');
    // Assess
    expectError(unknown, 404, 'not_found');
    expectError(wellKnown, 404, 'not_found');
  });

  it('on a verified brand domain: did:web of the hostname, with the organization’s keys, also known as its platform DID', async () => {
    // Prepare
    const jwt = (await call('GET', credentialPath(passportIds[0]!), { key: org.live })).text;
    const kid = String(parseJws(jwt).header.kid);
    const domain = await getDomain(org.orgId, await verifiedDomainId(org.orgId));
    const hostname = domain!.hostname;
    // Act
    const response = await fetch(`${baseUrl()}/.well-known/did.json`, { headers: { 'x-forwarded-host': hostname } });
    const document = (await response.json()) as { id: string; alsoKnownAs: string[]; verificationMethod: Array<{ id: string; publicKeyJwk: unknown }> };
    const platform = (await call('GET', `/orgs/${org.orgId}/did.json`)).body as { verificationMethod: Array<{ id: string; publicKeyJwk: unknown }> };
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/did+json');
    expect(document.id).toBe(`did:web:${hostname}`);
    expect(document.alsoKnownAs).toEqual([kid.split('#')[0]]);
    expect(document.verificationMethod.map((m) => m.publicKeyJwk)).toEqual(platform.verificationMethod.map((m) => m.publicKeyJwk));
    expect(document.verificationMethod.map((m) => m.id)).toEqual(platform.verificationMethod.map((m) => `did:web:${hostname}#${m.id.split('#')[1]}`));
  });

  it('keep old keys after a rotation, so credentials signed before it still verify', async () => {
    // Prepare
    const before = (await call('GET', credentialPath(passportIds[0]!), { key: org.live })).text;
    const oldKid = String(parseJws(before).header.kid);
    // Act
    const rotated = await admin(['keys', 'rotate', '--org', org.orgId, '--json']);
    const document = (await call('GET', `/orgs/${org.orgId}/did.json`)).body as { verificationMethod: Array<{ id: string }>; assertionMethod: string[] };
    // Assess
    expect(rotated.code, rotated.stderr).toBe(0);
    const newKeyId = JSON.parse(rotated.stdout).keyId as string;
    expect(document.assertionMethod).toEqual([oldKid, `${oldKid.split('#')[0]}#${newKeyId}`]);
    expect(document.verificationMethod.map((m) => m.id)).toEqual(document.assertionMethod);
    expect(await verifyJws(before)).toBe(true);
  });
});

describe('revocation through the status list', () => {
  /** The status list the credential names, verified, and its bit for the credential. */
  async function statusOf(jwt: string): Promise<boolean> {
    const status = parseJws(jwt).payload.credentialStatus as { type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string };
    expect(status).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' });
    const response = await call('GET', new URL(status.statusListCredential).pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vc+jwt');
    expect(await verifyJws(response.text)).toBe(true);
    const list = parseJws(response.text).payload;
    expect(list.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']);
    expect(list.credentialSubject).toMatchObject({ type: 'BitstringStatusList', statusPurpose: 'revocation' });
    const encoded = String(list.credentialSubject.encodedList);
    expect(encoded.startsWith('u')).toBe(true);
    const bits = gunzipSync(Buffer.from(encoded.slice(1), 'base64url'));
    expect(bits.length * 8).toBeGreaterThanOrEqual(131_072);
    const index = Number(status.statusListIndex);
    return ((bits[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0;
  }

  it('sets the product’s bit when it is withdrawn and clears it when it is reinstated; other products keep theirs clear', async () => {
    // Prepare
    const withdrawnOne = await createProduct(org.live, { name: 'Withdrawn soon' });
    const kept = await createProduct(org.live, { name: 'Kept' });
    const w = await publish(org.live, withdrawnOne.productId);
    const k = await publish(org.live, kept.productId);
    const jwt = (await call('GET', `/v1/products/${withdrawnOne.productId}/passports/${w.passportId}/credential`, { key: org.live })).text;
    const keptJwt = (await call('GET', `/v1/products/${kept.productId}/passports/${k.passportId}/credential`, { key: org.live })).text;
    const initially = [await statusOf(jwt), await statusOf(keptJwt)];
    // Act
    const withdrawal = await call('POST', `/v1/products/${withdrawnOne.productId}/withdraw`, { key: org.live, body: { reason: 'Recalled' } });
    const afterWithdrawal = [await statusOf(jwt), await statusOf(keptJwt)];
    const reinstatement = await call('POST', `/v1/products/${withdrawnOne.productId}/reinstate`, { key: org.live });
    const afterReinstatement = [await statusOf(jwt), await statusOf(keptJwt)];
    // Assess
    expect(withdrawal.status).toBe(200);
    expect(reinstatement.status).toBe(200);
    expect(initially).toEqual([false, false]);
    expect(afterWithdrawal).toEqual([true, false]);
    expect(afterReinstatement).toEqual([false, false]);
  });

  it('revokes the first credential of a product withdrawn before any credential was signed', async () => {
    // Prepare
    const early = await createProduct(org.live, { name: 'Withdrawn before signing' });
    const version = await publish(org.live, early.productId);
    await call('POST', `/v1/products/${early.productId}/withdraw`, { key: org.live, body: { reason: 'Never sold' } });
    // Act
    const jwt = (await call('GET', `/v1/products/${early.productId}/passports/${version.passportId}/credential`, { key: org.live })).text;
    // Assess
    expect(await statusOf(jwt)).toBe(true);
  });

  it('publishes no list that was never handed out', async () => {
    // Act
    const response = await call('GET', `/${org.orgId}/live/status/2`);
    const otherEnv = await call('GET', `/${org.orgId}/test/status/1`);
    // Assess
    expectError(response, 404, 'not_found');
    expectError(otherEnv, 404, 'not_found');
  });
});
