import { createHash, randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { config } from '../config.ts';
import type { ScanEvent } from '../domain/scan.ts';
import { awsJsonClient, scanTiming, type AwsJsonClient } from './aws-json.ts';
import { countDynamoCall } from './call-counts.ts';
import { scanSpillKey } from './keys.ts';
import { scanTableClient } from './scan-reads.ts';
import { isDependencyUnavailable } from './unavailable.ts';

/**
 * The scan queue's one producer, the resolver, on the small AWS JSON client rather than the SDK
 * (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk). When SendMessage fails, the
 * scan event is spilled to the table instead, one PutItem, and the table's stream carries it to
 * the scan-spill function, which counts it as the aggregator would (docs/decisions.md#scans-while-the-queue-is-down).
 * After a send failed because SQS is unavailable (lib/data/unavailable.ts: no answer, 5xx,
 * throttling), the next QUEUE_RETRY_MS of scans spill at once, without waiting on the queue, and
 * then SendMessage is tried again; any other failure (a refused request) spills that scan only.
 * When the table does not take the spill either, the event waits in this instance's memory (at
 * most BACKLOG_LIMIT of them) and goes out with the instance's next scans once the queue takes
 * them: it is lost only if the instance ends before that.
 */
let client: AwsJsonClient | undefined;
let sends = 0;
let spills = 0;
/** Until when scans go straight to the table: the queue failed a moment ago. */
let queueDownUntil = 0;

/** How long the resolver spills without trying the queue, after a SendMessage failed. */
export const QUEUE_RETRY_MS = 5000;
/** A spilled scan's item expires after two days: the stream hands it over within seconds, and keeps records 24 hours. */
const SPILL_TTL_SECONDS = 2 * 86_400;
/** Scan events neither queued nor spilled, kept for the next scans to send; beyond this many the oldest is dropped. */
export const BACKLOG_LIMIT = 1000;
/** How many kept events one scan takes along: a scan after an outage waits for a few more calls, not for the whole backlog. */
const BACKLOG_PER_SCAN = 5;
const backlog: ScanEvent[] = [];

function sqs(queueUrl: string): AwsJsonClient {
  if (client) return client;
  const { region, sqsEndpoint, scanAttemptTimeoutMs } = config();
  // Local queue URLs name a host that need not resolve; send to the configured endpoint.
  client = awsJsonClient(
    { signingName: 'sqs', targetPrefix: 'AmazonSQS', region, endpoint: sqsEndpoint ?? new URL(queueUrl).origin },
    sqsEndpoint !== undefined,
    scanTiming(scanAttemptTimeoutMs),
  );
  return client;
}

/** Puts one scan event on the scan queue, checking the body's MD5 in the answer as the SDK does. */
async function sendToQueue(event: ScanEvent): Promise<void> {
  const queueUrl = config().scanQueueUrl;
  if (!queueUrl) throw new Error('SCAN_QUEUE_URL is not configured');
  sends++;
  const body = JSON.stringify(event);
  const answer = await sqs(queueUrl).call<{ MD5OfMessageBody?: string }>('SendMessage', { QueueUrl: queueUrl, MessageBody: body });
  if (answer.MD5OfMessageBody !== createHash('md5').update(body).digest('hex')) {
    throw new Error('SendMessage answered an MD5 of the message body that does not match what was sent');
  }
}

/**
 * Writes one scan event to the table, for the scan-spill function to count (the item's `spillId`
 * is its message id in the scan ledger: a copy handed over twice is counted once).
 */
async function spill(event: ScanEvent): Promise<void> {
  spills++;
  const spillId = randomUUID();
  const item = { ...scanSpillKey(spillId), type: 'scanSpill', spillId, event, expiresAt: Math.floor(Date.now() / 1000) + SPILL_TTL_SECONDS };
  countDynamoCall('PutItemCommand');
  await scanTableClient().call('PutItem', { TableName: config().tableName, Item: marshall(item, { removeUndefinedValues: true }) });
}

/**
 * Where a scan event went: queued, spilled, or kept in memory for the next scans (`kept`, with
 * `dropped` set when the backlog was full and its oldest event was given up). `queueError`: the
 * SendMessage failure that made it spill (not set while spilling without trying the queue).
 */
export interface ScanSent {
  where: 'queued' | 'spilled' | 'kept';
  queueError?: unknown;
  spillError?: unknown;
  dropped?: number;
}

/** One event: on the queue, or spilled to the table. Throws when neither took it. */
async function deliver(event: ScanEvent): Promise<ScanSent> {
  let queueError: unknown;
  if (Date.now() >= queueDownUntil) {
    try {
      await sendToQueue(event);
      return { where: 'queued' };
    } catch (error) {
      queueError = error;
      if (isDependencyUnavailable(error)) queueDownUntil = Date.now() + QUEUE_RETRY_MS;
    }
  }
  await spill(event);
  return { where: 'spilled', ...(queueError === undefined ? {} : { queueError }) };
}

/**
 * Counts one scan: on the scan queue, or, while the queue fails, spilled to the table, or, while
 * both fail, kept in memory for the next scans. Once the queue takes one again, it takes a few kept
 * events along.
 */
export async function sendScanEvent(event: ScanEvent): Promise<ScanSent> {
  let sent: ScanSent;
  try {
    sent = await deliver(event);
  } catch (spillError) {
    backlog.push(event);
    const dropped = Math.max(0, backlog.length - BACKLOG_LIMIT);
    backlog.splice(0, dropped);
    return { where: 'kept', spillError, ...(dropped ? { dropped } : {}) };
  }
  // Only once the queue took this scan's event: on the healthy path each kept one costs a quick send,
  // so the scan stays within its budget (a failing send ends the round).
  for (let i = 0; sent.where === 'queued' && i < BACKLOG_PER_SCAN && backlog.length; i++) {
    const kept = backlog.shift() as ScanEvent;
    try {
      await deliver(kept);
    } catch {
      backlog.unshift(kept);
      break;
    }
  }
  return sent;
}

/** Scan events this instance holds because neither the queue nor the table took them. */
export const scanBacklogSize = (): number => backlog.length;

/** SendMessage calls made by this process so far (the benchmarks report calls per scan). */
export const scanSendCount = (): number => sends;

/** Scan events this process spilled to the table so far. */
export const scanSpillCount = (): number => spills;
