import { beforeAll, describe, expect, it } from 'vitest';
import { batteryModelData } from '../support/battery.ts';

/**
 * The public copy's objects (docs/backup.md#the-public-copy): for each passport version, its JSON
 * read form and its page in every language under the primary's page paths, with the headers a
 * reader gets from the primary; a battery passport's public elements only; and `backupUrl` built
 * from the public origin.
 */
const ORIGIN = 'https://backup.example';
process.env.BACKUP_PUBLIC_ORIGIN = ORIGIN;
// The pages in every language, as in AWS (docs/backup.md#the-public-copy).
process.env.BACKUP_PUBLIC_PAGES = 'all';
const { backupObjectOf } = await import('../../lib/services/backup.ts');
const { publicObjectsOf } = await import('../../functions/backup/public-copy.ts');
const { publicCopyUrl, publicUnitKey, unitBackupUrl } = await import('../../lib/domain/backup.ts');

const tenant = { orgId: 'org_0123456789abcdef', environment: 'live' as const };
const GTIN = '04006381333931';
const pageItem = (category: string, data: unknown) => ({
  PK: `T#${tenant.orgId}#live`,
  SK: `PAGE#${GTIN}#000002`,
  type: 'page',
  productId: '01900000-0000-7000-8000-000000000001',
  name: 'Kept for ten years',
  category,
  gtin: GTIN,
  qrCodeUrl: 'https://id.example/01/04006381333931',
  passport: {
    passportId: 'pp_2', productId: '01900000-0000-7000-8000-000000000001', version: 2, status: 'published', data,
    createdAt: '2026-01-02T00:00:00.000Z', publishedAt: '2026-01-02T00:00:00.000Z',
    digest: `sha256:${'2'.repeat(64)}`, previousDigest: `sha256:${'1'.repeat(64)}`, gtin: GTIN,
  },
});

describe('the public objects of a passport version', () => {
  let objects: Awaited<ReturnType<typeof publicObjectsOf>>;
  beforeAll(async () => {
    objects = await publicObjectsOf(backupObjectOf(pageItem('wine', { productType: 'wine', colour: 'red', labelLanguage: 'de' }))!);
  });

  it('holds the JSON read form at the page path with its backupUrl, and the page in each of the 24 languages with its type and language', () => {
    // Act
    const [json, ...pages] = objects;
    // Assess
    const base = `${tenant.orgId}/live/p/${GTIN}/2`;
    expect(json).toMatchObject({ key: `${base}/passport.json`, headers: { contentType: 'application/json; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' } });
    expect(JSON.parse(json!.body)).toMatchObject({ version: 2, digest: `sha256:${'2'.repeat(64)}`, backupUrl: `${ORIGIN}/${base}/passport.json` });
    expect(pages).toHaveLength(24);
    const german = pages.find((page) => page.key === `${base}/de`);
    expect(german?.headers).toEqual({ contentType: 'text/html; charset=utf-8', contentLanguage: 'de', cacheControl: 'public, max-age=31536000, immutable' });
    expect(german?.body).toContain('<html lang="de">');
  });

  it('keeps a battery passport\'s restricted elements out of its JSON and pages', async () => {
    // Prepare: the example's model data holds the battery materials (Annex XIII point 2(a), legitimate interest)
    const data = batteryModelData('ev');
    // Act
    const battery = await publicObjectsOf(backupObjectOf(pageItem('battery', data))!);
    // Assess
    expect(JSON.stringify(data)).toContain('Polyvinylidene fluoride');
    expect(battery).toHaveLength(25);
    for (const object of battery) expect(object.body).not.toContain('Polyvinylidene fluoride');
  });
});

describe('backup URLs', () => {
  it('percent-encodes a serial in the key and the key again in the URL, so a slash stays one segment', () => {
    // Act
    const key = publicUnitKey(tenant, GTIN, 'item', 'SN/7 B', 3);
    // Assess
    expect(key).toBe(`${tenant.orgId}/live/p/${GTIN}/21/SN%2F7%20B/3.json`);
    expect(unitBackupUrl(ORIGIN, tenant, GTIN, 'item', 'SN/7 B', 3)).toBe(`${ORIGIN}/${tenant.orgId}/live/p/${GTIN}/21/SN%252F7%2520B/3.json`);
    expect(publicCopyUrl(`${ORIGIN}/`, key)).toBe(unitBackupUrl(ORIGIN, tenant, GTIN, 'item', 'SN/7 B', 3));
  });
});
