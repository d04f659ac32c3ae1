import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/tenant.ts';
import { db } from './client.ts';
import { tenantPk } from './keys.ts';

/**
 * The table side of restoring and verifying the backup copy (docs/backup.md#restore): puts into a
 * table named by the caller (the service's own, or a new one: `--to-table`), and the tenant's
 * stored versions as they are in a table. Items are put whole: a restore into a table that holds
 * them already writes the same items again.
 */
type Item = Record<string, unknown>;

/** Puts `items` into `table`, 25 to a BatchWriteItem call, sending unprocessed items again (with a pause) until none are left. */
export async function putItems(table: string, items: readonly Item[]): Promise<number> {
  let calls = 0;
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 10) throw new Error(`${pending.length} items could not be written to ${table}.`);
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** Math.min(attempt, 6)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      calls++;
      pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
  return calls;
}

/** The version-holding items of a tenant's partition (passport pages, credentials, batches and items with their earlier versions), all pages of the query. */
export async function tenantVersionItems(table: string, tenant: Tenant): Promise<Item[]> {
  const wanted = new Set(['page', 'credential', 'batch', 'item', 'batchVersion', 'itemVersion']);
  const found: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': tenantPk(tenant) },
        ConsistentRead: true,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of out.Items ?? []) if (wanted.has(String(item.type))) found.push(item);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
}
