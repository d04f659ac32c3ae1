import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
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

/**
 * A stream image's attribute value as plain JSON: the types an event item holds (strings, numbers,
 * booleans, null, maps, lists; sets as arrays). @aws-sdk/util-dynamodb's unmarshall does the same,
 * but it is not a dependency of this package, only of the SDK's.
 */
export function plain(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL) return null;
  if (value.M) return Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, plain(v)]));
  if (value.L) return value.L.map(plain);
  if (value.SS) return value.SS;
  if (value.NS) return value.NS.map(Number);
  return undefined;
}

/** The tenant and event of a new event-log item, or undefined for any other record. */
export function eventOf(record: DynamoDBRecord): { tenant: Tenant; event: DomainEvent } | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  const item = plain({ M: record.dynamodb.NewImage }) as Record<string, unknown>;
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
