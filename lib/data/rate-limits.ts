import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { rateLimitKey } from './keys.ts';
import { TABLE } from './table.ts';

/**
 * Fixed-window request counters of API keys: `RATELIMIT#{keyId}#{windowStart}` / `RATELIMIT`,
 * one item per key and minute (so windows spread over partitions), deleted by TTL after the window.
 */

/**
 * Atomically adds `count` requests to the key's window starting at `windowStart` (epoch seconds)
 * and returns the window's new total. One UpdateItem: 1 write unit.
 */
export async function addToWindow(keyId: string, windowStart: number, count: number, expiresAt: number): Promise<number> {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKey(keyId, windowStart),
      UpdateExpression: 'ADD #count :count SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': TABLE.ttlAttribute },
      ExpressionAttributeValues: { ':count': count, ':ttl': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.count ?? count);
}
