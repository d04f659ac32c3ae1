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
  /**
   * An items file's chunk (docs/import-export.md#items) carries its product and its rows itself, at
   * most ITEM_CHUNK_MAX_BYTES of them (lib/domain/imports.ts): its chunk item is then a small marker,
   * which keeps bulk registration within 1.1 write units an item.
   */
  items?: { productId: string; rows: ItemChunkRow[]; mode?: 'merge' | 'replace' };
}

/**
 * One checked row of an items file: `[row, serial, lot, status, data]`, absent values null, and
 * after them, when the row removes the item's lot or empties its data, the list of those
 * (`["lot", "data"]`; docs/imports.md#merge-or-replace). `mode` on the message says how the row
 * applies; a message without it (queued before modes existed) merges.
 */
export type ItemChunkRow =
  | [row: number, serial: string, lot: string | null, status: string | null, data: Record<string, unknown> | null]
  | [row: number, serial: string, lot: string | null, status: string | null, data: Record<string, unknown> | null, removes: ('lot' | 'data')[]];

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
