import { createHash } from 'node:crypto';
import { config } from '../config.ts';
import type { ScanEvent } from '../domain/scan.ts';
import { awsJsonClient, type AwsJsonClient } from './aws-json.ts';

/**
 * The scan queue's one producer, the resolver, on the small AWS JSON client rather than the SDK
 * (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk).
 */
let client: AwsJsonClient | undefined;
let sends = 0;

function sqs(queueUrl: string): AwsJsonClient {
  if (client) return client;
  const { region, sqsEndpoint } = config();
  // Local queue URLs name a host that need not resolve; send to the configured endpoint.
  client = awsJsonClient({ signingName: 'sqs', targetPrefix: 'AmazonSQS', region, endpoint: sqsEndpoint ?? new URL(queueUrl).origin }, sqsEndpoint !== undefined);
  return client;
}

/** Puts one scan event on the scan queue, checking the body's MD5 in the answer as the SDK does. */
export async function sendScanEvent(event: ScanEvent): Promise<void> {
  const queueUrl = config().scanQueueUrl;
  if (!queueUrl) throw new Error('SCAN_QUEUE_URL is not configured');
  sends++;
  const body = JSON.stringify(event);
  const answer = await sqs(queueUrl).call<{ MD5OfMessageBody?: string }>('SendMessage', { QueueUrl: queueUrl, MessageBody: body });
  if (answer.MD5OfMessageBody !== createHash('md5').update(body).digest('hex')) {
    throw new Error('SendMessage answered an MD5 of the message body that does not match what was sent');
  }
}

/** SendMessage calls made by this process so far (the benchmarks report calls per scan). */
export const scanSendCount = (): number => sends;
