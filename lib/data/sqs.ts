import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { sdkClientBudget } from './aws-budget.ts';

let client: SQSClient | undefined;

/** The one SQS client of a process, on the configured endpoint locally (fauxqs) and SQS's own in AWS. */
export function sqs(): SQSClient {
  if (client) return client;
  const { region, sqsEndpoint } = config();
  client = new SQSClient({
    region,
    // The request's retry budget (lib/data/aws-budget.ts).
    ...sdkClientBudget(),
    ...(sqsEndpoint
      ? {
          endpoint: sqsEndpoint,
          // Local queue URLs name a host that need not resolve; send to the configured endpoint.
          useQueueUrlAsEndpoint: false,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return client;
}

/**
 * The characters a message body may hold as they are: those SQS accepts (#x9 | #xA | #xD |
 * #x20–#xD7FF | #xE000–#xFFFD | #x10000–#x10FFFF, the SendMessage API reference, quoted in
 * docs/webhooks-outbound.md#what-a-message-may-hold) less #x10000–#x10FFFF, which the local
 * emulator refuses (docs/configuration.md#the-local-sqs-emulator). Matched per UTF-16 code unit (no
 * `u` flag), so a character beyond U+FFFF is two units outside the class, and a lone surrogate one.
 */
const UNSENDABLE = '[^\\t\\n\\r\\u0020-\\uD7FF\\uE000-\\uFFFD]';
const HAS_UNSENDABLE = new RegExp(UNSENDABLE);
const ALL_UNSENDABLE = new RegExp(UNSENDABLE, 'g');

const escapeUnit = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A JSON text as a message body SQS (and fauxqs) accepts, meaning the same JSON value: every code
 * unit outside that class becomes its `\uXXXX` escape. Such a unit can only stand inside a
 * JSON string (JSON's own syntax is ASCII, and JSON.stringify escapes U+0000–U+001F and lone
 * surrogates itself), where the escape spells the same code unit, so JSON.parse on the other side
 * gives back the very string that was stringified: U+FFFE stays U+FFFE, an emoji its two surrogates.
 * Text the rule refuses today (lib/domain/text.ts) may still be stored from before the rule or from
 * a path that skipped it; it must not keep a message off its queue.
 */
export function sendableJson(json: string): string {
  return HAS_UNSENDABLE.test(json) ? json.replace(ALL_UNSENDABLE, escapeUnit) : json;
}

/**
 * What one SendMessageBatch call carries at most, in UTF-8 bytes of its bodies: 256 KiB, what SQS
 * took before it raised message and batch size to 1 MiB, so that a batch fits either. A body
 * escaped by sendableJson can be up to three times its raw size (4 bytes of an emoji become 12).
 */
export const MAX_BATCH_BYTES = 256 * 1024;

/** One message of a batch: its body (JSON text) and, optionally, its delay (at most SQS's 900 s). */
export interface BatchMessage {
  body: string;
  delaySeconds?: number;
}

/** The messages in SendMessageBatch calls: at most ten each (SQS's most) and MAX_BATCH_BYTES, a larger body alone. */
export function batchesOf<T extends { body: string }>(messages: readonly T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = Buffer.byteLength(message.body, 'utf8');
    if (current.length === 10 || (current.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/**
 * Puts `messages` on a queue, in SendMessageBatch calls of at most ten (batchesOf), each body made
 * sendable first (sendableJson: every queue's bodies are JSON). Entries SQS reports as failed are
 * sent again (three attempts in all); then it throws, naming `what` was not queued. Answers the
 * number of calls made (the benchmarks count them).
 */
export async function sendInBatches(queueUrl: string, messages: readonly BatchMessage[], what: string): Promise<number> {
  let calls = 0;
  const sendable = messages.map(({ body, delaySeconds }) => ({ body: sendableJson(body), ...(delaySeconds ? { delaySeconds } : {}) }));
  for (const batch of batchesOf(sendable)) {
    let entries = batch.map(({ body, delaySeconds }, j) => ({
      Id: String(j),
      MessageBody: body,
      ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
    }));
    for (let attempt = 1; entries.length; attempt++) {
      calls++;
      const { Failed = [] } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set(Failed.map((f) => f.Id));
      entries = entries.filter((entry) => failed.has(entry.Id));
      if (entries.length && attempt >= 3) throw new Error(`Could not queue ${entries.length} ${what}: ${Failed[0]?.Message ?? 'unknown'}`);
    }
  }
  return calls;
}
