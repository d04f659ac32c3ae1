import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Mapping } from '../domain/mapping.ts';
import type { Category } from '../domain/product.ts';
import type { Environment } from '../domain/tenant.ts';
import type { Source, WebhookEndpointRecord, WebhookSecret } from '../domain/webhook.ts';
import { db, tableName } from './client.ts';
import { ENDPOINT_PREFIX, endpointListingKey, endpointLookupKey, orgPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { secretBox } from './secret-box.ts';
import type { TransactItem } from './writes.ts';

/**
 * Webhook endpoints, as two items written together:
 * - `WHE#{endpointId}` / `WHE`: what a delivery looks up by the endpoint id alone (one GetItem);
 * - `ORG#{orgId}` / `WHE#{endpointId}`: the organization's listing.
 * Both hold the whole endpoint. The signing secrets (the HMAC needs them back) are sealed
 * (lib/data/secret-box.ts: AES-256-GCM under a KMS data key in AWS, a local key locally, the
 * organization and endpoint id as authenticated data) into `sealedSecrets`; `secrets` keeps only
 * their dates. An item written before sealing (plaintext `secrets[].secret`, no `sealedSecrets`)
 * still reads, and is sealed on its next write (docs/security.md, finding 3).
 */
const secretsContext = (orgId: string, endpointId: string) => `webhook-endpoint:${orgId}:${endpointId}`;

/** The endpoint's item attributes, with the secret values sealed. */
async function sealed(endpoint: WebhookEndpointRecord): Promise<Record<string, unknown>> {
  const values = JSON.stringify(endpoint.secrets.map((s) => s.secret));
  return {
    ...endpoint,
    secrets: endpoint.secrets.map(({ secret: _secret, ...dates }) => dates),
    sealedSecrets: await (await secretBox()).seal(values, secretsContext(endpoint.orgId, endpoint.endpointId)),
  };
}

/** The item with its secret values opened (a plaintext item as it is). */
async function opened(item: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof item.sealedSecrets !== 'string') return item;
  const values = JSON.parse(await (await secretBox()).open(item.sealedSecrets, secretsContext(String(item.orgId), String(item.endpointId)))) as string[];
  const dates = (item.secrets ?? []) as Omit<WebhookSecret, 'secret'>[];
  return { ...item, secrets: dates.map((d, i) => ({ secret: values[i] ?? '', ...d })) };
}

function fromItem(item: Record<string, unknown>): WebhookEndpointRecord {
  return {
    endpointId: String(item.endpointId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    source: item.source as Source,
    defaultCategory: item.defaultCategory as Category,
    mapping: (item.mapping ?? {}) as Mapping,
    secrets: (item.secrets ?? []) as WebhookSecret[],
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    ...(item.signatureScheme === 'standard-webhooks' ? { signatureScheme: 'standard-webhooks' as const } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/**
 * Writes both items; `expectedUpdatedAt` makes the write conditional on no concurrent change.
 * `extra` joins the transaction (the change's event, docs/lifecycle.md#event-log).
 */
export async function putEndpoint(endpoint: WebhookEndpointRecord, expectedUpdatedAt?: string, extra: TransactItem[] = []): Promise<boolean> {
  const condition = expectedUpdatedAt
    ? { ConditionExpression: 'updatedAt = :expected', ExpressionAttributeValues: { ':expected': expectedUpdatedAt } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
  const item = await sealed(endpoint);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...endpointLookupKey(endpoint.endpointId), type: 'webhookEndpoint', ...item }, ...condition } },
          { Put: { TableName: tableName(), Item: { ...endpointListingKey(endpoint.orgId, endpoint.endpointId), type: 'webhookEndpointListing', ...item }, ...condition } },
          ...extra,
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionCanceledException') return false;
    throw error;
  }
}

export async function getEndpointById(endpointId: string): Promise<WebhookEndpointRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: endpointLookupKey(endpointId) }));
  return Item ? fromItem(await opened(Item)) : undefined;
}

export async function listEndpoints(orgId: string): Promise<WebhookEndpointRecord[]> {
  const { items } = await queryItems(beginsWith(orgPk(orgId), ENDPOINT_PREFIX));
  return (await Promise.all(items.map(opened))).map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Deletes both items; `extra` joins the transaction (the deletion's event). */
export async function deleteEndpoint(endpoint: WebhookEndpointRecord, extra: TransactItem[] = []): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: endpointLookupKey(endpoint.endpointId) } },
        { Delete: { TableName: tableName(), Key: endpointListingKey(endpoint.orgId, endpoint.endpointId) } },
        ...extra,
      ],
    }),
  );
}

