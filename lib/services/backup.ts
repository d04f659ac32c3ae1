import { createHash } from 'node:crypto';
import { BACKUP_FORMAT, keyOfObject, type BackupObject } from '../domain/backup.ts';
import { categoryOfStored, objectLockOf, type ObjectLock } from '../domain/backup-retention.ts';
import { isEnvironment } from '../domain/tenant.ts';
import { putOnce } from '../data/backup-store.ts';
import { logger } from '../http/logger.ts';

/**
 * The backup copy (docs/backup.md): each published version becomes one object of the backup
 * store, written once. The table's stream brings the items (functions/backup/handler.ts): a
 * passport version's page item (`type = page`: the version and the product fields of its page),
 * a batch's or item's current item (`type = batch | item`), each written once per version, and a
 * version's credential (`type = credential`), stored when it is first signed (docs/credentials.md).
 */
export const BACKED_UP_TYPES = ['page', 'batch', 'item', 'credential'] as const;

/** The object of a stored item, or undefined for an item that is not a published version. */
export function backupObjectOf(item: Record<string, unknown>): BackupObject | undefined {
  const pk = typeof item.PK === 'string' ? item.PK.split('#') : [];
  const [prefix, orgId, environment] = pk;
  if (prefix !== 'T' || !orgId || !environment || !isEnvironment(environment)) return undefined;
  const { PK: _pk, SK: _sk, ...stored } = item;
  if (item.type === 'page') {
    const passport = item.passport as { version?: unknown; digest?: unknown; gtin?: unknown } | undefined;
    const gtin = passport?.gtin ?? item.gtin;
    if (typeof passport?.version !== 'number' || typeof passport.digest !== 'string' || typeof gtin !== 'string') return undefined;
    return { format: BACKUP_FORMAT, kind: 'passport', orgId, environment, gtin, version: passport.version, digest: passport.digest, item: stored };
  }
  if (item.type === 'credential') {
    if (typeof item.gtin !== 'string' || typeof item.version !== 'number' || typeof item.jwt !== 'string') return undefined;
    const digest = `sha256:${createHash('sha256').update(item.jwt, 'utf8').digest('hex')}`;
    return { format: BACKUP_FORMAT, kind: 'credential', orgId, environment, gtin: item.gtin, version: item.version, digest, item: stored };
  }
  if (item.type === 'batch' || item.type === 'item') {
    const value = item.type === 'batch' ? item.lot : item.serial;
    if (typeof item.gtin !== 'string' || typeof value !== 'string' || typeof item.version !== 'number' || typeof item.digest !== 'string') return undefined;
    return { format: BACKUP_FORMAT, kind: item.type, orgId, environment, gtin: item.gtin, value, version: item.version, digest: item.digest, item: stored };
  }
  return undefined;
}

/**
 * The Object Lock a version's objects are written with: the retention of its product's category
 * (lib/domain/backup-retention.ts, docs/backup.md#retention), counted from the write; undefined when
 * the category is not known from the item (a credential, a batch of a product that is no battery):
 * the store's default retention alone.
 */
export const lockOf = (object: BackupObject, now: Date = new Date()): ObjectLock | undefined => objectLockOf(categoryOfStored(object.item), now);

/** What copying one version did. */
export type CopyOutcome = 'written' | 'present' | 'conflict';

/**
 * Writes the version's object unless one exists. An object already there with the same digest is
 * this version copied before (a retried batch): nothing to do. One with another digest is never
 * replaced: it is logged as an error (docs/backup.md#a-version-is-never-overwritten), and the
 * record is not retried, since no retry can change it.
 */
export async function copyVersion(object: BackupObject, now: Date = new Date()): Promise<CopyOutcome> {
  const key = keyOfObject(object);
  const outcome = await putOnce(key, `${JSON.stringify(object)}\n`, object.digest, undefined, {}, lockOf(object, now));
  if (outcome.written) return 'written';
  if (outcome.existingDigest === object.digest) return 'present';
  logger().error('A version already in the backup store has another digest; it was kept, not overwritten', { key, digest: object.digest, existingDigest: outcome.existingDigest });
  return 'conflict';
}
