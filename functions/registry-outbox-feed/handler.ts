import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { registrationFromItem } from '../../lib/data/registrations.ts';
import { isEnvironment } from '../../lib/domain/tenant.ts';
import { logger } from '../../lib/http/logger.ts';
import { feedOutbox, type WrittenRegistration } from '../../lib/services/registry-outbox.ts';
import { plain } from '../event-fanout/handler.ts';

/**
 * The registry outbox's feed (docs/registry.md#the-outbox), triggered by the table's stream,
 * filtered to registration items written or changed (infra/functions.ts): a registration in a state
 * that needs work becomes one message on the registry outbox queue. ReportBatchItemFailures: when
 * SQS fails, the stream gives the records again from the first of the batch.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const written: WrittenRegistration[] = [];
  for (const record of event.Records) {
    if ((record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') || !record.dynamodb?.NewImage) continue;
    const item = plain({ M: record.dynamodb.NewImage }) as Record<string, unknown>;
    const registration = registrationFromItem(item);
    if (!registration || typeof item.PK !== 'string') continue;
    const [prefix, orgId, environment] = item.PK.split('#');
    if (prefix !== 'T' || !orgId || !environment || !isEnvironment(environment)) continue;
    written.push({ tenant: { orgId, environment }, record: registration });
  }
  try {
    await feedOutbox(written);
    return { batchItemFailures: [] };
  } catch (error) {
    logger().error('Registry outbox feed failed; the stream will give these records again', { error: error instanceof Error ? error.message : String(error), records: written.length });
    const first = event.Records[0]?.dynamodb?.SequenceNumber;
    return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] };
  }
}
