import { sendInBatches } from './sqs.ts';
import { config } from '../config.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * The message of one chunk of an import job: the worker reads the chunk's rows from the table, so a
 * message is about 120 bytes whatever the rows hold (SQS takes at most 256 KiB).
 */
export interface ImportChunkMessage {
  orgId: string;
  environment: Tenant['environment'];
  importId: string;
  chunk: number;
}

let sends = 0;

/**
 * Puts one message per chunk on the import queue, ten to a SendMessageBatch call (SQS's most).
 * Entries SQS reports as failed are sent again (three attempts); then it throws.
 */
export async function sendImportChunks(messages: readonly ImportChunkMessage[]): Promise<void> {
  const queueUrl = config().importQueueUrl;
  if (!queueUrl) throw new Error('IMPORT_QUEUE_URL is not configured');
  sends += await sendInBatches(queueUrl, messages.map((message) => ({ body: JSON.stringify(message) })), 'import chunks');
}

/** SendMessageBatch calls made by this process (the benchmarks read them). */
export const importSendCount = (): number => sends;
