import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { MAX_OUTBOX_DELAY_SECONDS, type OutboxMessage, type RenewalSweepMessage } from '../domain/registry/outbox.ts';
import { sendInBatches, sqs } from './sqs.ts';

/**
 * The registry outbox queue (docs/registry.md#the-outbox): one message per registration the outbox
 * works on, sent by the stream's feed and, for a record that waits, by the worker itself with a delay.
 */

let sends = 0;

const queueUrl = (): string => {
  const url = config().registryOutboxQueueUrl;
  if (!url) throw new Error('REGISTRY_OUTBOX_QUEUE_URL is not configured');
  return url;
};

/** Puts messages on the outbox queue, ten to a SendMessageBatch call, each delayed by up to 15 minutes; throws when some could not be queued. */
export async function sendOutboxMessages(messages: readonly { message: OutboxMessage | RenewalSweepMessage; delaySeconds?: number }[]): Promise<void> {
  if (messages.length === 0) return;
  const batch = messages.map(({ message, delaySeconds }) => ({
    body: JSON.stringify(message),
    ...(delaySeconds ? { delaySeconds: Math.min(MAX_OUTBOX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))) } : {}),
  }));
  sends += await sendInBatches(queueUrl(), batch, 'registry outbox messages');
}

/** Makes a received message visible again after `seconds` (how a registry's Retry-After is honoured). */
export async function delayOutboxMessage(receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(), ReceiptHandle: receiptHandle, VisibilityTimeout: Math.min(MAX_OUTBOX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds))) }));
}

/** SendMessageBatch calls made by this process (the benchmark reads them). */
export const outboxSendCount = (): number => sends;
