import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HotCache } from '../../functions/resolver/hot-cache.ts';
import { checkDigit } from '../../lib/domain/gtin.ts';
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

describe('a flood of made-up links', () => {
  /** The i-th made-up GTIN-14 (a valid check digit, so that the resolver reads it): registered nowhere. */
  const madeUpGtin = (i: number) => {
    const body = `0${String(900_000_000_000 + i)}`;
    return `${body}${checkDigit(body)}`;
  };
  const onPlatform = (gtin: string): HttpEvent =>
    apiGatewayEvent({
      route: '/{orgId}/{environment}/01/{gtin}',
      path: `/${ORG}/live/01/${gtin}`,
      headers: { host: 'id.example.com', accept: 'application/json' },
      pathParameters: { orgId: ORG, environment: 'live', gtin },
    });
  const onHost = (host: string): HttpEvent =>
    apiGatewayEvent({ route: '/01/{gtin}', path: `/01/${GTIN}`, headers: { host, accept: 'application/json' }, pathParameters: { gtin: GTIN }, domainName: host });
  /** The answers to `events`, 50 at a time. */
  async function all(events: HttpEvent[]): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < events.length; i += 50) statuses.push(...(await Promise.all(events.slice(i, i + 50).map((e) => handler(e, CONTEXT)))).map((r) => r.statusCode ?? 0));
    return statuses;
  }
  const readsOf = (pk: string, sk: string) => ddb.calls('GetItem').filter((c) => c.input.Key?.PK === pk && c.input.Key?.SK === sk).length;

  it('attack: a flood of made-up links does not empty the hot cache: the hot entries stay cached', async () => {
    // Prepare: the hot GTIN scanned on the platform and on its brand's host, all within one second;
    // every other GTIN and host is registered nowhere
    vi.setSystemTime(NOW + 40_000);
    ddb.reset();
    ddb.on('GetItem').resolves({});
    ddb.on('GetItem', { Key: { PK: `T#${ORG}#live`, SK: `GTIN#${GTIN}` } }).resolves({ Item: gtinItem(LINK, 2) });
    ddb.on('GetItem', { Key: { PK: 'HOST#id.brand.example', SK: 'HOST' } }).resolves({ Item: { PK: 'x', SK: 'HOST', orgId: ORG, domainId: 'dom_1', status: 'verified', default: true } });
    const warm = await all([onPlatform(GTIN), onHost('id.brand.example')]);
    // Act: 10,500 made-up GTINs and 1,100 made-up brand hosts (more than either cache holds), then the hot links again
    const flood = await all([
      ...Array.from({ length: 10_500 }, (_, i) => onPlatform(madeUpGtin(i))),
      ...Array.from({ length: 1_100 }, (_, i) => onHost(`made-up-${i}.example`)),
    ]);
    const again = await all([onPlatform(GTIN), onHost('id.brand.example')]);
    // Assess: each made-up link was read once and answered 404; the hot GTIN and the brand's claim were read once in all
    expect(warm).toEqual([307, 307]);
    expect(flood.every((status) => status === 404)).toBe(true);
    expect(again).toEqual([307, 307]);
    expect(readsOf(`T#${ORG}#live`, `GTIN#${GTIN}`)).toBe(1);
    expect(readsOf('HOST#id.brand.example', 'HOST')).toBe(1);
  }, 120_000);
});

describe('the cache itself', () => {
  /** The keys of `keys` the cache still answers without reading (each read again is remembered anew). */
  const remembered = async (cache: HotCache<string>, keys: string[]) => {
    const kept: string[] = [];
    for (const key of keys) await cache.get(key, async () => { kept.push(key); return 'again'; });
    return keys.filter((key) => !kept.includes(key));
  };

  it('keeps at most its bound of keys, forgetting the least recently used first, and misses apart from what was found', async () => {
    // Prepare: three found keys, a used again after b and c
    vi.setSystemTime(NOW);
    const cache = new HotCache<string>(1000, { maxEntries: 3, maxMisses: 2 });
    const missed = (value: string) => value === '';
    for (const key of ['a', 'b', 'c', 'a']) await cache.get(key, async () => key);
    // Act: a fourth found key, then three misses
    await cache.get('d', async () => 'd');
    for (const key of ['x', 'y', 'z']) await cache.get(key, async () => '', missed);
    // Assess: b, the least recently used, made room for d; the misses only for each other
    expect(cache.size).toBe(5);
    expect(await remembered(cache, ['a', 'c', 'd', 'y', 'z', 'b', 'x'])).toEqual(['a', 'c', 'd', 'y', 'z']);
  });

  it('keeps about its bound of bytes: the least recently used first out, a value beyond the whole bound never in', async () => {
    // Prepare: room for 20 characters of JSON; "aaaaaaaa" is 10
    vi.setSystemTime(NOW);
    const cache = new HotCache<string>(1000, { maxBytes: 20 });
    for (const key of ['a', 'b']) await cache.get(key, async () => key.repeat(8));
    // Act: a third of 10, then one of 32
    await cache.get('c', async () => 'c'.repeat(8));
    await cache.get('huge', async () => 'h'.repeat(30));
    // Assess
    expect(await remembered(cache, ['b', 'c', 'a', 'huge'])).toEqual(['b', 'c']);
  });

  it('forgets an entry after its time, and a failed read at once', async () => {
    // Prepare
    vi.setSystemTime(NOW);
    const cache = new HotCache<string>(1000);
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => Promise.reject(new Error('down'))).catch(() => undefined);
    // Act
    vi.setSystemTime(NOW + 999);
    const within = await remembered(cache, ['a', 'b']);
    vi.setSystemTime(NOW + 2000);
    const after = await remembered(cache, ['a']);
    // Assess
    expect([within, after]).toEqual([['a'], []]);
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
