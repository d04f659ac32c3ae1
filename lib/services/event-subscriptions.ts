import { randomBytes } from 'node:crypto';
import { config } from '../config.ts';
import { sendDeliveries } from '../data/delivery-queue.ts';
import {
  deleteSubscription,
  getDelivery,
  getSubscription,
  insertSubscription,
  listDeliveries,
  listSubscriptions,
  putSubscription,
} from '../data/event-subscriptions.ts';
import { allowedAddresses, RefusedAddressError } from '../data/outbound-http.ts';
import {
  DELIVERY_ID_PATTERN,
  eventIdOf,
  MAX_EVENT_SUBSCRIPTIONS,
  newSubscriptionId,
  PING_EVENT_TYPE,
  SECRET_PREFIX,
  SUBSCRIPTION_ID_PATTERN,
  type CreateSubscriptionInput,
  type DeliveryRecord,
  type SubscriptionRecord,
  type UpdateSubscriptionInput,
  toSubscriptionView,
} from '../domain/event-subscription.ts';
import { eventPut } from '../data/events.ts';
import { newEvent, newEventId, type DomainEvent, type Origin } from '../domain/events.ts';
import { hostOf, urlProblem } from '../domain/outbound-address.ts';
import type { Tenant } from '../domain/tenant.ts';
import { rotatedSecrets } from '../domain/webhook.ts';
import { ApiError, NotFoundError, ValidationError } from '../http/errors.ts';

/** Event subscriptions of a tenant (docs/webhooks-outbound.md). */

/** `whsec_` + base64 of 24 random bytes: the key is the base64 after the prefix (Standard Webhooks). */
const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * Refuses (422, param `url`) a URL a subscription may not use: not https:// (http:// only on a
 * local stack), or a host that resolves to any private, loopback, link-local, metadata or reserved
 * address (docs/webhooks-outbound.md#ssrf). The worker checks again at each delivery.
 */
export async function checkSubscriptionUrl(
  url: string,
  rules = { allowLoopback: config().eventSubscriptionsAllowLoopback },
  resolve?: Parameters<typeof allowedAddresses>[2],
): Promise<void> {
  const problem = urlProblem(url, rules);
  const suggestion = 'Use a public https:// URL of your receiver.';
  if (problem) throw new ValidationError(problem, 'url', suggestion);
  const host = hostOf(new URL(url));
  try {
    await allowedAddresses(host, rules.allowLoopback, resolve);
  } catch (error) {
    if (error instanceof RefusedAddressError) throw new ValidationError(`url's host ${error.message}`, 'url', suggestion);
    throw new ValidationError(`url's host ${host} does not resolve.`, 'url', suggestion);
  }
}

/** 422: the tenant has as many event subscriptions as it may have (docs/security.md). */
export class SubscriptionLimitError extends ApiError<'validation_error'> {
  constructor(tenant: Tenant) {
    super(422, 'validation_error', `This organization's ${tenant.environment} environment already has ${MAX_EVENT_SUBSCRIPTIONS} event subscriptions, the most it may have.`, {
      suggestion: 'Delete a subscription you no longer use (DELETE /v1/event-subscriptions/{subscriptionId}), or give one subscription several event types, then create the new one.',
    });
  }
}

/** The event of a subscription's change (its API form: never a secret), for the change's own transaction. */
const changeEvent = (type: 'event_subscription.created' | 'event_subscription.updated' | 'event_subscription.deleted', s: SubscriptionRecord, origin: Origin) =>
  eventPut({ orgId: s.orgId, environment: s.environment }, newEvent(type, toSubscriptionView(s), origin));

export async function createSubscription(
  tenant: Tenant,
  input: CreateSubscriptionInput,
  origin: Origin,
  now = new Date().toISOString(),
): Promise<{ subscription: SubscriptionRecord; secret: string }> {
  await checkSubscriptionUrl(input.url);
  const secret = newSecret();
  const subscription: SubscriptionRecord = {
    subscriptionId: newSubscriptionId(),
    orgId: tenant.orgId,
    environment: tenant.environment,
    url: input.url,
    events: input.events,
    ...(input.description ? { description: input.description } : {}),
    status: 'enabled',
    secrets: [{ secret, createdAt: now }],
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertSubscription(subscription, MAX_EVENT_SUBSCRIPTIONS, [changeEvent('event_subscription.created', subscription, origin)]))) {
    throw new SubscriptionLimitError(tenant);
  }
  return { subscription, secret };
}

/** The tenant's subscription, with its secrets opened, or 404 (also for another tenant's id). */
export async function requireSubscription(tenant: Tenant, subscriptionId: string): Promise<SubscriptionRecord> {
  const subscription = SUBSCRIPTION_ID_PATTERN.test(subscriptionId) ? await getSubscription(tenant, subscriptionId, { secrets: true }) : undefined;
  if (!subscription) throw new NotFoundError(`No event subscription with id '${subscriptionId}'.`, { param: 'subscriptionId' });
  return subscription;
}

/** A page of the tenant's subscriptions, oldest first: `limit` after `startingAfter` (a subscription id). */
export const subscriptionsOf = (tenant: Tenant, options: { limit: number; startingAfter?: string }): Promise<{ subscriptions: SubscriptionRecord[]; hasMore: boolean }> =>
  listSubscriptions(tenant, options);

async function replace(current: SubscriptionRecord, next: SubscriptionRecord, origin: Origin): Promise<SubscriptionRecord> {
  if (!(await putSubscription(next, current.updatedAt, [changeEvent('event_subscription.updated', next, origin)]))) {
    throw new ValidationError('The subscription changed while this request ran; read it again and retry.', 'subscriptionId');
  }
  return next;
}

export async function updateSubscription(current: SubscriptionRecord, changes: UpdateSubscriptionInput, origin: Origin, now = new Date().toISOString()): Promise<SubscriptionRecord> {
  if (changes.url !== undefined) await checkSubscriptionUrl(changes.url);
  const { disabledReason: _reason, failingSince: _since, ...rest } = current;
  // A status set by its owner starts a clean record: no reason, no failing streak.
  const base = changes.status === undefined ? current : rest;
  return replace(current, {
    ...base,
    ...(changes.url !== undefined ? { url: changes.url } : {}),
    ...(changes.events !== undefined ? { events: changes.events } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    updatedAt: now,
  }, origin);
}

/** A new secret; the previous one keeps signing beside it for 24 hours, any older one stops at once. */
export async function rotateSubscriptionSecret(
  current: SubscriptionRecord,
  origin: Origin,
  now = Date.now(),
): Promise<{ subscription: SubscriptionRecord; secret: string; previousValidUntil: string }> {
  const secret = newSecret();
  const { secrets, previousValidUntil } = rotatedSecrets(current.secrets, secret, now);
  const subscription = await replace(current, { ...current, secrets, updatedAt: new Date(now).toISOString() }, origin);
  return { subscription, secret, previousValidUntil };
}

/** Deletes the subscription, with its `event_subscription.deleted` event; 404 when it went meanwhile. */
export async function removeSubscription(s: SubscriptionRecord, origin: Origin): Promise<void> {
  const deleted = await deleteSubscription({ orgId: s.orgId, environment: s.environment }, s.subscriptionId, [changeEvent('event_subscription.deleted', s, origin)]);
  if (!deleted) throw new NotFoundError(`No event subscription with id '${s.subscriptionId}'.`, { param: 'subscriptionId' });
}

/** A `ping` event about the subscription (not in the event log): what `POST …/test` delivers. */
export function pingEvent(s: SubscriptionRecord, id = newEventId(), now = new Date().toISOString()): Record<string, unknown> {
  return {
    id,
    type: PING_EVENT_TYPE,
    createdAt: now,
    actor: { type: 'system', id: 'event-subscriptions' },
    requestId: null,
    data: { object: { subscriptionId: s.subscriptionId, url: s.url } },
  } satisfies Omit<DomainEvent, 'type'> & { type: string };
}

/** Queues a ping to the subscription; answers the delivery id it will have. */
export async function sendTestEvent(s: SubscriptionRecord): Promise<{ eventId: string }> {
  const event = pingEvent(s);
  await sendDeliveries([
    { message: { orgId: s.orgId, environment: s.environment, subscriptionId: s.subscriptionId, eventId: String(event.id), attempt: 1, event, manual: true } },
  ]);
  return { eventId: String(event.id) };
}

export async function deliveriesOf(
  s: SubscriptionRecord,
  options: { limit: number; startingAfter?: string },
): Promise<{ deliveries: DeliveryRecord[]; hasMore: boolean }> {
  const tenant = { orgId: s.orgId, environment: s.environment };
  if (options.startingAfter !== undefined && !(await getDelivery(tenant, s.subscriptionId, options.startingAfter))) {
    throw new ValidationError(`No delivery '${options.startingAfter}'.`, 'starting_after', 'Send the id of the last delivery of the previous page.');
  }
  return listDeliveries(tenant, s.subscriptionId, options);
}

/**
 * Queues one more attempt of a delivery now, whatever its state (a manual retry is one attempt; a
 * failure does not start the schedule again). A ping is rebuilt with its id.
 */
export async function retryDelivery(s: SubscriptionRecord, deliveryId: string): Promise<DeliveryRecord> {
  const tenant = { orgId: s.orgId, environment: s.environment };
  const delivery = DELIVERY_ID_PATTERN.test(deliveryId) ? await getDelivery(tenant, s.subscriptionId, deliveryId) : undefined;
  if (!delivery) throw new NotFoundError(`No delivery with id '${deliveryId}'.`, { param: 'deliveryId' });
  const eventId = eventIdOf(delivery.deliveryId);
  await sendDeliveries([
    {
      message: {
        ...tenant,
        subscriptionId: s.subscriptionId,
        eventId,
        attempt: delivery.attempts.length + 1,
        manual: true,
        ...(delivery.eventType === PING_EVENT_TYPE ? { event: pingEvent(s, eventId) } : {}),
      },
    },
  ]);
  return delivery;
}
