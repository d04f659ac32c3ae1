import { createHash, timingSafeEqual } from 'node:crypto';
import { insertApiKey, revokeApiKey, type ApiKeyRecord } from '../data/api-keys.ts';
import { newPrefixedId, randomString } from '../domain/ids.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Environment } from '../domain/tenant.ts';

/** `sk_live_` or `sk_test_` followed by 32 base-62 characters (about 190 bits). */
export const API_KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

export const keyPrefix = (environment: Environment): string => `sk_${environment}_`;

/** Keys are stored and looked up only as their SHA-256 (hex). */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface IssueKeyInput {
  orgId: string;
  environment: Environment;
  scopes: readonly Scope[];
  name: string;
  now?: string;
}

/** Creates a key; the returned `key` is the only time its value exists outside the caller. */
export async function issueApiKey(input: IssueKeyInput): Promise<{ key: string; record: ApiKeyRecord }> {
  const prefix = keyPrefix(input.environment);
  const key = `${prefix}${randomString(32)}`;
  const record: ApiKeyRecord = {
    keyId: newPrefixedId('key'),
    orgId: input.orgId,
    environment: input.environment,
    name: input.name,
    scopes: [...input.scopes],
    hash: hashApiKey(key),
    prefix,
    last4: key.slice(-4),
    createdAt: input.now ?? new Date().toISOString(),
  };
  await insertApiKey(record);
  return { key, record };
}

export const revokeKey = (orgId: string, keyId: string): Promise<ApiKeyRecord | undefined> =>
  revokeApiKey(orgId, keyId, new Date().toISOString());
