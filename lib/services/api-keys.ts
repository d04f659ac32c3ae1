import { insertApiKey, revokeApiKey, type ApiKeyRecord } from '../data/api-keys.ts';
import { newPrefixedId, randomString } from '../domain/ids.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Environment } from '../domain/tenant.ts';
import { hashApiKey, keyPrefix } from '../auth/api-keys.ts';
import { ApiError } from '../http/errors.ts';

export interface IssueKeyInput {
  orgId: string;
  environment: Environment;
  scopes: readonly Scope[];
  name: string;
  now?: string;
}

/** How many active API keys an organization may have, both environments together (docs/security.md). */
export const MAX_ACTIVE_API_KEYS = 100;

/** 422: the organization has as many active keys as it may have. */
export class ApiKeyLimitError extends ApiError<'validation_error'> {
  constructor() {
    super(422, 'validation_error', `This organization already has ${MAX_ACTIVE_API_KEYS} active API keys, the most it may have.`, {
      suggestion: 'Revoke a key you no longer use (DELETE /v1/auth/api-keys/{keyId}), then create the new one.',
    });
  }
}

/**
 * Creates a key; the returned `key` is the only time its value exists outside the caller. 422
 * (ApiKeyLimitError) when the organization already has MAX_ACTIVE_API_KEYS active keys.
 */
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
  if (!(await insertApiKey(record, MAX_ACTIVE_API_KEYS))) throw new ApiKeyLimitError();
  return { key, record };
}

export const revokeKey = (orgId: string, keyId: string): Promise<ApiKeyRecord | undefined> =>
  revokeApiKey(orgId, keyId, new Date().toISOString());
