import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { countUnit, packTransactions, splitByRollup, type CountedMessage, type WriteStats } from '../../lib/data/rollups.ts';
import { scanEventSchema } from '../../lib/domain/scan-event.ts';
import { logger } from '../../lib/http/logger.ts';

/**
 * The scan aggregator, triggered by the scan queue with ReportBatchItemFailures. Each record is
 * validated on its own (a poison record fails alone, and the queue's redrive policy moves it to
 * the DLQ); the valid ones are aggregated per product and day and written in as few transactions
 * as fit (never two tenants in one), each counting its messages exactly once. A failing
 * product-day fails only its own records.
 */
const processor = new BatchProcessor(EventType.SQS);

/** Write units and transactions spent by this process (the benchmarks read them). */
export const writeStats: WriteStats = { writeUnits: 0, transactions: 0, rollupUpdates: 0 };

const failure = (m: CountedMessage) => ({ itemIdentifier: m.messageId });

/** Counts one unit; false (logged) when its transaction fails for good. */
async function count(unit: readonly CountedMessage[], willSplit: boolean): Promise<boolean> {
  try {
    const { duplicates } = await countUnit(unit, writeStats);
    if (duplicates) logger.info('Redelivered scan messages skipped', { duplicates });
    return true;
  } catch (error) {
    const details = { error: error instanceof Error ? error : String(error), messages: unit.length };
    if (willSplit) logger.warn('Scan rollup write failed; counting each product-day on its own', details);
    else logger.error('Scan rollup write failed', details);
    return false;
  }
}

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
    // A unit holds one tenant's records; if it fails, each product-day is tried on its own, so
    // only the records of the product-day that cannot be written are reported as failed.
    const parts = splitByRollup(unit);
    if (await count(unit, parts.length > 1)) continue;
    for (const part of parts.length > 1 ? parts : []) if (!(await count(part, false))) failed.push(...part.map(failure));
    if (parts.length === 1) failed.push(...unit.map(failure));
  }
  if (failed.length) logger.warn('Scan records failed', { failed: failed.length, of: event.Records.length });
  return { batchItemFailures: failed };
}
