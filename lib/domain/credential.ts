import { gunzipSync, gzipSync } from 'node:zlib';
import type { PassportVersion } from './passport.ts';
import { isBatteryPassport, publicPassportData } from './passport-kinds.ts';
import { DATA_UNITS } from './battery/units-migration.ts';
import type { Category } from './product.ts';
import type { Tenant } from './tenant.ts';

/**
 * Signed passports (docs/credentials.md): each published version as a W3C Verifiable Credential
 * 2.0 secured with VC-JOSE (a compact JWS, `application/vc+jwt`), issued by the organization's
 * `did:web` identifier, with a Bitstring Status List entry for revocation. Plain functions: no
 * AWS, no I/O; signing is lib/services/credentials.ts.
 */

/** The VC Data Model 2.0 base context; it also defines the Bitstring Status List terms. */
export const VC_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
/** The UNTP Digital Product Passport context of release 0.6.0 (docs/credentials.md#the-credential). */
export const UNTP_DPP_CONTEXT = 'https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/';
/** The media type of a VC secured with JOSE (registered with IANA by the W3C VC working group). */
export const VC_JWT_MEDIA_TYPE = 'application/vc+jwt';
/** The JOSE header's `typ` and `cty` for a credential (docs/credentials.md#the-jose-header). */
export const VC_JWT_TYP = 'vc+jwt';
export const VC_JWT_CTY = 'vc';
/** Bits of one status list: the Bitstring Status List minimum (16 KiB), which also keeps each list herd-private. */
export const STATUS_LIST_BITS = 131_072;

/** A P-256 public key as a JWK (RFC 7517/7518). */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface PublicSigningKey {
  keyId: string;
  publicJwk: PublicJwk;
  createdAt: string;
}

/**
 * The method-specific part of a did:web for an origin and path: the host, its port as `%3A`
 * (a colon separates path segments in did:web), then each path segment after a `:`.
 */
function didWeb(origin: string, path: readonly string[]): string {
  const url = new URL(origin);
  const host = url.port ? `${url.hostname}%3A${url.port}` : url.hostname;
  return ['did:web', host, ...path.map(encodeURIComponent)].join(':');
}

/**
 * The organization's DID on the platform resolver host: `did:web:{host}:orgs:{orgId}` →
 * `{origin}/orgs/{orgId}/did.json`. The literal `orgs` segment keeps the path apart from the
 * resolver's `/01/{gtin}` and `/docs/{asset}` (docs/credentials.md#the-issuer).
 */
export const organizationDid = (resolverOrigin: string, orgId: string): string => didWeb(resolverOrigin, ['orgs', orgId]);

/** The DID of a verified brand hostname: `did:web:{hostname}` → `https://{hostname}/.well-known/did.json`. */
export const hostDid = (hostname: string): string => didWeb(`https://${hostname}`, []);

/** Where the DID document of `organizationDid` is served. */
export const didDocumentUrl = (resolverOrigin: string, orgId: string): string => `${resolverOrigin.replace(/\/+$/, '')}/orgs/${encodeURIComponent(orgId)}/did.json`;

/** The id of a key's verification method, which a JWS names in `kid`. */
export const verificationMethodId = (did: string, keyId: string): string => `${did}#${keyId}`;

/**
 * The DID document: every key the organization ever signed with (rotation keeps old ones, so old
 * credentials still verify), each a `JsonWebKey` verification method usable for assertions.
 */
export function didDocument(did: string, keys: readonly PublicSigningKey[], alsoKnownAs: readonly string[] = []) {
  const methods = keys.map((key) => ({
    id: verificationMethodId(did, key.keyId),
    type: 'JsonWebKey',
    controller: did,
    publicKeyJwk: { kty: key.publicJwk.kty, crv: key.publicJwk.crv, x: key.publicJwk.x, y: key.publicJwk.y },
  }));
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://www.w3.org/ns/cid/v1'],
    id: did,
    ...(alsoKnownAs.length ? { alsoKnownAs: [...alsoKnownAs] } : {}),
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  };
}

/** Where a tenant's status list `list` (1, 2, …) is published. */
export const statusListUrl = (resolverOrigin: string, tenant: Tenant, list: number): string =>
  `${resolverOrigin.replace(/\/+$/, '')}/${encodeURIComponent(tenant.orgId)}/${tenant.environment}/status/${list}`;

/** A product's status index as its list (1, 2, …) and the bit within it. */
export const statusPosition = (index: number): { list: number; bit: number } => ({ list: Math.floor(index / STATUS_LIST_BITS) + 1, bit: index % STATUS_LIST_BITS });

/** What a passport credential says, besides the version itself. */
export interface CredentialInput {
  /** The credential's own URL (its `id`). */
  id: string;
  issuer: { did: string; name: string };
  /** The product as published with the version (the version page's public fields). */
  product: { productId: string; name: string; category: Category; gtin: string; qrCodeUrl: string };
  passport: PassportVersion;
  /** The product's revocation entry: its index in the tenant's status lists. */
  status: { index: number; listUrl: string };
}

/** GS1's identifier scheme for GTINs, as UNTP names an identifier's scheme. */
const GTIN_SCHEME = { type: ['IdentifierScheme'], id: 'https://id.gs1.org/01/', name: 'Global Trade Item Number (GTIN)' };

/**
 * The VC of one published version (docs/credentials.md#the-credential): VC 2.0 with the UNTP DPP
 * context and type, `validFrom` the version's `publishedAt`, the product identified by its GTIN
 * and Digital Link, and the version's data, number and digest (docs/lifecycle.md#digest-chain).
 * The credential is public (it is served beside the version's pages), so a battery passport's data
 * is its public elements only (docs/battery.md#credentials); the digest still covers the whole
 * version, which the organization can show a reader entitled to more.
 */
export function passportCredential(input: CredentialInput) {
  const { product, passport, status } = input;
  const position = statusPosition(status.index);
  return {
    '@context': [VC_CONTEXT, UNTP_DPP_CONTEXT],
    id: input.id,
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    issuer: { type: ['CredentialIssuer'], id: input.issuer.did, name: input.issuer.name },
    validFrom: passport.publishedAt,
    credentialSubject: {
      type: ['ProductPassport'],
      id: product.qrCodeUrl,
      product: {
        type: ['Product'],
        id: product.qrCodeUrl,
        name: product.name,
        registeredId: product.gtin,
        idScheme: GTIN_SCHEME,
        productCategory: product.category,
      },
      passportId: passport.passportId,
      productId: product.productId,
      gtin: product.gtin,
      digitalLink: product.qrCodeUrl,
      version: passport.version,
      publishedAt: passport.publishedAt,
      digest: passport.digest,
      previousDigest: passport.previousDigest,
      data: publicPassportData(product.category, passport.data),
      // A battery passport's units (docs/battery.md#units): a credential signed before carries none, and its absoluteCarbonFootprint is in kg CO2e.
      ...(isBatteryPassport(product.category, passport.data) ? { dataUnits: DATA_UNITS } : {}),
    },
    credentialStatus: {
      id: `${status.listUrl}#${position.bit}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(position.bit),
      statusListCredential: status.listUrl,
    },
  };
}

/** The status list credential of one list: the revoked bits, GZIP-compressed, multibase base64url (`u…`). */
export function statusListCredential(input: { url: string; issuerDid: string; validFrom: string; encodedList: string }) {
  return {
    '@context': [VC_CONTEXT],
    id: input.url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: input.issuerDid,
    validFrom: input.validFrom,
    credentialSubject: { id: `${input.url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: input.encodedList },
  };
}

/**
 * Encodes a status list: a bitstring of STATUS_LIST_BITS bits with the given bits set (bit 0 the
 * leftmost bit of the first byte), GZIP-compressed, then base64url without padding behind the
 * multibase prefix `u`.
 */
export function encodeStatusList(setBits: Iterable<number>): string {
  const bytes = new Uint8Array(STATUS_LIST_BITS / 8);
  for (const bit of setBits) {
    if (!Number.isInteger(bit) || bit < 0 || bit >= STATUS_LIST_BITS) throw new Error(`Status bit ${bit} is outside the list.`);
    bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  }
  return `u${gzipSync(bytes).toString('base64url')}`;
}

/** The bitstring of an encoded list (the inverse of encodeStatusList). */
export function decodeStatusList(encodedList: string): Uint8Array {
  if (!encodedList.startsWith('u')) throw new Error('An encodedList is multibase base64url: it starts with "u".');
  return new Uint8Array(gunzipSync(Buffer.from(encodedList.slice(1), 'base64url')));
}

/** Whether bit `bit` of a decoded list is set. */
export const statusBit = (bitstring: Uint8Array, bit: number): boolean => ((bitstring[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0;

/** The JOSE header of a credential signed with `kid` (ES256 over P-256; docs/credentials.md#the-jose-header). */
export const credentialHeader = (kid: string) => ({ alg: 'ES256', kid, typ: VC_JWT_TYP, cty: VC_JWT_CTY }) as const;

/** The JWS signing input: base64url(header) `.` base64url(payload) (RFC 7515, compact serialization). */
export const signingInput = (header: object, payload: object): string =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;

/** The compact JWS: the signing input and the base64url of its 64-byte ES256 signature (r‖s). */
export const compactJws = (input: string, signature: Uint8Array): string => `${input}.${Buffer.from(signature).toString('base64url')}`;
