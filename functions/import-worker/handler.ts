import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { IMPORT_ID_PATTERN, ITEM_IMPORT_MODES } from '../../lib/domain/imports.ts';
import { ENVIRONMENTS } from '../../lib/domain/tenant.ts';
import { logger } from '../../lib/http/logger.ts';
import { importChunk } from '../../lib/services/imports.ts';
import { importItemChunk, type ItemChunk } from '../../lib/services/imports-items.ts';
import { UUID_PATTERN } from '../../lib/domain/ids.ts';

/**
 * The bulk import worker, triggered by the import queue with ReportBatchItemFailures: each record
 * names one chunk of a job (docs/imports.md), imported on its own, so a failing chunk is retried
 * alone and, after five receives, moved to the DLQ. A chunk delivered again is counted once
 * (lib/services/imports.ts, importChunk).
 */
const processor = new BatchProcessor(EventType.SQS);

interface ChunkMessage {
  orgId: string;
  environment: (typeof ENVIRONMENTS)[number];
  importId: string;
  chunk: number;
  /** An items file's chunk: its product and its rows (lib/data/import-queue.ts). */
  items?: ItemChunk;
}

/** An items chunk's rows as its message must carry them: `[row, serial, lot|null, status|null, data|null]`, then optionally what the row removes (`["lot", "data"]`). */
const isItemRow = (row: unknown): boolean =>
  Array.isArray(row) &&
  (row.length === 5 || (row.length === 6 && Array.isArray(row[5]) && (row[5] as unknown[]).every((member) => member === 'lot' || member === 'data'))) &&
  Number.isInteger(row[0]) &&
  typeof row[1] === 'string' &&
  (row[2] === null || typeof row[2] === 'string') &&
  (row[3] === null || typeof row[3] === 'string') &&
  (row[4] === null || (typeof row[4] === 'object' && !Array.isArray(row[4])));

const isItemChunk = (items: unknown): items is ItemChunk =>
  typeof items === 'object' &&
  items !== null &&
  UUID_PATTERN.test(String((items as ItemChunk).productId)) &&
  ((items as ItemChunk).mode === undefined || (ITEM_IMPORT_MODES as readonly unknown[]).includes((items as ItemChunk).mode)) &&
  Array.isArray((items as ItemChunk).rows) &&
  (items as ItemChunk).rows.every(isItemRow);

function messageOf(record: SQSRecord): ChunkMessage {
  const body = JSON.parse(record.body) as Partial<ChunkMessage>;
  if (
    typeof body.orgId !== 'string' ||
    !ENVIRONMENTS.includes(body.environment as ChunkMessage['environment']) ||
    typeof body.importId !== 'string' ||
    !IMPORT_ID_PATTERN.test(body.importId) ||
    !Number.isInteger(body.chunk) ||
    (body.chunk as number) < 0 ||
    (body.items !== undefined && !isItemChunk(body.items))
  ) {
    throw new Error('Not an import chunk message');
  }
  return body as ChunkMessage;
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const message = messageOf(record);
    const tenant = { orgId: message.orgId, environment: message.environment };
    const result = message.items
      ? await importItemChunk(tenant, message.importId, message.chunk, message.items)
      : await importChunk(tenant, message.importId, message.chunk);
    if (result === 'missing') logger().warn('Import chunk not found', { importId: message.importId, chunk: message.chunk });
    if (result === 'already') logger().info('Redelivered import chunk skipped', { importId: message.importId, chunk: message.chunk });
  };
  return processPartialResponse(event, recordHandler, processor, { context });
}
