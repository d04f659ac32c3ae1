import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, dynamo, tableName } from '../../lib/data/client.ts';
import { backfillEventTypeIndex, listEvents, toItem } from '../../lib/data/events.ts';
import { GSI1 } from '../../lib/data/table.ts';
import { newEvent } from '../../lib/domain/events.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';
import { admin } from '../support/admin.ts';
import { call, newOrg, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

/**
 * `GET /v1/events?type=…` reads the type's partition of the sparse index GSI1, not the tenant's
 * whole log (docs/decisions.md#events-by-type-a-sparse-index): only that type, newest first, cursor
 * pages like the unfiltered list, and one Query of at most `limit + 1` items however many events of
 * other types there are. Events stored before the index get their key from the operator CLI.
 */

interface Event {
  id: string;
  type: string;
}
interface Page {
  data: Event[];
  hasMore: boolean;
}

let org: TestOrg;
let tenant: Tenant;
/** The organization's live log, newest first, as the unfiltered list gives it. */
let log: Event[];

/** Items DynamoDB examined for this worker's Queries (ScannedCount), and how many Queries. */
const reads = { queries: 0, items: 0 };

const list = async (query: string): Promise<Page> => {
  const page = await call<Page>('GET', `/v1/events?${query}`, { key: org.live });
  expect(page.status, page.text).toBe(200);
  return page.body;
};

/** Every page of `query` through its cursor, `limit` at a time. */
async function allPages(query: string, limit: number): Promise<{ ids: string[]; pages: Page[] }> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await list(`${query}&limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`);
    pages.push(page);
    if (!page.hasMore) break;
    cursor = page.data.at(-1)?.id;
  }
  return { ids: pages.flatMap((p) => p.data.map((e) => e.id)), pages };
}

beforeAll(async () => {
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') {
        reads.queries += 1;
        reads.items += (result.output as { ScannedCount?: number }).ScannedCount ?? 0;
      }
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
  org = await newOrg('Events by type');
  tenant = { orgId: org.orgId, environment: 'live' };
  // The oldest event of its type: one supplier, then 24 products (6 of them renamed) after it, made
  // at the same time (the tests compare with the log as listed, whatever order the events landed in).
  expect((await call('POST', '/v1/suppliers', { key: org.live, body: { name: 'Weingut Alt' } })).status).toBe(201);
  await Promise.all(
    Array.from({ length: 24 }, async (_, i) => {
      const created = await call('POST', '/v1/products', { key: org.live, body: { name: `Wine ${i}`, category: 'wine', gtin: uniqueGtin13() } });
      expect(created.status).toBe(201);
      if (i % 4 === 0) expect((await call('PATCH', `/v1/products/${created.body.productId}`, { key: org.live, body: { name: `Wine ${i}, renamed` } })).status).toBe(200);
    }),
  );
  log = (await list('limit=100')).data;
}, 120_000);

describe('GET /v1/events?type=…', () => {
  it('lists only the type asked for, newest first: the events of that type the whole log holds', async () => {
    // Act
    const created = await list('type=product.created&limit=100');
    const renamed = await list('type=product.updated&limit=100');

    // Assess
    expect(created.data.map((e) => e.id)).toEqual(log.filter((e) => e.type === 'product.created').map((e) => e.id));
    expect(created.data).toHaveLength(24);
    expect(renamed.data.map((e) => e.id)).toEqual(log.filter((e) => e.type === 'product.updated').map((e) => e.id));
    expect(renamed.data).toHaveLength(6);
    expect(created.hasMore).toBe(false);
  });

  it('pages with starting_after, nothing skipped or repeated, hasMore false only on the last page', async () => {
    // Act
    const { ids, pages } = await allPages('type=product.created', 5);

    // Assess
    expect(ids).toEqual(log.filter((e) => e.type === 'product.created').map((e) => e.id));
    expect(pages.map((p) => p.data.length)).toEqual([5, 5, 5, 5, 4]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, true, true, false]);
    expect(pages.flatMap((p) => p.data).every((e) => e.type === 'product.created')).toBe(true);
  });

  it('answers an exact last page with hasMore false, as the unfiltered list does', async () => {
    // Act
    const { pages } = await allPages('type=product.updated', 3);

    // Assess
    expect(pages.map((p) => [p.data.length, p.hasMore])).toEqual([
      [3, true],
      [3, false],
    ]);
  });

  it('starts after a cursor of another type at that event: the older events of the type asked for', async () => {
    // Prepare: a product.updated event in the middle of the log.
    const at = log.findIndex((e) => e.type === 'product.updated' && log.indexOf(e) > 5);
    const cursor = log[at] as Event;

    // Act
    const page = await list(`type=product.created&limit=100&starting_after=${cursor.id}`);

    // Assess
    expect(page.data.map((e) => e.id)).toEqual(log.slice(at + 1).filter((e) => e.type === 'product.created').map((e) => e.id));
  });

  it('refuses a cursor that names no event of the tenant with 422 naming starting_after, filtered or not', async () => {
    // Act
    const response = await call('GET', `/v1/events?type=product.created&starting_after=evt_${'0'.repeat(20)}`, { key: org.live });

    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ type: 'validation_error', param: 'starting_after' });
  });

  it('reads one Query of at most limit + 1 items, however many newer events of other types there are', async () => {
    // Prepare: the supplier's event is the oldest, under 30 newer events of other types.
    const before = { ...reads };

    // Act
    const oldest = await listEvents(tenant, { limit: 10, type: 'supplier.created' });
    const afterOldest = { queries: reads.queries - before.queries, items: reads.items - before.items };
    const twoOfMany = await listEvents(tenant, { limit: 2, type: 'product.created' });
    const afterTwo = { queries: reads.queries - before.queries - afterOldest.queries, items: reads.items - before.items - afterOldest.items };

    // Assess
    expect(oldest.events.map((e) => e.type)).toEqual(['supplier.created']);
    expect(afterOldest).toEqual({ queries: 1, items: 1 });
    expect(twoOfMany.events).toHaveLength(2);
    expect(twoOfMany.hasMore).toBe(true);
    expect(afterTwo).toEqual({ queries: 1, items: 3 });
  });
});

describe('events stored before the index', () => {
  it('are listed by type once `npm run admin -- events index-types` has run, and a second run changes nothing', async () => {
    // Prepare: an event item as stored before the index existed (no index key), the newest of its type.
    const old = newEvent('supplier.created', { supplierId: 'sup_old', name: 'Before the index' }, { actor: { type: 'system', id: 'test' }, requestId: null });
    const { [GSI1.partitionKey]: _key, ...stored } = toItem(tenant, old);
    await db().send(new PutCommand({ TableName: tableName(), Item: stored }));
    const unindexed = await list('type=supplier.created&limit=10');

    // Act: the operator's command, then the backfill it runs once more (in-process, without a second CLI process of seconds)
    const first = await admin(['events', 'index-types', '--json']);
    const indexed = await list('type=supplier.created&limit=10');
    const second = await backfillEventTypeIndex();

    // Assess
    expect((await list('limit=1')).data[0]?.id).toBe(old.id);
    expect(unindexed.data.map((e) => e.id)).not.toContain(old.id);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).updated).toBeGreaterThanOrEqual(1);
    expect(indexed.data.map((e) => e.id)).toEqual([old.id, log.find((e) => e.type === 'supplier.created')?.id]);
    expect(second.updated).toBe(0);
  }, 120_000);
});
