import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, rotateSecret, requireEndpoint } from '../../lib/services/webhooks.ts';
import { baseUrl, call, expectError, newOrg, newSession, type TestOrg } from '../support/api.ts';
import { uniqueGtin13 } from '../support/gtin.ts';

const sample = readFileSync(new URL('../../events/webhooks/headless-cms-product.json', import.meta.url), 'utf8');
const customSample = readFileSync(new URL('../../events/webhooks/custom-source.json', import.meta.url), 'utf8');
const customMapping = JSON.parse(readFileSync(new URL('../../events/webhooks/custom-mapping.json', import.meta.url), 'utf8'));

/** The signature as a PIM computes it, with Node's own HMAC, not the service's helper. */
const signature = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function deliver(endpointId: string, secret: string | undefined, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret ? { 'x-webhook-signature': signature(secret, body) } : {}), ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A wine with milk: its list names the milk fining agent, as a wine's milk flag needs (docs/labelling.md#no-allergen-box-beside-a-list). */
const WITH_MILK = {
  contains_milk: true,
  list_of_ingredient: [{ ingredient_name: 'Grapes' }, { ingredient_name: 'Preservative: sulphites' }, { ingredient_name: 'Fining agent: milk casein' }],
};

/** The sample payload with a fresh barcode, so each test owns its product. */
function payload(overrides: Record<string, unknown> = {}, gtin = uniqueGtin13()) {
  const doc = JSON.parse(sample);
  doc.entity.attributes.barcode[0].barcode_number = gtin;
  Object.assign(doc.entity.attributes, overrides);
  return { gtin, body: JSON.stringify(doc) };
}

let org: TestOrg;
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  org = await newOrg('Webhook Winery');
  const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
  endpoint = { id: created.endpoint.endpointId, secret: created.secret };
});

describe('POST /v1/webhooks/ingest', () => {
  it('creates the product, passport v1 and the supplier from the sample headless-CMS payload', async () => {
    // Prepare
    const { gtin, body } = payload();
    // Act
    const response = await deliver(endpoint.id, endpoint.secret, body);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ received: true, duplicate: false, version: 1 });
    const product = await call('GET', `/v1/products/${response.body.productId}`, { key: org.live });
    expect(product.body).toMatchObject({ name: 'Domaine des Exemples Rouge 2022', category: 'wine', gtin: `0${gtin}` });
    const passport = await call('GET', `/v1/products/${response.body.productId}/passport`, { key: org.live });
    expect(passport.body).toMatchObject({ passportId: response.body.passportId, version: 1 });
    expect(passport.body.data).toEqual({
      vintage: 2022,
      ingredients: ['Grapes', 'Preservative: sulphites'],
      allergens: { containsSulphites: true },
      // The sample is a wine with its whole declaration; kcal, not sent, from the nutrients with the Annex XIV factors: 2.7 × 4 + 10.65 × 7 = 85.35.
      nutrition: { energyKj: 318, energyKcal: 85, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 10.65 },
      origin: { country: 'FR', region: 'Languedoc' },
      producers: [{ name: 'Domaine des Exemples', role: 'producer' }],
    });
    const suppliers = await call('GET', '/v1/suppliers?limit=100', { key: org.live });
    expect(suppliers.body.data.filter((s: { name: string }) => s.name === 'Domaine des Exemples')).toHaveLength(1);
  });

  it('publishes v2 on an update while qrCodeUrl stays the same and now resolves to v2; reuses the supplier', async () => {
    const { gtin, body } = payload();
    const first = await deliver(endpoint.id, endpoint.secret, body);
    const qrCodeUrl = (await call('GET', `/v1/products/${first.body.productId}`, { key: org.live })).body.qrCodeUrl;
    const update = payload({ product_region: 'Minervois', product_name: 'Domaine des Exemples Minervois 2022' }, gtin);
    const second = await deliver(endpoint.id, endpoint.secret, update.body);
    expect(second.body).toMatchObject({ productId: first.body.productId, version: 2, duplicate: false });
    const product = (await call('GET', `/v1/products/${first.body.productId}`, { key: org.live })).body;
    expect(product.qrCodeUrl).toBe(qrCodeUrl);
    expect(product.name).toBe('Domaine des Exemples Minervois 2022');
    const resolved = (await (await fetch(qrCodeUrl, { headers: { accept: 'application/json' } })).json()) as Record<string, any>;
    expect(resolved).toMatchObject({ version: 2, data: { origin: { region: 'Minervois' } } });
    const suppliers = await call('GET', '/v1/suppliers?limit=100', { key: org.live });
    expect(suppliers.body.data.filter((s: { name: string }) => s.name === 'Domaine des Exemples')).toHaveLength(1);
  });

  it('answers a repeated delivery, and concurrent copies, with duplicate: true and no new version', async () => {
    const { body } = payload();
    const first = await deliver(endpoint.id, endpoint.secret, body);
    const again = await deliver(endpoint.id, endpoint.secret, body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, version: 1, passportId: first.body.passportId });

    const racing = payload();
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(endpoint.id, endpoint.secret, racing.body)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(new Set(results.map((r) => r.body.productId)).size).toBe(1);
    expect(results.filter((r) => !r.body.duplicate)).toHaveLength(1);
    const history = await call('GET', `/v1/products/${results[0]?.body.productId}/passports`, { key: org.live });
    expect(history.body.data).toHaveLength(1);
  });

  it('refuses the same JSON re-serialized with other whitespace, a tampered body, a wrong secret, a missing header, an unknown endpoint', async () => {
    const { gtin, body } = payload();
    const reserialized = JSON.stringify(JSON.parse(body), null, 2);
    const sig = signature(endpoint.secret, body);
    const cases = [
      await deliver(endpoint.id, undefined, reserialized, { 'x-webhook-signature': sig }),
      await deliver(endpoint.id, undefined, body.replace('Languedoc', 'Bordeaux'), { 'x-webhook-signature': sig }),
      await deliver(endpoint.id, 'whsec_wrongwrongwrongwrongwrongwrong', body),
      await deliver(endpoint.id, undefined, body),
      await deliver(endpoint.id, undefined, body, { 'x-webhook-signature': sig.toUpperCase() }),
      await deliver('whe_00000000000000000000', endpoint.secret, body),
    ];
    for (const response of cases) {
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'authentication_error' });
    }
    const list = await call('GET', '/v1/products?limit=100', { key: org.live });
    expect(list.body.data.some((p: { gtin: string }) => p.gtin === `0${gtin}`)).toBe(false);
  });

  it('accepts the endpoint in the X-Webhook-Endpoint header, 400 for invalid JSON under a valid signature', async () => {
    const { body } = payload();
    const response = await fetch(`${baseUrl()}/v1/webhooks/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-endpoint': endpoint.id, 'x-webhook-signature': signature(endpoint.secret, body) },
      body,
    });
    expect(response.status).toBe(200);
    const broken = '{"event_type": "entity.update",';
    const bad = await deliver(endpoint.id, endpoint.secret, broken);
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('invalid_request_error');
  });

  it('answers 422 naming the source field when mapped data fails validation, and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ energy_value_kj: 'lots' }, 'entity.attributes.energy_value_kj'],
      [{ product_country: 'France' }, 'entity.attributes.product_country'],
      [{ list_of_ingredient: [{ ingredient_name: 'Grapes' }, { ingredient_name: '' }] }, 'entity.attributes.list_of_ingredient[1].ingredient_name'],
    ];
    for (const [overrides, param] of cases) {
      const { gtin, body } = payload(overrides);
      const response = await deliver(endpoint.id, endpoint.secret, body);
      expect(response.status, param).toBe(422);
      expect(response.body.error).toMatchObject({ type: 'validation_error', param });
      const list = await call('GET', '/v1/products?limit=100', { key: org.live });
      expect(list.body.data.some((p: { gtin: string }) => p.gtin === `0${gtin}`)).toBe(false);
    }
    const badGtin = JSON.parse(sample);
    badGtin.entity.attributes.barcode[0].barcode_number = '3760123450020';
    const response = await deliver(endpoint.id, endpoint.secret, JSON.stringify(badGtin));
    expect(response.body.error).toMatchObject({ type: 'validation_error', param: 'entity.attributes.barcode[0].barcode_number' });
  });

  it('holds a renamed product to the product name rules: 422 naming the source field, and nothing changes', async () => {
    const { gtin, body } = payload();
    const first = await deliver(endpoint.id, endpoint.secret, body);
    const renamed = payload({ product_name: 'x'.repeat(201) }, gtin);
    const response = await deliver(endpoint.id, endpoint.secret, renamed.body);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ type: 'validation_error', param: 'entity.attributes.product_name' });
    const product = await call('GET', `/v1/products/${first.body.productId}`, { key: org.live });
    expect(product.body.name).toBe('Domaine des Exemples Rouge 2022');
  });

  it('acknowledges event types that neither create nor update with ignored: true', async () => {
    const doc = JSON.parse(payload().body);
    doc.event_type = 'entity.delete';
    const response = await deliver(endpoint.id, endpoint.secret, JSON.stringify(doc));
    expect(response).toEqual({ status: 200, body: { received: true, ignored: true, eventType: 'entity.delete' } });
  });

  it('verifies both the old and the new secret for 24 hours after a rotation, then only the new', async () => {
    const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
    const rotated = await rotateSecret(created.endpoint);
    expect((await deliver(created.endpoint.endpointId, created.secret, payload().body)).status).toBe(200);
    expect((await deliver(created.endpoint.endpointId, rotated.secret, payload().body)).status).toBe(200);
    // A second rotation a day later: the first secret has lapsed.
    const later = await rotateSecret(await requireEndpoint(org.orgId, created.endpoint.endpointId), Date.now() + 25 * 3600_000);
    expect((await deliver(created.endpoint.endpointId, created.secret, payload().body)).status).toBe(401);
    expect((await deliver(created.endpoint.endpointId, rotated.secret, payload().body)).status).toBe(200);
    expect((await deliver(created.endpoint.endpointId, later.secret, payload().body)).status).toBe(200);
  });

  it('maps a custom source with a custom mapping, into the endpoint’s default category', async () => {
    const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'custom', defaultCategory: 'food', mapping: customMapping });
    const doc = JSON.parse(customSample);
    doc.ean = uniqueGtin13();
    const response = await deliver(created.endpoint.endpointId, created.secret, JSON.stringify(doc));
    expect(response.status).toBe(200);
    const product = (await call('GET', `/v1/products/${response.body.productId}`, { key: org.live })).body;
    expect(product).toMatchObject({ name: 'Extra Virgin Olive Oil 500 ml', category: 'food', sku: 'OLV-500' });
    const passport = (await call('GET', `/v1/products/${response.body.productId}/passport`, { key: org.live })).body;
    expect(passport.data).toEqual({
      ingredients: ['Extra virgin olive oil'],
      nutrition: { energyKj: 3700, energyKcal: 884, fatG: 100, saltG: 0 },
      origin: { country: 'ES', region: 'Andalucía' },
      producers: [{ name: 'Almazara Ejemplo S.L.', role: 'producer' }],
    });
  });

  it('never writes into another organization or environment', async () => {
    const test = await createEndpoint({ orgId: org.orgId, environment: 'test' }, { source: 'headless-cms', defaultCategory: 'wine' });
    const { gtin, body } = payload();
    const response = await deliver(test.endpoint.endpointId, test.secret, body);
    expect(response.status).toBe(200);
    expect((await call('GET', `/v1/products/${response.body.productId}`, { key: org.test })).status).toBe(200);
    expectError(await call('GET', `/v1/products/${response.body.productId}`, { key: org.live }), 404, 'not_found');
    const other = await newOrg();
    const list = await call('GET', '/v1/products?limit=100', { key: other.live });
    expect(list.body.data.some((p: { gtin: string }) => p.gtin === `0${gtin}`)).toBe(false);
    // Another organization's secret never verifies this organization's endpoint.
    const foreign = await createEndpoint({ orgId: other.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
    expect((await deliver(endpoint.id, foreign.secret, payload().body)).status).toBe(401);
  });
});

describe('/v1/webhooks/endpoints (dashboard session)', () => {
  it('creates an endpoint whose secret is shown once, lists, reads, edits the mapping, rotates and deletes it', async () => {
    const session = await newSession(org.orgId);
    const created = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: 'headless-cms', environment: 'live', defaultCategory: 'wine' });
    expect(created.body.id).toMatch(/^whe_/);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.mapping.gtin).toBe('entity.attributes.barcode[].barcode_number');

    const read = await call('GET', `/v1/webhooks/endpoints/${created.body.id}`, { session });
    expect(read.body.secret).toBeUndefined();
    expect((await call('GET', '/v1/webhooks/endpoints', { session })).body.data.map((e: { id: string }) => e.id)).toContain(created.body.id);

    const edited = await call('PATCH', `/v1/webhooks/endpoints/${created.body.id}`, { session, body: { mapping: customMapping, defaultCategory: 'food' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ mapping: customMapping, defaultCategory: 'food' });

    const rotated = await call('POST', `/v1/webhooks/endpoints/${created.body.id}/rotate-secret`, { session });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await call('DELETE', `/v1/webhooks/endpoints/${created.body.id}`, { session })).body).toEqual({ id: created.body.id, deleted: true });
    expectError(await call('GET', `/v1/webhooks/endpoints/${created.body.id}`, { session }), 404, 'not_found');
    expect((await deliver(created.body.id, rotated.body.secret, payload().body)).status).toBe(401);
  });

  it('validates the mapping when saved, naming the bad path', async () => {
    const session = await newSession(org.orgId);
    expectError(await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'custom' } }), 422, 'validation_error', 'mapping');
    expectError(
      await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'custom', mapping: { gtin: 'ean', colour_of_cap: 'cap' } } }),
      422,
      'validation_error',
      'mapping.colour_of_cap',
    );
    expectError(
      await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'custom', mapping: { gtin: 'ean', name: 'a..b' } } }),
      422,
      'validation_error',
      'mapping.name',
    );
    expectError(
      await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'custom', mapping: { gtin: { path: 'ean', convert: 'rot13' } } } }),
      422,
      'validation_error',
      'mapping.gtin.convert',
    );
    expectError(await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'erp' } }), 422, 'validation_error', 'source');
  });

  it('is refused with an API key (403) or nothing (401), and 404 for another organization’s endpoint', async () => {
    expectError(await call('GET', '/v1/webhooks/endpoints', { key: org.live }), 403, 'permission_error');
    expectError(await call('GET', '/v1/webhooks/endpoints'), 401, 'authentication_error');
    const other = await newOrg();
    const otherSession = await newSession(other.orgId);
    expectError(await call('GET', `/v1/webhooks/endpoints/${endpoint.id}`, { session: otherSession }), 404, 'not_found');
    expectError(await call('POST', `/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`, { session: otherSession }), 404, 'not_found');
    expect((await call('GET', '/v1/webhooks/endpoints', { session: otherSession })).body.data).toEqual([]);
  });
});

describe('delivery size', () => {
  it('refuses a delivery naming more than 100 products with a 422, and writes none of them', async () => {
    // Prepare
    const org = await newOrg('Bulk Winery');
    const created = await createEndpoint({ orgId: org.orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
    const doc = JSON.parse(sample);
    doc.entity.attributes.barcode = Array.from({ length: 101 }, () => ({ barcode_number: uniqueGtin13(), vintage_year: 2022 }));
    // Act
    const response = await deliver(created.endpoint.endpointId, created.secret, JSON.stringify(doc));
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ type: 'validation_error', param: 'entity.attributes.barcode[].barcode_number' });
    expect((await call('GET', '/v1/products', { key: org.live })).body.pagination.total).toBe(0);
  });
});

describe('replays and stale deliveries (security finding 2)', () => {
  it('attack: re-sending yesterday’s signed delivery after a newer one answers duplicate, and the current version keeps its milk allergen', async () => {
    // Prepare: yesterday's delivery (no milk), then today's (contains milk)
    const yesterday = payload({ contains_milk: false });
    const first = await deliver(endpoint.id, endpoint.secret, yesterday.body);
    const today = payload({ ...WITH_MILK }, yesterday.gtin);
    const second = await deliver(endpoint.id, endpoint.secret, today.body);
    expect(second.body).toMatchObject({ duplicate: false, version: 2 });
    // Act: the attacker re-sends yesterday's captured bytes and signature
    const replay = await deliver(endpoint.id, endpoint.secret, yesterday.body);
    // Assess
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ received: true, duplicate: true, productId: first.body.productId, passportId: first.body.passportId, version: 1 });
    const current = await call('GET', `/v1/products/${first.body.productId}/passport`, { key: org.live });
    expect(current.body).toMatchObject({ version: 2, data: { allergens: { containsMilk: true } } });
    const history = await call('GET', `/v1/products/${first.body.productId}/passports`, { key: org.live });
    expect(history.body.data).toHaveLength(2);
  });

  it('attack: a CMS payload older than the published data (its updated_at) is refused as stale, and nothing is written', async () => {
    // Prepare: the newer state is published first
    const newer = payload({ updated_at: '2026-11-20T10:00:00Z', ...WITH_MILK, product_name: 'Rouge au lait' });
    const published = await deliver(endpoint.id, endpoint.secret, newer.body);
    expect(published.body).toMatchObject({ duplicate: false, version: 1 });
    // Act: an older save of the same product arrives late (other bytes, so not a replay)
    const older = payload({ updated_at: '2026-11-19T10:00:00Z', contains_milk: false, product_name: 'Rouge' }, newer.gtin);
    const response = await deliver(endpoint.id, endpoint.secret, older.body);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ received: true, duplicate: true, stale: true, version: 1, passportId: published.body.passportId });
    const product = await call('GET', `/v1/products/${published.body.productId}`, { key: org.live });
    expect(product.body.name).toBe('Rouge au lait');
    const history = await call('GET', `/v1/products/${published.body.productId}/passports`, { key: org.live });
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0].data.allergens).toEqual({ containsSulphites: true, containsMilk: true });
    // A newer save still publishes; one with the same time and other data too (docs/decisions.md).
    const same = await deliver(endpoint.id, endpoint.secret, payload({ updated_at: '2026-11-20T10:00:00Z', contains_milk: false }, newer.gtin).body);
    expect(same.body).toMatchObject({ duplicate: false, version: 2 });
  });
});

describe('Standard Webhooks signatures (security finding 2)', () => {
  let sw: { id: string; secret: string };

  /** A delivery signed by the standardwebhooks package, as a sender using it would. */
  async function deliverStandard(body: string, id: string, at = new Date(), secret = sw.secret) {
    const response = await fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${sw.id}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, at, body),
      },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  beforeAll(async () => {
    const session = await newSession(org.orgId);
    const created = await call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' } });
    expect(created.body.signatureScheme).toBe('hmac-body');
    const patched = await call('PATCH', `/v1/webhooks/endpoints/${created.body.id}`, { session, body: { signatureScheme: 'standard-webhooks' } });
    expect(patched.status).toBe(200);
    expect(patched.body.signatureScheme).toBe('standard-webhooks');
    sw = { id: created.body.id, secret: created.body.secret };
  });

  it('accepts a delivery signed the Standard Webhooks way, and no longer the body-only signature', async () => {
    // Prepare
    const { body } = payload();
    // Act
    const response = await deliverStandard(body, `msg_${randomUUID()}`);
    const bodyOnly = await deliver(sw.id, sw.secret, payload().body);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ received: true, duplicate: false, version: 1 });
    expect(bodyOnly.status).toBe(401);
  });

  it('attack: a validly signed delivery whose timestamp is 6 minutes old is refused with 401, and nothing is written', async () => {
    // Prepare
    const { gtin, body } = payload();
    // Act
    const response = await deliverStandard(body, `msg_${randomUUID()}`, new Date(Date.now() - 6 * 60_000));
    // Assess
    expect(response.status).toBe(401);
    expect(response.body.error).toMatchObject({ type: 'authentication_error' });
    expect(response.body.error.message).toMatch(/5 minutes/);
    const list = await call('GET', '/v1/products?limit=100', { key: org.live });
    expect(list.body.data.some((p: { gtin: string }) => p.gtin === `0${gtin}`)).toBe(false);
  });

  it('attack: a webhook-id seen before is a duplicate, even re-signed over other data', async () => {
    // Prepare
    const id = `msg_${randomUUID()}`;
    const original = payload({ ...WITH_MILK });
    const first = await deliverStandard(original.body, id);
    // Act: the same message id again, freshly timestamped, with other data
    const again = await deliverStandard(payload({ contains_milk: false }, original.gtin).body, id);
    // Assess
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, version: 1, passportId: first.body.passportId });
    const current = await call('GET', `/v1/products/${first.body.productId}/passport`, { key: org.live });
    expect(current.body).toMatchObject({ version: 1, data: { allergens: { containsMilk: true } } });
  });
});

describe('mapping targets named like prototype machinery', () => {
  it('attack: a __proto__ mapping target is refused with 422 naming it, on create and on PATCH', async () => {
    // Prepare
    const session = await newSession(org.orgId);
    const mapping = '{"gtin": "ean", "__proto__": "title"}';
    // Act
    const created = await fetch(`${baseUrl()}/v1/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, origin: baseUrl(), 'x-csrf-token': session.csrfToken },
      body: `{"source": "custom", "mapping": ${mapping}}`,
    });
    const patched = await fetch(`${baseUrl()}/v1/webhooks/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie: session.cookie, origin: baseUrl(), 'x-csrf-token': session.csrfToken },
      body: `{"mapping": ${mapping}}`,
    });
    // Assess
    for (const response of [created, patched]) {
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: Record<string, unknown> }).error).toMatchObject({ type: 'validation_error', param: 'mapping.__proto__' });
    }
    const read = await call('GET', `/v1/webhooks/endpoints/${endpoint.id}`, { session });
    expect(read.body.mapping.gtin).toBe('entity.attributes.barcode[].barcode_number');
  });
});
