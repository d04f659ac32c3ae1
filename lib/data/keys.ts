import type { Tenant } from '../domain/tenant.ts';

/** Partition of everything a tenant (organization + environment) owns. */
export const tenantPk = (tenant: Tenant): string => `T#${tenant.orgId}#${tenant.environment}`;

/** Partition of an organization's own records (its API keys, its settings). */
export const orgPk = (orgId: string): string => `ORG#${orgId}`;
