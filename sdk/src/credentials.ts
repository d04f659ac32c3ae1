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
  /** The issuer's DID (`did:web:…`): decide whether you trust it (the resolver host you expect). */
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
}

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
 * each further `:` segment a path segment, `/.well-known` without a path.
 */
export function didWebUrl(did: string, allowLoopbackHttp = false): string {
  const [scheme, method, host, ...path] = did.split(':');
  if (scheme !== 'did' || method !== 'web' || !host) return fail(`Not a did:web: ${did}`);
  const authority = decodeURIComponent(host);
  if (/[/?#@\s]/.test(authority)) fail(`Not a did:web host: ${authority}`);
  const protocol = allowLoopbackHttp && LOOPBACK.test(authority) ? 'http' : 'https';
  const rest = path.length ? `/${path.map((segment) => encodeURIComponent(decodeURIComponent(segment))).join('/')}` : '/.well-known';
  return `${protocol}://${authority}${rest}/did.json`;
}

interface DidDocument {
  id?: unknown;
  verificationMethod?: Array<{ id?: unknown; type?: unknown; publicKeyJwk?: JWK }>;
  assertionMethod?: unknown[];
}

async function get(url: string, fetcher: (url: string) => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await fetcher(url);
  } catch (error) {
    return fail(`${url} could not be read: ${(error as Error).message}`);
  }
  if (!response.ok) fail(`${url} answered ${response.status}`);
  return response;
}

async function getJson(url: string, fetcher: (url: string) => Promise<Response>): Promise<unknown> {
  const response = await get(url, fetcher);
  try {
    return await response.json();
  } catch {
    return fail(`${url} is not JSON`);
  }
}

/** The public key `kid` names in its DID's document, where the DID says it asserts with it. */
async function keyOf(kid: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean) {
  const did = kid.split('#')[0] ?? '';
  const document = (await getJson(didWebUrl(did, allowLoopbackHttp), fetcher)) as DidDocument;
  if (document.id !== did) fail(`The DID document of ${did} names another DID`);
  if (!document.assertionMethod?.some((method) => method === kid || (method as { id?: unknown })?.id === kid)) fail(`${kid} is not an assertion method of ${did}`);
  const method = document.verificationMethod?.find((m) => m.id === kid);
  if (!method?.publicKeyJwk) return fail(`${did} has no public key ${kid}`);
  return { did, key: await importJWK(method.publicKeyJwk, 'ES256') };
}

/** Checks the JWS's ES256 signature with its issuer's key; answers the payload and who signed it. */
async function verifyJws(jwt: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean) {
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
  const credential = JSON.parse(new TextDecoder().decode(payload)) as PassportCredential;
  const issuer = typeof credential.issuer === 'string' ? credential.issuer : credential.issuer?.id;
  if (issuer !== did) fail(`Signed by ${did} for another issuer (${String(issuer)})`);
  if (!credential.type?.includes('VerifiableCredential')) fail('Not a VerifiableCredential');
  return { credential, did, kid };
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Whether the credential's revocation bit is set in its status list (docs/credentials.md#revocation). */
async function isRevoked(credential: PassportCredential, did: string, fetcher: (url: string) => Promise<Response>, allowLoopbackHttp: boolean): Promise<boolean> {
  const status = credential.credentialStatus;
  if (!status || status.statusPurpose !== 'revocation') return false;
  const url = new URL(status.statusListCredential);
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && url.protocol === 'http:' && LOOPBACK.test(url.host))) fail(`The status list is not on https: ${url.href}`);
  const response = await get(url.href, fetcher);
  const list = await verifyJws((await response.text()).trim(), fetcher, allowLoopbackHttp);
  if (list.did !== did) fail('The status list has another issuer');
  const subject = list.credential.credentialSubject as unknown as { statusPurpose?: string; encodedList?: string };
  if (subject.statusPurpose !== 'revocation' || !subject.encodedList?.startsWith('u')) fail('The status list is not a revocation list');
  const bits = await gunzip(base64url.decode(subject.encodedList!.slice(1)));
  const index = Number(status.statusListIndex);
  if (!Number.isInteger(index) || index < 0 || index >= bits.length * 8) fail(`statusListIndex ${status.statusListIndex} is outside the list`);
  // Bit 0 is the leftmost bit of the first byte (Bitstring Status List).
  return (((bits[index >> 3] ?? 0) >> (7 - (index & 7))) & 1) === 1;
}

/**
 * Verifies a passport credential as any third party can: resolves the issuer's did:web from the
 * `kid`, checks the ES256 signature with the key its DID document asserts with, that the issuer is
 * that DID, that `now` is within validFrom and validUntil, and (unless `checkStatus: false`)
 * whether the issuer revoked it. Throws CredentialVerificationError when it does not verify.
 */
export async function verifyPassportCredential(jwt: string, options: VerifyCredentialOptions = {}): Promise<VerifiedPassportCredential> {
  const fetcher = options.fetch ?? ((url: string) => globalThis.fetch(url));
  const allowLoopbackHttp = options.allowLoopbackHttp ?? false;
  const { credential, did, kid } = await verifyJws(jwt.trim(), fetcher, allowLoopbackHttp);
  const now = (options.now ?? new Date()).getTime();
  if (!(Date.parse(credential.validFrom) <= now)) fail(`Not valid before ${credential.validFrom}`);
  if (credential.validUntil !== undefined && !(now <= Date.parse(credential.validUntil))) fail(`Expired at ${credential.validUntil}`);
  const revoked = options.checkStatus === false ? undefined : await isRevoked(credential, did, fetcher, allowLoopbackHttp);
  return { credential, issuer: did, kid, revoked };
}
