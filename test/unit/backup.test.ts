import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backupKey, keyOfObject, parseBackupKey } from '../../lib/domain/backup.ts';
import { backupObjectOf } from '../../lib/services/backup.ts';
import { restoreItems } from '../../lib/services/backup-restore.ts';

/**
 * The backup copy's keys and objects (docs/backup.md#what-is-copied-where): which stored items
 * become an object, under which key, and the items a restore rebuilds from them.
 */
const tenant = { orgId: 'org_0123456789abcdef', environment: 'live' as const };
const GTIN = '04006381333931';
const passport = (version: number) => ({
  passportId: `pp_${version}`,
  productId: '01900000-0000-7000-8000-000000000001',
  version,
  status: 'active',
  data: { productType: 'wine' },
  createdAt: '2026-01-01T00:00:00.000Z',
  publishedAt: `2026-01-0${version}T00:00:00.000Z`,
  digest: `sha256:${String(version).repeat(64)}`,
  previousDigest: version === 1 ? null : `sha256:${String(version - 1).repeat(64)}`,
  gtin: GTIN,
});
const page = (version: number) => ({
  PK: `T#${tenant.orgId}#live`,
  SK: `PAGE#${GTIN}#00000${version}`,
  type: 'page',
  productId: passport(version).productId,
  name: 'Riesling',
  category: 'wine',
  gtin: GTIN,
  qrCodeUrl: 'https://id.example/01/04006381333931',
  passport: passport(version),
});

describe('backup keys', () => {
  it('names a passport, credential, batch and item version by tenant, GTIN, lot or serial and version, and reads each key back', () => {
    // Act
    const keys = [
      backupKey(tenant, 'passport', GTIN, 3),
      backupKey(tenant, 'credential', GTIN, 3),
      backupKey(tenant, 'batch', GTIN, 2, 'L/26 A'),
      backupKey(tenant, 'item', GTIN, 1, 'SN%1'),
    ];
    // Assess
    expect(keys).toEqual([
      `${tenant.orgId}/live/${GTIN}/v3.json`,
      `${tenant.orgId}/live/${GTIN}/v3.credential.json`,
      `${tenant.orgId}/live/${GTIN}/10/L%2F26%20A/v2.json`,
      `${tenant.orgId}/live/${GTIN}/21/SN%251/v1.json`,
    ]);
    expect(keys.map(parseBackupKey)).toEqual([
      { orgId: tenant.orgId, environment: 'live', gtin: GTIN, kind: 'passport', version: 3 },
      { orgId: tenant.orgId, environment: 'live', gtin: GTIN, kind: 'credential', version: 3 },
      { orgId: tenant.orgId, environment: 'live', gtin: GTIN, kind: 'batch', value: 'L/26 A', version: 2 },
      { orgId: tenant.orgId, environment: 'live', gtin: GTIN, kind: 'item', value: 'SN%1', version: 1 },
    ]);
    expect(parseBackupKey(`${tenant.orgId}/live/${GTIN}/v3.json.bak`)).toBeUndefined();
  });
});

describe('what becomes an object', () => {
  it('copies a page item as its passport version with the version digest, and nothing of another type or tenant form', () => {
    // Act
    const object = backupObjectOf(page(2));
    // Assess
    expect(object).toMatchObject({ format: 'dpp-backup/1', kind: 'passport', orgId: tenant.orgId, environment: 'live', gtin: GTIN, version: 2, digest: passport(2).digest });
    expect(object?.item).not.toHaveProperty('PK');
    expect(keyOfObject(object!)).toBe(`${tenant.orgId}/live/${GTIN}/v2.json`);
    expect(backupObjectOf({ ...page(2), type: 'passport' })).toBeUndefined();
    expect(backupObjectOf({ ...page(2), PK: `EVENTS#${tenant.orgId}#live` })).toBeUndefined();
    expect(backupObjectOf({ ...page(2), PK: `T#${tenant.orgId}#staging` })).toBeUndefined();
  });

  it('gives a credential the SHA-256 of its JWT as its digest', () => {
    // Act
    const object = backupObjectOf({ PK: `T#${tenant.orgId}#live`, SK: `VC#${GTIN}#000001`, type: 'credential', gtin: GTIN, version: 1, keyId: 'k1', jwt: 'a.b.c' });
    // Assess
    expect(object?.digest).toBe(`sha256:${createHash('sha256').update('a.b.c').digest('hex')}`);
    expect(object).toMatchObject({ kind: 'credential', version: 1, item: { jwt: 'a.b.c' } });
  });
});

describe('what a restore writes', () => {
  it('rebuilds each passport version with its page and id pointer, and the product at its newest version and digest', () => {
    // Prepare
    const objects = [3, 1, 2].map((v) => backupObjectOf(page(v))!);
    // Act
    const { items, products, passportVersions } = restoreItems(tenant, objects);
    // Assess
    expect(products).toBe(1);
    expect(passportVersions).toBe(3);
    const product = items.find((item) => item.type === 'product');
    expect(product).toMatchObject({ SK: `PRODUCT#${passport(1).productId}`, passportVersion: 3, passportDigest: passport(3).digest, createdAt: passport(1).publishedAt, granularity: 'model' });
    expect(items.filter((item) => item.type === 'passport').map((item) => item.SK)).toEqual([1, 2, 3].map((v) => `PASSPORT#${passport(1).productId}#00000${v}`));
    expect(items.find((item) => item.type === 'gtin')).toMatchObject({ SK: `GTIN#${GTIN}`, passport: passport(3) });
  });
});
