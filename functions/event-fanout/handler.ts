import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DomainEvent } from '../../lib/domain/events.ts';
import { isEnvironment, type Tenant } from '../../lib/domain/tenant.ts';
import { fanOut } from '../../lib/services/event-delivery.ts';

/**
 * The fan-out (docs/webhooks-outbound.md#how-it-works), triggered by the table's stream, filtered to
 * new event-log items (`type = event`, infra/functions.ts): each event becomes one delivery message
 * per matching subscription. ReportBatchItemFailures: a failing record is retried from itself on,
 * so an event is fanned out at least once even if this function or SQS fails midway.
 */
const processor = new BatchProcessor(EventType.DynamoDBStreams);

/** The tenant and event of a new event-log item, or undefined for any other record. */
export function eventOf(record: DynamoDBRecord): { tenant: Tenant; event: DomainEvent } | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  if (item.type !== 'event' || typeof item.PK !== 'string') return undefined;
  const [prefix, orgId, environment] = item.PK.split('#');
  if (prefix !== 'EVENTS' || !orgId || !environment || !isEnvironment(environment)) return undefined;
  return { tenant: { orgId, environment }, event: item.event as DomainEvent };
}

export async function handler(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  return processPartialResponse(
    event,
    async (record: DynamoDBRecord) => {
      const found = eventOf(record);
      if (found) await fanOut([found]);
    },
    processor,
    { context },
  );
}
