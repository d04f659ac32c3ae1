import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseOutboxMessage } from '../../lib/domain/registry/outbox.ts';
import { logger } from '../../lib/http/logger.ts';
import { runOutbox, type OutboxWork } from '../../lib/services/registry-outbox.ts';

/**
 * The registry outbox's worker (docs/registry.md#the-outbox), triggered by the registry outbox
 * queue with ReportBatchItemFailures: each message names one registration; the batch is worked a
 * tenant at a time (lib/services/registry-outbox.ts). A message that fails comes again after the
 * wait it was given (the registry's Retry-After, or a backoff); after the queue's receive limit it
 * goes to the dead-letter queue, which is alarmed.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const works: OutboxWork[] = [];
  for (const record of event.Records) {
    const message = parseOutboxMessage(record.body);
    if (!message) {
      logger().warn('Not a registry outbox message; dropped', { messageId: record.messageId });
      continue;
    }
    works.push({ id: record.messageId, receiptHandle: record.receiptHandle, receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1, message });
  }
  const failed = await runOutbox(works);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
