import { List } from '../pagination.ts';
import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, EventDelivery, EventSubscription, Query } from '../types.ts';

export type CreateEventSubscriptionBody = Body<'/v1/event-subscriptions', 'post'>;
export type UpdateEventSubscriptionBody = Body<'/v1/event-subscriptions/{subscriptionId}', 'patch'>;

/** Outbound webhooks: event subscriptions and their delivery log (docs/webhooks-outbound.md). */
export const eventSubscriptions = (api: Api) => {
  const path = (subscriptionId: string) => ({ path: { subscriptionId } });
  return {
    /** Subscribes a URL to event types; the answer's `secret` (whsec_…) is shown this once: verifyWebhook needs it. */
    create: (body: CreateEventSubscriptionBody, options?: CreateOptions) => ok(api.POST('/v1/event-subscriptions', { body, ...init(options) })),
    list: (query: Omit<Query<'/v1/event-subscriptions', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
      new List<EventSubscription>(
        (after) => ok(api.GET('/v1/event-subscriptions', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
        (subscription) => subscription.id,
      ),
    get: (subscriptionId: string, options?: RequestOptions) => ok(api.GET('/v1/event-subscriptions/{subscriptionId}', { params: path(subscriptionId), ...init(options) })),
    update: (subscriptionId: string, body: UpdateEventSubscriptionBody, options?: RequestOptions) =>
      ok(api.PATCH('/v1/event-subscriptions/{subscriptionId}', { params: path(subscriptionId), body, ...init(options) })),
    delete: (subscriptionId: string, options?: RequestOptions) => ok(api.DELETE('/v1/event-subscriptions/{subscriptionId}', { params: path(subscriptionId), ...init(options) })),
    /** A new secret; the old one stays valid (a second signature) for 24 hours. */
    rotateSecret: (subscriptionId: string, options?: RequestOptions) =>
      ok(api.POST('/v1/event-subscriptions/{subscriptionId}/rotate-secret', { params: path(subscriptionId), ...init(options) })),
    /** Queues a `ping` event to the subscription. */
    test: (subscriptionId: string, options?: RequestOptions) => ok(api.POST('/v1/event-subscriptions/{subscriptionId}/test', { params: path(subscriptionId), ...init(options) })),
    /** The delivery log, newest first. */
    deliveries: (subscriptionId: string, query: Omit<Query<'/v1/event-subscriptions/{subscriptionId}/deliveries', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
      new List<EventDelivery>(
        (after) =>
          ok(api.GET('/v1/event-subscriptions/{subscriptionId}/deliveries', { params: { ...path(subscriptionId), query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
        (delivery) => delivery.id,
      ),
    /** One more attempt of a delivery, now. */
    retryDelivery: (subscriptionId: string, deliveryId: string, options?: RequestOptions) =>
      ok(api.POST('/v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry', { params: { path: { subscriptionId, deliveryId } }, ...init(options) })),
  };
};
