import { randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeSecretsKey, KMS_ENCRYPTION_CONTEXT, kmsSecretBox, localSecretBox, newSecretsKey } from '../../lib/data/secret-box.ts';

/** docs/security.md, finding 3: webhook signing secrets are sealed at rest. */
const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';
const CONTEXT = 'webhook-endpoint:org_a:whe_a';

describe('the local secret box', () => {
  it('attack: a sealed webhook secret shows nothing of the secret and opens only with its key and its own endpoint context', async () => {
    // Prepare
    const box = localSecretBox(decodeSecretsKey(newSecretsKey()));
    const otherKey = localSecretBox(randomBytes(32));
    // Act
    const sealed = await box.seal(SECRET, CONTEXT);
    const [version, kind, wrapped, iv, ciphertext, tag] = sealed.split('.');
    const tampered = [version, kind, wrapped, iv, `${ciphertext?.slice(0, -2)}AA`, tag].join('.');
    // Assess
    expect(sealed).not.toContain('whsec_');
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url').slice(0, 12));
    expect(await box.open(sealed, CONTEXT)).toBe(SECRET);
    await expect(box.open(sealed, 'webhook-endpoint:org_b:whe_a')).rejects.toThrow();
    await expect(otherKey.open(sealed, CONTEXT)).rejects.toThrow();
    await expect(box.open(tampered, CONTEXT)).rejects.toThrow();
    expect(await box.seal(SECRET, CONTEXT)).not.toBe(sealed); // a fresh IV each time
  });

  it('takes a 32-byte key only', () => {
    // Act + Assess
    expect(() => decodeSecretsKey('too-short')).toThrow(/32 random bytes/);
    expect(decodeSecretsKey(Buffer.alloc(32, 1).toString('base64'))).toHaveLength(32);
  });
});

describe('the KMS secret box', () => {
  const kms = mockClient(KMSClient);
  const dataKey = new Uint8Array(randomBytes(32));
  const wrappedKey = new Uint8Array(Buffer.from('wrapped-data-key-from-kms'));

  beforeEach(() => {
    kms.reset();
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: dataKey, CiphertextBlob: wrappedKey, KeyId: 'key-1' });
    kms.on(DecryptCommand).resolves({ Plaintext: dataKey, KeyId: 'key-1' });
  });

  it('seals with a KMS data key (one GenerateDataKey for a burst of writes) and stores only the wrapped key', async () => {
    // Prepare
    const box = kmsSecretBox(new KMSClient({ region: 'eu-central-1' }), 'alias/secrets');
    // Act
    const first = await box.seal(SECRET, CONTEXT);
    const second = await box.seal('whsec_other', 'webhook-endpoint:org_a:whe_b');
    // Assess
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ KeyId: 'alias/secrets', KeySpec: 'AES_256', EncryptionContext: KMS_ENCRYPTION_CONTEXT });
    expect(first.split('.')[1]).toBe('kms');
    expect(first.split('.')[2]).toBe(Buffer.from(wrappedKey).toString('base64url'));
    expect(first).not.toContain('whsec_');
    expect(await box.open(second, 'webhook-endpoint:org_a:whe_b')).toBe('whsec_other');
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0); // the sealing instance knows its own data key
  });

  it('opens in a cold instance with one Decrypt per wrapped data key, cached while warm; a failed Decrypt is retried', async () => {
    // Prepare: sealed by one instance, opened by another
    const sealer = kmsSecretBox(new KMSClient({ region: 'eu-central-1' }), 'alias/secrets');
    const sealed = await sealer.seal(SECRET, CONTEXT);
    const opener = kmsSecretBox(new KMSClient({ region: 'eu-central-1' }), 'alias/secrets');
    kms.on(DecryptCommand).rejectsOnce(new Error('ThrottlingException')).resolves({ Plaintext: dataKey });
    // Act
    const failed = await opener.open(sealed, CONTEXT).catch((error: Error) => error.message);
    const opened = await Promise.all([opener.open(sealed, CONTEXT), opener.open(sealed, CONTEXT), opener.open(sealed, CONTEXT)]);
    // Assess
    expect(failed).toBe('ThrottlingException');
    expect(opened).toEqual([SECRET, SECRET, SECRET]);
    const decrypts = kms.commandCalls(DecryptCommand);
    expect(decrypts).toHaveLength(2);
    expect(decrypts[1]?.args[0].input).toEqual({ KeyId: 'alias/secrets', CiphertextBlob: Buffer.from(wrappedKey), EncryptionContext: KMS_ENCRYPTION_CONTEXT });
    await expect(opener.open(sealed, 'webhook-endpoint:org_b:whe_a')).rejects.toThrow();
  });

  it('takes a new data key once the old one has been used for 5 minutes', async () => {
    // Prepare
    let now = 0;
    const box = kmsSecretBox(new KMSClient({ region: 'eu-central-1' }), 'alias/secrets', () => now);
    // Act
    await box.seal(SECRET, CONTEXT);
    now = 4 * 60_000;
    await box.seal(SECRET, CONTEXT);
    now = 6 * 60_000;
    await box.seal(SECRET, CONTEXT);
    // Assess
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(2);
  });
});
