import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

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
 * invokes the handler in batches, and retries a batch from its first reported failure (three
 * times, as a bounded MaximumRetryAttempts) before going on. The Streams API is called over plain
 * HTTP: DynamoDB Local checks no signature, and the SDK's Streams client is not a dependency.
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

  const { Table } = await call<{ Table: { LatestStreamArn?: string } }>('DescribeTable', { TableName: options.tableName }, 'DynamoDB_20120810');
  const streamArn = Table.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream.`);

  interface Shard {
    ShardId: string;
    SequenceNumberRange?: { EndingSequenceNumber?: string };
  }
  const iterators = new Map<string, string | null>();
  const listShards = async (): Promise<Shard[]> =>
    (await call<{ StreamDescription: { Shards?: Shard[] } }>('DescribeStream', { StreamArn: streamArn })).StreamDescription.Shards ?? [];
  const iteratorOf = async (shardId: string, type: 'LATEST' | 'TRIM_HORIZON'): Promise<string> =>
    (await call<{ ShardIterator: string }>('GetShardIterator', { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type })).ShardIterator;

  // What exists now is read from now on; a shard that appears later, from its start.
  for (const shard of await listShards()) {
    if (shard.SequenceNumberRange?.EndingSequenceNumber) iterators.set(shard.ShardId, null);
    else iterators.set(shard.ShardId, await iteratorOf(shard.ShardId, 'LATEST'));
  }

  let running = true;
  let count = 0;
  const wanted = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.type?.S === options.itemType;

  async function invoke(records: DynamoDBRecord[]): Promise<void> {
    let pending = records;
    for (let attempt = 1; pending.length && attempt <= 4; attempt++) {
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
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
    if (pending.length) options.onError?.(new Error(`${options.functionName}: gave up on ${pending.length} stream records`));
  }

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
        }
        if (read === 0) await new Promise((resolve) => setTimeout(resolve, options.idleMs ?? 100));
      } catch (error) {
        if (!running) break;
        options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, 500));
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
