import { describe, expect, it } from 'vitest';
import { SESSION_RATE_LIMIT_PER_MINUTE } from '../../lib/auth/session-rate-limit.ts';
import { call, expectError, newOrg, newSession, type ApiResponse } from '../support/api.ts';

/** docs/security.md: dashboard sessions are rate-limited per user, as API keys are per key. */
describe('the rate limit of dashboard sessions', () => {
  it('attack: a script hammering the API with a session cookie gets 429 with the error object once over its user\'s limit; other users and API keys are unaffected', async () => {
    // Prepare
    const org = await newOrg('Session Flood Winery');
    const session = await newSession(org.orgId);
    const bystander = await newSession(org.orgId);
    // Twice the limit and a bit: whichever minute windows the requests fall in, one gets more than the limit.
    const total = SESSION_RATE_LIMIT_PER_MINUTE * 2 + 20;
    // Act
    const responses: ApiResponse[] = [];
    for (let sent = 0; sent < total; sent += 20) {
      responses.push(...(await Promise.all(Array.from({ length: 20 }, () => call('GET', '/v1/products', { session })))));
    }
    const other = await call('GET', '/v1/products', { session: bystander });
    const withKey = await call('GET', '/v1/products', { key: org.live });
    // Assess
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(responses.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const first = limited[0]!;
    const error = expectError(first, 429, 'rate_limit_error');
    expect(error.message).toContain(`${SESSION_RATE_LIMIT_PER_MINUTE} a minute`);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(SESSION_RATE_LIMIT_PER_MINUTE));
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(other.status).toBe(200);
    expect(withKey.status).toBe(200);
  });
});
