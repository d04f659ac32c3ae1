import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DomainEvent } from '../../lib/domain/events.ts';
import { isEnvironment, type Tenant } from '../../lib/domain/tenant.ts';
import { logger } from '../../lib/http/logger.ts';
import { fanOut } from '../../lib/services/event-delivery.ts';

/**
 * The fan-out (docs/webhooks-outbound.md#how-it-works), triggered by the table's stream, filtered to
 * new event-log items (`type = event`, infra/functions.ts): each event becomes one delivery message
 * per matching subscription. ReportBatchItemFailures: a failing record is retried from itself on,
 * so an event is fanned out at least once even if this function or SQS fails midway. What an event
 * holds cannot keep its message off the queue (lib/data/sqs.ts sendableJson); a record that fails
 * anyway is isolated by the mapping, which splits the batch, and set aside after its retries
 * (docs/webhooks-outbound.md#a-record-that-keeps-failing).
 */
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

/**
 * The batch's events grouped by tenant and fanned out a tenant at a time: one Query of a tenant's
 * subscriptions per batch, not per event (an import's rows or a delivery's products arrive
 * together). A tenant whose fan-out fails fails its records; the stream resumes from the first of
 * them (a stream is a sequence: the records after it come again, and fan-out is idempotent per
 * delivery id, docs/webhooks-outbound.md#receiving).
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const groups = new Map<string, { records: DynamoDBRecord[]; events: { tenant: Tenant; event: DomainEvent }[] }>();
  for (const record of event.Records) {
    const found = eventOf(record);
    if (!found) continue;
    const key = `${found.tenant.orgId}#${found.tenant.environment}`;
    const group = groups.get(key) ?? { records: [], events: [] };
    group.records.push(record);
    group.events.push(found);
    groups.set(key, group);
  }
  const failed = new Set<DynamoDBRecord>();
  for (const group of groups.values()) {
    try {
      await fanOut(group.events);
    } catch (error) {
      logger().error('Event fan-out failed; the stream will deliver these records again', {
        error: error instanceof Error ? error.message : String(error),
        events: group.events.length,
        // Which events: a record set aside after its retries is found by its event id in the log.
        eventIds: group.events.slice(0, 20).map(({ event }) => (event as { id?: unknown } | undefined)?.id ?? null),
      });
      for (const record of group.records) failed.add(record);
    }
  }
  const first = event.Records.find((record) => failed.has(record))?.dynamodb?.SequenceNumber;
  return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] };
}
