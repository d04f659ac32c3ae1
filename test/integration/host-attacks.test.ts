import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newOrg, newSession, type TestOrg, type TestSession, getWithHost } from '../support/api.ts';
import { createProduct, publish, type CreatedProduct } from '../support/fixtures.ts';

/**
 * Hosts a client can name (docs/security.md, findings 6 and 11 of the second review): the Host and
 * X-Forwarded-Host every function that routes by host reads (the resolver, the credentials
 * function's /.well-known/did.json), the X-Resolver-Origin the resolver's redirects are built on,
 * and the special-use names no brand can own.
 */
let org: TestOrg;
let session: TestSession;
let product: CreatedProduct;


/** The project's error object of a JSON answer (docs/decisions.md#errors-one-object-one-type-per-status). */
function errorOf(body: string): { type: string; code: string; message: string } {
  return (JSON.parse(body) as { error: { type: string; code: string; message: string } }).error;
}

const LONG_HOST = `${'a'.repeat(60)}.`.repeat(34).slice(0, 2_040) + '.example';
const BAD_HOSTS = ['evil_host!.example', 'a..b.example', '-x.example', 'x.example:99999999', '%00.example'];

beforeAll(async () => {
  org = await newOrg('Host Attack Winery');
  session = await newSession(org.orgId);
  product = await createProduct(org.live);
  await publish(org.live, product.productId);
});

describe('finding 6: a long or malformed host is a 404 with the error object, never a 500', () => {
  it('attack: GET /.well-known/did.json with a 2,000-character Host is 404 not_found, not a DynamoDB key error (500)', async () => {
    // Act
    const viaHost = await getWithHost('/.well-known/did.json', LONG_HOST, { accept: 'application/json' });
    const viaForwarded = await fetch(`${baseUrl()}/.well-known/did.json`, { headers: { 'x-forwarded-host': LONG_HOST } });
    // Assess
    expect(LONG_HOST.length).toBeGreaterThan(2_000);
    expect(viaHost.status).toBe(404);
    expect(errorOf(viaHost.body)).toMatchObject({ type: 'not_found', code: 'not_found' });
    expectError({ status: viaForwarded.status, headers: viaForwarded.headers, body: await viaForwarded.json(), text: '' }, 404, 'not_found');
  });

  it.each(BAD_HOSTS)('GET /.well-known/did.json with the host %s is 404 not_found', async (host) => {
    // Act
    const response = await fetch(`${baseUrl()}/.well-known/did.json`, { headers: { 'x-forwarded-host': host } });
    // Assess
    expectError({ status: response.status, headers: response.headers, body: await response.json(), text: '' }, 404, 'not_found');
  });

  it('attack: a scan of /01/{gtin} with a 2,000-character Host or X-Forwarded-Host is 404 not_found, and the description file names the platform', async () => {
    // Act
    const scan = await getWithHost(`/01/0${product.gtin}`, LONG_HOST, { accept: 'application/json' });
    const forwarded = await fetch(`${baseUrl()}/01/0${product.gtin}`, { headers: { accept: 'application/json', 'x-forwarded-host': LONG_HOST }, redirect: 'manual' });
    const description = await getWithHost('/.well-known/gs1resolver', LONG_HOST);
    // Assess
    expect(scan.status).toBe(404);
    expect(errorOf(scan.body).type).toBe('not_found');
    expect(forwarded.status).toBe(404);
    expect(((await forwarded.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect(description.status).toBe(200);
    expect((JSON.parse(description.body) as { resolverRoot: string }).resolverRoot).toBe(baseUrl());
  });

  it.each(BAD_HOSTS)('a scan of /01/{gtin} on the host %s is 404 not_found', async (host) => {
    // Act
    const response = await fetch(`${baseUrl()}/01/0${product.gtin}`, { headers: { accept: 'application/json', 'x-forwarded-host': host }, redirect: 'manual' });
    // Assess
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('not_found');
  });
});

describe('finding 11: hosts a client can name', () => {
  it('attack: X-Resolver-Origin: https://evil.example does not move the resolver\'s 307 (nor its Link) to evil.example', async () => {
    // Act
    const response = await fetch(`${baseUrl()}${new URL(product.qrCodeUrl).pathname}`, {
      headers: { accept: 'text/html', 'x-resolver-origin': 'https://evil.example' },
      redirect: 'manual',
    });
    // Assess
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${baseUrl()}/${org.orgId}/live/p/`));
    expect(response.headers.get('link')).not.toContain('evil.example');
  });

  it('attack: a CloudFront-shaped X-Resolver-Origin is ignored too when the request did not come through the function URL', async () => {
    // Act
    const response = await fetch(`${baseUrl()}${new URL(product.qrCodeUrl).pathname}?linkType=linkset`, {
      headers: { accept: 'application/json', 'x-resolver-origin': 'https://d111111abcdef8.cloudfront.net' },
    });
    // Assess
    expect(response.status).toBe(200);
    expect((await response.text()).includes('cloudfront.net')).toBe(false);
  });

  const specialUse: Array<[string, string]> = [
    ['localhost.localdomain (the hosts-file alias)', 'localhost.localdomain'],
    ['a name under localdomain', 'id.localdomain'],
    ['invalid (RFC 6761)', 'id.brand.invalid'],
    ['local (RFC 6762, multicast DNS)', 'printer.local'],
    ['onion (RFC 7686)', 'abcdefghijklmnop.onion'],
    ['home.arpa (RFC 8375)', 'router.home.arpa'],
    ['alt (RFC 9476)', 'id.brand.alt'],
    ['a reverse-mapping name under arpa', '10.in-addr.arpa'],
    ['internal (reserved for private use by ICANN)', 'id.corp.internal'],
    ['lan (RFC 6762 appendix G)', 'nas.lan'],
  ];

  it.each(specialUse)('attack: a brand domain on a special-use name, %s, is refused with 422 naming hostname', async (_label, hostname) => {
    // Prepare
    const before = (await call('GET', '/v1/domains', { session })).body.data.length;
    // Act
    const response = await call('POST', '/v1/domains', { session, body: { hostname } });
    // Assess
    expectError(response, 422, 'validation_error', 'hostname');
    expect((await call('GET', '/v1/domains', { session })).body.data).toHaveLength(before);
  });

  it('still takes a documentation name (*.example) on the local stack, whose own DNS server answers for it', async () => {
    // Act
    const response = await call('POST', '/v1/domains', { session, body: { hostname: `id.h${randomBytes(5).toString('hex')}.brand.example` } });
    // Assess
    expect(response.status).toBe(201);
  });
});
