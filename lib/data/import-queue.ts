import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqs } from './sqs.ts';
import { config } from '../config.ts';
import type { Tenant } from '../domain/tenant.ts';

/** The message of one chunk of an import job: the worker reads the chunk's rows from the table. */
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
  for (let i = 0; i < messages.length; i += 10) {
    let entries = messages.slice(i, i + 10).map((message) => ({ Id: String(message.chunk), MessageBody: JSON.stringify(message) }));
    for (let attempt = 1; entries.length; attempt++) {
      sends++;
      const { Failed = [] } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set(Failed.map((f) => f.Id));
      entries = entries.filter((entry) => failed.has(entry.Id));
      if (entries.length && attempt >= 3) throw new Error(`Could not queue ${entries.length} import chunks: ${Failed[0]?.Message ?? 'unknown'}`);
    }
  }
}

/** SendMessageBatch calls made by this process (the benchmarks read them). */
export const importSendCount = (): number => sends;
