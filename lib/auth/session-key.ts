import { randomBytes } from 'node:crypto';
import { config } from '../config.ts';
import { sdkClientBudget } from '../data/aws-budget.ts';

/**
 * The key that encrypts session cookies (JWE `dir` + A256GCM): 32 bytes, configured base64-encoded
 * as SESSION_SECRET, or held in Secrets Manager (SESSION_SECRET_ARN, read once per instance).
 * Changing it makes every existing cookie undecryptable: everyone is signed out (401).
 */
let loading: Promise<Uint8Array> | undefined;

export function sessionKey(): Promise<Uint8Array> {
  loading ??= loadSessionKey().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function loadSessionKey(): Promise<Uint8Array> {
  const { sessionSecret, sessionSecretArn, region } = config();
  if (sessionSecret) return decodeSessionSecret(sessionSecret);
  if (!sessionSecretArn) throw new Error('No session key is configured: set SESSION_SECRET or SESSION_SECRET_ARN.');
  // Loaded only where a session secret lives in Secrets Manager, so other functions do not pay for it.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({ region, ...sdkClientBudget() });
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: sessionSecretArn }));
    if (!SecretString) throw new Error('The session secret in Secrets Manager has no string value.');
    return decodeSessionSecret(SecretString);
  } finally {
    client.destroy();
  }
}

/** 32 bytes from base64 or base64url text (`openssl rand -base64 32`). */
export function decodeSessionSecret(secret: string): Uint8Array {
  const bytes = Buffer.from(secret.trim(), 'base64');
  if (bytes.length !== 32) throw new Error('The session secret must be 32 random bytes, base64-encoded (openssl rand -base64 32).');
  return new Uint8Array(bytes);
}

/** A fresh session secret in the form SESSION_SECRET takes. */
export const newSessionSecret = (): string => randomBytes(32).toString('base64url');
