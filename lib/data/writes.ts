import { tableName } from './client.ts';

/**
 * A transaction's put of an item that must not exist yet (a new record, or a claim such as a GTIN,
 * an email or a name): the whole transaction fails when it does, with `ConditionalCheckFailed` as
 * this item's cancellation reason.
 */
export const putNew = (Item: Record<string, unknown>) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});
