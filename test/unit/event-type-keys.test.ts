import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventPut, listEvents } from '../../lib/data/events.ts';
import type { DomainEvent } from '../../lib/domain/events.ts';
import type { Tenant } from '../../lib/domain/tenant.ts';

/**
 * The stored format of the events-by-type index key (docs/decisions.md#events-by-type-a-sparse-index),
 * pinned to the character as test/unit/keys.test.ts pins the table's keys: events already written
 * under it must stay listed by type.
 */
const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
});

const tenant: Tenant = { orgId: 'org_1', environment: 'test' };
const event: DomainEvent = {
  id: 'evt_0mhx3k2a1bq3x9f0c7zz',
  type: 'product.created',
  createdAt: '2026-11-23T00:00:00.000Z',
  actor: { type: 'system', id: 'x' },
  requestId: null,
  data: { object: {} },
};

describe('the events-by-type index keys', () => {
  it('puts every event under EVTYPE#{orgId}#{env}#{type} beside its table key', () => {
    // Act
    const put = eventPut(tenant, event) as { Put: { Item: Record<string, unknown> } };

    // Assess
    expect(put.Put.Item).toMatchObject({ PK: 'EVENTS#org_1#test', SK: 'EVT#evt_0mhx3k2a1bq3x9f0c7zz', GSI1PK: 'EVTYPE#org_1#test#product.created', type: 'event' });
  });

  it('lists a type from the index, newest first, a cursor being the event key plus the type key', async () => {
    // Act
    await listEvents(tenant, { limit: 5, type: 'supplier.created', startingAfter: event.id });
    await listEvents(tenant, { limit: 5, startingAfter: event.id });

    // Assess
    const [byType, all] = ddb.calls().map((c) => c.args[0].input as Record<string, any>);
    expect(byType).toMatchObject({
      IndexName: 'GSI1',
      ScanIndexForward: false,
      Limit: 6,
      ExpressionAttributeValues: { ':pk': 'EVTYPE#org_1#test#supplier.created', ':prefix': 'EVT#' },
      ExclusiveStartKey: { PK: 'EVENTS#org_1#test', SK: 'EVT#evt_0mhx3k2a1bq3x9f0c7zz', GSI1PK: 'EVTYPE#org_1#test#supplier.created' },
    });
    expect(all?.IndexName).toBeUndefined();
    expect(all?.ExclusiveStartKey).toEqual({ PK: 'EVENTS#org_1#test', SK: 'EVT#evt_0mhx3k2a1bq3x9f0c7zz' });
  });
});
