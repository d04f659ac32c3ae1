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

/** One message of a batch: its body and, optionally, its delay (at most SQS's 900 s). */
export interface BatchMessage {
  body: string;
  delaySeconds?: number;
}

/**
 * Puts `messages` on a queue, ten to a SendMessageBatch call (SQS's most). Entries SQS reports as
 * failed are sent again (three attempts in all); then it throws, naming `what` was not queued.
 * Answers the number of calls made (the benchmarks count them).
 */
export async function sendInBatches(queueUrl: string, messages: readonly BatchMessage[], what: string): Promise<number> {
  let calls = 0;
  for (let i = 0; i < messages.length; i += 10) {
    let entries = messages.slice(i, i + 10).map(({ body, delaySeconds }, j) => ({
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
