import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { config } from '../config.ts';
import { awsJsonClient, AwsServiceError, scanTiming, type AwsJsonClient } from './aws-json.ts';
import { countDynamoCall } from './call-counts.ts';
import { publicReads, type BatchGetItems, type GetItem } from './public-reads.ts';

/**
 * The resolver's reads (lib/data/public-reads.ts) over the small AWS JSON client instead of the
 * SDK: docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk. Nothing here may import
 * the AWS SDK's clients (a bundle test checks the resolver's bundle).
 */
let client: AwsJsonClient | undefined;

/** The scan path's DynamoDB client (its reads here, and a spilled scan's put: lib/data/scan-queue.ts). */
export function scanTableClient(): AwsJsonClient {
  if (client) return client;
  const { region, dynamodbEndpoint, scanAttemptTimeoutMs } = config();
  client = awsJsonClient(
    { signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region, endpoint: dynamodbEndpoint ?? `https://dynamodb.${region}.amazonaws.com` },
    dynamodbEndpoint !== undefined,
    scanTiming(scanAttemptTimeoutMs),
  );
  return client;
}

const getItem: GetItem = async (key) => {
  countDynamoCall('GetItemCommand');
  const { Item } = await scanTableClient().call<{ Item?: Record<string, AttributeValue> }>('GetItem', { TableName: config().tableName, Key: marshall(key) });
  return Item ? unmarshall(Item) : undefined;
};

/**
 * BatchGetItem of the scan path (a GTIN item and a batch or item, docs/resolver.md#batches-and-items):
 * one call; keys DynamoDB leaves unprocessed (throttling) are asked for again, twice at most, and
 * then the scan fails as throttled (a 503, docs/resolver.md#when-a-dependency-is-down).
 */
const batchGetItems: BatchGetItems = async (keys) => {
  const table = config().tableName;
  const items: Record<string, unknown>[] = [];
  let pending: readonly Record<string, unknown>[] = keys.map((key) => marshall(key));
  for (let attempt = 1; pending.length; attempt++) {
    countDynamoCall('BatchGetItemCommand');
    const { Responses, UnprocessedKeys } = await scanTableClient().call<{
      Responses?: Record<string, Record<string, AttributeValue>[]>;
      UnprocessedKeys?: Record<string, { Keys?: Record<string, AttributeValue>[] }>;
    }>('BatchGetItem', { RequestItems: { [table]: { Keys: pending } } });
    items.push(...(Responses?.[table] ?? []).map((item) => unmarshall(item)));
    pending = UnprocessedKeys?.[table]?.Keys ?? [];
    if (pending.length && attempt >= 3) throw new AwsServiceError('ProvisionedThroughputExceededException', `BatchGetItem left ${pending.length} keys unprocessed`, 400);
    if (pending.length) await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
  return items;
};

export const { getPublicView, getVersionPage, findDomainByHostname, getScanView, getUnitPage, getLabelTermSet } = publicReads(getItem, batchGetItems);
