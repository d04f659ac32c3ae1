import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { CreateKeyCommand, GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createKmsSigningKey, derToJose, kmsSigner } from '../../lib/data/signers.ts';
import { decodeStatusList, encodeStatusList, hostDid, organizationDid, STATUS_LIST_BITS, statusBit, statusPosition } from '../../lib/domain/credential.ts';

/**
 * The credential signers and encodings (docs/credentials.md): the KMS signer against a mocked
 * KMS whose DER signatures come from a real P-256 key, so each JOSE signature it returns is
 * checked by node:crypto; the status list's bit order and size; did:web's host encoding.
 */
const kms = mockClient(KMSClient);
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const KEY_ARN = 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';

beforeEach(() => {
  kms.reset();
});

describe('the KMS signer', () => {
  it('asks KMS to sign the SHA-256 digest and turns its DER answers into JOSE signatures node:crypto verifies, whatever the integers’ lengths', async () => {
    // Prepare: KMS signs the digest it is sent; the mock signs the same message with the real key (DER, as KMS answers).
    const messages = new Map<string, Buffer>();
    const lengths = new Set<number>();
    kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => {
      const message = messages.get(Buffer.from(input.Message).toString('hex'));
      if (!message) throw new Error('KMS was not sent the SHA-256 of the message');
      const der = sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
      lengths.add(der.length);
      return { Signature: der, SigningAlgorithm: 'ECDSA_SHA_256' };
    });
    const signer = kmsSigner(new KMSClient({ region: 'eu-central-1' }), KEY_ARN, 'key_1');
    // Act: enough signatures that some r or s have a DER sign byte (33 bytes) or fewer than 32 bytes.
    const results: boolean[] = [];
    for (let i = 0; i < 200; i++) {
      const message = Buffer.from(`header.payload-${i}`);
      messages.set(createHash('sha256').update(message).digest('hex'), message);
      const jose = await signer.sign(message);
      expect(jose).toHaveLength(64);
      results.push(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose));
    }
    // Assess
    expect(results.every(Boolean)).toBe(true);
    expect(lengths.size, 'DER signatures of several lengths (integers with a sign byte, or shorter than 32 bytes)').toBeGreaterThan(1);
    expect(kms.commandCalls(SignCommand)[0]!.args[0].input).toMatchObject({ KeyId: KEY_ARN, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(kms.commandCalls(SignCommand)).toHaveLength(200);
  });

  it('reads the public key once, from its SPKI DER form, as a P-256 JWK', async () => {
    // Prepare
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: publicKey.export({ format: 'der', type: 'spki' }), KeySpec: 'ECC_NIST_P256' });
    const signer = kmsSigner(new KMSClient({ region: 'eu-central-1' }), KEY_ARN, 'key_1');
    // Act
    const first = await signer.publicJwk();
    const second = await signer.publicJwk();
    // Assess
    const expected = publicKey.export({ format: 'jwk' });
    expect(first).toEqual({ kty: 'EC', crv: 'P-256', x: expected.x, y: expected.y });
    expect(second).toEqual(first);
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(createPublicKey({ key: { ...first }, format: 'jwk' }).export({ format: 'der', type: 'spki' })).toEqual(publicKey.export({ format: 'der', type: 'spki' }));
  });

  it('creates an organization’s key as ECC_NIST_P256 SIGN_VERIFY with the tags its IAM grants require', async () => {
    // Prepare
    kms.on(CreateKeyCommand).resolves({ KeyMetadata: { KeyId: 'k', Arn: KEY_ARN } });
    // Act
    const arn = await createKmsSigningKey(new KMSClient({ region: 'eu-central-1' }), 'org_0123456789abcdef');
    // Assess
    expect(arn).toBe(KEY_ARN);
    expect(kms.commandCalls(CreateKeyCommand)[0]!.args[0].input).toMatchObject({
      KeySpec: 'ECC_NIST_P256',
      KeyUsage: 'SIGN_VERIFY',
      Tags: [
        { TagKey: 'service', TagValue: 'product-passport' },
        { TagKey: 'purpose', TagValue: 'credential-signing' },
        { TagKey: 'orgId', TagValue: 'org_0123456789abcdef' },
      ],
    });
  });

  it('converts DER integers with a sign byte or leading zeros, and refuses what is not a DER signature', () => {
    // Prepare: r = 0x00 0x80…(32 bytes with the high bit, so DER prefixes 0x00), s = 0x01 (one byte).
    const r = Buffer.concat([Buffer.from([0x00, 0x80]), Buffer.alloc(31, 0x11)]);
    const s = Buffer.from([0x01]);
    const der = Buffer.concat([Buffer.from([0x30, 2 + r.length + 2 + s.length, 0x02, r.length]), r, Buffer.from([0x02, s.length]), s]);
    // Act
    const jose = derToJose(der);
    // Assess
    expect(Buffer.from(jose.subarray(0, 32))).toEqual(r.subarray(1));
    expect(Buffer.from(jose.subarray(32))).toEqual(Buffer.concat([Buffer.alloc(31), s]));
    expect(() => derToJose(Buffer.from([0x31, 0x00]))).toThrow(/DER/);
    expect(() => derToJose(Buffer.concat([der, Buffer.from([0])]))).toThrow(/Trailing/);
  });
});

describe('the status list encoding', () => {
  it('is a GZIP of at least 131,072 bits behind the multibase prefix u, bit 0 the first byte’s leftmost bit', () => {
    // Act
    const encoded = encodeStatusList([0, 9, STATUS_LIST_BITS - 1]);
    const bits = decodeStatusList(encoded);
    // Assess
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    expect(bits.length * 8).toBe(131_072);
    expect(bits[0]).toBe(0x80);
    expect(bits[1]).toBe(0x40);
    expect(bits[bits.length - 1]).toBe(0x01);
    expect([0, 1, 9, 10, STATUS_LIST_BITS - 1].map((b) => statusBit(bits, b))).toEqual([true, false, true, false, true]);
    expect(() => encodeStatusList([STATUS_LIST_BITS])).toThrow(/outside/);
  });

  it('places an index in its list: 131,072 products a list', () => {
    // Assess
    expect(statusPosition(0)).toEqual({ list: 1, bit: 0 });
    expect(statusPosition(131_071)).toEqual({ list: 1, bit: 131_071 });
    expect(statusPosition(131_072)).toEqual({ list: 2, bit: 0 });
  });
});

describe('did:web identifiers', () => {
  it('encode the port as %3A and the path with colons; a brand host is the bare hostname', () => {
    // Assess
    expect(organizationDid('http://localhost:3000', 'org_0123456789abcdef')).toBe('did:web:localhost%3A3000:orgs:org_0123456789abcdef');
    expect(organizationDid('https://id.passport.example/', 'org_0123456789abcdef')).toBe('did:web:id.passport.example:orgs:org_0123456789abcdef');
    expect(hostDid('id.brand.example')).toBe('did:web:id.brand.example');
  });
});
