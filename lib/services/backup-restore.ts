import { getObject, listKeys } from '../data/backup-store.ts';
import { putItems, tenantVersionItems } from '../data/backup-restore.ts';
import { unitKey, unitVersionKey } from '../data/items.ts';
import { credentialSk, gtinSk, passportIdSk, passportVersionSk, productSk, tenantPk, versionPageSk } from '../data/keys.ts';
import { BACKUP_FORMAT, keyOfObject, parseBackupKey, tenantBackupPrefix, type BackupObject } from '../domain/backup.ts';
import type { Tenant } from '../domain/tenant.ts';
import { backupObjectOf } from './backup.ts';

/**
 * Restore and verify (docs/backup.md#restore): the backup copy read back into a table, and the
 * table and the copy compared version by version.
 */
type Item = Record<string, unknown>;

/** Every object of a tenant in the backup store, parsed; a key or body that is not a version's is reported, not restored. */
export async function readTenantBackup(tenant: Tenant): Promise<{ objects: BackupObject[]; unreadable: string[] }> {
  const objects: BackupObject[] = [];
  const unreadable: string[] = [];
  for await (const key of listKeys(tenantBackupPrefix(tenant))) {
    const parsed = parseBackupKey(key);
    const stored = parsed ? await getObject(key) : undefined;
    let object: BackupObject | undefined;
    try {
      object = stored ? (JSON.parse(stored.body) as BackupObject) : undefined;
    } catch {
      object = undefined;
    }
    if (!object || object.format !== BACKUP_FORMAT || keyOfObject(object) !== key || stored?.digest !== object.digest) unreadable.push(key);
    else objects.push(object);
  }
  return { objects, unreadable };
}

/** The items that rebuild a tenant's published versions from its objects (docs/backup.md#restore). */
export function restoreItems(tenant: Tenant, objects: readonly BackupObject[]): { items: Item[]; products: number; passportVersions: number; unitVersions: number; credentials: number } {
  const pk = tenantPk(tenant);
  const items: Item[] = [];
  const pages = new Map<string, BackupObject[]>();
  const units = new Map<string, BackupObject[]>();
  const unitKinds = new Map<string, Set<string>>();
  let credentials = 0;
  for (const object of objects) {
    if (object.kind === 'credential') {
      items.push({ ...object.item, PK: pk, SK: credentialSk(object.gtin, object.version) });
      credentials++;
    } else if (object.kind === 'passport') {
      const productId = String(object.item.productId);
      pages.set(productId, [...(pages.get(productId) ?? []), object]);
    } else {
      const id = `${object.kind}#${object.gtin}#${object.value ?? ''}`;
      units.set(id, [...(units.get(id) ?? []), object]);
      unitKinds.set(object.gtin, (unitKinds.get(object.gtin) ?? new Set()).add(object.kind));
    }
  }
  let passportVersions = 0;
  for (const [productId, versions] of pages) {
    versions.sort((a, b) => a.version - b.version);
    for (const object of versions) {
      const passport = object.item.passport as Item & { passportId: string; version: number };
      items.push({ ...object.item, PK: pk, SK: versionPageSk(object.gtin, object.version) });
      items.push({ PK: pk, SK: passportVersionSk(productId, object.version), type: 'passport', ...passport });
      items.push({ PK: pk, SK: passportIdSk(passport.passportId), type: 'passportId', productId, version: object.version });
      passportVersions++;
    }
    // The product and its GTIN claim, from the newest page: what the copy holds of the product (docs/backup.md#restore).
    const first = versions[0]!;
    const newest = versions.at(-1)!;
    const newestPassport = newest.item.passport as Item & { publishedAt: string; digest: string };
    const kinds = unitKinds.get(newest.gtin);
    const granularity = kinds?.has('item') ? 'item' : kinds?.has('batch') ? 'batch' : 'model';
    const shown = { productId, name: newest.item.name, category: newest.item.category, gtin: newest.gtin, qrCodeUrl: newest.item.qrCodeUrl, granularity };
    items.push({
      PK: pk,
      SK: productSk(productId),
      type: 'product',
      ...shown,
      orgId: tenant.orgId,
      environment: tenant.environment,
      createdAt: (first.item.passport as Item & { publishedAt: string }).publishedAt,
      updatedAt: newestPassport.publishedAt,
      passportVersion: newest.version,
      passportDigest: newestPassport.digest,
    });
    items.push({ PK: pk, SK: gtinSk(newest.gtin), type: 'gtin', ...shown, passport: newest.item.passport });
  }
  let unitVersions = 0;
  for (const versions of units.values()) {
    versions.sort((a, b) => a.version - b.version);
    const newest = versions.at(-1)!;
    for (const object of versions) {
      const kind = object.kind as 'batch' | 'item';
      const key = object === newest ? unitKey(tenant, kind, object.gtin, object.value ?? '') : unitVersionKey(tenant, kind, object.gtin, object.value ?? '', object.version);
      items.push({ ...object.item, ...key, type: object === newest ? kind : `${kind}Version` });
      unitVersions++;
    }
  }
  return { items, products: pages.size, passportVersions, unitVersions, credentials };
}

export interface RestoreReport {
  table: string;
  products: number;
  passportVersions: number;
  unitVersions: number;
  credentials: number;
  itemsWritten: number;
  /** Keys under the tenant's prefix that are not a readable version object (not restored). */
  unreadable: string[];
}

/** Rebuilds a tenant's products, passports, batches and items with their version histories in `table` from the backup store. */
export async function restoreTenant(tenant: Tenant, table: string): Promise<RestoreReport> {
  const { objects, unreadable } = await readTenantBackup(tenant);
  const { items, products, passportVersions, unitVersions, credentials } = restoreItems(tenant, objects);
  await putItems(table, items);
  return { table, products, passportVersions, unitVersions, credentials, itemsWritten: items.length, unreadable };
}

/** One version that differs between the table and the backup copy. */
export interface VerifyFinding {
  key: string;
  problem: 'missing_in_backup' | 'missing_in_table' | 'different_digest' | 'unreadable_in_backup';
  tableDigest?: string;
  backupDigest?: string;
}

/**
 * Compares a tenant's versions in `table` with the backup copy: each version missing on either
 * side, or stored with another digest. An empty list means the two hold the same versions.
 */
export async function verifyTenant(tenant: Tenant, table: string): Promise<{ versions: number; findings: VerifyFinding[] }> {
  const inTable = new Map<string, string>();
  for (const item of await tenantVersionItems(table, tenant)) {
    // An earlier version's item has the record's own type for the copy's purposes.
    const asWritten = typeof item.type === 'string' && item.type.endsWith('Version') ? { ...item, type: item.type.slice(0, -'Version'.length) } : item;
    const object = backupObjectOf(asWritten);
    if (object) inTable.set(keyOfObject(object), object.digest);
  }
  const { objects, unreadable } = await readTenantBackup(tenant);
  const inBackup = new Map(objects.map((object) => [keyOfObject(object), object.digest]));
  const findings: VerifyFinding[] = unreadable.map((key) => ({ key, problem: 'unreadable_in_backup' }));
  for (const [key, tableDigest] of inTable) {
    const backupDigest = inBackup.get(key);
    if (backupDigest === undefined) findings.push({ key, problem: 'missing_in_backup', tableDigest });
    else if (backupDigest !== tableDigest) findings.push({ key, problem: 'different_digest', tableDigest, backupDigest });
  }
  for (const [key, backupDigest] of inBackup) if (!inTable.has(key)) findings.push({ key, problem: 'missing_in_table', backupDigest });
  findings.sort((a, b) => a.key.localeCompare(b.key));
  return { versions: new Set([...inTable.keys(), ...inBackup.keys()]).size, findings };
}
