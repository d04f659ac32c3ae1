import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventType } from '../domain/events.ts';
import { isEnvironment, type Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { EVENT_PREFIX, eventKey, eventsPk, eventTypePk } from './keys.ts';
import { beginsWith, queryItems, type QueryShape } from './query.ts';
import { GSI1 } from './table.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * The event log (docs/lifecycle.md#event-log): one item per event in the tenant's `EVENTS#`
 * partition, sort key `EVT#{eventId}`. Events are only ever put, as one item of the transaction
 * that makes the change they record (`eventPut`); nothing updates or deletes them, except the
 * one-off backfill of their index key below.
 *
 * Each item also carries `GSI1PK` = `EVTYPE#{orgId}#{env}#{type}`, which puts it in the sparse index
 * GSI1 (lib/data/table.ts) beside the tenant's other events of its type, under the same `SK`: a
 * page of one type is a Query of the index that reads that page and no more
 * (docs/decisions.md#events-by-type-a-sparse-index).
 */
type Item = Record<string, unknown>;

export function toItem(tenant: Tenant, event: DomainEvent): Item {
  return { ...eventKey(tenant, event.id), [GSI1.partitionKey]: eventTypePk(tenant, event.type), type: 'event', event };
}

export function fromItem(item: Item): DomainEvent {
  return item.event as DomainEvent;
}

/** The put of a new event, for the transaction of the change it records. */
export const eventPut = (tenant: Tenant, event: DomainEvent): TransactItem => putNew(toItem(tenant, event));

export async function getEvent(tenant: Tenant, eventId: string): Promise<DomainEvent | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: eventKey(tenant, eventId) }));
  return Item ? fromItem(Item) : undefined;
}

/** The tenant's events of one type in the index, newest first once reversed (every item of it is an event). */
const byType = (tenant: Tenant, type: EventType): QueryShape => ({
  IndexName: GSI1.name,
  KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
  ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
  ExpressionAttributeValues: { ':pk': eventTypePk(tenant, type), ':prefix': EVENT_PREFIX },
});

/**
 * Events newest first: `limit` of them older than `startingAfter` (an event id), optionally of one
 * type. Either way one Query reads `limit + 1` items at most (the one more says whether more
 * exist): the tenant's log partition, or the type's partition of the index. A cursor is the
 * event's id in both: in the index, the start key is the event's table key plus the type's
 * index key, so a cursor of another type starts the page after that event's time too.
 */
export async function listEvents(
  tenant: Tenant,
  options: { limit: number; startingAfter?: string; type?: EventType },
): Promise<{ events: DomainEvent[]; hasMore: boolean }> {
  const { type, startingAfter } = options;
  const query = type ? byType(tenant, type) : beginsWith(eventsPk(tenant), EVENT_PREFIX);
  const startKey =
    startingAfter === undefined ? undefined : { ...eventKey(tenant, startingAfter), ...(type ? { [GSI1.partitionKey]: eventTypePk(tenant, type) } : {}) };
  const page = await queryItems({ ...query, ScanIndexForward: false }, { limit: options.limit, ...(startKey ? { startKey } : {}) });
  return { events: page.items.map(fromItem), hasMore: page.hasMore };
}

/**
 * Gives every event item written before the index existed its index key, so that it appears in
 * the lists of its type (`npm run admin -- events index-types`, docs/operator-cli.md). Scans the
 * whole table once for event items without `GSI1PK` and sets it on each, on the condition that it
 * is still absent: running it again, or beside a deployment that writes new events, changes
 * nothing twice. The stream carries these as MODIFY records, which the fan-out ignores (it sends
 * only new events), so nothing is delivered again.
 */
export async function backfillEventTypeIndex(
  options: { concurrency?: number; onPage?: (progress: { scanned: number; updated: number }) => void } = {},
): Promise<{ scanned: number; updated: number }> {
  const concurrency = options.concurrency ?? 16;
  let scanned = 0;
  let updated = 0;
  let startKey: Item | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :event AND attribute_not_exists(#gsi)',
        ProjectionExpression: '#pk, #sk, #event.#type',
        ExpressionAttributeNames: { '#type': 'type', '#gsi': GSI1.partitionKey, '#pk': 'PK', '#sk': 'SK', '#event': 'event' },
        ExpressionAttributeValues: { ':event': 'event' },
        ExclusiveStartKey: startKey,
      }),
    );
    scanned += page.ScannedCount ?? 0;
    const items = (page.Items ?? []) as { PK: string; SK: string; event?: { type?: string } }[];
    for (let i = 0; i < items.length; i += concurrency) {
      const results = await Promise.all(items.slice(i, i + concurrency).map(indexKeyOf));
      updated += results.filter(Boolean).length;
    }
    startKey = page.LastEvaluatedKey;
    options.onPage?.({ scanned, updated });
  } while (startKey);
  return { scanned, updated };
}

/** Sets one stored event's index key; false when it has one already (or is not an event of a tenant). */
async function indexKeyOf(item: { PK: string; SK: string; event?: { type?: string } }): Promise<boolean> {
  const [prefix, orgId, environment] = item.PK.split('#');
  const type = item.event?.type;
  if (prefix !== 'EVENTS' || !orgId || !environment || !isEnvironment(environment) || !type) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'SET #gsi = :gsi',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#gsi)',
        ExpressionAttributeNames: { '#gsi': GSI1.partitionKey },
        ExpressionAttributeValues: { ':gsi': eventTypePk({ orgId, environment }, type) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
