import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StoredValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { countBatch, emptyWriteStats, type CountedMessage, type WriteStats } from '../../lib/data/rollups.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';
import { logger } from '../../lib/http/logger.ts';

/**
 * Counts the scans the resolver spilled to the table while the scan queue failed
 * (docs/decisions.md#scans-while-the-queue-is-down). Triggered by the table's stream, filtered to
 * new `scanSpill` items (infra/functions.ts): each is counted as the aggregator counts a queue
 * message, exactly once (its `spillId` stands for the message id in the scan ledger, so a record
 * the stream hands over again is not counted twice). ReportBatchItemFailures: when a product-day's
 * writes fail, the stream resumes from the first of its records.
 */

/** Write and read units spent by this process (the benchmarks read them). */
export const writeStats: WriteStats = emptyWriteStats();

/** The spilled scan of a stream record, or undefined for any other record (or a spill that is no scan event: logged, skipped). */
function spilledScan(record: DynamoDBRecord): CountedMessage | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, StoredValue>) as { type?: unknown; spillId?: unknown; event?: unknown };
  if (item.type !== 'scanSpill' || typeof item.spillId !== 'string') return undefined;
  const parsed = scanEventSchema.safeParse(item.event);
  if (!parsed.success) {
    logger().error('A spilled scan is no scan event; skipped', { spillId: item.spillId, issue: parsed.error.issues[0]?.message });
    return undefined;
  }
  return { messageId: `spill:${item.spillId}`, event: parsed.data };
}

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const byRecord = new Map<CountedMessage, DynamoDBRecord>();
  for (const record of event.Records) {
    const scan = spilledScan(record);
    if (scan) byRecord.set(scan, record);
  }
  if (byRecord.size === 0) return { batchItemFailures: [] };
  let failedRecords: Set<DynamoDBRecord>;
  try {
    const { failed } = await countBatch([...byRecord.keys()], writeStats);
    failedRecords = new Set(failed.map(({ message }) => byRecord.get(message)).filter((r): r is DynamoDBRecord => r !== undefined));
    if (failed.length) logger().error('Spilled scans not counted; the stream will deliver them again', { failed: failed.length, error: failed[0]?.error instanceof Error ? failed[0].error.name : String(failed[0]?.error) });
  } catch (error) {
    // The ledger could not be read: nothing of the batch was counted.
    logger().error('Spilled scans not counted; the stream will deliver them again', { error: error instanceof Error ? error.name : String(error) });
    failedRecords = new Set(byRecord.values());
  }
  const first = event.Records.find((record) => failedRecords.has(record))?.dynamodb?.SequenceNumber;
  return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] };
}
