import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseOutboxMessage, parseRenewalSweep } from '../../lib/domain/registry/outbox.ts';
import { logger } from '../../lib/http/logger.ts';
import { runOutbox, sweepRenewals, type OutboxWork } from '../../lib/services/registry-outbox.ts';

/**
 * The registry outbox's worker (docs/registry.md#the-outbox), triggered by the registry outbox
 * queue with ReportBatchItemFailures: each message names one registration; the batch is worked a
 * tenant at a time (lib/services/registry-outbox.ts). A message that fails comes again after the
 * wait it was given (the registry's Retry-After, or a backoff); after the queue's receive limit it
 * goes to the dead-letter queue, which is alarmed. The same queue carries the daily sweep for
 * proofs of registration due for renewal.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const works: OutboxWork[] = [];
  const sweepsFailed: string[] = [];
  for (const record of event.Records) {
    // The daily sweep for proofs due for renewal (EventBridge, docs/registry.md#proof-of-registration), or its continuation.
    const sweep = parseRenewalSweep(record.body);
    if (sweep) {
      try {
        await sweepRenewals(sweep.from);
      } catch (error) {
        logger().error('The proof renewal sweep failed; SQS gives it again', { error: error instanceof Error ? error.message : String(error) });
        sweepsFailed.push(record.messageId);
      }
      continue;
    }
    const message = parseOutboxMessage(record.body);
    if (!message) {
      logger().warn('Not a registry outbox message; dropped', { messageId: record.messageId });
      continue;
    }
    works.push({ id: record.messageId, receiptHandle: record.receiptHandle, receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1, message });
  }
  const failed = [...sweepsFailed, ...(await runOutbox(works))];
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
