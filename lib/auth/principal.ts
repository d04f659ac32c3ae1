import type { Scope } from '../domain/scopes.ts';
import type { Tenant } from '../domain/tenant.ts';

/** Who is calling: resolved by the authentication step, used by every operation. */
export interface Principal {
  kind: 'apiKey';
  keyId: string;
  tenant: Tenant;
  scopes: readonly Scope[];
}
