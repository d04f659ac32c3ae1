import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestUrl, startGateway, type Gateway } from '../../infra/local/gateway.ts';
import type { Route } from '../../lib/api/routes.ts';

const ROUTES: Route[] = [{ method: 'GET', path: '/{orgId}/{environment}/01/{gtin}', function: 'resolver', auth: 'none', scopes: [], body: false }];

/** One raw HTTP request, with the request target exactly as given (fetch would normalize it). */
function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: target }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the local gateway', () => {
  let gateway: Gateway;
  const seen: string[] = [];
  beforeAll(async () => {
    gateway = await startGateway({
      port: 0,
      routes: ROUTES,
      loadHandler: async () => async (event) => {
        seen.push(event.rawPath);
        return { statusCode: 200, body: JSON.stringify(event.pathParameters) };
      },
    });
  });
  afterAll(() => gateway.stop());

  it('reads a request target that starts with // as a path, not as a host (found by the API fuzzer: it was a 500)', async () => {
    // Act
    const empty = await rawGet(gateway.port, '//%00/01/?%');
    const routed = await rawGet(gateway.port, '//org_1/live/01/96385074');
    // Assess
    expect(empty.status).toBe(404);
    expect(JSON.parse(empty.body)).toMatchObject({ error: { type: 'not_found', code: 'not_found' } });
    expect(routed.status).toBe(200);
    expect(JSON.parse(routed.body)).toEqual({ orgId: 'org_1', environment: 'live', gtin: '96385074' });
    expect(seen).toEqual(['//org_1/live/01/96385074']);
  });

  it('parses targets as paths', () => {
    expect(requestUrl('//evil.example/x?y=1')).toMatchObject({ host: 'localhost', pathname: '//evil.example/x', search: '?y=1' });
    expect(requestUrl('/a/b')).toMatchObject({ host: 'localhost', pathname: '/a/b' });
  });
});
