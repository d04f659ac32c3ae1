import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { createProduct, RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

let org: TestOrg;
let key = 0;
const newKey = () => `idem-${process.pid}-${Date.now()}-${++key}`;
const total = async (apiKey: string) => (await call('GET', '/v1/products', { key: apiKey })).body.pagination.total as number;

beforeAll(async () => {
  org = await newOrg('Idempotency Org');
});

describe('Idempotency-Key', () => {
  it('replays the first answer, status and body, for the same key and body, and creates once', async () => {
    // Prepare
    const body = { name: 'Retry wine', category: 'wine', gtin: uniqueGtin13() };
    const headers = { 'idempotency-key': newKey() };
    const before = await total(org.live);
    // Act
    const first = await call('POST', '/v1/products', { key: org.live, body, headers });
    const second = await call('POST', '/v1/products', { key: org.live, body, headers });
    // Assess
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await total(org.live)).toBe(before + 1);
  });

  it('answers 400 idempotency_error for the same key with another body, and creates nothing', async () => {
    const headers = { 'idempotency-key': newKey() };
    await call('POST', '/v1/products', { key: org.live, body: { name: 'A', category: 'wine', gtin: uniqueGtin13() }, headers });
    const before = await total(org.live);
    const reused = await call('POST', '/v1/products', { key: org.live, body: { name: 'B', category: 'wine', gtin: uniqueGtin13() }, headers });
    expectError(reused, 400, 'idempotency_error', 'Idempotency-Key');
    expect(await total(org.live)).toBe(before);
  });

  it('lets concurrent copies create once: the others wait for it (409) or replay it', async () => {
    const body = { name: 'Racing wine', category: 'wine', gtin: uniqueGtin13() };
    const headers = { 'idempotency-key': newKey() };
    const before = await total(org.live);
    const responses = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/v1/products', { key: org.live, body, headers })));
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.productId)).size).toBe(1);
    for (const r of responses.filter((x) => x.status !== 201)) expectError(r, 409, 'idempotency_error');
    expect(await total(org.live)).toBe(before + 1);
  });

  it('scopes keys to the API key that sent them', async () => {
    const headers = { 'idempotency-key': newKey() };
    const other = await org.keyWith(['products:write', 'products:read']);
    const a = await call('POST', '/v1/products', { key: org.live, body: { name: 'A', category: 'wine', gtin: uniqueGtin13() }, headers });
    const b = await call('POST', '/v1/products', { key: other, body: { name: 'B', category: 'wine', gtin: uniqueGtin13() }, headers });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.productId).not.toBe(a.body.productId);
  });

  it('keeps no record of a failed request: the same key can carry the corrected request', async () => {
    const headers = { 'idempotency-key': newKey() };
    expectError(await call('POST', '/v1/products', { key: org.live, body: { name: 'A', category: 'beer', gtin: uniqueGtin13() }, headers }), 422, 'validation_error', 'category');
    expect((await call('POST', '/v1/products', { key: org.live, body: { name: 'A', category: 'wine', gtin: uniqueGtin13() }, headers })).status).toBe(201);
  });

  it('publishes one passport version for a retried POST /v1/passports', async () => {
    const product = await createProduct(org.live);
    const headers = { 'idempotency-key': newKey() };
    const body = { productId: product.productId, data: RED_WINE };
    const first = await call('POST', '/v1/passports', { key: org.live, body, headers });
    const again = await call('POST', '/v1/passports', { key: org.live, body, headers });
    expect(again.body).toEqual(first.body);
    expect((await call('GET', `/v1/products/${product.productId}/passports`, { key: org.live })).body.data).toHaveLength(1);
  });

  it('works for suppliers, API keys (session) and webhook endpoints (session)', async () => {
    const supplierHeaders = { 'idempotency-key': newKey() };
    const s1 = await call('POST', '/v1/suppliers', { key: org.live, body: { name: 'Once' }, headers: supplierHeaders });
    const s2 = await call('POST', '/v1/suppliers', { key: org.live, body: { name: 'Once' }, headers: supplierHeaders });
    expect(s2.body.supplierId).toBe(s1.body.supplierId);

    const session = await newSession(org.orgId);
    const keyHeaders = { 'idempotency-key': newKey() };
    const k1 = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'CI', scopes: ['products:read'] }, headers: keyHeaders });
    const k2 = await call('POST', '/v1/auth/api-keys', { session, body: { name: 'CI', scopes: ['products:read'] }, headers: keyHeaders });
    expect(k1.status).toBe(201);
    expect(k2.body).toEqual(k1.body);
    const endpointHeaders = { 'idempotency-key': newKey() };
    const e1 = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' }, headers: endpointHeaders });
    const e2 = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' }, headers: endpointHeaders });
    expect(e2.body.id).toBe(e1.body.id);
  });

  it('answers 400 for a malformed key', async () => {
    const body = { name: 'A', category: 'wine', gtin: uniqueGtin13() };
    expectError(await call('POST', '/v1/products', { key: org.live, body, headers: { 'idempotency-key': 'x'.repeat(256) } }), 400, 'invalid_request_error', 'Idempotency-Key');
  });
});
