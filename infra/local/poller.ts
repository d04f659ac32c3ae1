import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  endpoint: string;
  region: string;
  queueUrl: string;
  queueArn: string;
  functionName: string;
  /** Most messages per invocation (Lambda's BatchSize; SQS returns at most 10 per receive). */
  batchSize: number;
  /** How long to gather a batch before invoking (Lambda's MaximumBatchingWindowInSeconds). */
  batchWindowMs: number;
  loadHandler: () => Promise<SqsHandler>;
  onError?: (error: unknown) => void;
}

export interface Poller {
  stop(): Promise<void>;
}

function toRecord(message: Message, queueArn: string, region: string): SQSEvent['Records'][number] {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/**
 * Plays Lambda's SQS event source mapping on one machine: long-polls ReceiveMessage, gathers a
 * batch (up to `batchSize`, within `batchWindowMs`), invokes the handler with a real SQS event,
 * deletes the records that succeeded and leaves the `batchItemFailures` (or the whole batch, if
 * the handler throws) to reappear after the visibility timeout, so that the queue's redrive
 * policy moves a poison message to the DLQ after maxReceiveCount receives.
 */
export function startPoller(options: PollerOptions): Poller {
  const sqs = new SQSClient({
    region: options.region,
    endpoint: options.endpoint,
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const abort = new AbortController();
  let running = true;

  async function receiveBatch(): Promise<Message[]> {
    const batch: Message[] = [];
    const deadline = Date.now() + options.batchWindowMs;
    while (running && batch.length < options.batchSize) {
      const waitSeconds = batch.length === 0 ? 1 : Math.max(0, Math.floor((deadline - Date.now()) / 1000));
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: options.queueUrl,
          MaxNumberOfMessages: Math.min(10, options.batchSize - batch.length),
          WaitTimeSeconds: waitSeconds,
          MessageSystemAttributeNames: ['All'],
        }),
        { abortSignal: abort.signal },
      );
      batch.push(...Messages);
      if (Messages.length === 0 && batch.length > 0) break;
      if (batch.length > 0 && Date.now() >= deadline) break;
    }
    return batch;
  }

  async function invoke(batch: Message[]): Promise<void> {
    const handler = await options.loadHandler();
    const records = batch.map((m) => toRecord(m, options.queueArn, options.region));
    const context = {
      functionName: options.functionName,
      awsRequestId: crypto.randomUUID(),
      getRemainingTimeInMillis: () => 30_000,
    } as Context;
    let failed: Set<string>;
    try {
      const response = await handler({ Records: records }, context);
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      options.onError?.(error);
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    for (let i = 0; i < done.length; i += 10) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.slice(i, i + 10).map((r, j) => ({ Id: String(j), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
  }

  // While SQS is down (a fault test killed its endpoint), the first failure is reported and the
  // poller waits longer after each, up to 2 s, as Lambda's event source mapping backs off.
  let failures = 0;
  const loop = (async () => {
    while (running) {
      try {
        const batch = await receiveBatch();
        failures = 0;
        if (batch.length) await invoke(batch);
      } catch (error) {
        if (!running) break;
        if (failures++ === 0) options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 200 * 2 ** Math.min(failures - 1, 4))));
      }
    }
  })();

  return {
    stop: async () => {
      running = false;
      abort.abort();
      await loop;
      sqs.destroy();
    },
  };
}
