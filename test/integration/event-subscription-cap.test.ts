import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { subscriptionCountKey, subscriptionSk, tenantPk } from '../../lib/data/keys.ts';
import { MAX_EVENT_SUBSCRIPTIONS } from '../../lib/domain/event-subscription.ts';
import { call, expectError, newOrg, type ApiResponse, type TestOrg } from '../support/api.ts';

/**
 * docs/security.md (review finding 3): a tenant (an organization's live or test environment) has at
 * most MAX_EVENT_SUBSCRIPTIONS event subscriptions, kept exactly by a count item changed in the
 * transaction of every insert and delete; the list is paged. The subscriptions take an event type
 * none of these tests causes, and a loopback URL the local stack allows, so nothing is delivered.
 */
const body = (i: number | string) => ({ url: `http://127.0.0.1:9/hook-${i}`, events: ['passport.published'] });
const create = (key: string, i: number | string): Promise<ApiResponse> => call('POST', '/v1/event-subscriptions', { key, body: body(i) });

async function createMany(key: string, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const response = await create(key, i);
    if (response.status !== 201) throw new Error(`create: ${response.status} ${response.text}`);
    ids.push(String(response.body.id));
  }
  return ids;
}

/** Every subscription id of the key's tenant, following the cursor pages of `limit`. */
async function listAll(key: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit), ...(ids.length ? { starting_after: ids.at(-1)! } : {}) });
    const page = await call('GET', `/v1/event-subscriptions?${query}`, { key });
    if (page.status !== 200) throw new Error(`list: ${page.status} ${page.text}`);
    pages++;
    ids.push(...(page.body.data as { id: string }[]).map((s) => s.id));
    if (!page.body.hasMore) return { ids, pages };
  }
}

let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Subscription Cap Winery');
});

describe('the cap on event subscriptions', () => {
  it('attack: a tenant subscribing without end is stopped at 20 subscriptions, exactly, even by concurrent creates; deleting frees a place', { timeout: 60_000 }, async () => {
    // Prepare: subscriptions up to 5 under the cap
    await createMany(org.live, MAX_EVENT_SUBSCRIPTIONS - 5);
    // Act: 12 concurrent creates race for the last 5 places
    const racing = await Promise.all(Array.from({ length: 12 }, (_, i) => create(org.live, `race-${i}`)));
    const listed = await listAll(org.live, 100);
    const refused = racing.find((r) => r.status !== 201)!;
    const deleted = await call('DELETE', `/v1/event-subscriptions/${racing.find((r) => r.status === 201)!.body.id}`, { key: org.live });
    const afterDelete = await create(org.live, 'after-delete');
    const overAgain = await create(org.live, 'one-too-many');
    const otherEnvironment = await create(org.test, 'test-environment');
    // Assess
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    const error = expectError(refused, 422, 'validation_error');
    expect(error.message).toContain('20 event subscriptions');
    expect(listed.ids).toHaveLength(MAX_EVENT_SUBSCRIPTIONS);
    expect(deleted.status).toBe(200);
    expect(afterDelete.status).toBe(201);
    expectError(overAgain, 422, 'validation_error');
    expect((await listAll(org.live, 100)).ids).toHaveLength(MAX_EVENT_SUBSCRIPTIONS);
    expect(otherEnvironment.status).toBe(201); // the cap is per environment
  });

  it('attack: a tenant holding more than the cap from before it is counted right: creates are refused until deletes bring it under', { timeout: 60_000 }, async () => {
    // Prepare: a tenant at the cap, three more subscriptions written beside the API, and no count
    // item, as data written before the cap is (the copies cannot sign, but they list and count)
    const own = await newOrg('Subscriptions From Before The Cap');
    const tenant = { orgId: own.orgId, environment: 'live' as const };
    const ids = await createMany(own.live, MAX_EVENT_SUBSCRIPTIONS);
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: subscriptionSk(ids[0]!) } }));
    for (const n of [1, 2, 3]) {
      const subscriptionId = `sub_zzzzzzzzzzzzzzzzzzz${n}`;
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...Item, SK: subscriptionSk(subscriptionId), subscriptionId } }));
    }
    await db().send(new DeleteCommand({ TableName: tableName(), Key: subscriptionCountKey(tenant) }));
    // Act: a create, then 4 deletes (23 → 19), then two creates
    const overCap = await create(own.live, 'over');
    for (const id of ids.slice(0, 4)) await call('DELETE', `/v1/event-subscriptions/${id}`, { key: own.live });
    const fits = await create(own.live, 'fits');
    const full = await create(own.live, 'full');
    // Assess
    expectError(overCap, 422, 'validation_error');
    expect(fits.status).toBe(201);
    expectError(full, 422, 'validation_error');
    expect((await listAll(own.live, 7)).ids).toHaveLength(MAX_EVENT_SUBSCRIPTIONS);
  });
});

describe('the list of event subscriptions', () => {
  it('attack: the list is read in cursor pages of limit, oldest first, not every subscription at once', async () => {
    // Prepare
    const own = await newOrg('Paged Subscriptions');
    const ids = await createMany(own.live, 5);
    // Act
    const first = await call('GET', '/v1/event-subscriptions?limit=2', { key: own.live });
    const all = await listAll(own.live, 2);
    const badCursor = await call('GET', '/v1/event-subscriptions?starting_after=evt_1', { key: own.live });
    // Assess
    expect(first.status).toBe(200);
    expect((first.body.data as { id: string }[]).map((s) => s.id)).toEqual(ids.slice(0, 2));
    expect(first.body.hasMore).toBe(true);
    expect(all).toEqual({ ids, pages: 3 });
    expectError(badCursor, 422, 'validation_error', 'starting_after');
  });
});
