import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { SUBSCRIPTION_ID_PATTERN, type DeliveryMessage } from '../../lib/domain/event-subscription.ts';
import { EVENT_ID_PATTERN } from '../../lib/domain/events.ts';
import { isEnvironment } from '../../lib/domain/tenant.ts';
import { logger } from '../../lib/http/logger.ts';
import { deliver } from '../../lib/services/event-delivery.ts';

/**
 * The delivery worker (docs/webhooks-outbound.md#how-it-works), triggered by the event delivery
 * queue with ReportBatchItemFailures: each record is one attempt of one delivery. A failed attempt
 * is not a failed record: its retry is a new, delayed message (lib/services/event-delivery.ts), so
 * no Lambda waits. A record fails only when the attempt could not be recorded or queued.
 */
const processor = new BatchProcessor(EventType.SQS);

function messageOf(record: SQSRecord): DeliveryMessage {
  const body = JSON.parse(record.body) as Partial<DeliveryMessage>;
  if (
    typeof body.orgId !== 'string' ||
    typeof body.environment !== 'string' ||
    !isEnvironment(body.environment) ||
    typeof body.subscriptionId !== 'string' ||
    !SUBSCRIPTION_ID_PATTERN.test(body.subscriptionId) ||
    typeof body.eventId !== 'string' ||
    !EVENT_ID_PATTERN.test(body.eventId) ||
    !Number.isInteger(body.attempt) ||
    (body.attempt as number) < 1
  ) {
    throw new Error('Not an event delivery message');
  }
  return body as DeliveryMessage;
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  return processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const message = messageOf(record);
      const outcome = await deliver(message);
      if (outcome !== 'delivered' && outcome !== 'waiting') {
        logger().info('Event delivery attempt', { subscriptionId: message.subscriptionId, eventId: message.eventId, attempt: message.attempt, outcome });
      }
    },
    processor,
    { context },
  );
}
