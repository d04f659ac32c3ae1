import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventType } from '../domain/events.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { EVENT_PREFIX, eventKey, eventsPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * The event log (docs/lifecycle.md#event-log): one item per event in the tenant's `EVENTS#`
 * partition, sort key `EVT#{eventId}`. Events are only ever put, as one item of the transaction
 * that makes the change they record (`eventPut`); nothing updates or deletes them.
 */
type Item = Record<string, unknown>;

export function toItem(tenant: Tenant, event: DomainEvent): Item {
  return { ...eventKey(tenant, event.id), type: 'event', event };
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

/** Events newest first: `limit` of them older than `startingAfter` (an event id), optionally of one type. */
export async function listEvents(
  tenant: Tenant,
  options: { limit: number; startingAfter?: string; type?: EventType },
): Promise<{ events: DomainEvent[]; hasMore: boolean }> {
  const shape = beginsWith(eventsPk(tenant), EVENT_PREFIX);
  const query = options.type
    ? {
        ...shape,
        FilterExpression: '#event.#type = :type',
        ExpressionAttributeNames: { '#event': 'event', '#type': 'type' },
        ExpressionAttributeValues: { ...shape.ExpressionAttributeValues, ':type': options.type },
      }
    : shape;
  const page = await queryItems(
    { ...query, ScanIndexForward: false },
    { limit: options.limit, ...(options.startingAfter ? { startKey: { ...eventKey(tenant, options.startingAfter) } } : {}) },
  );
  return { events: page.items.map(fromItem), hasMore: page.hasMore };
}
