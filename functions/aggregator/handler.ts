import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { countBatch, emptyWriteStats, type CountedMessage, type WriteStats } from '../../lib/data/rollups.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';
import { logger } from '../../lib/http/logger.ts';

/**
 * The scan aggregator, triggered by the scan queue with ReportBatchItemFailures. Each record is
 * validated on its own (a poison record fails alone, and the queue's redrive policy moves it to
 * the DLQ); the valid ones are counted exactly once into per-product day rollups, one plain
 * UpdateItem per product-day and one ledger put per 10-second bucket of scan times
 * (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan). A failing product-day
 * fails only its own records.
 */
const processor = new BatchProcessor(EventType.SQS);

/** Write and read units spent by this process (the benchmarks read them). */
export const writeStats: WriteStats = emptyWriteStats();

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const valid: CountedMessage[] = [];
  const seen = new Set<string>();
  const recordHandler = (record: SQSRecord): void => {
    const parsed = scanEventSchema.safeParse(JSON.parse(record.body));
    if (!parsed.success) throw new Error(`Not a scan event: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    if (seen.has(record.messageId)) return;
    seen.add(record.messageId);
    valid.push({ messageId: record.messageId, event: parsed.data });
  };
  const parsed = await processPartialResponse(event, recordHandler, processor, { context, throwOnFullBatchFailure: false });

  const { failed, duplicates } = await countBatch(valid, writeStats);
  if (duplicates) logger().info('Scan messages already counted were skipped', { duplicates });
  const failures = [...parsed.batchItemFailures, ...failed.map(({ message }) => ({ itemIdentifier: message.messageId }))];
  if (failed.length) {
    const error = failed[0]?.error;
    logger().error('Scan rollup writes failed; the records will be delivered again', {
      error: error instanceof Error ? error : String(error),
      failed: failed.length,
    });
  }
  if (failures.length) logger().warn('Scan records failed', { failed: failures.length, of: event.Records.length });
  return { batchItemFailures: failures };
}
