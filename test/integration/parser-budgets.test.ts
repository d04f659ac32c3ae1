import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../lib/http/json-depth.ts';
import { MAX_BODY_BYTES } from '../../lib/http/raw-body.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { baseUrl, call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

/**
 * Each parser of client input that goes through the JSON pipeline, fed an input just over its
 * stated budget (docs/security.md#parser-budgets): the nesting of a JSON body, its size, the
 * request's headers, path segments, and the QR code's parameters. The import files' parsers
 * have theirs in test/unit/import-files.test.ts and test/integration/import-attacks.test.ts.
 */
const nestedName = (depth: number): string => `{"name":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)},"category":"wine","gtin":"${uniqueGtin13()}"}`;

let org: TestOrg;
let productId: string;

beforeAll(async () => {
  org = await newOrg('Budget Winery');
  const created = await call('POST', '/v1/products', { key: org.live, body: { name: 'Budget Riesling', category: 'wine', gtin: uniqueGtin13() } });
  productId = created.body.productId;
});

describe('parser budgets of the JSON pipeline', () => {
  it(`refuses a JSON body nested ${MAX_JSON_DEPTH + 1} levels with 400 naming the budget, and takes ${MAX_JSON_DEPTH} levels to validation`, async () => {
    // Prepare: the body object is level 1, `name` opens level 2
    const atBudget = nestedName(MAX_JSON_DEPTH);
    const justOver = nestedName(MAX_JSON_DEPTH + 1);

    // Act
    const accepted = await call('POST', '/v1/products', { key: org.live, rawBody: atBudget, headers: { 'content-type': 'application/json' } });
    const refused = await call('POST', '/v1/products', { key: org.live, rawBody: justOver, headers: { 'content-type': 'application/json' } });

    // Assess: the first reaches the schema (name must be a string), the second never gets parsed
    expectError(accepted, 422, 'validation_error', 'name');
    const error = expectError(refused, 400, 'invalid_request_error');
    expect(error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('attack: a merge patch of 200,000 nested objects (1.2 MB) is refused at the size budget, and one of 40,000 levels inside it at the depth budget; the draft stays absent', async () => {
    // Prepare
    const huge = `{"data":${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}}`;
    const deepButSmall = `{"data":${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}}`;
    const patch = (rawBody: string) =>
      call('PATCH', `/v1/products/${productId}/draft`, { key: org.live, rawBody, headers: { 'content-type': 'application/merge-patch+json' } });

    // Act
    const tooLarge = await patch(huge);
    const tooDeep = await patch(deepButSmall);

    // Assess
    expectError(tooLarge, 413, 'invalid_request_error');
    expect(expectError(tooDeep, 400, 'invalid_request_error').message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect((await call('GET', `/v1/products/${productId}/draft`, { key: org.live })).status).toBe(404);
  });

  it(`refuses a JSON body one byte over ${MAX_BODY_BYTES / 1024} KiB with 413`, async () => {
    // Prepare: valid JSON of exactly MAX_BODY_BYTES + 1 bytes
    const frame = '{"name":"","category":"wine","gtin":"4006381333931"}';
    const body = frame.replace('"name":""', `"name":"${'x'.repeat(MAX_BODY_BYTES + 1 - frame.length)}"`);
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES + 1);

    // Act
    const response = await call('POST', '/v1/products', { key: org.live, rawBody: body, headers: { 'content-type': 'application/json' } });

    // Assess
    expectError(response, 413, 'invalid_request_error');
  });

  it(`refuses a signed webhook delivery nested ${MAX_JSON_DEPTH + 1} levels with 400, and creates nothing`, async () => {
    // Prepare
    const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
    const body = `{"event_type":"entity.update","entity":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`;
    const signature = `sha256=${createHmac('sha256', created.secret).update(body).digest('hex')}`;
    const before = (await call('GET', '/v1/products?limit=100', { key: org.live })).body.data.length;

    // Act
    const response = await fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${created.endpoint.endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
      body,
    });

    // Assess
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect((await call('GET', '/v1/products?limit=100', { key: org.live })).body.data.length).toBe(before);
  });

  it('answers 431 to request headers over the local gateway’s 16 KiB (API Gateway’s own quota is 10,240 bytes)', async () => {
    // Prepare
    const header = 'x'.repeat(16 * 1024 + 1);

    // Act
    const response = await fetch(`${baseUrl()}/v1/products`, { headers: { authorization: `Bearer ${org.live}`, 'x-padding': header } });

    // Assess
    expect(response.status).toBe(431);
  });

  it('answers 404, never 5xx, to a path segment of 5,000 characters, and 422 to a limit one over 100', async () => {
    // Prepare
    const long = 'a'.repeat(5_000);

    // Act
    const product = await call('GET', `/v1/products/${long}`, { key: org.live });
    const supplier = await call('GET', `/v1/suppliers/${long}`, { key: org.live });
    const list = await call('GET', '/v1/products?limit=101', { key: org.live });

    // Assess
    expectError(product, 404, 'not_found');
    expectError(supplier, 404, 'not_found');
    expectError(list, 422, 'validation_error', 'limit');
  });

  it('refuses a QR code one pixel over 2048 or one module of margin over 16, naming the parameter', async () => {
    // Act
    const size = await call('GET', `/v1/products/${productId}/qr?size=2049`, { key: org.live });
    const margin = await call('GET', `/v1/products/${productId}/qr?margin=17`, { key: org.live });
    const largest = await call('GET', `/v1/products/${productId}/qr?size=2048&margin=16`, { key: org.live });

    // Assess
    expectError(size, 422, 'validation_error', 'size');
    expectError(margin, 422, 'validation_error', 'margin');
    expect(largest.status).toBe(200);
    expect(largest.text).toContain('<svg');
  });
});
