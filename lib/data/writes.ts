import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client.ts';

/**
 * A transaction's put of an item that must not exist yet (a new record, or a claim such as a GTIN,
 * an email or a name): the whole transaction fails when it does, with `ConditionalCheckFailed` as
 * this item's cancellation reason.
 */
export const putNew = (Item: Record<string, unknown>) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** One action of a TransactWriteItems call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
