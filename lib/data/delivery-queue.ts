import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import type { DeliveryMessage } from '../domain/event-subscription.ts';
import { sqs } from './sqs.ts';

/** SQS's longest DelaySeconds: a longer wait is a chain of messages (docs/webhooks-outbound.md#retries). */
export const MAX_SQS_DELAY_SECONDS = 900;

let sends = 0;

/**
 * Puts delivery attempts on the event delivery queue, ten to a SendMessageBatch call (SQS's most),
 * each delayed by up to 15 minutes. Entries SQS reports as failed are sent again (three attempts);
 * then it throws, so the caller's record fails and is retried whole.
 */
export async function sendDeliveries(messages: readonly { message: DeliveryMessage; delaySeconds?: number }[]): Promise<void> {
  const queueUrl = config().eventDeliveryQueueUrl;
  if (!queueUrl) throw new Error('EVENT_DELIVERY_QUEUE_URL is not configured');
  for (let i = 0; i < messages.length; i += 10) {
    let entries = messages.slice(i, i + 10).map(({ message, delaySeconds }, j) => ({
      Id: String(j),
      MessageBody: JSON.stringify(message),
      ...(delaySeconds ? { DelaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))) } : {}),
    }));
    for (let attempt = 1; entries.length; attempt++) {
      sends++;
      const { Failed = [] } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set(Failed.map((f) => f.Id));
      entries = entries.filter((entry) => failed.has(entry.Id));
      if (entries.length && attempt >= 3) throw new Error(`Could not queue ${entries.length} event deliveries: ${Failed[0]?.Message ?? 'unknown'}`);
    }
  }
}

/** SendMessageBatch calls made by this process (the benchmark reads them). */
export const deliverySendCount = (): number => sends;
