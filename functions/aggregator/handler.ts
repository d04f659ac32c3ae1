import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { countUnit, packTransactions, type CountedMessage, type WriteStats } from '../../lib/data/rollups.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';
import { logger } from '../../lib/http/logger.ts';

/**
 * The scan aggregator, triggered by the scan queue with ReportBatchItemFailures. Each record is
 * validated on its own (a poison record fails alone, and the queue's redrive policy moves it to
 * the DLQ); the valid ones are aggregated per product and day and written in as few transactions
 * as fit, each counting its messages exactly once.
 */
const processor = new BatchProcessor(EventType.SQS);

/** Write units and transactions spent by this process (the benchmarks read them). */
export const writeStats: WriteStats = { writeUnits: 0, transactions: 0, rollupUpdates: 0 };

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

  const failed = [...parsed.batchItemFailures];
  for (const unit of packTransactions(valid)) {
    try {
      const { duplicates } = await countUnit(unit, writeStats);
      if (duplicates) logger.info('Redelivered scan messages skipped', { duplicates });
    } catch (error) {
      logger.error('Scan rollup write failed', { error: error instanceof Error ? error : String(error), messages: unit.length });
      failed.push(...unit.map((m) => ({ itemIdentifier: m.messageId })));
    }
  }
  if (failed.length) logger.warn('Scan records failed', { failed: failed.length, of: event.Records.length });
  return { batchItemFailures: failed };
}
