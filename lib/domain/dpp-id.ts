import { isEnvironment, type Tenant } from './tenant.ts';
import { isUnitValue, type UnitKind } from './unit.ts';

/** What a DPP id names: one tenant's product (by GTIN-14), or one of its batches or items. */
export interface DppRef {
  tenant: Tenant;
  gtin14: string;
  unit?: { kind: UnitKind; value: string };
}

/** DPP ids are at most this long; a longer path segment is not decoded. */
export const DPP_ID_MAX_LENGTH = 200;

/**
 * The id of a passport in the EN 18222 read API (docs/access.md#reads): `dpp_` and the base64url of
 * `{orgId} {environment} {gtin14}` (and ` 10 {lot}` or ` 21 {serial}`). Stable for the product's
 * (or record's) life, and it names the tenant, so that a reader of another organization can ask for it.
 */
export function dppIdOf(ref: DppRef): string {
  const parts = [ref.tenant.orgId, ref.tenant.environment, ref.gtin14, ...(ref.unit ? [ref.unit.kind === 'batch' ? '10' : '21', ref.unit.value] : [])];
  return `dpp_${Buffer.from(parts.join(' '), 'utf8').toString('base64url')}`;
}

/** The reference a DPP id names, or undefined for anything that was never handed out (a non-canonical spelling included). */
export function parseDppId(id: string): DppRef | undefined {
  if (id.length > DPP_ID_MAX_LENGTH || !/^dpp_[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const parts = Buffer.from(id.slice(4), 'base64url').toString('utf8').split(' ');
  const [orgId, environment, gtin14, ai, value] = parts;
  if (!orgId || !/^org_[0-9A-Za-z]{1,64}$/.test(orgId) || environment === undefined || !isEnvironment(environment) || !gtin14 || !/^\d{14}$/.test(gtin14)) return undefined;
  let ref: DppRef;
  if (parts.length === 3) ref = { tenant: { orgId, environment }, gtin14 };
  else if (parts.length !== 5 || (ai !== '10' && ai !== '21') || value === undefined || !isUnitValue(value)) return undefined;
  else ref = { tenant: { orgId, environment }, gtin14, unit: { kind: ai === '10' ? 'batch' : 'item', value } };
  // Only the canonical form names a passport: base64url has other spellings of the same bytes (a
  // last character with other padding bits, '=' padding), and a log must name one id per passport.
  return dppIdOf(ref) === id ? ref : undefined;
}

