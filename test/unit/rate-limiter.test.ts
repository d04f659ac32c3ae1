import { describe, expect, it } from 'vitest';
import { RateLimiter, rateLimitHeaders, type WindowStore } from '../../lib/auth/rate-limit.ts';

/** The shared counter, in memory, counting the calls made to it. */
function fakeStore() {
  const totals = new Map<string, number>();
  const calls: number[] = [];
  const store: WindowStore = async (keyId, windowStart, count) => {
    calls.push(count);
    const id = `${keyId}#${windowStart}`;
    totals.set(id, (totals.get(id) ?? 0) + count);
    return totals.get(id) ?? 0;
  };
  return { store, calls, totals };
}

const START = Date.UTC(2030, 0, 1, 12, 0, 0);

describe('RateLimiter', () => {
  it('adds a key far below its limit to the shared counter once per 10 requests, losing none', async () => {
    // Prepare
    const { store, calls, totals } = fakeStore();
    let now = START + 1_000;
    const limiter = new RateLimiter({ store, now: () => now });
    // Act: 100 requests within a second, then one more a second later
    const decisions = [];
    for (let i = 0; i < 100; i++) decisions.push(await limiter.admit('key_a', 1000));
    now += 1_000;
    decisions.push(await limiter.admit('key_a', 1000));
    // Assess: the window's first request, nine batches of 10, then the 9 pending with the last one
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(calls).toEqual([1, ...Array(9).fill(10), 10]);
    expect(totals.get(`key_a#${START / 1000}`)).toBe(101);
    expect(decisions.at(-1)?.remaining).toBe(899);
    expect(decisions.filter((d) => d.counted)).toHaveLength(11);
  });

  it('adds every request once the window looks half used, and refuses exactly past the limit', async () => {
    // Prepare
    const { store, calls } = fakeStore();
    const limiter = new RateLimiter({ store, now: () => START });
    await store('key_b', START / 1000, 499, 0);
    calls.length = 0;
    // Act
    const decisions = [];
    for (let i = 0; i < 502; i++) decisions.push(await limiter.admit('key_b', 1000));
    // Assess: the first call finds 500 used; from then on one call per request
    expect(decisions.filter((d) => d.allowed)).toHaveLength(501);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
    expect(calls.slice(1).every((n) => n === 1)).toBe(true);
    expect(calls.length).toBe(502);
  });

  it('counts every request of a small limit in the shared counter', async () => {
    // Prepare
    const { store, calls } = fakeStore();
    const limiter = new RateLimiter({ store, now: () => START });
    // Act
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.admit('key_c', 150));
    // Assess
    expect(calls).toEqual([1, 1, 1, 1]);
    expect(decisions.map((d) => d.remaining)).toEqual([149, 148, 147, 146]);
  });

  it('adds pending requests at least every second, and starts a new window each minute', async () => {
    // Prepare
    const { store, calls } = fakeStore();
    let now = START;
    const limiter = new RateLimiter({ store, now: () => now });
    // Act
    await limiter.admit('key_d', 1000); // call: first of the window
    await limiter.admit('key_d', 1000); // pending
    now += 1_001;
    const stale = await limiter.admit('key_d', 1000); // call: over a second since the last one
    now = START + 60_000;
    const next = await limiter.admit('key_d', 1000);
    // Assess
    expect(calls).toEqual([1, 2, 1]);
    expect(stale).toMatchObject({ counted: true, remaining: 997, openedWindow: false });
    expect(next).toMatchObject({ counted: true, remaining: 999, openedWindow: true, resetAt: START / 1000 + 120 });
  });

  it('admits on its own count when the counter cannot be reached', async () => {
    // Prepare
    const limiter = new RateLimiter({ store: async () => Promise.reject(new Error('unreachable')), now: () => START });
    // Act
    const decisions = [await limiter.admit('key_e', 2), await limiter.admit('key_e', 2), await limiter.admit('key_e', 2)];
    // Assess
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
  });

  it('gives the X-RateLimit headers with the reset as epoch seconds', () => {
    // Act
    const headers = rateLimitHeaders({ allowed: true, limit: 1000, remaining: 7, resetAt: 1_893_499_260, retryAfterSeconds: 5, openedWindow: false, counted: true });
    // Assess
    expect(headers).toEqual({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': '1893499260' });
  });
});
