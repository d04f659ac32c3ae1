import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../lib/auth/rate-limit.ts';
import { newPrefixedId } from '../../lib/domain/ids.ts';
import { admin } from '../support/admin.ts';
import { call, expectError, newOrg, newSession } from '../support/api.ts';

const headersOf = (response: { headers: Headers }) => ({
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: response.headers.get('x-ratelimit-reset'),
});

describe('rate limits per API key, through HTTP', () => {
  it('answers 429 with Retry-After once a key set to 3 a minute has made 3 requests, with the headers on every response', async () => {
    // Prepare: a key limited to 3 a minute through the admin CLI, before its first use
    const org = await newOrg('Limited Winery');
    const session = await newSession(org.orgId);
    const created = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'tiny', scopes: ['products:read'] } });
    const set = await admin(['key', 'rate-limit', '--org', org.orgId, '--key', created.body.id, '--per-minute', '3', '--json']);
    expect(set.code, set.stderr).toBe(0);

    // Act: count the successes of one window until the first 429 (a window may end meanwhile: start over then)
    let admitted: Awaited<ReturnType<typeof call>>[] = [];
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const response = await call('GET', '/v1/products', { key: created.body.key });
      if (admitted.length && response.headers.get('x-ratelimit-reset') !== admitted[0]?.headers.get('x-ratelimit-reset')) admitted = [];
      if (response.status === 429) refused = response;
      else admitted.push(response);
    }

    // Assess
    expect(admitted.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(admitted.map((r) => headersOf(r).remaining)).toEqual(['2', '1', '0']);
    expect(admitted.every((r) => headersOf(r).limit === '3')).toBe(true);
    expect(refused).toBeDefined();
    const error = expectError(refused!, 429, 'rate_limit_error');
    expect(String(error.suggestion)).toMatch(/Retry after \d+ seconds/);
    const { limit, remaining, reset } = headersOf(refused!);
    expect([limit, remaining]).toEqual(['3', '0']);
    const resetAt = Number(reset);
    const now = Date.now() / 1000;
    expect(resetAt % 60).toBe(0);
    expect(resetAt).toBeGreaterThan(now);
    expect(resetAt).toBeLessThanOrEqual(now + 60);
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('puts the headers on errors after authentication, not on a 401', async () => {
    // Prepare
    const org = await newOrg('Headers Winery');
    // Act
    const notFound = await call('GET', '/v1/products/01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', { key: org.live });
    const forbidden = await call('POST', '/v1/products', { key: await org.keyWith(['products:read']), body: { name: 'N', category: 'wine', gtin: '96385074' } });
    const unauthenticated = await call('GET', '/v1/products', { key: `sk_live_${'Z'.repeat(32)}` });
    // Assess
    expectError(notFound, 404, 'not_found');
    expect(headersOf(notFound)).toMatchObject({ limit: '1000', remaining: expect.stringMatching(/^\d+$/) });
    expectError(forbidden, 403, 'permission_error');
    expect(headersOf(forbidden).limit).toBe('1000');
    expectError(unauthenticated, 401, 'authentication_error');
    expect(headersOf(unauthenticated).limit).toBeNull();
  });

  it('refuses a limit below 1 and an unknown key in the admin CLI', async () => {
    // Prepare
    const org = await newOrg('CLI Limits Winery');
    // Act: two CLI processes at once (each takes seconds to start)
    const [zero, unknown] = await Promise.all([
      admin(['key', 'rate-limit', '--org', org.orgId, '--key', 'key_x', '--per-minute', '0']),
      admin(['key', 'rate-limit', '--org', org.orgId, '--key', `key_${'0'.repeat(20)}`, '--per-minute', '5']),
    ]);
    // Assess
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--per-minute');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No key');
  });
});

describe('the shared counter, on the suite\'s DynamoDB Local, with a clock the test controls', () => {
  it('shares one count between instances, refuses past the limit, and starts again in the next window', async () => {
    // Prepare: two "Lambda instances" on one clock, 10 s into a minute
    let now = Date.UTC(2030, 0, 1, 12, 0, 10);
    const clock = () => now;
    const first = new RateLimiter({ now: clock });
    const second = new RateLimiter({ now: clock });
    const keyId = newPrefixedId('key');
    // Act
    const a = await first.admit(keyId, 3);
    const b = await second.admit(keyId, 3);
    const c = await first.admit(keyId, 3);
    const d = await second.admit(keyId, 3);
    now += 50_000; // the next minute
    const e = await first.admit(keyId, 3);
    // Assess
    expect([a, b, c, d, e].map((x) => x.allowed)).toEqual([true, true, true, false, true]);
    expect([a, b, c, d, e].map((x) => x.remaining)).toEqual([2, 1, 0, 0, 2]);
    expect(d.retryAfterSeconds).toBe(50);
    expect(d.resetAt).toBe(Date.UTC(2030, 0, 1, 12, 1, 0) / 1000);
    expect(e.resetAt).toBe(Date.UTC(2030, 0, 1, 12, 2, 0) / 1000);
    expect([a, b, c, d, e].map((x) => x.openedWindow)).toEqual([true, false, false, false, true]);
  });
});
