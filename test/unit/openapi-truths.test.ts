import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { createSubscriptionSchema, SUBSCRIPTION_URL_PATTERN } from '../../lib/domain/event-subscription.ts';
import { computableEnergy } from '../../lib/domain/nutrition.ts';
import { urlProblem } from '../../lib/domain/outbound-address.ts';

/**
 * Three places where the OpenAPI document once said less than the server does (issue 32, items
 * 17–19): the session cookie's name, the energy calculator's default product type, and what a
 * subscription URL must be. Each is checked against the code that decides it.
 */
type Json = Record<string, any>;
const document = buildOpenApi() as unknown as Json;

/** The session cookie's name as lib/auth/session.ts gives it for an API served at `origin`. */
async function sessionCookieName(origin: string): Promise<string> {
  vi.resetModules();
  vi.stubEnv('PUBLIC_API_ORIGIN', origin);
  try {
    const { cookieName } = await import('../../lib/auth/session.ts');
    return cookieName('session');
  } finally {
    vi.unstubAllEnvs();
    vi.resetModules();
  }
}

describe('the SessionCookie scheme', () => {
  it('names the cookie a deployment served over HTTPS sets, and the name a plain-HTTP loopback stack sets', async () => {
    // Prepare
    const scheme = document.components.securitySchemes.SessionCookie;

    // Act
    const deployed = await sessionCookieName('https://api.example.com');
    const local = await sessionCookieName('http://localhost:3000');

    // Assess
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'cookie', name: deployed });
    expect(deployed).toBe('__Host-passport_session');
    expect(scheme.description).toContain(`\`${local}\``);
    expect(local).toBe('passport_session');
  });
});

describe('POST /v1/nutrition/calculate', () => {
  const body = document.paths['/v1/nutrition/calculate'].post.requestBody.content['application/json'].schema;
  const answer = document.paths['/v1/nutrition/calculate'].post.responses['200'].content['application/json'].schema;
  const nutrients = { fatG: 0, carbohydratesG: 2.6, proteinG: 0.1 };

  it('says that a request without productType counts as a wine, which gets no energy without its alcohol', () => {
    // Act
    const withoutType = computableEnergy(nutrients);
    const asFood = computableEnergy(nutrients, 'food');
    const answerSchema = answer.$ref ? document.components.schemas[answer.$ref.split('/').at(-1)] : answer;

    // Assess
    expect(withoutType).toBeUndefined();
    expect(asFood?.kj).toBeGreaterThan(0);
    expect(body.properties.productType.description).toMatch(/without productType counts as a wine/);
    expect(body.properties.productType.description).toMatch(/computed: null/);
    expect(answerSchema.properties.computed.description).toMatch(/productType left out counts as wine/);
  });
});

describe('event subscription URLs', () => {
  const bodies = [
    document.paths['/v1/event-subscriptions'].post.requestBody.content['application/json'].schema,
    document.paths['/v1/event-subscriptions/{subscriptionId}'].patch.requestBody.content['application/json'].schema,
  ];

  it('state https:// as a pattern, the URL format, and the resolve and special-address rules, in both bodies', () => {
    for (const schema of bodies) {
      // Act
      const url = schema.properties.url;

      // Assess
      expect(url).toMatchObject({ type: 'string', format: 'uri', pattern: '^https://', maxLength: 2048 });
      expect(url.description).toMatch(/must resolve in DNS/);
      expect(url.description).toMatch(/private \(10\.0\.0\.0\/8/);
      expect(url.description).toMatch(/link-local \(169\.254\.0\.0\/16/);
      expect(url.description).toMatch(/loopback/);
      expect(url.description).toMatch(/docs\/webhooks-outbound\.md#ssrf/);
    }
  });

  it('accept exactly the URLs the pattern accepts, as a deployment checks them (a public host name)', () => {
    // Prepare
    const pattern = new RegExp(SUBSCRIPTION_URL_PATTERN, 'u');
    const deployedAccepts = (url: string): boolean => {
      const parsed = createSubscriptionSchema.safeParse({ url, events: ['*'] });
      return parsed.success && urlProblem(parsed.data.url, { allowLoopback: false }) === undefined;
    };
    const prefixes = ['https://', 'http://', 'HTTPS://', 'Https://', ' https://', '\thttps://', 'https:', 'https:/', 'https:\\\\', 'ftp://', '//', ''];

    // Act & Assess
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.domain(), fc.webPath(), (prefix, host, path) => {
        const url = `${prefix}${host}${path}`;
        expect(deployedAccepts(url), url).toBe(pattern.test(url));
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });

  it('refuses what the pattern refuses with 422 material: param url and a message naming https://', () => {
    // Act
    const upper = createSubscriptionSchema.safeParse({ url: 'HTTPS://hooks.example.com/in', events: ['*'] });
    const spaced = createSubscriptionSchema.safeParse({ url: ' https://hooks.example.com/in', events: ['*'] });

    // Assess
    for (const result of [upper, spaced]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: ['url'], message: 'url must start with https://.' });
    }
  });
});
