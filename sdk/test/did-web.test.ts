import { describe, expect, it } from 'vitest';
import { CredentialVerificationError, didWebUrl } from '../src/index.ts';

/**
 * `didWebUrl`, the did:web method's read (docs/sdk.md#verifying-signed-passports): the host, its
 * port's colon written `%3A`, each further `:` segment a path segment. An IPv6 host is written in
 * brackets (`%5B…%5D`, or `[…]`), and its own colons are the address's, not segment separators.
 */
describe('didWebUrl', () => {
  it.each([
    ['did:web:example.com', false, 'https://example.com/.well-known/did.json'],
    ['did:web:localhost%3A3000:orgs:org_1', true, 'http://localhost:3000/orgs/org_1/did.json'],
    ['did:web:%5B::1%5D%3A3000', true, 'http://[::1]:3000/.well-known/did.json'],
    ['did:web:%5B::1%5D%3A3000', false, 'https://[::1]:3000/.well-known/did.json'],
    ['did:web:%5B::1%5D%3A3000:orgs:org_1', true, 'http://[::1]:3000/orgs/org_1/did.json'],
    ['did:web:%5B%3A%3A1%5D%3A3000:orgs:org_1', true, 'http://[::1]:3000/orgs/org_1/did.json'],
    ['did:web:[::1]%3A3000:orgs:org_1', true, 'http://[::1]:3000/orgs/org_1/did.json'],
    ['did:web:%5B2001:db8::1%5D:user:alice', true, 'https://[2001:db8::1]/user/alice/did.json'],
    ['did:web:%5b2001:DB8::1%5d', false, 'https://[2001:db8::1]/.well-known/did.json'],
  ])('%s (loopback http %s) is read at %s', (did, allowLoopbackHttp, expected) => {
    // Act
    const url = didWebUrl(did, allowLoopbackHttp);
    // Assess: the URL, and what a fetch would take it for.
    expect(url).toBe(expected);
    expect(new URL(url).href).toBe(expected);
  });

  it.each(['did:web:%5B::1', 'did:web:%5Bexample.com%5D', 'did:web:%5B::1%5Dx', 'did:web:%5B::1%5D%3Ahttp', 'did:web:', 'did:web:%ZZ:orgs:x', 'did:web:example.com::x', 'did:key:z6Mk'])('refuses %s', (did) => {
    // Act
    const refused = (() => {
      try {
        return didWebUrl(did, true);
      } catch (error) {
        return error;
      }
    })();
    // Assess
    expect(refused).toBeInstanceOf(CredentialVerificationError);
  });
});
