import { config } from '../config.ts';
import { insertApiKey, revokeApiKey, type ApiKeyRecord } from '../data/api-keys.ts';
import { eventPut } from '../data/events.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newPrefixedId, randomString } from '../domain/ids.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Environment } from '../domain/tenant.ts';
import { hashApiKey, keyPrefix } from '../auth/api-keys.ts';
import { ApiError } from '../http/errors.ts';
import { SERVICE_ORIGIN } from './service-origin.ts';

export interface IssueKeyInput {
  orgId: string;
  environment: Environment;
  scopes: readonly Scope[];
  name: string;
  now?: string;
  /**
   * Who creates the key: its `api_key.created` event joins the insert's transaction
   * (docs/lifecycle.md#event-log). The system (SERVICE_ORIGIN) when absent: an organization's
   * first keys at onboarding.
   */
  origin?: Origin;
}

/** A key as listings (and its events) show it: masked, never its value or hash. */
export const apiKeyView = (key: ApiKeyRecord) => ({
  id: key.keyId,
  name: key.name,
  scopes: key.scopes,
  environment: key.environment,
  prefix: key.prefix,
  last4: key.last4,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt ?? null,
  rateLimitPerMinute: key.rateLimitPerMinute ?? config().rateLimitPerMinute,
});

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
  // The event lives in the key's own environment's log, and shows the listing form: never the key's value.
  const origin = input.origin ?? SERVICE_ORIGIN;
  const events = [eventPut({ orgId: record.orgId, environment: record.environment }, newEvent('api_key.created', apiKeyView(record), origin, record.createdAt))];
  if (!(await insertApiKey(record, MAX_ACTIVE_API_KEYS, events))) throw new ApiKeyLimitError();
  return { key, record };
}

/**
 * Revokes the organization's key; the call that revokes it writes its `api_key.revoked` event in
 * the same transaction (a repeated revocation changes nothing and writes none).
 */
export function revokeKey(orgId: string, keyId: string, origin: Origin = SERVICE_ORIGIN): Promise<ApiKeyRecord | undefined> {
  const now = new Date().toISOString();
  return revokeApiKey(orgId, keyId, now, (revoked) => [
    eventPut({ orgId, environment: revoked.environment }, newEvent('api_key.revoked', { ...apiKeyView(revoked), revokedAt: now }, origin, now)),
  ]);
}
