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
    const object = backupObjectOf(unmarshall(withEmptyMaps(record.dynamodb.NewImage as Record<string, unknown>) as Record<string, AttributeValue>, { wrapNumbers: false }));
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

/**
 * A stream image with every attribute value that names no type read as an empty map: DynamoDB
 * Local's stream writes an empty map (a batch's `data: {}`) as `{}` instead of `{"M": {}}`, which
 * unmarshall refuses. DynamoDB's own stream never writes one, so this changes nothing in AWS.
 */
function withEmptyMaps(image: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, attributeValue(value)]));
}

function attributeValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const av = value as { M?: Record<string, unknown>; L?: unknown[] };
  if (Object.keys(av).length === 0) return { M: {} };
  if (av.M !== undefined) return { M: withEmptyMaps(av.M) };
  if (Array.isArray(av.L)) return { L: av.L.map(attributeValue) };
  return value;
}
