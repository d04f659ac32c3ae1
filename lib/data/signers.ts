import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign as signWithKey, type JsonWebKey } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { PublicJwk } from '../domain/credential.ts';

/**
 * The keys that sign passport credentials (docs/credentials.md#keys): one ES256 signer interface,
 * two implementations.
 * - KMS (AWS): an asymmetric ECC_NIST_P256 SIGN_VERIFY key per organization; the private key
 *   never leaves KMS. KMS signs a SHA-256 digest and answers a DER ECDSA signature, which becomes
 *   JOSE's 64-byte r‖s here.
 * - Local: a P-256 key as a private JWK file under SIGNING_KEY_DIR (the local stack's
 *   `.data/signing-keys/`), readable by its owner only.
 */
export interface Signer {
  keyId: string;
  publicJwk(): Promise<PublicJwk>;
  /** The ES256 signature of `bytes` in JOSE form: r‖s, 32 bytes each (RFC 7518 §3.4). */
  sign(bytes: Uint8Array): Promise<Uint8Array>;
}

/** The tags every organization signing key is created with; the IAM grants are conditioned on them (infra/cdk/constructs/api.ts). */
export const SIGNING_KEY_TAGS = { service: 'product-passport', purpose: 'credential-signing' } as const;

const toPublicJwk = (jwk: JsonWebKey): PublicJwk => {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('A signing key must be an EC P-256 key.');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
};

/**
 * A DER ECDSA signature (SEQUENCE { INTEGER r, INTEGER s }, as KMS answers) in JOSE form: r and
 * s, each left-padded (or stripped of DER's sign byte) to `size` bytes, concatenated.
 */
export function derToJose(der: Uint8Array, size = 32): Uint8Array {
  let offset = 0;
  const expect = (tag: number) => {
    if (der[offset] !== tag) throw new Error('Not a DER ECDSA signature.');
    offset++;
  };
  const length = (): number => {
    const first = der[offset++] ?? 0;
    if (first < 0x80) return first;
    let value = 0;
    for (let i = 0; i < (first & 0x7f); i++) value = (value << 8) | (der[offset++] ?? 0);
    return value;
  };
  expect(0x30);
  length();
  const integer = (): Uint8Array => {
    expect(0x02);
    const n = length();
    let bytes = der.subarray(offset, offset + n);
    offset += n;
    while (bytes.length > size && bytes[0] === 0) bytes = bytes.subarray(1);
    if (bytes.length > size) throw new Error('An ECDSA integer is longer than the curve allows.');
    const out = new Uint8Array(size);
    out.set(bytes, size - bytes.length);
    return out;
  };
  const r = integer();
  const s = integer();
  if (offset !== der.length) throw new Error('Trailing bytes after a DER ECDSA signature.');
  const jose = new Uint8Array(size * 2);
  jose.set(r, 0);
  jose.set(s, size);
  return jose;
}

/** A signer over a KMS key (its ARN or id). */
export function kmsSigner(client: KMSClient, kmsKeyId: string, keyId: string): Signer {
  const commands = import('@aws-sdk/client-kms');
  let jwk: Promise<PublicJwk> | undefined;
  return {
    keyId,
    publicJwk() {
      jwk ??= (async () => {
        const { GetPublicKeyCommand } = await commands;
        const out = await client.send(new GetPublicKeyCommand({ KeyId: kmsKeyId }));
        if (!out.PublicKey) throw new Error('KMS GetPublicKey returned no key.');
        return toPublicJwk(createPublicKey({ key: Buffer.from(out.PublicKey), format: 'der', type: 'spki' }).export({ format: 'jwk' }));
      })();
      jwk.catch(() => (jwk = undefined));
      return jwk;
    },
    async sign(bytes) {
      const { SignCommand } = await commands;
      const digest = createHash('sha256').update(bytes).digest();
      const out = await client.send(new SignCommand({ KeyId: kmsKeyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }));
      if (!out.Signature) throw new Error('KMS Sign returned no signature.');
      return derToJose(out.Signature);
    },
  };
}

/** Creates an organization's KMS signing key; answers its ARN. */
export async function createKmsSigningKey(client: KMSClient, orgId: string): Promise<string> {
  const { CreateKeyCommand } = await import('@aws-sdk/client-kms');
  const out = await client.send(
    new CreateKeyCommand({
      KeySpec: 'ECC_NIST_P256',
      KeyUsage: 'SIGN_VERIFY',
      Description: `Signs the passport credentials of organization ${orgId} (docs/credentials.md)`,
      Tags: [...Object.entries(SIGNING_KEY_TAGS).map(([TagKey, TagValue]) => ({ TagKey, TagValue })), { TagKey: 'orgId', TagValue: orgId }],
    }),
  );
  const arn = out.KeyMetadata?.Arn;
  if (!arn) throw new Error('KMS CreateKey returned no key.');
  return arn;
}

/** A signer over a private P-256 JWK. */
export function localSigner(privateJwk: JsonWebKey, keyId: string): Signer {
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' });
  const publicJwk = toPublicJwk(createPublicKey(key).export({ format: 'jwk' }));
  return {
    keyId,
    publicJwk: async () => publicJwk,
    sign: async (bytes) => new Uint8Array(signWithKey('sha256', bytes, { key, dsaEncoding: 'ieee-p1363' })),
  };
}

const KEY_ID = /^[a-z0-9_-]{1,64}$/;
const keyFile = (dir: string, keyId: string): string => {
  if (!KEY_ID.test(keyId)) throw new Error(`Not a signing key id: ${keyId}`);
  return join(dir, `${keyId}.jwk.json`);
};

/** Creates a local P-256 key in `dir` (file mode 0600); answers its public JWK. */
export function createLocalSigningKey(dir: string, keyId: string): PublicJwk {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = keyFile(dir, keyId);
  writeFileSync(file, `${JSON.stringify(privateKey.export({ format: 'jwk' }))}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return toPublicJwk(publicKey.export({ format: 'jwk' }));
}

/** The signer of a local key made by createLocalSigningKey. */
export const loadLocalSigner = (dir: string, keyId: string): Signer =>
  localSigner(JSON.parse(readFileSync(keyFile(dir, keyId), 'utf8')) as JsonWebKey, keyId);
