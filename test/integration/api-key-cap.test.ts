import { beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, MAX_ACTIVE_API_KEYS } from '../../lib/services/api-keys.ts';
import { call, expectError, newOrg, newSession, type TestOrg, type TestSession } from '../support/api.ts';

/** docs/security.md: an organization has at most 100 active API keys. */
let org: TestOrg;
let session: TestSession;

beforeAll(async () => {
  org = await newOrg('Key Cap Winery');
  session = await newSession(org.orgId);
});

describe('the cap on active API keys', () => {
  it('attack: a session minting API keys without end is stopped at 100 active keys, exactly, even by concurrent creates; revoking frees a place', async () => {
    // Prepare: the organization's live and test keys, plus keys up to 5 under the cap
    const before = (await call('GET', '/v1/auth/api-keys', { session })).body.data.length as number;
    await Promise.all(
      Array.from({ length: MAX_ACTIVE_API_KEYS - 5 - before }, (_, i) =>
        issueApiKey({ orgId: org.orgId, environment: i % 2 ? 'live' : 'test', scopes: ['products:read'], name: `filler ${i}` }),
      ),
    );
    // Act: 12 concurrent creates race for the last 5 places
    const racing = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call('POST', '/v1/auth/api-keys', { session, body: { name: `race ${i}`, scopes: ['products:read'] } })),
    );
    const listed = await call('GET', '/v1/auth/api-keys', { session });
    const refused = racing.find((r) => r.status !== 201)!;
    const revoked = await call('DELETE', `/v1/auth/api-keys/${racing.find((r) => r.status === 201)!.body.id}`, { session });
    const afterRevoke = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'after revoke', scopes: ['products:read'] } });
    const overAgain = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'one too many', scopes: ['products:read'] } });
    // Assess
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    const error = expectError(refused, 422, 'validation_error');
    expect(error.message).toContain('100 active API keys');
    expect(listed.body.data).toHaveLength(MAX_ACTIVE_API_KEYS);
    expect(revoked.status).toBe(200);
    expect(afterRevoke.status).toBe(201);
    expectError(overAgain, 422, 'validation_error');
    expect((await call('GET', '/v1/auth/api-keys', { session })).body.data).toHaveLength(MAX_ACTIVE_API_KEYS);
  });
});
