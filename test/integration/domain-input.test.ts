import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, newSession, type TestSession } from '../support/api.ts';

/**
 * What a person pastes as a brand domain (docs/brand-domains.md#the-flow): an address copied from
 * the browser is read as its host; what is still not a hostname is refused with a message that says
 * what to remove. Apart from test/integration/domains.test.ts, whose races make it slow.
 */
let session: TestSession;

/** A hostname no other test (or run) uses. */
const uniqueHost = (label = 'www') => `${label}.b${randomBytes(5).toString('hex')}.brand.example`;

beforeAll(async () => {
  session = await newSession((await newOrg('Domain Input Winery')).orgId);
});

describe('POST /v1/domains reads a pasted address as its host', () => {
  it('takes https://www.…/ as the host: lower case, no scheme, no path, no query, no trailing dot; the TXT record is named for the host', async () => {
    // Prepare
    const host = uniqueHost();

    // Act
    const created = await call('POST', '/v1/domains', { session, body: { hostname: `  HTTPS://${host.toUpperCase()}./shop/wine?lang=it#top ` } });

    // Assess
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ hostname: host, status: 'pending', cname: null });
    expect(created.body.verification.name).toBe(`_passport-challenge.${host}`);
  });

  it('finds the same host again: pasting it with a scheme is the duplicate it is', async () => {
    // Prepare
    const host = uniqueHost('id');
    expect((await call('POST', '/v1/domains', { session, body: { hostname: host } })).status).toBe(201);

    // Act
    const again = await call('POST', '/v1/domains', { session, body: { hostname: `https://${host}/` } });

    // Assess
    expectError(again, 409, 'duplicate_error', 'hostname');
  });

  it.each([
    ['a port', (host: string) => `https://${host}:8443/`, /without a port/],
    ['a user name', (host: string) => `https://shop@${host}/`, /without a user name/],
    ['an IPv4 address', () => 'https://192.0.2.10/', /not an IP address/],
    ['an IPv6 address', () => 'http://[2001:db8::1]/', /not an IP address/],
    ['only a scheme', () => 'https://', /must name a host/],
    ['a space inside', (host: string) => `https://${host.replace('.', ' .')}/`, /DNS hostname/],
  ])('refuses an address with %s, saying what to remove, and stores nothing', async (_what, input, message) => {
    // Prepare
    const hostname = input(uniqueHost());
    const before = (await call('GET', '/v1/domains', { session })).body.data.length;

    // Act
    const response = await call('POST', '/v1/domains', { session, body: { hostname } });

    // Assess
    const error = expectError(response, 422, 'validation_error', 'hostname');
    expect(error.message).toMatch(message);
    expect((await call('GET', '/v1/domains', { session })).body.data).toHaveLength(before);
  });
});
