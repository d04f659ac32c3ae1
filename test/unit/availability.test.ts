import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as realSleep } from 'node:timers/promises';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/products/handler.ts';
import { config } from '../../lib/config.ts';
import { MAX_ATTEMPTS, sdkClientBudget } from '../../lib/data/aws-budget.ts';
import { ATTEMPT_TIMEOUT_MS, awsJsonClient } from '../../lib/data/aws-json.ts';
import { isDependencyUnavailable } from '../../lib/http/availability.ts';
import type { HttpEvent } from '../../lib/http/types.ts';

/**
 * A dependency that is down is a 503 with Retry-After, a bug stays a 500
 * (docs/api.md#when-a-dependency-is-down): which failures count as a dependency's, through the real
 * clients where a socket can show it, and what an API request answers then.
 */
const base = JSON.parse(readFileSync(new URL('../../events/products-get.json', import.meta.url), 'utf8')) as HttpEvent;
const context = { awsRequestId: 'req-1', functionName: 'products', getRemainingTimeInMillis: () => 10_000 } as Context;
const ddb = mockClient(DynamoDBDocumentClient);
const request = (): HttpEvent => ({ ...base, headers: { ...base.headers, authorization: `Bearer sk_test_${'U'.repeat(32)}` } });

/** An error as the SDK's HTTP handler throws it for a refused connection. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: { attempts: 3 } });

/** A server that accepts connections and never answers. */
let silent: Server;
let silentEndpoint = '';
const held = new Set<Socket>();
beforeAll(async () => {
  silent = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentEndpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const socket of held) socket.destroy();
  return new Promise<void>((resolve) => silent.close(() => resolve()));
});
beforeEach(() => ddb.reset());
afterEach(() => vi.useRealTimers());

/**
 * Settles `pending` (a call to the silent server or a closed port) on vitest's fake clock instead of
 * waiting out each attempt's cut-off: as soon as the silent server holds a new attempt's
 * connection, the clock jumps `cutOffMs`, past that attempt's cut-off; otherwise (connecting, or a
 * back-off between attempts) it moves with real time, 10 ms at a time, so a connection gets as long
 * to arrive as it would have. Call `vi.useFakeTimers` (setTimeout, clearTimeout, Date) before the call starts.
 */
async function onFakeClock<T>(pending: Promise<T>, cutOffMs: number): Promise<T> {
  let settled = false;
  void pending.then(() => {
    settled = true;
  });
  let connections = held.size;
  while (!settled) {
    await realSleep(10);
    if (held.size > connections) {
      connections = held.size;
      await vi.advanceTimersByTimeAsync(cutOffMs);
    } else {
      await vi.advanceTimersByTimeAsync(10);
    }
  }
  return pending;
}
const FAKE_CLOCK: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['setTimeout', 'clearTimeout', 'Date'] };

describe('what counts as a dependency that is down', () => {
  it('a refused connection, throttling, a 5xx, a cut-off attempt, and the same wrapped by Powertools idempotency', () => {
    // Prepare
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
    const serverFault = Object.assign(new Error('We encountered an internal error'), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500 } });
    const cutOff = Object.assign(new Error('a request has exceeded the configured 2000 ms requestTimeout'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    const wrapped = Object.assign(new Error('Failed to save in progress record to idempotency store'), { name: 'IdempotencyPersistenceLayerError', cause: refused() });
    const conflict = Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }] });
    // Act and assess
    for (const error of [refused(), throttled, serverFault, cutOff, wrapped, conflict]) expect(isDependencyUnavailable(error), error.name).toBe(true);
  });

  it('not a refused condition, an invalid request or a bug', () => {
    // Prepare
    const condition = Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } });
    const validation = Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
    const cancelled = Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] });
    // Act and assess
    for (const error of [condition, validation, cancelled, new TypeError("Cannot read properties of undefined (reading 'x')"), 'a string']) {
      expect(isDependencyUnavailable(error), String(error)).toBe(false);
    }
  });

  it('the SDK client with the budget gives up on a server that never answers after its 3 attempts, as a dependency failure', async () => {
    // Prepare: the attempts' cut-offs on the fake clock (seconds of real waiting otherwise)
    vi.useFakeTimers(FAKE_CLOCK);
    const connectionsBefore = held.size;
    const client = new DynamoDBClient({ region: 'eu-central-1', endpoint: silentEndpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, ...sdkClientBudget() });
    // Act
    const error = await onFakeClock(
      client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } })).catch((e: unknown) => e as Error & { $metadata?: { attempts?: number } }),
      config().awsAttemptTimeoutMs,
    );
    client.destroy();
    // Assess: each attempt reached the server, and was cut off for want of an answer
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('TimeoutError');
    expect(error?.$metadata?.attempts).toBe(MAX_ATTEMPTS);
    expect(held.size - connectionsBefore).toBe(MAX_ATTEMPTS);
    expect(isDependencyUnavailable(error)).toBe(true);
  }, 30_000);

  it('the scan path’s client: a refused connection and a server that never answers, each a dependency failure', async () => {
    // Prepare: a port nothing listens on
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedEndpoint = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = (endpoint: string) => awsJsonClient({ signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region: 'eu-central-1', endpoint }, true);
    // Act: the silent server's cut-offs on the fake clock (seconds of real waiting otherwise)
    vi.useFakeTimers(FAKE_CLOCK);
    const refusedError = await onFakeClock(client(closedEndpoint).call('GetItem', {}).catch((e: unknown) => e), ATTEMPT_TIMEOUT_MS);
    const silentError = await onFakeClock(client(silentEndpoint).call('GetItem', {}).catch((e: unknown) => e), ATTEMPT_TIMEOUT_MS);
    // Assess
    expect(isDependencyUnavailable(refusedError)).toBe(true);
    expect(isDependencyUnavailable(silentError)).toBe(true);
  }, 30_000);
});

describe('an API request while DynamoDB is down', () => {
  it('answers 503 service_unavailable with Retry-After and Request-Id, naming no dependency', async () => {
    // Prepare: the key lookup cannot reach the table
    ddb.on(GetCommand).rejects(refused());
    // Act
    const response = await handler(request(), context);
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '5', 'Request-Id': expect.any(String) });
    const body = JSON.parse(response.body ?? '{}') as { error: { type: string; message: string } };
    expect(body.error.type).toBe('service_unavailable');
    expect(body.error.message).not.toMatch(/dynamo|ECONNREFUSED|127\.0\.0\.1|table/i);
  });

  it('still answers a bug with 500 api_error', async () => {
    // Prepare
    ddb.on(GetCommand).rejects(new TypeError("Cannot read properties of undefined (reading 'hash')"));
    // Act
    const response = await handler(request(), context);
    // Assess
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ error: { type: 'api_error' } });
  });
});
