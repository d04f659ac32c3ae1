import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Mapping } from '../domain/mapping.ts';
import type { Category } from '../domain/product.ts';
import type { Environment } from '../domain/tenant.ts';
import type { Source, WebhookEndpoint, WebhookSecret } from '../domain/webhook.ts';
import { db, tableName } from './client.ts';
import { ENDPOINT_PREFIX, endpointListingKey, endpointLookupKey, orgPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';

/**
 * Webhook endpoints, as two items written together:
 * - `WHE#{endpointId}` / `WHE`: what a delivery looks up by the endpoint id alone (one GetItem);
 * - `ORG#{orgId}` / `WHE#{endpointId}`: the organization's listing.
 * Both hold the whole endpoint, secrets included (the HMAC needs them).
 */
function fromItem(item: Record<string, unknown>): WebhookEndpoint {
  return {
    endpointId: String(item.endpointId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    source: item.source as Source,
    defaultCategory: item.defaultCategory as Category,
    mapping: (item.mapping ?? {}) as Mapping,
    secrets: (item.secrets ?? []) as WebhookSecret[],
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/** Writes both items; `expectedUpdatedAt` makes the write conditional on no concurrent change. */
export async function putEndpoint(endpoint: WebhookEndpoint, expectedUpdatedAt?: string): Promise<boolean> {
  const condition = expectedUpdatedAt
    ? { ConditionExpression: 'updatedAt = :expected', ExpressionAttributeValues: { ':expected': expectedUpdatedAt } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...endpointLookupKey(endpoint.endpointId), type: 'webhookEndpoint', ...endpoint }, ...condition } },
          { Put: { TableName: tableName(), Item: { ...endpointListingKey(endpoint.orgId, endpoint.endpointId), type: 'webhookEndpointListing', ...endpoint }, ...condition } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionCanceledException') return false;
    throw error;
  }
}

export async function getEndpointById(endpointId: string): Promise<WebhookEndpoint | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: endpointLookupKey(endpointId) }));
  return Item ? fromItem(Item) : undefined;
}

export async function listEndpoints(orgId: string): Promise<WebhookEndpoint[]> {
  const { items } = await queryItems(beginsWith(orgPk(orgId), ENDPOINT_PREFIX));
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function deleteEndpoint(endpoint: WebhookEndpoint): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: endpointLookupKey(endpoint.endpointId) } },
        { Delete: { TableName: tableName(), Key: endpointListingKey(endpoint.orgId, endpoint.endpointId) } },
      ],
    }),
  );
}

