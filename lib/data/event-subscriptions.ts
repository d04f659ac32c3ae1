import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DELIVERY_LOG_TTL_SECONDS,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStatus,
  type SubscriptionRecord,
  type SubscriptionSecret,
} from '../domain/event-subscription.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isConditionFailure, retryOnConflict } from './errors.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';
import { EVENT_DELIVERY_PREFIX, eventDeliveriesPk, eventDeliveryKey, SUBSCRIPTION_PREFIX, subscriptionCountKey, subscriptionSk, tenantPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { secretBox } from './secret-box.ts';

/**
 * Event subscriptions and their delivery log (docs/webhooks-outbound.md).
 * - A subscription is one item in the tenant's partition, `EVSUB#{subscriptionId}`: the fan-out
 *   reads a tenant's (at most the cap) with one Query. Its signing secrets are sealed like the inbound
 *   endpoints' (lib/data/secret-box.ts, docs/security.md finding 3) into `sealedSecrets`, the
 *   tenant and subscription id as authenticated data; `secrets` keeps only their dates.
 * - `T#{orgId}#{env}` / `EVSUBS`: `count`, the tenant's number of subscriptions, changed in the same
 *   transaction as every insert (on the condition that it stays under the cap) and every delete, so
 *   the cap holds exactly under concurrency (docs/security.md). A tenant from before the count gets
 *   it on its first insert or delete, by counting its subscriptions (it may exceed the cap then:
 *   inserts are refused until deletes bring it under).
 * - A delivery is one item per subscription and event, `EVDEL#{orgId}#{env}#{subscriptionId}` /
 *   `DEL#{deliveryId}`, holding every attempt; it expires 30 days after its last write (TTL).
 */
type Item = Record<string, unknown>;

const secretsContext = (s: Pick<SubscriptionRecord, 'orgId' | 'environment' | 'subscriptionId'>) =>
  `event-subscription:${s.orgId}:${s.environment}:${s.subscriptionId}`;
const tenantOf = (s: Pick<SubscriptionRecord, 'orgId' | 'environment'>): Tenant => ({ orgId: s.orgId, environment: s.environment });

async function toItem(s: SubscriptionRecord): Promise<Item> {
  const { secrets, ...rest } = s;
  return {
    PK: tenantPk(tenantOf(s)),
    SK: subscriptionSk(s.subscriptionId),
    type: 'eventSubscription',
    ...rest,
    secrets: secrets.map(({ secret: _secret, ...dates }) => dates),
    sealedSecrets: await (await secretBox()).seal(JSON.stringify(secrets.map((x) => x.secret)), secretsContext(s)),
  };
}

function fromItem(item: Item, values?: string[]): SubscriptionRecord {
  const dates = (item.secrets ?? []) as Omit<SubscriptionSecret, 'secret'>[];
  return {
    subscriptionId: String(item.subscriptionId),
    orgId: String(item.orgId),
    environment: item.environment as SubscriptionRecord['environment'],
    url: String(item.url),
    events: item.events as SubscriptionRecord['events'],
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    status: item.status as SubscriptionRecord['status'],
    ...(typeof item.disabledReason === 'string' ? { disabledReason: item.disabledReason } : {}),
    ...(typeof item.failingSince === 'string' ? { failingSince: item.failingSince } : {}),
    secrets: dates.map((d, i) => ({ secret: values?.[i] ?? '', ...d })),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/** A subscription with its secrets opened (for signing), or without (for listing and matching). */
async function read(item: Item, withSecrets: boolean): Promise<SubscriptionRecord> {
  if (!withSecrets) return fromItem(item);
  const record = fromItem(item);
  const values = JSON.parse(await (await secretBox()).open(String(item.sealedSecrets), secretsContext(record))) as string[];
  return fromItem(item, values);
}

/**
 * Writes a changed subscription on the condition that nobody changed it since `expectedUpdatedAt`
 * (a new one goes through insertSubscription). False when the condition failed.
 */
export async function putSubscription(s: SubscriptionRecord, expectedUpdatedAt: string, also: readonly TransactItem[]): Promise<boolean> {
  const condition = { ConditionExpression: 'updatedAt = :expected', ExpressionAttributeValues: { ':expected': expectedUpdatedAt } };
  return writeIfFirstHolds([{ Put: { TableName: tableName(), Item: await toItem(s), ...condition } }, ...also]);
}

/** How many subscriptions the tenant has, counted by a Query of their keys (pages of up to 1 MB). */
async function countSubscriptions(tenant: Tenant): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ TableName: tableName(), ...beginsWith(tenantPk(tenant), SUBSCRIPTION_PREFIX), Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Makes sure the tenant's subscription count exists: when it does not (a tenant from before the
 * cap, or with none yet), counts its subscriptions and writes it once (a concurrent writer's count
 * wins). No insert or delete commits without the count, so nothing changes between the two.
 */
async function ensureSubscriptionCount(tenant: Tenant): Promise<void> {
  const Key = subscriptionCountKey(tenant);
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
  if (Item) return;
  const count = await countSubscriptions(tenant);
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...Key, type: 'eventSubscriptionCount', count }, ConditionExpression: 'attribute_not_exists(PK)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Inserts a new subscription with `also` (its event) unless the tenant already has `max`: false
 * then, and nothing is written. The count is raised in the same transaction, on the condition that
 * it stays under `max`.
 */
export async function insertSubscription(s: SubscriptionRecord, max: number, also: readonly TransactItem[]): Promise<boolean> {
  const tenant = tenantOf(s);
  await ensureSubscriptionCount(tenant);
  const item = await toItem(s);
  try {
    // Concurrent inserts and deletes all update the count item: a lost race is retried.
    await retryOnConflict(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
            {
              Update: {
                TableName: tableName(),
                Key: subscriptionCountKey(tenant),
                UpdateExpression: 'ADD #count :one',
                ConditionExpression: '#count < :max',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1, ':max': max },
              },
            },
            ...also,
          ],
        }),
      ),
    );
    return true;
  } catch (error) {
    if (cancellationReasons(error)[1]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

export async function getSubscription(tenant: Tenant, subscriptionId: string, options: { secrets: boolean }): Promise<SubscriptionRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: subscriptionSk(subscriptionId) } }));
  return Item ? read(Item, options.secrets) : undefined;
}

/**
 * A page of the tenant's subscriptions, oldest first (ids sort by time), without their secrets:
 * `limit` of them after `startingAfter` (a subscription id). The fan-out reads the first page of
 * as many as the cap: at most that many subscriptions get an event, whatever a tenant from before
 * the cap holds.
 */
export async function listSubscriptions(
  tenant: Tenant,
  options: { limit: number; startingAfter?: string },
): Promise<{ subscriptions: SubscriptionRecord[]; hasMore: boolean }> {
  const pk = tenantPk(tenant);
  const page = await queryItems(beginsWith(pk, SUBSCRIPTION_PREFIX), {
    limit: options.limit,
    ...(options.startingAfter ? { startKey: { PK: pk, SK: subscriptionSk(options.startingAfter) } } : {}),
  });
  return { subscriptions: page.items.map((item) => fromItem(item)), hasMore: page.hasMore };
}

/** Deletes the subscription with `also` (its event), and lowers the tenant's count; false when it was already gone. */
export async function deleteSubscription(tenant: Tenant, subscriptionId: string, also: readonly TransactItem[]): Promise<boolean> {
  await ensureSubscriptionCount(tenant);
  return writeIfFirstHolds([
    { Delete: { TableName: tableName(), Key: { PK: tenantPk(tenant), SK: subscriptionSk(subscriptionId) }, ConditionExpression: 'attribute_exists(PK)' } },
    {
      Update: {
        TableName: tableName(),
        Key: subscriptionCountKey(tenant),
        UpdateExpression: 'ADD #count :minusOne',
        ConditionExpression: 'attribute_exists(#count)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    },
    ...also,
  ]);
}

/**
 * Records a delivery's outcome on the subscription without touching what its owner may have changed
 * meanwhile: `failingSince` set on a failure (kept if already set), removed on a success; `disable`
 * turns the subscription off with a reason. Conditional on the subscription still existing.
 */
export async function markSubscriptionHealth(
  tenant: Tenant,
  subscriptionId: string,
  change: { failingSince: string } | { healthy: true } | { disable: string; at: string },
): Promise<void> {
  const Key = { PK: tenantPk(tenant), SK: subscriptionSk(subscriptionId) };
  const update =
    'failingSince' in change
      ? { UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :since)', ExpressionAttributeValues: { ':since': change.failingSince } }
      : 'healthy' in change
        ? { UpdateExpression: 'REMOVE failingSince' }
        : {
            UpdateExpression: 'SET #status = :disabled, disabledReason = :reason, updatedAt = :at REMOVE failingSince',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':disabled': 'disabled', ':reason': change.disable, ':at': change.at },
          };
  try {
    await db().send(new UpdateCommand({ TableName: tableName(), Key, ConditionExpression: 'attribute_exists(PK)', ...update }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
  }
}

// The delivery log.

function deliveryFromItem(item: Item): DeliveryRecord {
  return {
    deliveryId: String(item.deliveryId),
    subscriptionId: String(item.subscriptionId),
    eventId: String(item.eventId),
    eventType: String(item.eventType),
    status: item.status as DeliveryStatus,
    attempts: (item.attempts ?? []) as DeliveryAttempt[],
    nextRetryAt: typeof item.nextRetryAt === 'string' ? item.nextRetryAt : null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

export async function getDelivery(tenant: Tenant, subscriptionId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: eventDeliveryKey(tenant, subscriptionId, deliveryId) }));
  return Item ? deliveryFromItem(Item) : undefined;
}

/** A subscription's deliveries, newest first: `limit` of them after `startingAfter` (a delivery id). */
export async function listDeliveries(
  tenant: Tenant,
  subscriptionId: string,
  options: { limit: number; startingAfter?: string },
): Promise<{ deliveries: DeliveryRecord[]; hasMore: boolean }> {
  const page = await queryItems(
    { ...beginsWith(eventDeliveriesPk(tenant, subscriptionId), EVENT_DELIVERY_PREFIX), ScanIndexForward: false },
    { limit: options.limit, ...(options.startingAfter ? { startKey: { ...eventDeliveryKey(tenant, subscriptionId, options.startingAfter) } } : {}) },
  );
  return { deliveries: page.items.map(deliveryFromItem), hasMore: page.hasMore };
}

/**
 * Appends one attempt to the delivery (creating its item on the first), sets its status and next
 * retry, and renews its 30-day expiry: one UpdateItem. Returns the delivery as it is now.
 */
export async function recordAttempt(
  tenant: Tenant,
  delivery: Pick<DeliveryRecord, 'deliveryId' | 'subscriptionId' | 'eventId' | 'eventType'>,
  attempt: DeliveryAttempt,
  outcome: { status: DeliveryStatus; nextRetryAt: string | null },
): Promise<DeliveryRecord> {
  const now = attempt.at;
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: eventDeliveryKey(tenant, delivery.subscriptionId, delivery.deliveryId),
      UpdateExpression:
        'SET #type = :type, deliveryId = :deliveryId, subscriptionId = :subscriptionId, eventId = :eventId, eventType = :eventType, ' +
        'attempts = list_append(if_not_exists(attempts, :empty), :attempt), #status = :status, nextRetryAt = :next, ' +
        'createdAt = if_not_exists(createdAt, :now), updatedAt = :now, expiresAt = :expires',
      ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
      ExpressionAttributeValues: {
        ':type': 'eventDelivery',
        ':deliveryId': delivery.deliveryId,
        ':subscriptionId': delivery.subscriptionId,
        ':eventId': delivery.eventId,
        ':eventType': delivery.eventType,
        ':empty': [],
        ':attempt': [attempt],
        ':status': outcome.status,
        ':next': outcome.nextRetryAt,
        ':now': now,
        ':expires': Math.floor(Date.parse(now) / 1000) + DELIVERY_LOG_TTL_SECONDS,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return deliveryFromItem(Attributes ?? {});
}
