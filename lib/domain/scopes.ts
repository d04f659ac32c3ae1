/** The scopes an API key or a session can hold; docs/api.md#endpoints lists what each route needs. */
export const SCOPES = [
  'products:read',
  'products:write',
  'passports:read',
  'passports:write',
  'suppliers:read',
  'suppliers:write',
  'analytics:read',
  'imports:read',
  'imports:write',
  'events:read',
  'event_subscriptions:read',
  'event_subscriptions:write',
  'labelling:read',
  'labelling:write',
  'access_grants:read',
  'access_grants:write',
  // The EU registry (docs/registry.md#settings): the settings and the registrations.
  'registry:read',
  'registry:write',
  'api_keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Scopes an API key may carry: every scope except the session-only `api_keys:manage`. */
export const API_KEY_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'api_keys:manage');

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
