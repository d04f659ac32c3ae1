import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** How long a record that fails alone is retried before it is set aside, for a mapping without retryAttempts. */
const RETRY_FOR_MS = 120_000;
/** The wait before the n-th retry of a record that fails alone: 200 ms, doubling, at most 5 s. */
const retryWait = (retry: number): number => Math.min(5000, 200 * 2 ** (retry - 1));

export interface StreamPollerOptions {
  /** DynamoDB Local's endpoint (it serves the DynamoDB Streams API on the same port). */
  endpoint: string;
  region: string;
  tableName: string;
  functionName: string;
  /** Only records whose new image has this `type` (Lambda's filter criteria in AWS). */
  itemType: string;
  batchSize: number;
  /**
   * Retries of a record that fails alone before it is set aside (Lambda's MaximumRetryAttempts;
   * infra/functions.ts). Unset: retried for two minutes, a bounded form of "until it expires".
   */
  retryAttempts?: number;
  loadHandler: () => Promise<StreamHandler>;
  /** Errors of the handler and of the stream reads, and each record set aside (an error naming it). */
  onError?: (error: unknown) => void;
  /** How long to wait after an empty read (default 100 ms). */
  idleMs?: number;
}

export interface StreamPoller {
  stop(): Promise<void>;
  /** Records handed to the function so far. */
  delivered(): number;
}

/**
 * Plays Lambda's DynamoDB Streams event source mapping against DynamoDB Local: reads every shard
 * of the table's stream from the moment it starts (LATEST; shards that appear later from their
 * start), keeps the records whose new image has `type = itemType` (the mapping's filter in AWS),
 * invokes the handler in batches as the mapping does (runStreamBatch: a failing batch is split in
 * two until the record that fails is alone, which is retried, then set aside, so that the records
 * after it go on). The Streams API is called over plain
 * HTTP: DynamoDB Local checks no signature, and the SDK's Streams client is not a dependency.
 * After DynamoDB Local was down (a fault test kills and restarts it), the poller reads the stream
 * again: each shard after the last record it handed over, or from its start when the shard is new
 * (a restart in memory makes a new table, and a new stream).
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const call = async <T>(operation: string, body: unknown, target = 'DynamoDBStreams_20120810'): Promise<T> => {
    const response = await fetch(options.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${target}.${operation}`,
        // DynamoDB Local reads the access key (the shared database ignores it) and checks no signature.
        authorization: `AWS4-HMAC-SHA256 Credential=local/20260101/${options.region}/dynamodb/aws4_request, SignedHeaders=host, Signature=local`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`DynamoDB Streams ${operation}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  const streamArnOf = async (): Promise<string> => {
    const { Table } = await call<{ Table: { LatestStreamArn?: string } }>('DescribeTable', { TableName: options.tableName }, 'DynamoDB_20120810');
    if (!Table.LatestStreamArn) throw new Error(`Table ${options.tableName} has no stream.`);
    return Table.LatestStreamArn;
  };
  let streamArn = await streamArnOf();

  interface Shard {
    ShardId: string;
    SequenceNumberRange?: { EndingSequenceNumber?: string };
  }
  const iterators = new Map<string, string | null>();
  /** The sequence number of the last record handed over, per shard: where to go on after an outage. */
  const lastSequence = new Map<string, string>();
  const listShards = async (): Promise<Shard[]> =>
    (await call<{ StreamDescription: { Shards?: Shard[] } }>('DescribeStream', { StreamArn: streamArn })).StreamDescription.Shards ?? [];
  const iteratorOf = async (shardId: string, type: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER', after?: string): Promise<string> =>
    (
      await call<{ ShardIterator: string }>('GetShardIterator', {
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(after === undefined ? {} : { SequenceNumber: after }),
      })
    ).ShardIterator;

  // What exists now is read from now on; a shard that appears later, from its start.
  for (const shard of await listShards()) {
    if (shard.SequenceNumberRange?.EndingSequenceNumber) iterators.set(shard.ShardId, null);
    else iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'LATEST'));
  }

  /**
   * After an outage: the stream as it is now, each known shard after its last record read (or, if
   * none was read since the poller started, from now on, as at the start), a new one from its start.
   */
  async function resume(): Promise<void> {
    const arn = await streamArnOf();
    if (arn !== streamArn) {
      // Another table (DynamoDB Local restarted in memory): its stream is new, read it whole.
      streamArn = arn;
      iterators.clear();
      lastSequence.clear();
    }
    for (const shard of await listShards()) {
      const after = lastSequence.get(shard.ShardId);
      if (after !== undefined) iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'AFTER_SEQUENCE_NUMBER', after));
      else if (!iterators.has(shard.ShardId)) iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'TRIM_HORIZON'));
      else if (iterators.get(shard.ShardId)) iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'LATEST'));
    }
  }

  let running = true;
  let count = 0;
  const wanted = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.type?.S === options.itemType;

  async function invoke(records: DynamoDBRecord[]): Promise<void> {
    const outcome = await runStreamBatch(
      records,
      async (batch) => {
        const handler = await options.loadHandler();
        const context = { functionName: options.functionName, awsRequestId: crypto.randomUUID(), getRemainingTimeInMillis: () => 30_000 } as Context;
        return handler({ Records: batch }, context);
      },
      {
        ...(options.retryAttempts === undefined ? {} : { retryAttempts: options.retryAttempts }),
        onError: (error) => options.onError?.(error),
        stopped: () => !running,
      },
    );
    count += outcome.delivered;
    for (const { record, retries } of outcome.setAside) {
      options.onError?.(
        new Error(
          `${options.functionName}: set aside stream record ${record.dynamodb?.SequenceNumber ?? '?'} after ${retries} retries; the records after it go on (in AWS: the mapping's on-failure destination, or the records' expiry)`,
        ),
      );
    }
  }

  let failures = 0;
  const loop = (async () => {
    let lastListing = Date.now();
    while (running) {
      try {
        let read = 0;
        if (Date.now() - lastListing > 1000) {
          lastListing = Date.now();
          for (const shard of await listShards()) {
            if (!iterators.has(shard.ShardId)) iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'TRIM_HORIZON'));
          }
        }
        for (const [shardId, iterator] of iterators) {
          if (!iterator || !running) continue;
          const out = await call<{ Records?: DynamoDBRecord[]; NextShardIterator?: string | null }>('GetRecords', { ShardIterator: iterator, Limit: options.batchSize });
          iterators.set(shardId, out.NextShardIterator ?? null);
          const records = (out.Records ?? []).filter(wanted).map((r) => ({ ...r, eventSourceARN: streamArn }));
          read += out.Records?.length ?? 0;
          if (records.length) await invoke(records);
          const last = out.Records?.at(-1)?.dynamodb?.SequenceNumber;
          if (last !== undefined) lastSequence.set(shardId, last);
        }
        if (read === 0) await new Promise((resolve) => setTimeout(resolve, options.idleMs ?? 100));
      } catch (error) {
        if (!running) break;
        // The first failure of a run is reported; then the poller waits and reads the stream again.
        if (failures++ === 0) options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await resume().then(
          () => (failures = 0),
          () => undefined,
        );
      }
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
    },
    delivered: () => count,
  };
}

export interface StreamBatchOptions {
  /** Retries of a record that fails alone before it is set aside; unset: for retryForMs. */
  retryAttempts?: number;
  /** Default two minutes. */
  retryForMs?: number;
  /** An invocation that threw (a record reported as failed is no error). */
  onError?: (error: unknown) => void;
  /** True once the poller stops: what is left is not retried. */
  stopped?: () => boolean;
  /** Waits between retries (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface StreamBatchOutcome {
  /** Records the handler took (a record handed over again after a failure counts once). */
  delivered: number;
  /** Records that failed alone past the retries, with how many retries they had, in stream order. */
  setAside: { record: DynamoDBRecord; retries: number }[];
}

/**
 * One batch of a shard's records through `invoke`, as Lambda's stream event source mapping with
 * BisectBatchOnFunctionError and ReportBatchItemFailures treats it (docs/webhooks-outbound.md#a-record-that-keeps-failing):
 * the records before the first reported failure are done; the rest is invoked again at once when
 * some were done, and split in two when none was (an invocation that throws has done none), first
 * half first, which costs no retry. A record that fails alone is retried after a growing wait, and
 * set aside after `retryAttempts` retries (or `retryForMs`), so that one poisoned record never holds
 * back the records after it for longer than its retries. Records stay in stream order.
 */
export async function runStreamBatch(
  records: readonly DynamoDBRecord[],
  invoke: (records: DynamoDBRecord[]) => Promise<DynamoDBBatchResponse | void>,
  options: StreamBatchOptions = {},
): Promise<StreamBatchOutcome> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const retryForMs = options.retryForMs ?? RETRY_FOR_MS;
  const outcome: StreamBatchOutcome = { delivered: 0, setAside: [] };
  // Batches still to invoke, the next one last.
  const todo: DynamoDBRecord[][] = records.length ? [[...records]] : [];
  // The record failing alone now: its retries so far and when it first failed alone.
  let alone: { record: DynamoDBRecord; retries: number; since: number } | undefined;
  while (todo.length && !options.stopped?.()) {
    const batch = todo.pop() ?? [];
    let failedAt: number;
    try {
      // Lambda goes on from the lowest sequence number reported; one it cannot find fails the whole batch.
      const reported = (await invoke(batch))?.batchItemFailures ?? [];
      const at = reported.map(({ itemIdentifier }) => batch.findIndex((r) => r.dynamodb?.SequenceNumber === itemIdentifier));
      failedAt = reported.length === 0 ? -1 : Math.max(0, Math.min(...at.map((i) => (i === -1 ? 0 : i))));
    } catch (error) {
      options.onError?.(error);
      failedAt = 0;
    }
    if (failedAt === -1) {
      outcome.delivered += batch.length;
      alone = undefined;
      continue;
    }
    outcome.delivered += failedAt;
    const rest = batch.slice(failedAt);
    if (failedAt > 0) {
      todo.push(rest);
      alone = undefined;
    } else if (rest.length > 1) {
      const half = Math.ceil(rest.length / 2);
      todo.push(rest.slice(half), rest.slice(0, half));
    } else {
      const record = rest[0] as DynamoDBRecord;
      alone = alone?.record === record ? alone : { record, retries: 0, since: now() };
      const spent = options.retryAttempts !== undefined ? alone.retries >= options.retryAttempts : now() - alone.since >= retryForMs;
      if (spent) {
        outcome.setAside.push({ record, retries: alone.retries });
        alone = undefined;
        continue;
      }
      alone.retries++;
      await sleep(retryWait(alone.retries));
      todo.push(rest);
    }
  }
  return outcome;
}
