import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import {
  createSubscriptionSchema,
  deliveryIdOf,
  listDeliveriesQuerySchema,
  listSubscriptionsQuerySchema,
  toDeliveryView,
  toSubscriptionView,
  updateSubscriptionSchema,
} from '../../lib/domain/event-subscription.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';
import {
  createSubscription,
  deliveriesOf,
  removeSubscription,
  requireSubscription,
  retryDelivery,
  rotateSubscriptionSecret,
  sendTestEvent,
  subscriptionsOf,
  updateSubscription,
} from '../../lib/services/event-subscriptions.ts';

/** Event subscriptions (outbound webhooks) of the caller's tenant: docs/webhooks-outbound.md. */
const inPath = (request: ApiRequest) => requireSubscription(request.principal.tenant, pathParam(request, 'subscriptionId'));

async function create(request: ApiRequest) {
  const input = parseBody(createSubscriptionSchema, request.body);
  const { subscription, secret } = await createSubscription(request.principal.tenant, input, originOf(request));
  return json(201, { ...toSubscriptionView(subscription), secret }, { Location: `/v1/event-subscriptions/${subscription.subscriptionId}` });
}

async function list(request: ApiRequest) {
  const query = parseQuery(listSubscriptionsQuerySchema, request.event.queryStringParameters, ['limit', 'starting_after']);
  const page = await subscriptionsOf(request.principal.tenant, { limit: query.limit, ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }) });
  return json(200, { data: page.subscriptions.map((s) => toSubscriptionView(s)), hasMore: page.hasMore });
}

async function read(request: ApiRequest) {
  return json(200, toSubscriptionView(await inPath(request)));
}

async function update(request: ApiRequest) {
  const changes = parseBody(updateSubscriptionSchema, request.body);
  return json(200, toSubscriptionView(await updateSubscription(await inPath(request), changes, originOf(request))));
}

async function remove(request: ApiRequest) {
  const subscription = await inPath(request);
  await removeSubscription(subscription, originOf(request));
  return json(200, { id: subscription.subscriptionId, deleted: true });
}

async function rotate(request: ApiRequest) {
  const { subscription, secret, previousValidUntil } = await rotateSubscriptionSecret(await inPath(request), originOf(request));
  return json(200, { id: subscription.subscriptionId, secret, previousSecretValidUntil: previousValidUntil });
}

async function test(request: ApiRequest) {
  const subscription = await inPath(request);
  const { eventId } = await sendTestEvent(subscription);
  return json(202, { deliveryId: deliveryIdOf(eventId), eventId, type: 'ping' });
}

async function deliveries(request: ApiRequest) {
  const subscription = await inPath(request);
  const query = parseQuery(listDeliveriesQuerySchema, request.event.queryStringParameters, ['limit', 'starting_after']);
  const page = await deliveriesOf(subscription, { limit: query.limit, ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }) });
  return json(200, { data: page.deliveries.map(toDeliveryView), hasMore: page.hasMore });
}

async function retry(request: ApiRequest) {
  const delivery = await retryDelivery(await inPath(request), pathParam(request, 'deliveryId'));
  return json(202, toDeliveryView(delivery));
}

export const handler = defineApiHandler('event-subscriptions', {
  'POST /v1/event-subscriptions': create,
  'GET /v1/event-subscriptions': list,
  'GET /v1/event-subscriptions/{subscriptionId}': read,
  'PATCH /v1/event-subscriptions/{subscriptionId}': update,
  'DELETE /v1/event-subscriptions/{subscriptionId}': remove,
  'POST /v1/event-subscriptions/{subscriptionId}/rotate-secret': rotate,
  'POST /v1/event-subscriptions/{subscriptionId}/test': test,
  'GET /v1/event-subscriptions/{subscriptionId}/deliveries': deliveries,
  'POST /v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry': retry,
});
