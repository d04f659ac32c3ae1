import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { runStreamBatch } from '../../infra/local/table-stream.ts';

/**
 * The local stream mapping (infra/local/table-stream.ts) plays Lambda's DynamoDB Streams event
 * source mapping with BisectBatchOnFunctionError, ReportBatchItemFailures and MaximumRetryAttempts
 * (docs/webhooks-outbound.md#a-record-that-keeps-failing): a record that keeps failing is isolated
 * by splitting the batch, retried alone, then set aside, and the records after it go on.
 */
const record = (n: number): DynamoDBRecord => ({ eventName: 'INSERT', dynamodb: { SequenceNumber: String(1000 + n), Keys: { PK: { S: `EVENTS#org#live` }, SK: { S: `EVT#${n}` } } } });
const seq = (r: DynamoDBRecord): string => r.dynamodb?.SequenceNumber ?? '';

/**
 * The fan-out's way of failing (functions/event-fanout/handler.ts): one tenant's records fail
 * together, reported from the first of them. `poisoned` fails every batch that holds it.
 */
function fanOutLike(poisoned: ReadonlySet<string>, handled: string[], invocations: string[][]) {
  return async (batch: DynamoDBRecord[]): Promise<DynamoDBBatchResponse> => {
    invocations.push(batch.map(seq));
    if (batch.some((r) => poisoned.has(seq(r)))) return { batchItemFailures: [{ itemIdentifier: seq(batch[0] as DynamoDBRecord) }] };
    handled.push(...batch.map(seq));
    return { batchItemFailures: [] };
  };
}

describe('runStreamBatch', () => {
  it('isolates a poisoned record by splitting the batch, retries it alone 10 times, sets it aside, and hands over every other record once, in order', async () => {
    // Prepare: 100 records, the 38th poisoned (a name SQS refused, say); the handler fails whole batches with it
    const records = Array.from({ length: 100 }, (_, i) => record(i));
    const poisoned = seq(records[37] as DynamoDBRecord);
    const handled: string[] = [];
    const invocations: string[][] = [];
    const waits: number[] = [];
    // Act
    const outcome = await runStreamBatch(records, fanOutLike(new Set([poisoned]), handled, invocations), { retryAttempts: 10, sleep: async (ms) => void waits.push(ms) });
    // Assess
    expect(outcome.setAside.map(({ record: r, retries }) => [seq(r), retries])).toEqual([[poisoned, 10]]);
    expect(handled).toEqual(records.map(seq).filter((s) => s !== poisoned));
    expect(outcome.delivered).toBe(99);
    // The poisoned record alone: its first try and 10 retries, each after a growing wait of at most 5 s.
    expect(invocations.filter((batch) => batch.length === 1 && batch[0] === poisoned)).toHaveLength(11);
    expect(waits).toEqual([200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000, 5000]);
    // Splitting costs no retry: a few halvings, not one invocation per record.
    expect(invocations.length).toBeLessThan(11 + 2 * Math.ceil(Math.log2(100)) + 2);
  });

  it('sets aside each of two poisoned records and nothing else', async () => {
    // Prepare
    const records = Array.from({ length: 9 }, (_, i) => record(i));
    const handled: string[] = [];
    // Act
    const outcome = await runStreamBatch(records, fanOutLike(new Set(['1002', '1007']), handled, []), { retryAttempts: 2, sleep: async () => undefined });
    // Assess
    expect(outcome.setAside.map(({ record: r }) => seq(r))).toEqual(['1002', '1007']);
    expect(handled).toEqual(['1000', '1001', '1003', '1004', '1005', '1006', '1008']);
  });

  it('keeps a batch whose invocations fail for a while (a dependency down) until they succeed: nothing set aside', async () => {
    // Prepare: the handler throws three times, then takes everything
    const records = Array.from({ length: 8 }, (_, i) => record(i));
    const handled: string[] = [];
    const errors: unknown[] = [];
    let down = 3;
    // Act
    const outcome = await runStreamBatch(
      records,
      async (batch) => {
        if (down-- > 0) throw new Error('DynamoDB does not answer');
        handled.push(...batch.map(seq));
      },
      { retryAttempts: 10, sleep: async () => undefined, onError: (error) => errors.push(error) },
    );
    // Assess
    expect(outcome.setAside).toEqual([]);
    expect(handled).toEqual(records.map(seq));
    expect(errors).toHaveLength(3);
  });

  it('goes on at once from the first record a batch reports failed, without handing over again those before it', async () => {
    // Prepare: the fourth record fails once (a partial batch failure), then succeeds
    const records = Array.from({ length: 6 }, (_, i) => record(i));
    const invocations: string[][] = [];
    let failedOnce = false;
    // Act
    const outcome = await runStreamBatch(
      records,
      async (batch) => {
        invocations.push(batch.map(seq));
        if (!failedOnce && batch.some((r) => seq(r) === '1003')) {
          failedOnce = true;
          return { batchItemFailures: [{ itemIdentifier: '1003' }] };
        }
        return undefined;
      },
      { retryAttempts: 0, sleep: async () => undefined },
    );
    // Assess
    expect(invocations).toEqual([records.map(seq), ['1003', '1004', '1005']]);
    expect(outcome).toEqual({ delivered: 6, setAside: [] });
  });

  it('without retryAttempts, retries a record that fails alone for retryForMs, then sets it aside', async () => {
    // Prepare: a clock that moves by each wait
    let clock = 0;
    const handled: string[] = [];
    // Act
    const outcome = await runStreamBatch([record(0), record(1)], fanOutLike(new Set(['1000']), handled, []), {
      retryForMs: 60_000,
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
    });
    // Assess
    expect(outcome.setAside.map(({ record: r }) => seq(r))).toEqual(['1000']);
    expect(clock).toBeGreaterThanOrEqual(60_000);
    expect(clock).toBeLessThan(60_000 + 5000);
    expect(handled).toEqual(['1001']);
  });
});
