import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

type Item = Record<string, unknown>;
export type QueryShape = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>;

/** The key condition "this partition, sort keys starting with `prefix`". */
export const beginsWith = (pk: string, prefix: string): QueryShape => ({
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
});

/**
 * Runs one Query page after page (DynamoDB stops a page at 1 MB): every matching item, or the
 * first `limit` after `startKey` and whether more exist.
 */
export async function queryItems(
  query: QueryShape,
  options: { limit?: number; startKey?: Item } = {},
): Promise<{ items: Item[]; hasMore: boolean }> {
  const { limit } = options;
  const items: Item[] = [];
  let startKey = options.startKey;
  do {
    const page = await db().send(
      new QueryCommand({
        ...query,
        TableName: tableName(),
        ExclusiveStartKey: startKey,
        ...(limit === undefined ? {} : { Limit: limit + 1 - items.length }),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (limit === undefined || items.length <= limit));
  return limit === undefined ? { items, hasMore: false } : { items: items.slice(0, limit), hasMore: items.length > limit };
}
