import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../src/index.ts';
import { CredentialVerificationError, verifyPassportCredential } from '../src/index.ts';

/**
 * The credential verifier's budgets (docs/sdk.md#verifying-signed-passports; docs/security.md,
 * issue 37 finding 6): an issuer controls its DID document, its status list and the credential, so
 * each is read only up to a size, and a status list only inflated up to one. The issuer here is a
 * did:web on a loopback server of the test's own, with a key made here, so a document or list of
 * any size is signed as a real issuer would sign it.
 */
const MiB = 1024 * 1024;
/** The budgets docs/sdk.md states. */
const BUDGETS = { jwtChars: MiB, didDocumentBytes: 256 * 1024, statusListBytes: MiB, statusListInflatedBytes: 4 * MiB };

let server: ReturnType<typeof createServer>;
let origin: string;
let did: string;
let sign: (payload: Record<string, unknown>) => Promise<string>;
let publicJwk: Record<string, unknown>;
/** What the server answers, by path; changed by each test. */
const routes = new Map<string, () => string | Buffer>();
const requested: string[] = [];

/** The issuer's DID document, padded with `padding` bytes of an extra property. */
const didDocument = (padding = 0) =>
  JSON.stringify({
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: did,
    verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey', controller: did, publicKeyJwk: publicJwk }],
    assertionMethod: [`${did}#key-1`],
    ...(padding ? { padding: 'x'.repeat(padding) } : {}),
  });

/** A didDocument() of exactly `bytes` bytes. */
const didDocumentOf = (bytes: number) => didDocument(bytes - didDocument(1).length + 1);

/** A status list credential whose encoded list is `gzip` (the gzip of the bits). */
const statusList = (gzip: Buffer) =>
  sign({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: `${origin}/status/1`,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: did,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: `${origin}/status/1#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: `u${gzip.toString('base64url')}` },
  });

/** A passport credential of the issuer, its status at index 0 of /status/1, `padding` characters in its data. */
const credential = (padding = 0) =>
  sign({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: `${origin}/p/1/credential.jwt`,
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    issuer: did,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { type: ['ProductPassport'], id: `${origin}/p/1`, product: { type: ['Product'], id: 'p', name: 'Budgeted', registeredId: '1' }, version: 1, data: { padding: 'x'.repeat(padding) } },
    credentialStatus: { id: `${origin}/status/1#0`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '0', statusListCredential: `${origin}/status/1` },
  });

/** The longest credential of at most `chars` characters (it is `chars - 2` to `chars` long). */
async function credentialNear(chars: number): Promise<string> {
  let padding = Math.max(0, Math.floor(((chars - (await credential()).length) * 3) / 4));
  while ((await credential(padding)).length > chars) padding -= 1;
  while ((await credential(padding + 1)).length <= chars) padding += 1;
  return credential(padding);
}

/** The gzip of `bytes` zero bytes (no bit set: nothing revoked), made in 1 MiB pieces. */
function zerosGzipped(bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
    const chunks: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
    const piece = Buffer.alloc(MiB);
    for (let left = bytes; left > 0; left -= MiB) gzip.write(left >= MiB ? piece : piece.subarray(0, left));
    gzip.end();
  });
}

/** Verifies `jwt` with the loopback issuer; answers the outcome and how long it took. */
async function verify(jwt: string, checkStatus = true) {
  const started = performance.now();
  const outcome = await verifyPassportCredential(jwt, { allowLoopbackHttp: true, checkStatus }).catch((error: unknown) => error);
  return { outcome, ms: performance.now() - started };
}

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  publicJwk = { ...(await exportJWK(publicKey)), alg: 'ES256' };
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const answer = routes.get(req.url ?? '');
    if (!answer) return void res.writeHead(404).end();
    // Chunked, without Content-Length: the verifier must count what arrives, not trust a header.
    const body = Buffer.from(answer());
    res.writeHead(200, { 'content-type': req.url?.endsWith('.json') ? 'application/did+json' : 'application/vc+jwt' });
    res.write(body.subarray(0, body.length >> 1));
    res.end(body.subarray(body.length >> 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  did = `did:web:127.0.0.1%3A${port}:orgs:budget`;
  sign = (payload) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'vc+jwt', kid: `${did}#key-1` }).sign(privateKey);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const expectRefused = (outcome: unknown, pattern: RegExp) => {
  expect(outcome).toBeInstanceOf(CredentialVerificationError);
  expect((outcome as Error).message).toMatch(pattern);
};

describe('the credential verifier’s budgets', () => {
  it('are the ones docs/sdk.md states, in one constant', () => {
    // Assess
    expect((sdk as Record<string, unknown>).CREDENTIAL_VERIFICATION_BUDGETS).toEqual(BUDGETS);
  });

  it('attack: a status list that inflates past its budget is refused quickly, not verified', async () => {
    // Prepare: a list one byte over the inflated budget, one at it, and the finding's: 256 MiB from about 255 KB.
    const [over, at, bomb] = await Promise.all([zerosGzipped(BUDGETS.statusListInflatedBytes + 1), zerosGzipped(BUDGETS.statusListInflatedBytes), zerosGzipped(256 * MiB)]);
    const [overList, atList, bombList] = await Promise.all([statusList(over), statusList(at), statusList(bomb)]);
    const jwt = await credential();
    routes.set('/orgs/budget/did.json', () => didDocument());
    // Act
    routes.set('/status/1', () => overList);
    const refused = await verify(jwt);
    routes.set('/status/1', () => bombList);
    const bombed = await verify(jwt);
    routes.set('/status/1', () => atList);
    const verified = await verify(jwt);
    // Assess: refused with the budget named, the bomb as quickly as the list just over it; the list at the budget verifies.
    expectRefused(refused.outcome, /status list inflates past its budget of 4 MiB/);
    expectRefused(bombed.outcome, /status list inflates past its budget of 4 MiB/);
    expect(bomb.length).toBeLessThan(BUDGETS.statusListBytes);
    expect(bombed.ms).toBeLessThan(3_000);
    expect(verified.outcome).toMatchObject({ issuer: did, revoked: false });
  });

  it('attack: a status list credential over its byte budget is refused, not verified', async () => {
    // Prepare: a list of random bits (incompressible) whose credential is over 1 MiB.
    const random = gzipSync(randomBytes(800 * 1024));
    const big = await statusList(random);
    const jwt = await credential();
    routes.set('/orgs/budget/did.json', () => didDocument());
    routes.set('/status/1', () => big);
    // Act
    const refused = await verify(jwt);
    // Assess
    expect(big.length).toBeGreaterThan(BUDGETS.statusListBytes);
    expectRefused(refused.outcome, /status\/1 is larger than its budget of 1 MiB/);
  });

  it('attack: a DID document over its budget is refused quickly, not verified', async () => {
    // Prepare: the status is not checked, the document is all that is read.
    const jwt = await credential();
    // Act
    routes.set('/orgs/budget/did.json', () => didDocumentOf(BUDGETS.didDocumentBytes + 1));
    const refused = await verify(jwt, false);
    routes.set('/orgs/budget/did.json', () => didDocumentOf(16 * MiB));
    const huge = await verify(jwt, false);
    routes.set('/orgs/budget/did.json', () => didDocumentOf(BUDGETS.didDocumentBytes));
    const verified = await verifyPassportCredential(jwt, { allowLoopbackHttp: true, checkStatus: false });
    // Assess
    expect(didDocumentOf(BUDGETS.didDocumentBytes + 1)).toHaveLength(BUDGETS.didDocumentBytes + 1);
    expectRefused(refused.outcome, /did\.json is larger than its budget of 256 KiB/);
    expectRefused(huge.outcome, /did\.json is larger than its budget of 256 KiB/);
    expect(huge.ms).toBeLessThan(3_000);
    expect(verified).toMatchObject({ issuer: did, revoked: undefined });
  });

  it('attack: a JWT over its budget is refused before anything is fetched, not verified', async () => {
    // Prepare
    const [over, at] = await Promise.all([credentialNear(BUDGETS.jwtChars + 8), credentialNear(BUDGETS.jwtChars)]);
    routes.set('/orgs/budget/did.json', () => didDocument());
    requested.length = 0;
    // Act
    const refused = await verify(over, false);
    const fetchedForRefused = requested.length;
    const verified = await verifyPassportCredential(at, { allowLoopbackHttp: true, checkStatus: false });
    // Assess
    expect(over.length).toBeGreaterThan(BUDGETS.jwtChars);
    expect(at.length).toBeLessThanOrEqual(BUDGETS.jwtChars);
    expectRefused(refused.outcome, /larger than its budget of 1 MiB/);
    expect(fetchedForRefused).toBe(0);
    expect(verified).toMatchObject({ issuer: did });
  });
});
