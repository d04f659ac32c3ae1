import { base64url, compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';

/**
 * Verifying a signed passport (docs/credentials.md): a W3C Verifiable Credential 2.0 as a compact
 * JWS (`application/vc+jwt`), ES256, issued by the organization's did:web. Everything is checked
 * with what the issuer publishes: its DID document (resolved from the `kid`) and, for revocation,
 * its Bitstring Status List. ES256 and JWS through `jose`; nothing of the service runs here.
 */

/** The credential's subject: the passport version (docs/credentials.md#the-credential). */
export interface PassportCredentialSubject {
  type: string[];
  id: string;
  product: { type: string[]; id: string; name: string; registeredId: string; productCategory?: string; [key: string]: unknown };
  passportId: string;
  productId: string;
  gtin: string;
  digitalLink: string;
  version: number;
  publishedAt: string;
  digest: string;
  previousDigest: string | null;
  data: Record<string, unknown>;
  [key: string]: unknown;
}

export interface PassportCredential {
  '@context': string[];
  id: string;
  type: string[];
  issuer: { id: string; name?: string; type?: string[] } | string;
  validFrom: string;
  validUntil?: string;
  credentialSubject: PassportCredentialSubject;
  credentialStatus?: { id: string; type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string };
  [key: string]: unknown;
}

export interface VerifiedPassportCredential {
  credential: PassportCredential;
  /** The issuer's DID (`did:web:…`): compare it with the organization you expect (or pass `expectedIssuer`). */
  issuer: string;
  /** The verification method that signed it. */
  kid: string;
  /** Whether the issuer has revoked it (the product was withdrawn); `undefined` when not checked. */
  revoked: boolean | undefined;
}

export interface VerifyCredentialOptions {
  /** The fetch for DID documents and status lists (default: the global fetch). */
  fetch?: (url: string) => Promise<Response>;
  /** Check the revocation status list. Default true. */
  checkStatus?: boolean;
  /**
   * Resolve a did:web on a loopback host (localhost, 127.0.0.1, [::1]) over http, as a local
   * stack serves it. Never any other host: did:web is https.
   */
  allowLoopbackHttp?: boolean;
  /** The time validFrom and validUntil are judged at. Default now. */
  now?: Date;
  /**
   * The issuer (a `did:web:…`) you expect, or several: a credential of any other is refused. Every
   * organization's DID is on the same resolver host, so a valid signature of another organization
   * is not enough (docs/sdk.md#verifying-signed-passports).
   */
  expectedIssuer?: string | readonly string[];
}

/**
 * What the verifier reads at most (docs/sdk.md#verifying-signed-passports): the issuer writes the
 * credential, its DID document and its status list, so each is read only up to its budget, and a
 * status list is inflated only up to its own, then refused as not verified (a 255 KB list that
 * inflated to 256 MiB once took 36 s and 0.9 GB: docs/security.md). Bytes, or characters for the JWT.
 */
export const CREDENTIAL_VERIFICATION_BUDGETS = {
  /** The credential (a compact JWS), and the status list's: 4 times this service's largest passport body. */
  jwtChars: 1024 * 1024,
  /** The DID document as fetched: about a thousand keys. */
  didDocumentBytes: 256 * 1024,
  /** The status list credential as fetched (its gzip-compressed list inside). */
  statusListBytes: 1024 * 1024,
  /** The status list's bits once inflated: 33,554,432 entries, 256 times the Bitstring Status List minimum. */
  statusListInflatedBytes: 4 * 1024 * 1024,
} as const;

/** Why a credential did not verify. */
export class CredentialVerificationError extends Error {
  override readonly name = 'CredentialVerificationError';
}

const fail = (message: string): never => {
  throw new CredentialVerificationError(message);
};

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * The URL of a did:web's document (the did:web method's read): the host (a port written `%3A`),
 * each further `:` segment a path segment, `/.well-known` without a path. An IPv6 host is in
 * brackets (`%5B::1%5D%3A3000`, or `[::1]`): the colons inside them are the address's, not segment
 * separators.
 */
export function didWebUrl(did: string, allowLoopbackHttp = false): string {
  const decodeURIComponent = (text: string): string => {
    try {
      return globalThis.decodeURIComponent(text);
    } catch {
      return fail(`Not a did:web: ${did}`);
    }
  };
  if (!did.startsWith('did:web:')) return fail(`Not a did:web: ${did}`);
  const id = did.slice('did:web:'.length);
  let authority: string;
  let path: string[];
  const bracketed = /^(?:\[|%5B)(.*?)(?:\]|%5D)(.*)$/i.exec(id);
  if (bracketed) {
    const address = decodeURIComponent(bracketed[1] ?? '').toLowerCase();
    if (!/^[0-9a-f:.]+$/.test(address) || !address.includes(':')) fail(`Not a did:web IPv6 host: [${address}]`);
    const [port = '', ...rest] = (bracketed[2] ?? '').split(':');
    if (port !== '' && !/^%3A\d{1,5}$/i.test(port)) fail(`Not a did:web port: ${decodeURIComponent(port)}`);
    authority = `[${address}]${port ? `:${port.slice(3)}` : ''}`;
    path = rest;
  } else {
    const [host = '', ...rest] = id.split(':');
    authority = decodeURIComponent(host);
    path = rest;
  }
  if (!authority || /[/?#@\s]/.test(authority)) fail(`Not a did:web host: ${authority}`);
  if (!bracketed && !/^[^:]+(:\d{1,5})?$/.test(authority)) fail(`Not a did:web host: ${authority}`);
  if (path.some((segment) => segment === '')) fail(`Not a did:web path: ${did}`);
  const protocol = allowLoopbackHttp && LOOPBACK.test(authority) ? 'http' : 'https';
  const rest = path.length ? `/${path.map((segment) => encodeURIComponent(decodeURIComponent(segment))).join('/')}` : '/.well-known';
  return `${protocol}://${authority}${rest}/did.json`;
}

interface DidDocument {
  id?: unknown;
  verificationMethod?: Array<{ id?: unknown; type?: unknown; publicKeyJwk?: JWK }>;
  assertionMethod?: unknown[];
}

/** `bytes` as the budgets are written: 256 KiB, 1 MiB. */
const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);

/**
 * Reads `stream` to its end, or refuses (and cancels it) as soon as more than `budget` bytes have
 * arrived: `what` names it in the refusal.
 */
async function readAtMost(stream: ReadableStream<Uint8Array> | null, budget: number, what: string, verb = 'is larger than'): Promise<Uint8Array> {
  const out = new Uint8Array(budget);
  let length = 0;
  if (!stream) return out.subarray(0, 0);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out.subarray(0, length);
      if (length + value.length > budget) {
        await reader.cancel().catch(() => undefined);
        return fail(`${what} ${verb} its budget of ${sizeOf(budget)}`);
      }
      out.set(value, length);
      length += value.length;
    }
  } catch (error) {
    if (error instanceof CredentialVerificationError) throw error;
    return fail(`${what} could not be read: ${(error as Error).message}`);
  } finally {
    reader.releaseLock();
  }
}

/** The body of `url`, at most `budget` bytes (a larger Content-Length is refused before reading). */
async function get(url: string, fetcher: (url: string) => Promise<Response>, budget: number): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher(url);
  } catch (error) {
    return fail(`${url} could not be read: ${(error as Error).message}`);
  }
  const refuse = (): never => {
    void response.body?.cancel().catch(() => undefined);
    return fail(`${url} is larger than its budget of ${sizeOf(budget)}`);
  };
  if (!response.ok) {
    void response.body?.cancel().catch(() => undefined);
    fail(`${url} answered ${response.status}`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > budget) refuse();
  return readAtMost(response.body, budget, url);
}

async function getJson(url: string, fetcher: (url: string) => Promise<Response>, budget: number): Promise<unknown> {
  const bytes = await get(url, fetcher, budget);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return fail(`${url} is not JSON`);
  }
}

/** The public key `kid` names in its DID's document, where the DID says it asserts with it. */
async function keyOf(kid: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean) {
  const did = kid.split('#')[0] ?? '';
  const document = (await getJson(didWebUrl(did, allowLoopbackHttp), fetcher, CREDENTIAL_VERIFICATION_BUDGETS.didDocumentBytes)) as DidDocument;
  if (typeof document !== 'object' || document === null) return fail(`The DID document of ${did} is not an object`);
  if (document.id !== did) fail(`The DID document of ${did} names another DID`);
  if (!document.assertionMethod?.some((method) => method === kid || (method as { id?: unknown })?.id === kid)) fail(`${kid} is not an assertion method of ${did}`);
  const method = document.verificationMethod?.find((m) => m.id === kid);
  if (!method?.publicKeyJwk) return fail(`${did} has no public key ${kid}`);
  return { did, key: await importJWK(method.publicKeyJwk, 'ES256') };
}

/** Checks the JWS's ES256 signature with its issuer's key; answers the payload and who signed it. */
async function verifyJws(jwt: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean, what = 'The credential') {
  if (jwt.length > CREDENTIAL_VERIFICATION_BUDGETS.jwtChars) fail(`${what} is larger than its budget of ${sizeOf(CREDENTIAL_VERIFICATION_BUDGETS.jwtChars)} (${jwt.length} characters)`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    return fail('Not a compact JWS');
  }
  if (header.alg !== 'ES256') fail(`The algorithm is ${String(header.alg)}, not ES256`);
  if (header.typ !== 'vc+jwt') fail(`The type is ${String(header.typ)}, not vc+jwt`);
  const kid = typeof header.kid === 'string' ? header.kid : fail('The header names no key (kid)');
  const { did, key } = await keyOf(kid, fetcher, allowLoopbackHttp);
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jwt, key, { algorithms: ['ES256'] }));
  } catch {
    return fail('The signature does not verify');
  }
  let credential: PassportCredential;
  try {
    credential = JSON.parse(new TextDecoder().decode(payload)) as PassportCredential;
  } catch {
    return fail(`${what}'s payload is not JSON`);
  }
  if (typeof credential !== 'object' || credential === null) fail(`${what}'s payload is not an object`);
  const issuer = typeof credential.issuer === 'string' ? credential.issuer : credential.issuer?.id;
  if (issuer !== did) fail(`Signed by ${did} for another issuer (${String(issuer)})`);
  if (!credential.type?.includes('VerifiableCredential')) fail('Not a VerifiableCredential');
  return { credential, did, kid };
}

/**
 * The gzip `bytes` inflated, refused as soon as the output passes `budget`: the input is fed in
 * 16 KiB pieces and the output read as it comes, so a bomb is stopped after about `budget` bytes
 * of work, whatever it would inflate to.
 */
async function gunzipAtMost(bytes: Uint8Array, budget: number, what: string): Promise<Uint8Array> {
  let offset = 0;
  const input = new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + 16 * 1024));
        offset += 16 * 1024;
      },
    },
    { highWaterMark: 0 },
  );
  return readAtMost(input.pipeThrough(new DecompressionStream('gzip')), budget, what, 'inflates past');
}

/** Whether the credential's revocation bit is set in its status list (docs/credentials.md#revocation). */
async function isRevoked(credential: PassportCredential, did: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean): Promise<boolean> {
  const status = credential.credentialStatus;
  if (!status || status.statusPurpose !== 'revocation') return false;
  const url = new URL(status.statusListCredential);
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && url.protocol === 'http:' && LOOPBACK.test(url.host))) fail(`The status list is not on https: ${url.href}`);
  const text = new TextDecoder().decode(await get(url.href, fetcher, CREDENTIAL_VERIFICATION_BUDGETS.statusListBytes));
  const list = await verifyJws(text.trim(), fetcher, allowLoopbackHttp, 'The status list');
  if (list.did !== did) fail('The status list has another issuer');
  const subject = list.credential.credentialSubject as unknown as { statusPurpose?: string; encodedList?: string };
  if (subject.statusPurpose !== 'revocation' || !subject.encodedList?.startsWith('u')) fail('The status list is not a revocation list');
  let compressed: Uint8Array;
  try {
    compressed = base64url.decode(subject.encodedList!.slice(1));
  } catch {
    return fail('The status list is not base64url');
  }
  const bits = await gunzipAtMost(compressed, CREDENTIAL_VERIFICATION_BUDGETS.statusListInflatedBytes, 'The status list');
  const index = Number(status.statusListIndex);
  if (!Number.isInteger(index) || index < 0 || index >= bits.length * 8) fail(`statusListIndex ${status.statusListIndex} is outside the list`);
  // Bit 0 is the leftmost bit of the first byte (Bitstring Status List).
  return (((bits[index >> 3] ?? 0) >> (7 - (index & 7))) & 1) === 1;
}

/**
 * Verifies a passport credential as any third party can: resolves the issuer's did:web from the
 * `kid`, checks the ES256 signature with the key its DID document asserts with, that the issuer is
 * that DID (and, with `expectedIssuer`, the one you expect), that `now` is within validFrom and
 * validUntil, and (unless `checkStatus: false`) whether the issuer revoked it. What it reads is
 * bounded by CREDENTIAL_VERIFICATION_BUDGETS. Throws CredentialVerificationError when it does not verify.
 */
export async function verifyPassportCredential(jwt: string, options: VerifyCredentialOptions = {}): Promise<VerifiedPassportCredential> {
  const fetcher = options.fetch ?? ((url: string) => globalThis.fetch(url));
  const allowLoopbackHttp = options.allowLoopbackHttp ?? false;
  if (typeof jwt !== 'string') fail('The credential is not a string');
  const { credential, did, kid } = await verifyJws(jwt.trim(), fetcher, allowLoopbackHttp);
  const expected = options.expectedIssuer === undefined ? undefined : typeof options.expectedIssuer === 'string' ? [options.expectedIssuer] : options.expectedIssuer;
  if (expected && !expected.includes(did)) fail(`issued by ${did}, not by ${expected.join(' or ')}`);
  const now = (options.now ?? new Date()).getTime();
  if (!(Date.parse(credential.validFrom) <= now)) fail(`Not valid before ${credential.validFrom}`);
  if (credential.validUntil !== undefined && !(now <= Date.parse(credential.validUntil))) fail(`Expired at ${credential.validUntil}`);
  const revoked = options.checkStatus === false ? undefined : await isRevoked(credential, did, fetcher, allowLoopbackHttp);
  return { credential, issuer: did, kid, revoked };
}
