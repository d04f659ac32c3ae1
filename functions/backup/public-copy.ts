import { config } from '../../lib/config.ts';
import { backupPublicBucket, putOnce, type ObjectHeaders } from '../../lib/data/backup-store.ts';
import { versionPageFromItem } from '../../lib/data/public-reads.ts';
import { getPublicView } from '../../lib/data/scan-reads.ts';
import { publicPassportKey, publicUnitKey, type BackupObject } from '../../lib/domain/backup.ts';
import { CREDENTIAL_JWT_SEGMENT, PASSPORT_JSON_SEGMENT } from '../../lib/domain/page-urls.ts';
import { unitFromItem, unitValue } from '../../lib/domain/unit.ts';
import { logger } from '../../lib/http/logger.ts';
import { lockOf } from '../../lib/services/backup.ts';
import { IMMUTABLE, versionLanguages, versionPageHtml, versionReadForm } from '../resolver/pages.ts';
import { withLabelTerms } from '../resolver/label-terms.ts';
import { unitPassportView } from '../resolver/unit-pages.ts';

/**
 * The public copy (docs/backup.md#the-public-copy): what anyone may read of each published version,
 * written once to its own bucket beside the private copy, under the paths of the primary's
 * immutable pages, so that it answers when the table or the API cannot:
 * - a passport version: its JSON read form and, where BACKUP_PUBLIC_PAGES=all (in AWS), its page in
 *   each of the 24 languages, made by the same functions as the resolver's pages (a battery
 *   passport's public elements only, Art. 77(2));
 * - its credential, once signed (a battery's holds public elements only: docs/credentials.md);
 * - a batch or item version: its JSON read form with the passport version current when it is
 *   copied (one read of the GTIN item). A record of a product that has published no passport yet
 *   has no public read form, and none is copied.
 * Each object carries the version's digest, like the private copy, and is never overwritten.
 */

interface PublicObject {
  key: string;
  body: string;
  headers: ObjectHeaders;
}

const JSON_HEADERS: ObjectHeaders = { contentType: 'application/json; charset=utf-8', cacheControl: IMMUTABLE };

/** The public objects of one version: none for a version that has no public form (yet). */
export async function publicObjectsOf(object: BackupObject): Promise<PublicObject[]> {
  const tenant = { orgId: object.orgId, environment: object.environment };
  if (object.kind === 'passport') {
    const page = versionPageFromItem(object.item);
    if (!page) return [];
    // The pages show the corrected terms the version names (one GetItem of its set, docs/labelling.md#correcting-a-term).
    const version = config().backupPublicPages ? await withLabelTerms(tenant, page) : page;
    const open = versionReadForm(tenant, version);
    return [
      { key: publicPassportKey(tenant, object.gtin, object.version, PASSPORT_JSON_SEGMENT), body: JSON.stringify(open), headers: JSON_HEADERS },
      // The languages the version offers (docs/labelling.md#sign-off): a language it does not offer has no page to keep.
      ...(config().backupPublicPages ? versionLanguages(version) : []).map((lang) => ({
        key: publicPassportKey(tenant, object.gtin, object.version, lang),
        body: versionPageHtml(version, open, lang),
        headers: { contentType: 'text/html; charset=utf-8', contentLanguage: lang, cacheControl: IMMUTABLE },
      })),
    ];
  }
  if (object.kind === 'credential') {
    const jwt = object.item.jwt;
    return typeof jwt === 'string'
      ? [{ key: publicPassportKey(tenant, object.gtin, object.version, CREDENTIAL_JWT_SEGMENT), body: jwt, headers: { contentType: 'application/vc+jwt', cacheControl: IMMUTABLE } }]
      : [];
  }
  const unit = unitFromItem(object.item, object.kind);
  const view = unit && (await getPublicView(tenant, object.gtin));
  if (!unit || !view?.passport) return [];
  const readForm = unitPassportView(tenant, { ...view, passport: view.passport }, unit);
  return [{ key: publicUnitKey(tenant, object.gtin, unit.kind, unitValue(unit), unit.version), body: JSON.stringify(readForm), headers: JSON_HEADERS }];
}

/**
 * Writes the version's public objects that are not in the public bucket yet. An object already
 * there is kept as it is: with the same digest, a retried record; with another, logged as an error
 * (docs/backup.md#a-version-is-never-overwritten). Nothing when no public bucket is configured.
 */
export async function copyPublicVersion(object: BackupObject): Promise<void> {
  const bucket = backupPublicBucket();
  if (!bucket) return;
  const objects = await publicObjectsOf(object);
  const lock = lockOf(object);
  await Promise.all(
    objects.map(async ({ key, body, headers }) => {
      // The public copy is kept as long as the private one (docs/backup.md#retention).
      const outcome = await putOnce(key, body, object.digest, bucket, headers, lock);
      if (!outcome.written && outcome.existingDigest !== object.digest) {
        logger().error('An object of the public copy already exists with another digest; it was kept, not overwritten', { key, digest: object.digest, existingDigest: outcome.existingDigest });
      }
    }),
  );
}
