import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../infra/local/route-matcher.ts';
import { ROUTES, type Route } from '../../lib/api/routes.ts';

const route = (method: Route['method'], path: string): Route => ({ method, path, function: 'products', auth: 'apiKey', scopes: [], body: false });

describe('the local gateway’s route matching', () => {
  const match = createRouteMatcher([
    route('GET', '/v1/products/{productId}'),
    route('GET', '/v1/products/{productId}/qr'),
    route('GET', '/{orgId}/{env}/01/{gtin}'),
    route('GET', '/{orgId}/{env}/01/{gtin}/{rest+}'),
  ]);

  it('extracts path parameters, decoding them', () => {
    expect(match('GET', '/v1/products/a%20b')).toMatchObject({ kind: 'route', pathParameters: { productId: 'a b' } });
  });

  it('prefers literal segments over parameters, as API Gateway does', () => {
    const hit = match('GET', '/v1/products/01/qr');
    expect(hit.kind === 'route' && hit.route.path).toBe('/v1/products/{productId}/qr');
  });

  it('gives a greedy parameter the rest of the path', () => {
    expect(match('GET', '/org_a/live/01/123/10/LOT/21/S')).toMatchObject({ pathParameters: { rest: '10/LOT/21/S' } });
  });

  it('reports the allowed methods of a known path, and nothing for an unknown one', () => {
    expect(match('DELETE', '/v1/products/x')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
    expect(match('GET', '/nope')).toEqual({ kind: 'none' });
  });

  it('matches every route of the real table to itself', () => {
    const real = createRouteMatcher(ROUTES);
    for (const r of ROUTES) {
      const path = r.path.replace(/\{(\w+)\+?\}/g, 'x');
      const hit = real(r.method, path);
      expect(hit.kind === 'route' && hit.route).toBe(r);
    }
  });
});
