import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../lib/http/logger.ts';
import { backupObjectOf, copyVersion } from '../../lib/services/backup.ts';
import { copyPublicVersion } from './public-copy.ts';

/**
 * The backup copy (docs/backup.md), triggered by the table's stream filtered to the items of
 * published versions (`type` page, credential, batch or item; infra/cdk/constructs/backup.ts): each becomes one
 * object of the backup store, put on the condition that none exists, and its public form to the
 * public copy (public-copy.ts). ReportBatchItemFailures: a
 * failing record is retried from itself on; after the retries the mapping sends it to the DLQ.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  // One record at a time, in stream order (a record's own objects are written together): measured
  // faster than records in parallel against the local store (docs/backup.md#what-it-costs).
  for (const record of event.Records) {
    if (record.eventName === 'REMOVE' || !record.dynamodb?.NewImage) continue;
    if (await copyRecord(record)) return { batchItemFailures: record.dynamodb.SequenceNumber ? [{ itemIdentifier: record.dynamodb.SequenceNumber }] : [] };
  }
  return { batchItemFailures: [] };
}

/** Copies one record's version; true when it failed (the stream delivers it again, from it on). */
async function copyRecord(record: DynamoDBRecord): Promise<boolean> {
  const object = backupObjectOf(unmarshall(withEmptyMaps(record.dynamodb?.NewImage as Record<string, unknown>) as Record<string, AttributeValue>, { wrapNumbers: false }));
  if (!object) return false;
  try {
    await copyVersion(object);
    await copyPublicVersion(object);
    return false;
  } catch (error) {
    logger().error('Backup copy failed; the stream will deliver this record again', { error: error instanceof Error ? error.message : String(error), kind: object.kind, version: object.version });
    return true;
  }
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
