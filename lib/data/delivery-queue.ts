import { config } from '../config.ts';
import type { DeliveryMessage } from '../domain/event-subscription.ts';
import { sendInBatches } from './sqs.ts';

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
  const batch = messages.map(({ message, delaySeconds }) => ({
    body: JSON.stringify(message),
    ...(delaySeconds ? { delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))) } : {}),
  }));
  sends += await sendInBatches(queueUrl, batch, 'event deliveries');
}

/** SendMessageBatch calls made by this process (the benchmark reads them). */
export const deliverySendCount = (): number => sends;
