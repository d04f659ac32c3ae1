import { Webhook } from 'standardwebhooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/data/client.ts';
import { subscriptionSk, tenantPk } from '../../lib/data/keys.ts';
import { call, expectError, newOrg, type TestOrg } from '../support/api.ts';
import { createProduct, publish } from '../support/fixtures.ts';
import { startReceiver, type Received, type Receiver } from '../support/receiver.ts';

/**
 * Outbound webhooks (docs/webhooks-outbound.md) through the local pipeline: the table stream's
 * fan-out, the delivery queue (fauxqs) and the delivery worker, to a real HTTP receiver on a
 * loopback port (the local stack allows loopback; the test stack retries after 1 s). Signatures
 * are verified with the `standardwebhooks` package, not the service's signer.
 */
let org: TestOrg;
let other: TestOrg;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [org, other] = await Promise.all([newOrg('Subscriptions Org'), newOrg('Other Subscriptions Org')]);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function subscribe(key: string, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/event-subscriptions', { key, body });
  if (response.status !== 201) throw new Error(`subscribe: ${response.status} ${response.text}`);
  return response.body as { id: string; secret: string; url: string; events: string[]; status: string };
}

const headersOf = (r: Received): Record<string, string> => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});
const typeOf = (r: Received): string => (JSON.parse(r.body) as { type: string }).type;

describe('POST /v1/event-subscriptions', () => {
  it('creates an enabled subscription and shows its whsec_ secret once', async () => {
    // Prepare
    const target = await receiver();
    // Act
    const created = await call('POST', '/v1/event-subscriptions', { key: org.live, body: { url: target.url(), events: ['passport.published'], description: 'ERP' } });
    const read = await call('GET', `/v1/event-subscriptions/${created.body.id}`, { key: org.live });
    const list = await call('GET', '/v1/event-subscriptions', { key: org.live });
    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: target.url(), events: ['passport.published'], status: 'enabled', description: 'ERP', disabledReason: null });
    expect(created.body.id).toMatch(/^sub_[0-9a-z]{20}$/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(created.headers.get('location')).toBe(`/v1/event-subscriptions/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(created.body.id);
  });

  it('stores the signing secret sealed, never in plaintext', async () => {
    // Prepare
    const target = await receiver();
    // Act
    const created = await subscribe(org.live, { url: target.url('/sealed'), events: ['*'] });
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk({ orgId: org.orgId, environment: 'live' }), SK: subscriptionSk(created.id) } }));
    // Assess
    expect(Item).toBeDefined();
    expect(JSON.stringify(Item)).not.toContain(created.secret.slice('whsec_'.length));
    expect(String(Item?.sealedSecrets)).toMatch(/^sbx1\./);
  });

  it.each([
    [{ events: ['*'] }, 'url'],
    [{ url: 'not a url', events: ['*'] }, 'url'],
    [{ url: 'ftp://example.com/hook', events: ['*'] }, 'url'],
    [{ url: 'http://example.com/hook', events: ['*'] }, 'url'],
    [{ url: 'https://10.0.0.7/hook', events: ['*'] }, 'url'],
    [{ url: 'https://169.254.169.254/latest/meta-data', events: ['*'] }, 'url'],
    [{ url: 'https://[fd00::1]/hook', events: ['*'] }, 'url'],
    [{ url: 'https://100.64.0.1/hook', events: ['*'] }, 'url'],
    [{ url: 'https://user:pw@example.com/hook', events: ['*'] }, 'url'],
    [{ url: 'https://example.com/hook' }, 'events'],
    [{ url: 'https://example.com/hook', events: [] }, 'events'],
    [{ url: 'https://example.com/hook', events: ['passport.exploded'] }, 'events[0]'],
    [{ url: 'https://example.com/hook', events: ['*'], secret: 'mine' }, 'secret'],
  ])('refuses %j with a 422 naming %s, and creates nothing', async (body, param) => {
    // Prepare
    const before = await call('GET', '/v1/event-subscriptions', { key: other.live });
    // Act
    const response = await call('POST', '/v1/event-subscriptions', { key: other.live, body });
    // Assess
    expectError(response, 422, 'validation_error', param);
    const after = await call('GET', '/v1/event-subscriptions', { key: other.live });
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it('refuses a key without event_subscriptions:write (403) and reads with event_subscriptions:read', async () => {
    // Prepare
    const readOnly = await org.keyWith(['event_subscriptions:read']);
    // Act
    const refused = await call('POST', '/v1/event-subscriptions', { key: readOnly, body: { url: 'https://example.com/hook', events: ['*'] } });
    const listed = await call('GET', '/v1/event-subscriptions', { key: readOnly });
    // Assess
    expectError(refused, 403, 'permission_error');
    expect(listed.status).toBe(200);
  });
});

describe('delivery', () => {
  it('delivers passport.published within seconds, signed per Standard Webhooks, the body being the event as GET /v1/events/{id} shows it', { timeout: 90_000 }, async () => {
    // Prepare
    const target = await receiver();
    const subscription = await subscribe(org.live, { url: target.url(), events: ['passport.published'] });
    const product = await createProduct(org.live);
    // Act
    const published = await publish(org.live, product.productId);
    const [request] = await target.waitFor((r) => r.some((x) => typeOf(x) === 'passport.published'), 30_000);
    // Assess
    expect(request).toBeDefined();
    const received = request as Received;
    expect(received.headers['content-type']).toBe('application/json');
    const verified = new Webhook(subscription.secret).verify(received.body, headersOf(received)) as { id: string; type: string; data: { object: Record<string, unknown> } };
    expect(verified.type).toBe('passport.published');
    expect(received.headers['webhook-id']).toBe(verified.id);
    expect(verified.data.object).toMatchObject({ passportId: published.passportId, version: 1 });
    const logged = await call('GET', `/v1/events/${verified.id}`, { key: org.live });
    expect(JSON.parse(received.body)).toEqual(logged.body);
    // Only the subscribed type: the product.created event before it never came.
    expect(target.received.map(typeOf)).toEqual(['passport.published']);
  });

  it('retries a receiver answering 500 twice: three attempts with the same webhook-id, all in the delivery log', { timeout: 90_000 }, async () => {
    // Prepare
    const target = await receiver((_request, index) => (index < 2 ? 500 : 200));
    const subscription = await subscribe(org.live, { url: target.url('/flaky'), events: ['product.created'] });
    // Act
    await createProduct(org.live);
    const attempts = await target.waitFor((r) => r.length >= 3, 60_000);
    // Assess
    const ids = new Set(attempts.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const attempt of attempts) expect(() => new Webhook(subscription.secret).verify(attempt.body, headersOf(attempt))).not.toThrow();
    const deadline = Date.now() + 10_000;
    let log = await call('GET', `/v1/event-subscriptions/${subscription.id}/deliveries`, { key: org.live });
    while (log.body.data[0]?.status !== 'succeeded' && Date.now() < deadline) {
      log = await call('GET', `/v1/event-subscriptions/${subscription.id}/deliveries`, { key: org.live });
    }
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    const [delivery] = log.body.data;
    expect(delivery).toMatchObject({ status: 'succeeded', eventId: [...ids][0], eventType: 'product.created', nextRetryAt: null });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].responseBody).toBe('failing on purpose (500)');
    expect(target.received).toHaveLength(3);
  });

  it('signs with both the old and the new secret during the 24 hours after rotate-secret', { timeout: 90_000 }, async () => {
    // Prepare
    const target = await receiver();
    const subscription = await subscribe(org.live, { url: target.url('/rotating'), events: ['product.created'] });
    // Act
    const rotated = await call('POST', `/v1/event-subscriptions/${subscription.id}/rotate-secret`, { key: org.live });
    await createProduct(org.live);
    const [request] = await target.waitFor((r) => r.length >= 1, 30_000);
    // Assess
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(subscription.secret);
    expect(Date.parse(rotated.body.previousSecretValidUntil) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const received = request as Received;
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.body.secret).verify(received.body, headersOf(received))).not.toThrow();
    expect(() => new Webhook(subscription.secret).verify(received.body, headersOf(received))).not.toThrow();
    const read = await call('GET', `/v1/event-subscriptions/${subscription.id}`, { key: org.live });
    expect(read.body.secretPreviousValidUntil).toBe(rotated.body.previousSecretValidUntil);
  });

  it('sends a ping on POST …/test, logs it, and retries it on POST …/deliveries/{id}/retry', { timeout: 90_000 }, async () => {
    // Prepare
    const target = await receiver();
    const subscription = await subscribe(org.live, { url: target.url('/ping'), events: ['supplier.created'] });
    // Act
    const test = await call('POST', `/v1/event-subscriptions/${subscription.id}/test`, { key: org.live });
    await target.waitFor((r) => r.length >= 1, 30_000);
    const deadline = Date.now() + 10_000;
    let log = await call('GET', `/v1/event-subscriptions/${subscription.id}/deliveries`, { key: org.live });
    while (log.body.data[0]?.status !== 'succeeded' && Date.now() < deadline) log = await call('GET', `/v1/event-subscriptions/${subscription.id}/deliveries`, { key: org.live });
    const retry = await call('POST', `/v1/event-subscriptions/${subscription.id}/deliveries/${test.body.deliveryId}/retry`, { key: org.live });
    await target.waitFor((r) => r.length >= 2, 30_000);
    // Assess
    expect(test.status).toBe(202);
    expect(typeOf(target.received[0] as Received)).toBe('ping');
    expect(log.body.data[0]).toMatchObject({ id: test.body.deliveryId, eventType: 'ping', status: 'succeeded' });
    expect(retry.status).toBe(202);
    expect(target.received.map((r) => r.headers['webhook-id'])).toEqual([test.body.eventId, test.body.eventId]);
    const unknown = await call('POST', `/v1/event-subscriptions/${subscription.id}/deliveries/del_00000000000000000000/retry`, { key: org.live });
    expectError(unknown, 404, 'not_found', 'deliveryId');
  });

  it('delivers nothing to a disabled subscription, and PATCH changes url, events and status', { timeout: 90_000 }, async () => {
    // Prepare
    const target = await receiver();
    const witness = await receiver();
    const subscription = await subscribe(org.live, { url: target.url('/off'), events: ['supplier.created'] });
    await subscribe(org.live, { url: witness.url('/witness'), events: ['product.created'] });
    // Act
    const disabled = await call('PATCH', `/v1/event-subscriptions/${subscription.id}`, { key: org.live, body: { status: 'disabled', events: ['product.created'] } });
    const product = await createProduct(org.live);
    // The fan-out of the product's event is done once an enabled subscription got it.
    await witness.waitFor((r) => r.some((x) => x.body.includes(product.productId)), 30_000);
    const ping = await call('POST', `/v1/event-subscriptions/${subscription.id}/test`, { key: org.live });
    await target.waitFor((r) => r.some((x) => x.headers['webhook-id'] === ping.body.eventId), 30_000);
    const badUrl = await call('PATCH', `/v1/event-subscriptions/${subscription.id}`, { key: org.live, body: { url: 'https://192.168.1.1/hook' } });
    // Assess
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', events: ['product.created'], disabledReason: null });
    expect(target.received.map(typeOf)).toEqual(['ping']);
    expectError(badUrl, 422, 'validation_error', 'url');
  });
});

describe('isolation', () => {
  it("answers 404 for another organization's subscription ids, and never delivers its events to this organization's receiver", { timeout: 90_000 }, async () => {
    // Prepare
    const mine = await receiver();
    const theirs = await receiver();
    const my = await subscribe(org.live, { url: mine.url('/mine'), events: ['*'] });
    const their = await subscribe(other.live, { url: theirs.url('/theirs'), events: ['*'] });
    // Act
    const answers = await Promise.all([
      call('GET', `/v1/event-subscriptions/${their.id}`, { key: org.live }),
      call('PATCH', `/v1/event-subscriptions/${their.id}`, { key: org.live, body: { status: 'disabled' } }),
      call('DELETE', `/v1/event-subscriptions/${their.id}`, { key: org.live }),
      call('POST', `/v1/event-subscriptions/${their.id}/rotate-secret`, { key: org.live }),
      call('POST', `/v1/event-subscriptions/${their.id}/test`, { key: org.live }),
      call('GET', `/v1/event-subscriptions/${their.id}/deliveries`, { key: org.live }),
      // The same organization's test environment is another tenant too.
      call('GET', `/v1/event-subscriptions/${my.id}`, { key: org.test }),
    ]);
    const theirProduct = await createProduct(other.live);
    await theirs.waitFor((r) => r.some((x) => typeOf(x) === 'product.created'), 30_000);
    const myPing = await call('POST', `/v1/event-subscriptions/${my.id}/test`, { key: org.live });
    await mine.waitFor((r) => r.some((x) => x.headers['webhook-id'] === myPing.body.eventId), 30_000);
    // Assess
    for (const answer of answers) expectError(answer, 404, 'not_found', 'subscriptionId');
    const theirIds = new Set(theirs.received.map((r) => r.headers['webhook-id']));
    expect(mine.received.some((r) => theirIds.has(r.headers['webhook-id']))).toBe(false);
    expect(mine.received.some((r) => r.body.includes(theirProduct.productId))).toBe(false);
    const still = await call('GET', `/v1/event-subscriptions/${their.id}`, { key: other.live });
    expect(still.body.status).toBe('enabled');
  });
});
