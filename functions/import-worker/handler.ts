import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { IMPORT_ID_PATTERN } from '../../lib/domain/imports.ts';
import { ENVIRONMENTS } from '../../lib/domain/tenant.ts';
import { logger } from '../../lib/http/logger.ts';
import { importChunk } from '../../lib/services/imports.ts';

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
}

function messageOf(record: SQSRecord): ChunkMessage {
  const body = JSON.parse(record.body) as Partial<ChunkMessage>;
  if (
    typeof body.orgId !== 'string' ||
    !ENVIRONMENTS.includes(body.environment as ChunkMessage['environment']) ||
    typeof body.importId !== 'string' ||
    !IMPORT_ID_PATTERN.test(body.importId) ||
    !Number.isInteger(body.chunk) ||
    (body.chunk as number) < 0
  ) {
    throw new Error('Not an import chunk message');
  }
  return body as ChunkMessage;
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const message = messageOf(record);
    const result = await importChunk({ orgId: message.orgId, environment: message.environment }, message.importId, message.chunk);
    if (result === 'missing') logger().warn('Import chunk not found', { importId: message.importId, chunk: message.chunk });
    if (result === 'already') logger().info('Redelivered import chunk skipped', { importId: message.importId, chunk: message.chunk });
  };
  return processPartialResponse(event, recordHandler, processor, { context });
}
