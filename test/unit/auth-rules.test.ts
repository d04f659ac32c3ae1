import { describe, expect, it } from 'vitest';
import { ROUTES, routesOf, type FunctionName } from '../../lib/api/routes.ts';
import { FUNCTIONS } from '../../infra/functions.ts';
import { decodeSessionSecret, newSessionSecret } from '../../lib/auth/session-key.ts';
import { cookiesAreSecure } from '../../lib/auth/session.ts';
import { isSafeReturnTo } from '../../lib/domain/session.ts';

const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];

describe('the route table and authentication', () => {
  it('grants UpdateItem to every function behind API keys: each request counts against its rate limit', () => {
    // Act
    const lacking = FUNCTION_NAMES.filter(
      (fn) => routesOf(fn).some((r) => r.auth === 'apiKey') && !FUNCTIONS[fn].grants.table.includes('dynamodb:UpdateItem'),
    );
    // Assess
    expect(lacking).toEqual([]);
  });

  it('grants the session secret to every function with session or API-key routes (which take the session too), and only session routes manage keys', () => {
    // Act
    const sessionFunctions = FUNCTION_NAMES.filter((fn) => routesOf(fn).some((r) => r.auth === 'session' || r.auth === 'apiKey'));
    const keyManagement = ROUTES.filter((r) => r.scopes.includes('api_keys:manage'));
    // Assess
    expect(sessionFunctions).toEqual(expect.arrayContaining(['auth', 'products', 'passports', 'analytics']));
    expect(sessionFunctions.filter((fn) => !FUNCTIONS[fn].grants.sessionSecret)).toEqual([]);
    expect(keyManagement.length).toBe(3);
    expect(keyManagement.every((r) => r.auth === 'session' && r.path.startsWith('/v1/auth/api-keys'))).toBe(true);
  });
});

describe('sign-in rules', () => {
  it('redirects after sign-in only to this API or an allowed dashboard origin', () => {
    // Prepare
    const allowed = ['https://dashboard.example.com'];
    // Act + Assess
    expect(isSafeReturnTo('/v1/auth/session', 'https://api.example.com', allowed)).toBe(true);
    expect(isSafeReturnTo('https://dashboard.example.com/keys?x=1', 'https://api.example.com', allowed)).toBe(true);
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/a\r\nSet-Cookie: x=y']) {
      expect(isSafeReturnTo(bad, 'https://api.example.com', allowed), bad).toBe(false);
    }
  });

  it('marks cookies Secure everywhere but plain HTTP on loopback', () => {
    // Act + Assess
    expect(cookiesAreSecure('http://localhost:3000')).toBe(false);
    expect(cookiesAreSecure('http://127.0.0.1:8080')).toBe(false);
    expect(cookiesAreSecure('https://api.example.com')).toBe(true);
    expect(cookiesAreSecure('http://api.example.com')).toBe(true);
  });

  it('takes a session secret of 32 bytes in base64 or base64url, and nothing shorter', () => {
    // Act + Assess
    expect(decodeSessionSecret(newSessionSecret())).toHaveLength(32);
    expect(decodeSessionSecret(Buffer.alloc(32, 7).toString('base64'))).toHaveLength(32);
    // Secrets Manager's generated 43 alphanumerics (as the CDK stack asks) decode to 32 bytes.
    expect(decodeSessionSecret('A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v')).toHaveLength(32);
    expect(() => decodeSessionSecret('too-short')).toThrow(/32 random bytes/);
  });
});
