import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import type { ScanEvent } from '../domain/scan.ts';

let client: SQSClient | undefined;
let sends = 0;

function sqs(): SQSClient {
  if (client) return client;
  const { region, sqsEndpoint } = config();
  client = new SQSClient({
    region,
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

/** Puts one scan event on the scan queue. */
export async function sendScanEvent(event: ScanEvent): Promise<void> {
  const queueUrl = config().scanQueueUrl;
  if (!queueUrl) throw new Error('SCAN_QUEUE_URL is not configured');
  sends++;
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
}

/** SendMessage calls made by this process so far (the benchmarks report calls per scan). */
export const scanSendCount = (): number => sends;
