import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from './sqs.ts';
import { config } from '../config.ts';
import type { ScanEvent } from '../domain/scan.ts';

let sends = 0;


/** Puts one scan event on the scan queue. */
export async function sendScanEvent(event: ScanEvent): Promise<void> {
  const queueUrl = config().scanQueueUrl;
  if (!queueUrl) throw new Error('SCAN_QUEUE_URL is not configured');
  sends++;
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
}

/** SendMessage calls made by this process so far (the benchmarks report calls per scan). */
export const scanSendCount = (): number => sends;
