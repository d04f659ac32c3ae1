import { insertApiKey, revokeApiKey, type ApiKeyRecord } from '../data/api-keys.ts';
import { newPrefixedId, randomString } from '../domain/ids.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Environment } from '../domain/tenant.ts';
import { hashApiKey, keyPrefix } from '../auth/api-keys.ts';

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
