import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HotCache } from '../../functions/resolver/hot-cache.ts';
import type { HttpEvent } from '../../lib/http/types.ts';
import { apiGatewayEvent, CONTEXT, GTIN, gtinItem, loadResolver, ORG, type Handler } from '../support/resolver-events.ts';
import { ddb, sqs } from '../support/fake-aws.ts';

/**
 * A hot product (docs/resolver.md#a-hot-product): one warm resolver reads a GTIN at most once a
 * second however many scans it answers, still counts every scan, and answers a change within that
 * second. Against the loopback DynamoDB and SQS, with the clock held still where "within a second"
 * matters (the fake's answers take real time).
 */
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await loadResolver({ RESOLVER_VIEW_CACHE_MS: '1000' }));
});

const LINK = `https://id.example.com/${ORG}/live/01/${GTIN}`;
const NOW = Date.parse('2026-11-26T10:00:00.000Z');
const scan = (): HttpEvent =>
  apiGatewayEvent({
    route: '/{orgId}/{environment}/01/{gtin}',
    path: `/${ORG}/live/01/${GTIN}`,
    headers: { host: 'id.example.com', accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' },
    pathParameters: { orgId: ORG, environment: 'live', gtin: GTIN },
  });

/** `count` scans, `inFlight` at a time; their statuses. */
async function scans(count: number, inFlight = 50): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += inFlight) {
    const batch = await Promise.all(Array.from({ length: Math.min(inFlight, count - i) }, () => handler(scan(), CONTEXT)));
    statuses.push(...batch.map((r) => r.statusCode ?? 0));
  }
  return statuses;
}

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on('GetItem').resolves({ Item: gtinItem(LINK, 2) });
  // Only Date is held still: the client's timers and the sockets run on real time.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

describe('a hot GTIN in one warm resolver', () => {
  it('answers 10,000 scans within one second with one read, and counts each of them', async () => {
    // Prepare
    vi.setSystemTime(NOW);
    // Act
    const statuses = await scans(10_000);
    // Assess
    expect(statuses.every((status) => status === 307)).toBe(true);
    expect(ddb.calls('GetItem')).toHaveLength(1);
    expect(sqs.calls('SendMessage')).toHaveLength(10_000);
  }, 120_000);

  it('reads again after the second: a version published meanwhile is answered', async () => {
    // Prepare: the view of version 2 is read at NOW; version 3 is published right after
    vi.setSystemTime(NOW + 10_000);
    const [first] = await Promise.all([handler(scan(), CONTEXT)]);
    ddb.on('GetItem').resolves({ Item: gtinItem(LINK, 3) });
    // Act: within the second, then just after it
    vi.setSystemTime(NOW + 10_999);
    const within = await handler(scan(), CONTEXT);
    vi.setSystemTime(NOW + 11_000);
    const after = await handler(scan(), CONTEXT);
    // Assess
    expect(first?.headers?.Location).toContain(`/p/${GTIN}/2/passport.json`);
    expect(within.headers?.Location).toContain(`/p/${GTIN}/2/passport.json`);
    expect(after.headers?.Location).toContain(`/p/${GTIN}/3/passport.json`);
    expect(ddb.calls('GetItem')).toHaveLength(2);
  });

  it('makes scans that arrive while the read is under way wait for that one read', async () => {
    // Prepare
    vi.setSystemTime(NOW + 20_000);
    // Act: 200 scans at once on a cold entry
    const statuses = await scans(200, 200);
    // Assess
    expect(statuses.every((status) => status === 307)).toBe(true);
    expect(ddb.calls('GetItem')).toHaveLength(1);
  });

  it('does not remember a failed read: the next scan reads again', async () => {
    // Prepare
    vi.setSystemTime(NOW + 30_000);
    ddb.on('GetItem').rejects('ServiceUnavailable', 503);
    const failed = await handler(scan(), CONTEXT);
    ddb.on('GetItem').resolves({ Item: gtinItem(LINK, 2) });
    // Act
    const next = await handler(scan(), CONTEXT);
    // Assess
    expect([failed.statusCode, next.statusCode]).toEqual([503, 307]);
  });
});

describe('the cache itself', () => {
  it('keeps at most its bound of keys: stale ones go first, and a flood of fresh ones empties it', async () => {
    // Prepare: full with three keys read at NOW
    vi.setSystemTime(NOW);
    const cache = new HotCache<number>(1000, 3);
    const fill = (keys: string[]) => Promise.all(keys.map((key) => cache.get(key, async () => 1)));
    await fill(['a', 'b', 'c']);
    // Act: a fourth a second later (the three are stale), then two more, then one past the bound within that second
    vi.setSystemTime(NOW + 1000);
    await fill(['d']);
    const afterStale = cache.size;
    await fill(['e', 'f']);
    const full = cache.size;
    await fill(['g']);
    // Assess
    expect([afterStale, full, cache.size]).toEqual([1, 3, 1]);
  });

  it('with 0 s, reads every time', async () => {
    // Prepare
    const cache = new HotCache<number>(0);
    let reads = 0;
    // Act
    for (let i = 0; i < 3; i++) await cache.get('a', async () => ++reads);
    // Assess
    expect(reads).toBe(3);
  });
});
