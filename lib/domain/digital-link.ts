import type { Tenant } from './tenant.ts';

/**
 * The GS1 Digital Link URI printed on a product: `{origin}/{orgId}/{environment}/01/{gtin14}`.
 * The path before `/01/` is a custom path, which the Digital Link syntax allows; it names the
 * tenant so that the resolver finds the passport with one read. It never changes once issued.
 */
export function digitalLinkUri(resolverOrigin: string, tenant: Tenant, gtin14: string): string {
  return `${resolverOrigin.replace(/\/+$/, '')}/${tenant.orgId}/${tenant.environment}/01/${gtin14}`;
}
