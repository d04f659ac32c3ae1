import { getObject, listKeys } from '../data/backup-store.ts';
import { putItems, tenantVersionItems } from '../data/backup-restore.ts';
import { unitKey, unitVersionKey } from '../data/items.ts';
import { credentialSk, gtinSk, passportIdSk, passportVersionSk, productSk, tenantPk, versionPageSk } from '../data/keys.ts';
import { BACKUP_FORMAT, backupKey, keyOfObject, parseBackupKey, tenantBackupPrefix, type BackupObject } from '../domain/backup.ts';
import type { Tenant } from '../domain/tenant.ts';
import { unitChainFindings, unitFromItem, unitValue, type UnitKind, type UnitRecord } from '../domain/unit.ts';
import { backupObjectOf } from './backup.ts';

/**
 * Restore and verify (docs/backup.md#restore): the backup copy read back into a table, and the
 * table and the copy compared version by version.
 */
type Item = Record<string, unknown>;

/** Every object of a tenant in the backup store, parsed; a key or body that is not a version's is reported, not restored. */
export const readTenantBackup = (tenant: Tenant) => readBackupUnder(tenantBackupPrefix(tenant));

/** The versions of one batch or item in the backup copy (those readable), as the table stores them: what a repair reads beside the table. */
export async function readUnitBackup(tenant: Tenant, kind: UnitKind, gtin14: string, value: string): Promise<UnitRecord[]> {
  const { objects } = await readBackupUnder(backupKey(tenant, kind, gtin14, 1, value).replace(/v1\.json$/, ''));
  return objects.flatMap((object) => (object.kind === kind && object.value === value ? (unitFromItem(object.item, kind) ?? []) : []));
}

/** Every object under `prefix`, parsed; a key or body that is not a version's is reported. */
async function readBackupUnder(prefix: string): Promise<{ objects: BackupObject[]; unreadable: string[] }> {
  const objects: BackupObject[] = [];
  const unreadable: string[] = [];
  for await (const key of listKeys(prefix)) {
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

/**
 * One version that differs between the table and the backup copy, or a batch's or item's version
 * whose chain is forked on one side (`side`): two versions under one number (`duplicate_version`,
 * `digests` names both), a previousDigest that is not the prior version's digest (`broken_link`), or
 * a digest its version's members do not give (`wrong_digest`).
 */
export interface VerifyFinding {
  key: string;
  problem: 'missing_in_backup' | 'missing_in_table' | 'different_digest' | 'unreadable_in_backup' | 'duplicate_version' | 'broken_link' | 'wrong_digest';
  tableDigest?: string;
  backupDigest?: string;
  side?: 'table' | 'backup';
  digests?: string[];
}

/** The versions of each batch and item among `units` (the table's or the copy's), by record. */
function byRecord(units: readonly UnitRecord[]): Map<string, UnitRecord[]> {
  const out = new Map<string, UnitRecord[]>();
  for (const unit of units) {
    const id = `${unit.kind}#${unit.gtin}#${unitValue(unit)}`;
    out.set(id, [...(out.get(id) ?? []), unit]);
  }
  return out;
}

const CHAIN_PROBLEMS = { duplicate_version: 'duplicate_version', broken_link: 'broken_link', digest: 'wrong_digest' } as const;

/** The forked or broken chains of batches and items among `units`: one finding per version concerned (a gap is a missing version, found by the comparison). */
function chainFindings(tenant: Tenant, units: readonly UnitRecord[], side: 'table' | 'backup'): VerifyFinding[] {
  const findings: VerifyFinding[] = [];
  for (const versions of byRecord(units).values()) {
    for (const found of unitChainFindings(versions)) {
      if (found.problem === 'gap') continue;
      const [first] = versions as [UnitRecord];
      findings.push({ key: backupKey(tenant, first.kind, first.gtin, found.version, unitValue(first)), problem: CHAIN_PROBLEMS[found.problem], side, digests: found.digests });
    }
  }
  return findings;
}

/**
 * Compares a tenant's versions in `table` with the backup copy: each version missing on either
 * side, or stored with another digest; and checks each batch's and item's digest chain on each side
 * (chainFindings: a forked chain, docs/operator-cli.md#repairing-a-batch-or-an-item). An empty list
 * means the two hold the same versions, each chain intact.
 */
export async function verifyTenant(tenant: Tenant, table: string): Promise<{ versions: number; findings: VerifyFinding[] }> {
  const inTable = new Map<string, string>();
  const tableUnits: UnitRecord[] = [];
  for (const item of await tenantVersionItems(table, tenant)) {
    // An earlier version's item has the record's own type for the copy's purposes.
    const asWritten = typeof item.type === 'string' && item.type.endsWith('Version') ? { ...item, type: item.type.slice(0, -'Version'.length) } : item;
    const object = backupObjectOf(asWritten);
    if (!object) continue;
    inTable.set(keyOfObject(object), object.digest);
    const unit = object.kind === 'batch' || object.kind === 'item' ? unitFromItem(object.item, object.kind) : undefined;
    if (unit) tableUnits.push(unit);
  }
  const { objects, unreadable } = await readTenantBackup(tenant);
  const inBackup = new Map(objects.map((object) => [keyOfObject(object), object.digest]));
  const backupUnits = objects.flatMap((object) => (object.kind === 'batch' || object.kind === 'item' ? (unitFromItem(object.item, object.kind) ?? []) : []));
  const findings: VerifyFinding[] = [
    ...unreadable.map((key): VerifyFinding => ({ key, problem: 'unreadable_in_backup' })),
    ...chainFindings(tenant, tableUnits, 'table'),
    ...chainFindings(tenant, backupUnits, 'backup'),
  ];
  for (const [key, tableDigest] of inTable) {
    const backupDigest = inBackup.get(key);
    if (backupDigest === undefined) findings.push({ key, problem: 'missing_in_backup', tableDigest });
    else if (backupDigest !== tableDigest) findings.push({ key, problem: 'different_digest', tableDigest, backupDigest });
  }
  for (const [key, backupDigest] of inBackup) if (!inTable.has(key)) findings.push({ key, problem: 'missing_in_table', backupDigest });
  findings.sort((a, b) => a.key.localeCompare(b.key) || a.problem.localeCompare(b.problem));
  return { versions: new Set([...inTable.keys(), ...inBackup.keys()]).size, findings };
}
