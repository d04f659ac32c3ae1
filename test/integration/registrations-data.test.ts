import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '../../lib/data/client.ts';
import { getRegistration, insertRegistrationIfAbsent, listRegistrations, registrationPut, updateRegistration } from '../../lib/data/registrations.ts';
import { registrationIdOf, type RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';

/**
 * The registrations' data layer against the stack's DynamoDB (docs/registry.md#registrations): the
 * conditions are DynamoDB's, so they are tested where DynamoDB evaluates them. A registration is
 * written once per identifier, joins a publication's transaction without ever cancelling it, and
 * changes only from the version it was read at.
 */

const newTenant = (): Tenant => ({ orgId: `org_${randomUUID().replaceAll('-', '')}`, environment: 'test' });
const MODEL = 'https://brand.example/01/09506000134352';

function record(tenant: Tenant, upi: string, granularity: 'MODEL' | 'BATCH' | 'ITEM' = 'MODEL', productId = 'p-1'): RegistrationRecord {
  const now = new Date().toISOString();
  return {
    registrationId: registrationIdOf(tenant.orgId, tenant.environment, upi),
    entry: {
      upi,
      reoId: 'LEI-529900T8BM49AURSDO55',
      facilitiesId: ['GLN-4006381000016'],
      liveURL: upi,
      backupURL: 'https://backup.example/copy.json',
      commodityCode: '22042110',
      granularityLevel: granularity,
      ...(granularity === 'ITEM' ? { deactivated: false } : {}),
    },
    granularity,
    productId,
    gtin: '09506000134352',
    ...(granularity === 'ITEM' ? { serial: upi.split('/').at(-1) ?? '' } : {}),
    status: 'pending_checks',
    reasons: [],
    warnings: [],
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

describe('registrations: written once per identifier', () => {
  it('insertRegistrationIfAbsent creates a record once and answers exists the second time, leaving the first', async () => {
    // Prepare
    const tenant = newTenant();
    const first = record(tenant, MODEL);
    // Act
    const created = await insertRegistrationIfAbsent(tenant, first);
    const again = await insertRegistrationIfAbsent(tenant, { ...first, productId: 'p-other' });
    // Assess
    expect([created, again]).toEqual(['created', 'exists']);
    expect(await getRegistration(tenant, first.registrationId)).toEqual(first);
  });

  it('registrationPut joins a transaction: a new record is written, an existing one is left as it is and the transaction still goes through', async () => {
    // Prepare: a record already moved on (registered, version 2)
    const tenant = newTenant();
    const stored = record(tenant, MODEL);
    await insertRegistrationIfAbsent(tenant, stored);
    const registered: RegistrationRecord = { ...stored, status: 'registered', registryId: 'R-1', version: 2, updatedAt: new Date().toISOString() };
    expect(await updateRegistration(tenant, stored, registered)).toBe('written');
    const batch = record(tenant, `${MODEL}/10/L1`, 'BATCH');

    // Act: a second publication of the model, with a new batch, in one transaction
    await db().send(new TransactWriteCommand({ TransactItems: [registrationPut(tenant, { ...stored, productId: 'changed' }), registrationPut(tenant, batch)] }));

    // Assess
    expect(await getRegistration(tenant, stored.registrationId)).toEqual(registered);
    expect(await getRegistration(tenant, batch.registrationId)).toEqual(batch);
  });
});

describe('registrations: a change from the version it was read at', () => {
  it('a second change made from the same version is a conflict, and writes nothing', async () => {
    // Prepare
    const tenant = newTenant();
    const stored = record(tenant, MODEL);
    await insertRegistrationIfAbsent(tenant, stored);
    const ready: RegistrationRecord = { ...stored, status: 'ready', version: 2 };
    const rejected: RegistrationRecord = { ...stored, status: 'rejected', version: 2, reasons: [{ source: 'registry', code: 'x', message: 'No.' }] };

    // Act
    const first = await updateRegistration(tenant, stored, ready);
    const second = await updateRegistration(tenant, stored, rejected);

    // Assess
    expect([first, second]).toEqual(['written', 'conflict']);
    expect((await getRegistration(tenant, stored.registrationId))?.status).toBe('ready');
  });

  it('a conflicting change with items riding along writes none of them', async () => {
    // Prepare: the record moved to version 2 by another writer
    const tenant = newTenant();
    const stored = record(tenant, MODEL);
    await insertRegistrationIfAbsent(tenant, stored);
    await updateRegistration(tenant, stored, { ...stored, status: 'ready', version: 2 });
    const rider = record(tenant, `${MODEL}/10/RIDER`, 'BATCH');

    // Act
    const outcome = await updateRegistration(tenant, stored, { ...stored, status: 'submitted', version: 2 }, [registrationPut(tenant, rider)]);
    const forward = await updateRegistration(tenant, { ...stored, status: 'ready', version: 2 }, { ...stored, status: 'submitted', version: 3 }, [registrationPut(tenant, rider)]);

    // Assess
    expect(outcome).toBe('conflict');
    expect(forward).toBe('written');
    expect((await getRegistration(tenant, stored.registrationId))?.status).toBe('submitted');
    expect(await getRegistration(tenant, rider.registrationId)).toEqual(rider);
  });

  it('a change of a registration that does not exist is a conflict, and a version that does not follow is refused', async () => {
    // Prepare
    const tenant = newTenant();
    const ghost = record(tenant, MODEL);
    // Act / Assess
    expect(await updateRegistration(tenant, ghost, { ...ghost, version: 2 })).toBe('conflict');
    expect(await getRegistration(tenant, ghost.registrationId)).toBeUndefined();
    await expect(updateRegistration(tenant, ghost, { ...ghost, version: 3 })).rejects.toThrow(/does not follow/);
  });
});

describe('registrations: listing', () => {
  it('lists a tenant’s registrations a page at a time, each once, filtered by status, granularity and product', async () => {
    // Prepare: 7 of one product (a model, 6 items, 2 of them ready), 2 batches of another; another tenant's
    const tenant = newTenant();
    const other = newTenant();
    const records = [record(tenant, MODEL), ...[1, 2, 3, 4, 5, 6].map((n) => record(tenant, `${MODEL}/21/S${n}`, 'ITEM')), ...[1, 2].map((n) => record(tenant, `${MODEL}/10/B${n}`, 'BATCH', 'p-2'))];
    for (const one of records) await insertRegistrationIfAbsent(tenant, one);
    await insertRegistrationIfAbsent(other, record(other, MODEL));
    for (const one of records.slice(1, 3)) await updateRegistration(tenant, one, { ...one, status: 'ready', version: 2 });

    // Act: pages of 4
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listRegistrations(tenant, {}, { limit: 4, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((one) => one.registrationId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    const items = await listRegistrations(tenant, { granularity: 'ITEM' }, { limit: 100 });
    const ready = await listRegistrations(tenant, { status: 'ready', granularity: 'ITEM', productId: 'p-1' }, { limit: 1 });
    const readyRest = await listRegistrations(tenant, { status: 'ready' }, { limit: 1, cursor: ready.nextCursor ?? '' });
    const second = await listRegistrations(tenant, { productId: 'p-2' }, { limit: 100 });

    // Assess
    expect(pages).toBe(3);
    expect(seen.toSorted()).toEqual(records.map((one) => one.registrationId).toSorted());
    expect(items.data).toHaveLength(6);
    expect(items.nextCursor).toBeUndefined();
    expect(ready.data).toHaveLength(1);
    expect(ready.nextCursor).toBeDefined();
    expect(readyRest.data).toHaveLength(1);
    expect(readyRest.nextCursor).toBeUndefined();
    expect([...ready.data, ...readyRest.data].map((one) => one.status)).toEqual(['ready', 'ready']);
    expect(second.data.map((one) => one.granularity)).toEqual(['BATCH', 'BATCH']);
  });
});
