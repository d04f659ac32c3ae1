import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** How long a failing batch is retried before the poller gives up on it. */
const RETRY_FOR_MS = 120_000;

export interface StreamPollerOptions {
  /** DynamoDB Local's endpoint (it serves the DynamoDB Streams API on the same port). */
  endpoint: string;
  region: string;
  tableName: string;
  functionName: string;
  /** Only records whose new image has this `type` (Lambda's filter criteria in AWS). */
  itemType: string;
  batchSize: number;
  loadHandler: () => Promise<StreamHandler>;
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
 * invokes the handler in batches, and retries a batch from its first reported failure (for up to
 * two minutes, a bounded form of Lambda's retries until the records expire) before going on. The Streams API is called over plain
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
    let pending = records;
    // Retried from the first failure on, waiting longer each time (up to 5 s), for up to two minutes:
    // Lambda's mapping retries until the records expire, and a dependency may be down for a while.
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let attempt = 1; pending.length && (attempt === 1 || Date.now() < giveUpAt); attempt++) {
      const handler = await options.loadHandler();
      const context = { functionName: options.functionName, awsRequestId: crypto.randomUUID(), getRemainingTimeInMillis: () => 30_000 } as Context;
      try {
        const response = await handler({ Records: pending }, context);
        const first = response?.batchItemFailures?.[0]?.itemIdentifier;
        const at = first === undefined ? -1 : pending.findIndex((r) => r.dynamodb?.SequenceNumber === first);
        count += at === -1 ? pending.length : at;
        pending = at === -1 ? [] : pending.slice(at);
      } catch (error) {
        options.onError?.(error);
      }
      if (pending.length && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * 2 ** (attempt - 1))));
    }
    if (pending.length) options.onError?.(new Error(`${options.functionName}: gave up on ${pending.length} stream records`));
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
