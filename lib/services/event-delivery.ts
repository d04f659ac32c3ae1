import { config } from '../config.ts';
import { MAX_SQS_DELAY_SECONDS, sendDeliveries } from '../data/delivery-queue.ts';
import { getEvent } from '../data/events.ts';
import { getSubscription, listSubscriptions, markSubscriptionHealth, recordAttempt } from '../data/event-subscriptions.ts';
import { postJson, type Resolve } from '../data/outbound-http.ts';
import { sendableJson } from '../data/sqs.ts';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  DELIVERY_TIMEOUT_MS,
  deliveryIdOf,
  DISABLE_AFTER_FAILING_MS,
  MAX_EVENT_SUBSCRIPTIONS,
  RESPONSE_BODY_LIMIT,
  signingSecrets,
  standardSignatures,
  wants,
  type DeliveryMessage,
  type DeliveryStatus,
} from '../domain/event-subscription.ts';
import type { DomainEvent } from '../domain/events.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * The outbound webhook road (docs/webhooks-outbound.md): the fan-out turns each new event of the
 * log into one delivery message per matching subscription; the delivery worker makes one attempt
 * per message, signs it per Standard Webhooks, and schedules the next attempt as a delayed message.
 */

/** Events up to this size (as the message carries them: sendableJson) travel in the message; a larger one is read from the log by the worker. */
const INLINE_EVENT_BYTES = 200_000;

/**
 * One delivery message per enabled subscription of the event's tenant that wants its type: one
 * Query of the tenant's subscriptions per tenant in the batch, then SendMessageBatch calls of ten.
 * The Query reads at most MAX_EVENT_SUBSCRIPTIONS (the oldest), so an event costs at most that many
 * deliveries even for a tenant that holds more from before the cap (docs/webhooks-outbound.md).
 */
export async function fanOut(events: readonly { tenant: Tenant; event: DomainEvent }[]): Promise<number> {
  const byTenant = new Map<string, { tenant: Tenant; events: DomainEvent[] }>();
  for (const { tenant, event } of events) {
    const key = `${tenant.orgId}#${tenant.environment}`;
    const group = byTenant.get(key) ?? { tenant, events: [] };
    group.events.push(event);
    byTenant.set(key, group);
  }
  const messages: { message: DeliveryMessage }[] = [];
  for (const { tenant, events: tenantEvents } of byTenant.values()) {
    const { subscriptions: read } = await listSubscriptions(tenant, { limit: MAX_EVENT_SUBSCRIPTIONS });
    const subscriptions = read.filter((s) => s.status === 'enabled');
    if (subscriptions.length === 0) continue;
    for (const event of tenantEvents) {
      const inline = Buffer.byteLength(sendableJson(JSON.stringify(event))) <= INLINE_EVENT_BYTES;
      for (const s of subscriptions) {
        if (!wants(s, event.type)) continue;
        messages.push({
          message: { ...tenant, subscriptionId: s.subscriptionId, eventId: event.id, attempt: 1, ...(inline ? { event: event as unknown as Record<string, unknown> } : {}) },
        });
      }
    }
  }
  await sendDeliveries(messages);
  return messages.length;
}

export const retrySchedule = (): readonly number[] => config().eventRetryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;

export type DeliveryOutcome = 'delivered' | 'retrying' | 'gave-up' | 'waiting' | 'dropped';

/**
 * One attempt of a delivery message. Not yet due (a wait longer than SQS's 15-minute delay): sent
 * on again. Subscription gone, or disabled (except pings and manual retries), or event gone:
 * dropped. Otherwise POSTed, recorded in the delivery log, and on failure the next attempt is
 * queued with the schedule's delay, until the schedule ends. The subscription's failing streak is
 * kept; after 3 days of nothing but failures the subscription is disabled with the reason. A 410
 * Gone disables it at once, without a retry.
 */
export async function deliver(message: DeliveryMessage, options: { now?: () => number; resolve?: Resolve } = {}): Promise<DeliveryOutcome> {
  const now = options.now ?? Date.now;
  const tenant: Tenant = { orgId: message.orgId, environment: message.environment };
  if (message.notBefore !== undefined && message.notBefore > now() + 1000) {
    await sendDeliveries([{ message, delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, (message.notBefore - now()) / 1000) }]);
    return 'waiting';
  }
  const subscription = await getSubscription(tenant, message.subscriptionId, { secrets: true });
  if (!subscription || (subscription.status !== 'enabled' && !message.manual)) return 'dropped';
  const event = message.event ?? ((await getEvent(tenant, message.eventId)) as unknown as Record<string, unknown> | undefined);
  if (!event) return 'dropped';

  const body = JSON.stringify(event);
  const startedAt = now();
  const timestamp = Math.floor(startedAt / 1000);
  const secrets = signingSecrets(subscription.secrets, startedAt).map((s) => s.secret);
  const result = await postJson(
    subscription.url,
    {
      'content-type': 'application/json',
      'user-agent': 'ProductPassport-Webhooks/1.0',
      'webhook-id': message.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignatures(secrets, message.eventId, timestamp, body),
    },
    body,
    {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowLoopback: config().eventSubscriptionsAllowLoopback,
      maxBodyBytes: RESPONSE_BODY_LIMIT,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
  );
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const schedule = retrySchedule();
  // 410 Gone: the receiver wants no more (Standard Webhooks): no retry, and the subscription is disabled below.
  const gone = result.statusCode === 410 && !message.manual;
  const wait = !ok && !message.manual && !gone ? schedule[message.attempt - 1] : undefined;
  const at = new Date(startedAt).toISOString();
  const nextRetryAt = wait === undefined ? null : new Date(startedAt + wait * 1000).toISOString();
  const status: DeliveryStatus = ok ? 'succeeded' : nextRetryAt ? 'pending' : 'failed';
  await recordAttempt(
    tenant,
    { deliveryId: deliveryIdOf(message.eventId), subscriptionId: subscription.subscriptionId, eventId: message.eventId, eventType: String(event.type) },
    { attempt: message.attempt, at, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error, responseBody: result.body },
    { status, nextRetryAt },
  );
  if (wait !== undefined) {
    await sendDeliveries([
      { message: { ...message, attempt: message.attempt + 1, notBefore: startedAt + wait * 1000 }, delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, wait) },
    ]);
  }

  if (ok && subscription.failingSince) {
    await markSubscriptionHealth(tenant, subscription.subscriptionId, { healthy: true });
  } else if (gone && subscription.status === 'enabled') {
    await markSubscriptionHealth(tenant, subscription.subscriptionId, {
      disable: `The receiver answered 410 Gone at ${at}: it wants no more deliveries. Enable the subscription again to resume.`,
      at,
    });
  } else if (!ok && !message.manual) {
    if (!subscription.failingSince) {
      await markSubscriptionHealth(tenant, subscription.subscriptionId, { failingSince: at });
    } else if (startedAt - Date.parse(subscription.failingSince) >= DISABLE_AFTER_FAILING_MS && subscription.status === 'enabled') {
      await markSubscriptionHealth(tenant, subscription.subscriptionId, {
        disable: `Every delivery failed from ${subscription.failingSince} to ${at} (3 days); the last: ${result.statusCode ?? result.error}. Fix the receiver, then enable the subscription again.`,
        at,
      });
    }
  }
  return ok ? 'delivered' : wait !== undefined ? 'retrying' : 'gave-up';
}
