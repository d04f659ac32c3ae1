import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../lib/http/logger.ts';
import { backupObjectOf, copyVersion } from '../../lib/services/backup.ts';

/**
 * The backup copy (docs/backup.md), triggered by the table's stream filtered to the items of
 * published versions (`type` page, credential, batch or item; infra/cdk/constructs/backup.ts): each becomes one
 * object of the backup store, put on the condition that none exists. ReportBatchItemFailures: a
 * failing record is retried from itself on; after the retries the mapping sends it to the DLQ.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    if (record.eventName === 'REMOVE' || !record.dynamodb?.NewImage) continue;
    const object = backupObjectOf(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>, { wrapNumbers: false }));
    if (!object) continue;
    try {
      await copyVersion(object);
    } catch (error) {
      logger().error('Backup copy failed; the stream will deliver this record again', { error: error instanceof Error ? error.message : String(error), kind: object.kind, version: object.version });
      return { batchItemFailures: record.dynamodb.SequenceNumber ? [{ itemIdentifier: record.dynamodb.SequenceNumber }] : [] };
    }
  }
  return { batchItemFailures: [] };
}
