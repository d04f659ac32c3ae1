import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config.ts';
import { sdkClientBudget } from './aws-budget.ts';

/**
 * Envelope encryption of secrets the service must read back (webhook signing secrets), so that no
 * table item holds one in plaintext (docs/security.md, finding 3).
 *
 * A sealed value is `sbx1.{kind}.{wrapped data key}.{iv}.{ciphertext}.{tag}` (base64url parts):
 * AES-256-GCM under a 32-byte data key, with `context` (e.g. the organization and endpoint id) as
 * additional authenticated data, so a sealed value copied onto another item does not open.
 * - `kms` (AWS, SECRETS_KMS_KEY_ID): the data key comes from KMS GenerateDataKey and is stored
 *   wrapped; opening asks KMS Decrypt once per wrapped data key per warm instance. A sealing
 *   instance reuses its data key for at most 5 minutes, so a burst of writes costs one KMS call.
 * - `local` (SECRETS_KEY, locally `.data/secrets-key`): the data key is the configured key itself.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

const VERSION = 'sbx1';
/** Bound to every KMS call: a data key of this service's secret box opens nowhere else. */
export const KMS_ENCRYPTION_CONTEXT = { service: 'product-passport', purpose: 'secret-box' } as const;
const DATA_KEY_REUSE_MS = 5 * 60 * 1000;

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const unb64 = (text: string): Buffer => Buffer.from(text, 'base64url');

function encrypt(key: Uint8Array, plaintext: string, context: string): { iv: string; ciphertext: string; tag: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: b64(iv), ciphertext: b64(ciphertext), tag: b64(cipher.getAuthTag()) };
}

function decrypt(key: Uint8Array, iv: string, ciphertext: string, tag: string, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, unb64(iv));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(unb64(tag));
  return Buffer.concat([decipher.update(unb64(ciphertext)), decipher.final()]).toString('utf8');
}

interface Parsed {
  kind: string;
  wrappedKey: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

function parse(sealed: string): Parsed {
  const [version, kind, wrappedKey, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || !kind || wrappedKey === undefined || !iv || ciphertext === undefined || !tag || rest.length) {
    throw new Error('Not a sealed secret.');
  }
  return { kind, wrappedKey, iv, ciphertext, tag };
}

/** A box over one local 32-byte key. */
export function localSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes.');
  return {
    seal: async (plaintext, context) => {
      const { iv, ciphertext, tag } = encrypt(key, plaintext, context);
      return [VERSION, 'local', '', iv, ciphertext, tag].join('.');
    },
    open: async (sealed, context) => {
      const parts = parse(sealed);
      if (parts.kind !== 'local') throw new Error(`A secret sealed with '${parts.kind}' cannot be opened with the local key.`);
      return decrypt(key, parts.iv, parts.ciphertext, parts.tag, context);
    },
  };
}

/** A box over a KMS key: envelope encryption with cached data keys. */
export function kmsSecretBox(client: KMSClient, keyId: string, now: () => number = Date.now): SecretBox {
  const opened = new Map<string, Promise<Uint8Array>>();
  let current: { plaintext: Uint8Array; wrapped: string; until: number } | undefined;
  let generating: Promise<NonNullable<typeof current>> | undefined;

  const commands = import('@aws-sdk/client-kms');

  async function dataKey(): Promise<NonNullable<typeof current>> {
    if (current && current.until > now()) return current;
    generating ??= (async () => {
      const { GenerateDataKeyCommand } = await commands;
      const out = await client.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: { ...KMS_ENCRYPTION_CONTEXT } }));
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key.');
      const fresh = { plaintext: out.Plaintext, wrapped: b64(out.CiphertextBlob), until: now() + DATA_KEY_REUSE_MS };
      opened.set(fresh.wrapped, Promise.resolve(fresh.plaintext));
      current = fresh;
      return fresh;
    })().finally(() => {
      generating = undefined;
    });
    return generating;
  }

  function unwrap(wrapped: string): Promise<Uint8Array> {
    let key = opened.get(wrapped);
    if (!key) {
      key = (async () => {
        const { DecryptCommand } = await commands;
        const out = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: unb64(wrapped), EncryptionContext: { ...KMS_ENCRYPTION_CONTEXT } }));
        if (!out.Plaintext) throw new Error('KMS Decrypt returned no key.');
        return out.Plaintext;
      })();
      // A failed Decrypt (throttling, a network blip) is not remembered.
      key.catch(() => opened.delete(wrapped));
      opened.set(wrapped, key);
    }
    return key;
  }

  return {
    seal: async (plaintext, context) => {
      const key = await dataKey();
      const { iv, ciphertext, tag } = encrypt(key.plaintext, plaintext, context);
      return [VERSION, 'kms', key.wrapped, iv, ciphertext, tag].join('.');
    },
    open: async (sealed, context) => {
      const parts = parse(sealed);
      if (parts.kind !== 'kms') throw new Error(`A secret sealed with '${parts.kind}' cannot be opened with KMS.`);
      return decrypt(await unwrap(parts.wrappedKey), parts.iv, parts.ciphertext, parts.tag, context);
    },
  };
}

let box: SecretBox | undefined;

/** The configured box of this process: KMS when SECRETS_KMS_KEY_ID is set, else the local SECRETS_KEY. */
export async function secretBox(): Promise<SecretBox> {
  if (box) return box;
  const { secretsKmsKeyId, secretsKey, region } = config();
  if (secretsKmsKeyId) {
    // Loaded only where secrets are sealed with KMS, so other functions do not pay for the client.
    const { KMSClient } = await import('@aws-sdk/client-kms');
    box = kmsSecretBox(new KMSClient({ region, ...sdkClientBudget() }), secretsKmsKeyId);
  } else if (secretsKey) {
    box = localSecretBox(decodeSecretsKey(secretsKey));
  } else {
    throw new Error('No secrets key is configured: set SECRETS_KMS_KEY_ID or SECRETS_KEY.');
  }
  return box;
}

/** 32 bytes from base64 or base64url text (`openssl rand -base64 32`). */
export function decodeSecretsKey(text: string): Uint8Array {
  const bytes = Buffer.from(text.trim(), 'base64');
  if (bytes.length !== 32) throw new Error('SECRETS_KEY must be 32 random bytes, base64-encoded (openssl rand -base64 32).');
  return new Uint8Array(bytes);
}

/** A fresh key in the form SECRETS_KEY takes. */
export const newSecretsKey = (): string => randomBytes(32).toString('base64url');
