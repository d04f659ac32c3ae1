import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { baseUrl } from './api.ts';

export interface Depths {
  scan: { ready: number; inflight: number; delayed: number };
  dlq: { ready: number; inflight: number; delayed: number };
  dlqBodies: string[];
}

export async function queueDepths(): Promise<Depths> {
  return (await (await fetch(`${baseUrl()}/_local/queues`)).json()) as Depths;
}

/** Polls `check` every 100 ms until it returns a value, for at most `timeoutMs` (a generous bound: the queue is slower on a busy machine). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the scan queue holds no message at all (ready, in flight or delayed). */
export const drained = () =>
  eventually(
    async () => {
      const { scan } = await queueDepths();
      return scan.ready + scan.inflight + scan.delayed === 0 ? true : undefined;
    },
    30_000,
    'the scan queue to drain',
  );

export async function sendRawBatch(bodies: string[]): Promise<void> {
  const stack = inject('stack');
  const sqs = new SQSClient({
    region: stack.region,
    endpoint: stack.sqsEndpoint,
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(new SendMessageBatchCommand({ QueueUrl: stack.scanQueueUrl, Entries: bodies.map((MessageBody, i) => ({ Id: String(i), MessageBody })) }));
  sqs.destroy();
}
