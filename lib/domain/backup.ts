import type { Tenant } from './tenant.ts';
import { UNIT_AI, type UnitKind } from './unit.ts';

/**
 * The backup copy of published versions (docs/backup.md): where each version's object lives in the
 * backup store, and what it holds. No AWS and no I/O.
 *
 * Keys, one object per version, never overwritten:
 * - a passport version: `{orgId}/{env}/{gtin14}/v{n}.json`
 * - a batch version: `{orgId}/{env}/{gtin14}/10/{lot}/v{n}.json`
 * - an item version: `{orgId}/{env}/{gtin14}/21/{serial}/v{n}.json`
 * - a passport version's signed credential: `{orgId}/{env}/{gtin14}/v{n}.credential.json`
 * A lot or serial is percent-encoded (GS1's character set allows `/`).
 */
export type BackupKind = 'passport' | 'credential' | UnitKind;

/** The version a backup object holds: the table's item as it was written, without its keys. */
export interface BackupObject {
  /** The object format; restore refuses any other. */
  format: 'dpp-backup/1';
  kind: BackupKind;
  orgId: string;
  environment: Tenant['environment'];
  gtin: string;
  /** The lot (kind batch) or serial (kind item); absent for a passport. */
  value?: string;
  version: number;
  /** The version's digest (docs/lifecycle.md#digest-chain), a credential's the SHA-256 of its JWT; also the object's `digest` metadata. */
  digest: string;
  /** The stored item: a passport's page item (the passport version and the product fields of its page), a credential, a batch's or item's version. */
  item: Record<string, unknown>;
}

export const BACKUP_FORMAT = 'dpp-backup/1';

/** The key prefix of a tenant's objects (restore and verify list it). */
export const tenantBackupPrefix = (tenant: Tenant): string => `${tenant.orgId}/${tenant.environment}/`;

/** The key of one version's object. */
export function backupKey(tenant: Tenant, kind: BackupKind, gtin14: string, version: number, value?: string): string {
  const base = `${tenantBackupPrefix(tenant)}${gtin14}/`;
  if (kind === 'passport') return `${base}v${version}.json`;
  if (kind === 'credential') return `${base}v${version}.credential.json`;
  return `${base}${UNIT_AI[kind]}/${encodeURIComponent(value ?? '')}/v${version}.json`;
}

/** The key of an object as parsed back: undefined for a key that is not a version's. */
export function parseBackupKey(key: string): { orgId: string; environment: string; gtin: string; kind: BackupKind; value?: string; version: number } | undefined {
  const passport = /^([^/]+)\/([^/]+)\/(\d{14})\/v(\d+)\.json$/.exec(key);
  if (passport) return { orgId: passport[1]!, environment: passport[2]!, gtin: passport[3]!, kind: 'passport', version: Number(passport[4]) };
  const credential = /^([^/]+)\/([^/]+)\/(\d{14})\/v(\d+)\.credential\.json$/.exec(key);
  if (credential) return { orgId: credential[1]!, environment: credential[2]!, gtin: credential[3]!, kind: 'credential', version: Number(credential[4]) };
  const unit = /^([^/]+)\/([^/]+)\/(\d{14})\/(10|21)\/([^/]+)\/v(\d+)\.json$/.exec(key);
  if (!unit) return undefined;
  return { orgId: unit[1]!, environment: unit[2]!, gtin: unit[3]!, kind: unit[4] === '10' ? 'batch' : 'item', value: decodeURIComponent(unit[5]!), version: Number(unit[6]) };
}

/** The key of a backup object's version. */
export const keyOfObject = (object: BackupObject): string =>
  backupKey({ orgId: object.orgId, environment: object.environment }, object.kind, object.gtin, object.version, object.value);

// ---- The public copy (docs/backup.md#the-public-copy) -------------------------------------------

/**
 * The public copy: what anyone may read of each published version (a battery's public elements
 * only), in a second bucket, under the same paths as the immutable pages the primary serves
 * (lib/domain/page-urls.ts), so that CloudFront can fail over to it path for path:
 * - a passport version: `{orgId}/{env}/p/{gtin14}/{v}/passport.json`, its page in each language
 *   `…/{v}/{lang}`, and its credential `…/{v}/credential.jwt`;
 * - a batch or item version: `{orgId}/{env}/p/{gtin14}/{10|21}/{lot|serial}/{n}.json` (the lot or
 *   serial percent-encoded), the record's read form with the passport version that was current
 *   when the record's version was copied.
 * Each is written once, like the private copy.
 */
export function publicPassportKey(tenant: Tenant, gtin14: string, version: number, page: string): string {
  return `${tenant.orgId}/${tenant.environment}/p/${gtin14}/${version}/${page}`;
}

export function publicUnitKey(tenant: Tenant, gtin14: string, kind: UnitKind, value: string, version: number): string {
  return `${tenant.orgId}/${tenant.environment}/p/${gtin14}/${UNIT_AI[kind]}/${encodeURIComponent(value)}/${version}.json`;
}

/** The URL of a public copy's object: the public origin and the key, each segment as a URL path segment. */
export const publicCopyUrl = (origin: string, key: string): string =>
  `${origin.replace(/\/+$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;

/** A passport version's `backupUrl`: its JSON read form in the public copy. */
export const passportBackupUrl = (origin: string, tenant: Tenant, gtin14: string, version: number): string =>
  publicCopyUrl(origin, publicPassportKey(tenant, gtin14, version, 'passport.json'));

/** A batch's or item's version's `backupUrl`: its JSON read form in the public copy. */
export const unitBackupUrl = (origin: string, tenant: Tenant, gtin14: string, kind: UnitKind, value: string, version: number): string =>
  publicCopyUrl(origin, publicUnitKey(tenant, gtin14, kind, value, version));
