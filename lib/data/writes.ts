import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { cancellationReasons, retryOnConflict } from './errors.ts';

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

/**
 * Writes `items` in one transaction, retried while it loses to concurrent transactions: true when
 * written, false when the first item's condition failed (then nothing was written). Any other
 * cancellation or error is thrown. The first item is the one whose state the caller expects (the
 * claim, the record as read); the rest ride along (its event, its public view).
 */
export async function writeIfFirstHolds(items: readonly TransactItem[]): Promise<boolean> {
  try {
    await retryOnConflict(() => db().send(new TransactWriteCommand({ TransactItems: [...items] })));
    return true;
  } catch (error) {
    if (cancellationReasons(error)[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}
