import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { currentItem, getUnit, unitVersionKey } from '../../lib/data/items.ts';
import { backupKey } from '../../lib/domain/backup.ts';
import { nextUnitVersion, unitFromItem } from '../../lib/domain/unit.ts';
import { admin } from '../support/admin.ts';
import { call, expectError, newOrg } from '../support/api.ts';
import { createProduct } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

/**
 * Issue 37, finding 2, after the fact: an item whose chain a bulk registration forked before its
 * writes were conditional (a stale version 2 put over the current version 3, as the old unconditional
 * BatchWriteItem did). `backup verify` finds the fork, a PUT of the item answers 409 rather than 500,
 * and `items repair` rebuilds the chain (version 3 from the backup copy, which kept it), after which
 * the item takes writes again and the table and the copy agree.
 */
const stack = inject('stack');
// The store as the backup function reaches it (lib/data/backup-store.ts reads these).
Object.assign(process.env, { BACKUP_BUCKET: stack.backupBucket, S3_ENDPOINT: stack.backupEndpoint });
const { getObject } = await import('../../lib/data/backup-store.ts');

type Json = any;

describe('a forked item chain: backup verify finds it, items repair mends it', { timeout: 240_000 }, () => {
  it('finds two versions 2 and the lost version 3, answers a PUT 409, and after the repair the item is version 3 again, takes writes and verifies clean', async () => {
    // Prepare: version 1 to 3 through the API, each copied to the backup store
    const org = await newOrg('Items repair');
    const jam = await createProduct(org.live, { name: 'Forked jam', category: 'food', granularity: 'item' });
    const tenant = { orgId: org.orgId, environment: 'live' as const };
    const gtin14 = `0${jam.gtin}`;
    const serial = 'FORK-1';
    const path = `/v1/products/${jam.productId}/items/${serial}`;
    const acknowledged: Json[] = [];
    for (const weightG of [250, 251, 252]) acknowledged.push((await call('PUT', path, { key: org.live, body: { data: { weightG } } })).body);
    const copied = (version: number) => until(`v${version} copied`, async () => getObject(backupKey(tenant, 'item', gtin14, version, serial)), 60_000);
    await Promise.all([1, 2, 3].map(copied));
    // The fork, as the unconditional bulk write made it: a version 2 planned from version 1 put over version 3
    const { Item: v1Item } = await db().send(new GetCommand({ TableName: tableName(), Key: unitVersionKey(tenant, 'item', gtin14, serial, 1), ConsistentRead: true }));
    const v1 = unitFromItem(v1Item, 'item')!;
    const forked = nextUnitVersion({ kind: 'item', productId: jam.productId, gtin: gtin14, value: serial }, v1, { status: 'active', data: { weightG: 999 } }, new Date().toISOString(), 'imp_forked');
    await db().send(new PutCommand({ TableName: tableName(), Item: currentItem(tenant, forked) }));

    // Act
    const wedged = await call('PUT', path, { key: org.live, body: { data: { weightG: 260 } } });
    const [verified, planned] = await Promise.all([
      admin(['backup', 'verify', '--org', org.orgId, '--json']),
      admin(['items', 'repair', '--org', org.orgId, '--product', jam.productId, '--serial', serial, '--dry-run', '--json']),
    ]);
    const repaired = await admin(['items', 'repair', '--org', org.orgId, '--product', jam.productId, '--serial', serial, '--json']);
    const read = await call('GET', path, { key: org.live });
    const written = await call('PUT', path, { key: org.live, body: { data: { weightG: 260 } } });
    await copied(4);
    const [again, clean] = await Promise.all([
      admin(['items', 'repair', '--org', org.orgId, '--product', jam.productId, '--serial', serial, '--json']),
      admin(['backup', 'verify', '--org', org.orgId, '--json']),
    ]);

    // Assess: the forked item refuses writes with 409, never 500
    expectError(wedged, 409, 'conflict', 'serial');
    // backup verify: two versions 2 in the table, version 3 only in the copy
    expect(verified.code, verified.stderr).toBe(1);
    const key = (version: number) => backupKey(tenant, 'item', gtin14, version, serial);
    expect(JSON.parse(verified.stdout).findings).toEqual([
      { key: key(2), problem: 'duplicate_version', side: 'table', digests: expect.arrayContaining([acknowledged[1].digest, forked.digest]) },
      { key: key(3), problem: 'missing_in_table', backupDigest: acknowledged[2].digest },
    ]);
    // The dry run plans what the repair then does: versions 1 to 3 (3 from the copy), the forked version 2 left out whole
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ outcome: 'planned', chain: [{ version: 1 }, { version: 2 }, { version: 3, from: 'backup' }] });
    expect(repaired.code, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout);
    expect(report).toMatchObject({ outcome: 'repaired', findings: [{ version: 2, problem: 'duplicate_version' }] });
    expect(report.chain.map((v: Json) => v.digest)).toEqual(acknowledged.map((unit) => unit.digest));
    expect(report.dropped).toEqual([expect.objectContaining({ version: 2, digest: forked.digest, data: { weightG: 999 } })]);
    // The item is its acknowledged version 3 again and takes the next write; the table and the copy agree
    expect(read.body).toMatchObject({ version: 3, digest: acknowledged[2].digest, data: { weightG: 252 } });
    expect(written.status, written.text).toBe(200);
    expect(written.body).toMatchObject({ version: 4, previousDigest: acknowledged[2].digest });
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'intact', findings: [], dropped: [] });
    expect(clean.code, clean.stdout).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ versions: 4, findings: [] });
    expect((await getUnit(tenant, 'item', gtin14, serial, true))?.version).toBe(4);
  });
});
