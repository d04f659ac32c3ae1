import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PassportError, type RetryInfo } from '../src/index.ts';
import { newOrg, type TestOrg } from '../../test/support/api.ts';
import { uniqueGtin13 } from '../../test/support/gtin.ts';
import { errorBody, sdkClient, startStub, type StubAction, type StubRequest } from './support.ts';

/**
 * Retries (docs/sdk.md#retries) through a loopback stub in front of the local stack: the stub
 * answers 429 or 503 with Retry-After, or loses an answer, before passing requests on. (The stack
 * makes no 503 on demand; a 429 of its own comes only after a minute's worth of requests.)
 */
let org: TestOrg;
const stubs: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  org = await newOrg('SDK Retry Org');
});
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

async function through(act: (request: StubRequest, index: number) => StubAction) {
  const stub = await startStub(act);
  stubs.push(stub);
  const retries: RetryInfo[] = [];
  const client = sdkClient(org.live, { baseUrl: stub.url, initialDelayMs: 50, onRetry: (retry) => retries.push(retry) });
  return { stub, client, retries };
}

describe('retries', () => {
  it('a 429 is retried after its Retry-After, and the call succeeds', async () => {
    // Prepare
    const product = await sdkClient(org.live).products.create({ name: 'Limited', category: 'wine', gtin: uniqueGtin13() });
    const { stub, client, retries } = await through((_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: errorBody('rate_limit_error', 'Rate limit exceeded.') } : 'pass',
    );
    // Act
    const read = await client.products.get(product.productId);
    // Assess
    expect(read.productId).toBe(product.productId);
    expect(stub.requests).toHaveLength(2);
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, status: 429, delayMs: 1000 })]);
    expect(stub.requests[1]!.at - stub.requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('503s are retried, each after its Retry-After, a POST that creates included', async () => {
    // Prepare
    const { stub, client, retries } = await through((request, index) =>
      request.method === 'POST' && index < 2 ? { status: 503, headers: { 'retry-after': '1' }, body: errorBody('service_unavailable', 'The table is unavailable.') } : 'pass',
    );
    const gtin = uniqueGtin13();
    // Act
    const created = await client.products.create({ name: 'Unavailable twice', category: 'wine', gtin });
    // Assess
    expect(retries.map((r) => [r.status, r.delayMs])).toEqual([
      [503, 1000],
      [503, 1000],
    ]);
    expect(stub.requests).toHaveLength(3);
    const product = await sdkClient(org.live).products.get(created.productId);
    expect(product.gtin).toBe(gtin.padStart(14, '0'));
  });

  it('a creating POST whose answer was lost is sent again with the same Idempotency-Key, and creates one product', async () => {
    // Prepare: the stub passes the first POST on (the product is created) and drops the connection
    const { stub, client, retries } = await through((request, index) => (request.method === 'POST' && index === 0 ? 'lose' : 'pass'));
    const gtin = uniqueGtin13();
    // Act
    const created = await client.products.create({ name: 'Lost answer', category: 'wine', gtin });
    // Assess
    const posts = stub.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    const [first, second] = posts.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).toBe(first);
    expect(retries).toEqual([expect.objectContaining({ status: undefined, idempotencyKey: first })]);
    const matches = await sdkClient(org.live).products.list({ q: gtin }).toArray();
    expect(matches.map((p) => p.productId)).toEqual([created.productId]);
  });

  it('a POST answered 409 idempotency_error (its key still in flight) is retried with the same key', async () => {
    // Prepare
    const { stub, client } = await through((request, index) =>
      request.method === 'POST' && index === 0 ? { status: 409, body: errorBody('idempotency_error', 'A request with this Idempotency-Key is in progress.') } : 'pass',
    );
    // Act
    const created = await client.suppliers.create({ name: 'Tonnellerie Patiente' });
    // Assess
    expect(created.name).toBe('Tonnellerie Patiente');
    expect(stub.requests.map((r) => r.headers['idempotency-key'])).toEqual([expect.any(String), stub.requests[0]!.headers['idempotency-key']]);
  });

  it('a POST that takes no Idempotency-Key is not sent again when its answer is lost: the error reaches the caller', async () => {
    // Prepare
    const { productId } = await sdkClient(org.live).products.create({ name: 'Withdrawn once', category: 'wine', gtin: uniqueGtin13() });
    const { stub, client, retries } = await through(() => 'lose');
    // Act
    const error = await client.products.withdraw(productId, { reason: 'recall' }).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.headers['idempotency-key']).toBeUndefined();
    expect(retries).toEqual([]);
    expect((await sdkClient(org.live).products.get(productId)).status).toBe('withdrawn');
  });

  it('a Retry-After beyond the client’s patience is not waited for: the 429 reaches the caller with its Retry-After', async () => {
    // Prepare
    const { stub, client } = await through(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: errorBody('rate_limit_error', 'Rate limit exceeded.') }));
    // Act
    const error = await client.products.page().catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(PassportError);
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', retryAfterSeconds: 3600, requestId: 'stub-1' });
    expect(stub.requests).toHaveLength(1);
  });
});
