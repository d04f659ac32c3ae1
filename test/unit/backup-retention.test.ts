import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_RETENTION, categoryOfStored, DEFAULT_LOCK_YEARS, objectLockOf } from '../../lib/domain/backup-retention.ts';
import { CATEGORIES } from '../../lib/domain/enums.ts';
import { backupObjectOf, copyVersion } from '../../lib/services/backup.ts';

/**
 * The backup copy's retention by category (docs/backup.md#retention): each category's period carries
 * its source; a battery's copy is held for the product's life (a legal hold) beside its years of
 * compliance retention, a wine's is kept the default years; and the backup copy writes each object
 * with that lock.
 */
process.env.BACKUP_BUCKET ??= 'passport-backup-test';
const s3 = mockClient(S3Client);
beforeEach(() => {
  s3.reset();
  s3.on(PutObjectCommand).resolves({});
});

const GTIN = '04006381333931';
const PK = 'T#org_0123456789abcdef#live';
const passport = { passportId: 'ps_1', productId: '01900000-0000-7000-8000-000000000001', version: 1, data: {}, createdAt: '2026-01-01T00:00:00.000Z', publishedAt: '2026-01-01T00:00:00.000Z', digest: `sha256:${'1'.repeat(64)}`, gtin: GTIN };
const page = (category: string) => ({ PK, SK: `PAGE#${GTIN}#000001`, type: 'page', productId: passport.productId, name: 'A product', category, gtin: GTIN, qrCodeUrl: `https://id.example/01/${GTIN}`, passport });
const batteryItem = { PK, SK: `ITEM#${GTIN}#SN1`, type: 'item', kind: 'item', productId: passport.productId, gtin: GTIN, serial: 'SN1', status: 'active', data: { generalProductInformation: { productIdentifier: `https://id.example/01/${GTIN}/21/SN1` } }, version: 1, digest: `sha256:${'2'.repeat(64)}` };
const wineItem = { ...batteryItem, data: { alcoholByVolume: 12.5 } };

describe('the retention of each category', () => {
  it('names every category, with a basis, a source and whether it was confirmed, and keeps at least the store default', () => {
    // Assess
    expect(Object.keys(BACKUP_RETENTION).sort()).toEqual([...CATEGORIES].sort());
    for (const [category, retention] of Object.entries(BACKUP_RETENTION)) {
      expect(retention.basis.length, category).toBeGreaterThan(40);
      expect(retention.source.length, category).toBeGreaterThan(10);
      expect(typeof retention.confirmed, category).toBe('boolean');
      expect(retention.lockYears, category).toBeGreaterThanOrEqual(DEFAULT_LOCK_YEARS);
    }
  });

  it("holds a battery's copy for the product's life, and keeps a wine's the default years", () => {
    // Act
    const written = new Date('2027-02-18T10:00:00.000Z');
    const battery = objectLockOf('battery', written);
    const wine = objectLockOf('wine', written);
    // Assess
    expect(battery).toEqual({ retainUntil: new Date('2037-02-18T10:00:00.000Z'), legalHold: true });
    expect(wine).toEqual({ retainUntil: new Date('2037-02-18T10:00:00.000Z'), legalHold: false });
    expect(objectLockOf(undefined, written)).toBeUndefined();
  });

  it('takes the category from a version page, and a battery from its item\'s data; a wine item names none', () => {
    // Assess
    expect(categoryOfStored(page('battery'))).toBe('battery');
    expect(categoryOfStored(page('food'))).toBe('food');
    expect(categoryOfStored(batteryItem)).toBe('battery');
    expect(categoryOfStored(wineItem)).toBeUndefined();
  });
});

describe('the backup copy writes each object with its lock', () => {
  it("puts a battery's version page and item with compliance retention and a legal hold, a wine's page without a hold, a wine item with the store's default", async () => {
    // Prepare
    const now = new Date('2027-03-01T00:00:00.000Z');
    const objects = [page('battery'), batteryItem, page('wine'), wineItem].map((item) => backupObjectOf(item));
    // Act
    for (const object of objects) await copyVersion(object!, now);
    // Assess
    const puts = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(puts.map((put) => [put.ObjectLockMode, put.ObjectLockRetainUntilDate?.toISOString(), put.ObjectLockLegalHoldStatus])).toEqual([
      ['COMPLIANCE', '2037-03-01T00:00:00.000Z', 'ON'],
      ['COMPLIANCE', '2037-03-01T00:00:00.000Z', 'ON'],
      ['COMPLIANCE', '2037-03-01T00:00:00.000Z', undefined],
      [undefined, undefined, undefined],
    ]);
    expect(puts.every((put) => put.IfNoneMatch === '*')).toBe(true);
  });
});
