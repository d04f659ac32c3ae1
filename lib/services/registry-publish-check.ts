import { listDomains } from '../data/domains.ts';
import type { Category } from '../domain/enums.ts';
import type { ProductRecord } from '../domain/product.ts';
import { batchUpiOf, modelUpiOf } from '../domain/registry/build.ts';
import { publishTimeReasons, type PublicationRegistryCheck } from '../domain/registry/publish-check.ts';
import { newRegistration, type PublishedIdentifier } from '../domain/registry/settings.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { UnitRecord } from '../domain/unit.ts';
import { modelIdentifier, registrySettingsForPublishing, unitIdentifier } from './registrations.ts';

/**
 * The registry's pre-checks at publish time (issue 39 point 2; docs/registry.md#at-publish-time): the
 * registration a publication made (or found), with what would hold it back or warn, as the checks
 * stand now. Undefined when registration is off. The settings' cached read and one Query of the
 * organization's domains; nothing written. The publishing routes answer it after the publication;
 * imports do not (a row's answer has no room for it; the registrations list shows the same reasons
 * once checked).
 */
async function checkOf(tenant: Tenant, identifier: PublishedIdentifier, category: Category): Promise<PublicationRegistryCheck | undefined> {
  const settings = await registrySettingsForPublishing(tenant);
  if (!settings?.enabled) return undefined;
  const record = newRegistration(tenant, settings, identifier, new Date().toISOString());
  const hosts = (await listDomains(tenant.orgId)).filter((d) => d.status === 'verified').map((d) => d.hostname.toLowerCase());
  const model = modelUpiOf(record.entry.upi);
  const links = { model, ...(record.granularity === 'ITEM' && record.lot !== undefined ? { batch: batchUpiOf(model, record.lot) } : {}) };
  const reasons = publishTimeReasons(record.entry, { verifiedHosts: hosts, category, links });
  return { registrationId: record.registrationId, warnings: reasons.map(({ code, field, message }) => ({ code, field, message })) };
}

/** A published passport version's registration (the model's). */
export const modelRegistryCheck = (tenant: Tenant, product: ProductRecord, version: number) => checkOf(tenant, modelIdentifier(tenant, product, version), product.category);

/** A new batch's or item's registration. */
export const unitRegistryCheck = (tenant: Tenant, product: ProductRecord, unit: UnitRecord) => checkOf(tenant, unitIdentifier(tenant, product, unit), product.category);
