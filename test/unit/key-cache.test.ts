import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../lib/auth/key-cache.ts';
import { loadConfig } from '../../lib/config.ts';

describe('TtlCache', () => {
  it('serves an entry until its time-to-live passes, then forgets it', () => {
    let now = 1_000;
    const cache = new TtlCache<string>(5_000, 10, () => now);
    cache.set('k', 'v');
    now += 4_999;
    expect(cache.get('k')).toBe('v');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
  });

  it('counts the time-to-live from when the value was read, so a slow read cannot stretch it', () => {
    // Prepare: a read that started at 1,000 and finished 4,000 ms later
    let now = 5_000;
    const cache = new TtlCache<string>(5_000, 10, () => now);
    // Act
    cache.set('slow', 'v', 1_000);
    cache.set('too-slow', 'v', -1);
    // Assess: the entry expires 5 s after the read began, not 5 s after it was stored
    expect(cache.get('slow')).toBe('v');
    expect(cache.get('too-slow')).toBeUndefined();
    now = 6_000;
    expect(cache.get('slow')).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const cache = new TtlCache<number>(5_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('caps the configured key cache at 5 seconds', () => {
    expect(loadConfig({ KEY_CACHE_TTL_MS: '60000' }).keyCacheTtlMs).toBe(5_000);
    expect(loadConfig({}).keyCacheTtlMs).toBe(5_000);
    expect(loadConfig({ KEY_CACHE_TTL_MS: '0' }).keyCacheTtlMs).toBe(0);
  });
});
