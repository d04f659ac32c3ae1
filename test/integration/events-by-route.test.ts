import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey, type Route } from '../../lib/api/routes.ts';
import { call, newOrg, newSession, type ApiResponse, type CallOptions, type TestOrg, type TestSession } from '../support/api.ts';
import { publishTxt, verifiedDomainId } from '../support/domains.ts';
import { batteryModelData } from '../support/battery.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { until } from '../support/until.ts';

/**
 * The event log by route (docs/lifecycle.md#event-log), driven by the route table: every
 * state-changing route declares the event it writes; one successful call of it writes exactly one
 * event of that type (a webhook delivery: one `webhook_delivery.ingested` and only its
 * `changeEvents` beside it), naming the caller as actor and the response's Request-Id; a refused
 * call (4xx) writes none. A route added to the table without an `event`, or without a case here,
 * fails the first tests.
 */

interface Event {
  id: string;
  type: string;
  createdAt: string;
  actor: { type: string; id: string; name?: string };
  requestId: string | null;
  data: { object: Record<string, unknown> };
}

interface World {
  org: TestOrg;
  /** Another organization: a grantee, a handover's other side. */
  other: TestOrg;
  session: TestSession;
  /** A key of the organization's live environment, made through the API so that its id is known. */
  key: { id: string; key: string };
  endpoint: { id: string; secret: string };
  token: string;
}

let w: World;

const UNKNOWN_PRODUCT = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_ENDPOINT = `whe_${'0'.repeat(20)}`;
const UNKNOWN_DOMAIN = `dom_${'0'.repeat(20)}`;
const UNKNOWN_KEY = `key_${'0'.repeat(20)}`;

const sample = readFileSync(new URL('../../events/webhooks/headless-cms-product.json', import.meta.url), 'utf8');
const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The organization's live event log, newest first (the session holds events:read). */
async function events(): Promise<Event[]> {
  const page = await call<{ data: Event[] }>('GET', '/v1/events?limit=100', { session: w.session });
  if (page.status !== 200) throw new Error(`list events: ${page.status} ${page.text}`);
  return page.body.data;
}

/** The events written since `before` (the ids of an earlier listing). */
const since = async (before: Set<string>): Promise<Event[]> => (await events()).filter((e) => !before.has(e.id));
const ids = async (): Promise<Set<string>> => new Set((await events()).map((e) => e.id));

const asKey = (): CallOptions => ({ key: w.key.key });
const asSession = (): CallOptions => ({ session: w.session });

async function ok(response: Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  const r = await response;
  if (r.status !== status) throw new Error(`set-up: expected ${status}, got ${r.status} ${r.text}`);
  return r;
}

const newProduct = async () => (await createProduct(w.key.key)).productId;
/** A battery product of the key's organization with one registered item: its product id. */
const newBatteryItem = async (key: string, serial: string) => {
  const product = await createProduct(key, { name: 'Events battery', category: 'battery' });
  await ok(call('PUT', `/v1/products/${product.productId}/items/${serial}?force=true`, { key, body: {} }), 201);
  return product.productId;
};
/** A battery product of the key's organization with a published passport: its Digital Link. */
const publishedBattery = async (key: string) => {
  const product = await createProduct(key, { name: 'Events battery', category: 'battery' });
  await publish(key, product.productId, batteryModelData());
  return product.qrCodeUrl;
};
/** The other organization's request for access to a battery of this one: its id. */
const requestFromOther = async () =>
  (await ok(call('POST', '/v1/access-requests', { key: w.other.live, body: { productIds: [await publishedBattery(w.key.key)], purpose: 'energy_services', justification: 'Events by route.' } }), 201)).body.id as string;
/** Registry settings of a valid operator (GLEIF's own LEI), facility and commodity code. */
const registrySettings = (enabled: boolean) => ({ enabled, operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '22042110' });
/**
 * A wine of this organization published on a verified brand domain with registration on, its backup
 * copy written: its Digital Link, the one registration the next upload file holds (what waited
 * before goes out first; docs/registry.md#files-out). The domain is the default only while the wine
 * is made.
 */
const readyForRegistry = async (): Promise<string> => {
  await ok(call('PUT', '/v1/registry/settings', { ...asKey(), body: registrySettings(true) }), 200);
  await ok(call('POST', '/v1/registry/files', { ...asKey(), body: { format: 'json' } }), 200);
  const domainId = await verifiedDomainId(w.org.orgId);
  await ok(call('PATCH', `/v1/domains/${domainId}`, { ...asSession(), body: { default: true } }), 200);
  const product = await createProduct(w.key.key, { name: 'Events registry wine' });
  await ok(call('PATCH', `/v1/domains/${domainId}`, { ...asSession(), body: { default: false } }), 200);
  await publish(w.key.key, product.productId);
  const backupUrl = (await ok(call('GET', `/v1/products/${product.productId}/passport`, asKey()), 200)).body.backupUrl as string;
  await until('the backup copy', async () => ((await fetch(backupUrl)).status === 200 ? true : undefined), 60_000);
  return product.qrCodeUrl;
};
const putDraft = async (productId: string) =>
  ok(call('PUT', `/v1/products/${productId}/draft`, { ...asKey(), body: { data: RED_WINE } }), 200);
const newEndpoint = async () => (await ok(call('POST', '/v1/webhooks/endpoints', { ...asSession(), body: { source: 'headless-cms' } }), 201)).body.id as string;
const pendingDomain = async () =>
  (await ok(call('POST', '/v1/domains', { ...asSession(), body: { hostname: `id.${randomBytes(5).toString('hex')}.events.example` } }), 201)).body as {
    id: string;
    verification: { name: string; value: string };
  };

/** A delivery of the sample payload for a new GTIN, signed with the endpoint's secret (or a wrong one). */
function delivery(secret: string): CallOptions {
  const doc = JSON.parse(sample);
  doc.entity.attributes.barcode[0].barcode_number = uniqueGtin13();
  doc.entity.attributes.product_name = `Delivered ${randomBytes(3).toString('hex')}`;
  const body = JSON.stringify(doc);
  return { rawBody: body, headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body) } };
}

interface Request {
  path: string;
  options: CallOptions;
  status: number;
}

/** How to call a route once successfully (after `prepare`) and once refused, and who the actor is. */
interface EventCase {
  actor: () => { type: string; id: string; name?: string };
  /** Set-up whose own events come before the count starts. */
  prepare?: () => Promise<string>;
  success: (prepared: string) => Request;
  refused: (prepared: string) => Request;
  /** Waits for the asynchronous work a successful call starts (the import's worker). */
  settle?: (response: ApiResponse) => Promise<void>;
}

const keyActor = () => ({ type: 'api_key', id: w.key.id, name: 'Events by route' });
const UNKNOWN_SUBSCRIPTION = 'sub_00000000000000000000';
const userActor = () => ({ type: 'user', id: w.session.userId, name: w.session.email });
const webhookActor = () => ({ type: 'webhook', id: w.endpoint.id });

const CASES: Readonly<Record<string, EventCase>> = {
  'POST /v1/products': {
    actor: keyActor,
    success: () => ({ path: '/v1/products', options: { ...asKey(), body: { name: 'Evented', category: 'wine', gtin: uniqueGtin13() } }, status: 201 }),
    refused: () => ({ path: '/v1/products', options: { ...asKey(), body: { name: '', category: 'wine', gtin: uniqueGtin13() } }, status: 422 }),
  },
  'PATCH /v1/products/{productId}': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: `/v1/products/${id}`, options: { ...asKey(), body: { name: 'Renamed' } }, status: 200 }),
    refused: () => ({ path: `/v1/products/${UNKNOWN_PRODUCT}`, options: { ...asKey(), body: { name: 'Renamed' } }, status: 404 }),
  },
  'POST /v1/products/{productId}/withdraw': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: `/v1/products/${id}/withdraw`, options: { ...asKey(), body: { reason: 'Recalled' } }, status: 200 }),
    // Already withdrawn: 409.
    refused: (id) => ({ path: `/v1/products/${id}/withdraw`, options: { ...asKey(), body: { reason: 'Again' } }, status: 409 }),
  },
  'POST /v1/products/{productId}/reinstate': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await ok(call('POST', `/v1/products/${id}/withdraw`, { ...asKey(), body: { reason: 'Recalled' } }), 200);
      return id;
    },
    success: (id) => ({ path: `/v1/products/${id}/reinstate`, options: asKey(), status: 200 }),
    // No longer withdrawn: 409.
    refused: (id) => ({ path: `/v1/products/${id}/reinstate`, options: asKey(), status: 409 }),
  },
  'POST /v1/passports': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: '/v1/passports', options: { ...asKey(), body: { productId: id, data: RED_WINE } }, status: 201 }),
    refused: () => ({ path: '/v1/passports', options: { ...asKey(), body: { productId: UNKNOWN_PRODUCT, data: RED_WINE } }, status: 404 }),
  },
  'PUT /v1/products/{productId}/draft': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: `/v1/products/${id}/draft`, options: { ...asKey(), body: { data: RED_WINE } }, status: 200 }),
    refused: () => ({ path: `/v1/products/${UNKNOWN_PRODUCT}/draft`, options: { ...asKey(), body: { data: RED_WINE } }, status: 404 }),
  },
  'PATCH /v1/products/{productId}/draft': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await putDraft(id);
      return id;
    },
    success: (id) => ({
      path: `/v1/products/${id}/draft`,
      options: { ...asKey(), body: { data: { vintage: 2023 } }, headers: { 'content-type': 'application/merge-patch+json' } },
      status: 200,
    }),
    refused: () => ({
      path: `/v1/products/${UNKNOWN_PRODUCT}/draft`,
      options: { ...asKey(), body: { data: { vintage: 2023 } }, headers: { 'content-type': 'application/merge-patch+json' } },
      status: 404,
    }),
  },
  'DELETE /v1/products/{productId}/draft': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await putDraft(id);
      return id;
    },
    success: (id) => ({ path: `/v1/products/${id}/draft`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/products/${UNKNOWN_PRODUCT}/draft`, options: asKey(), status: 404 }),
  },
  'POST /v1/products/{productId}/draft/publish': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await putDraft(id);
      return id;
    },
    success: (id) => ({ path: `/v1/products/${id}/draft/publish`, options: asKey(), status: 201 }),
    refused: () => ({ path: `/v1/products/${UNKNOWN_PRODUCT}/draft/publish`, options: asKey(), status: 404 }),
  },
  // Batches and items (docs/api.md#batches-and-items): a new record, then a change of one.
  'PUT /v1/products/{productId}/batches/{lot}': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: `/v1/products/${id}/batches/U${w.token}`, options: { ...asKey(), body: { status: 'active' } }, status: 201 }),
    // A lot outside GS1 character set 82: 422.
    refused: (id) => ({ path: `/v1/products/${id}/batches/${encodeURIComponent('U 1')}`, options: { ...asKey(), body: {} }, status: 422 }),
  },
  'PATCH /v1/products/{productId}/batches/{lot}': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await ok(call('PUT', `/v1/products/${id}/batches/U1`, { ...asKey(), body: {} }), 201);
      return id;
    },
    success: (id) => ({ path: `/v1/products/${id}/batches/U1`, options: { ...asKey(), body: { data: { bottlingDate: '2025-03-14' } }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 200 }),
    refused: (id) => ({ path: `/v1/products/${id}/batches/U2`, options: { ...asKey(), body: { status: 'withdrawn' }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 404 }),
  },
  'PUT /v1/products/{productId}/items/{serial}': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: `/v1/products/${id}/items/U${w.token}`, options: { ...asKey(), body: { status: 'active' } }, status: 201 }),
    // A serial outside GS1 character set 82: 422.
    refused: (id) => ({ path: `/v1/products/${id}/items/${encodeURIComponent('U 1')}`, options: { ...asKey(), body: {} }, status: 422 }),
  },
  'PATCH /v1/products/{productId}/items/{serial}': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      await ok(call('PUT', `/v1/products/${id}/items/U1?force=true`, { ...asKey(), body: {} }), 201);
      return id;
    },
    success: (id) => ({ path: `/v1/products/${id}/items/U1`, options: { ...asKey(), body: { data: { bottlingDate: '2025-03-14' } }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 200 }),
    refused: (id) => ({ path: `/v1/products/${id}/items/U2`, options: { ...asKey(), body: { status: 'withdrawn' }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 404 }),
  },
  // Access grants and a grantee's writes (docs/access.md).
  'POST /v1/access-grants': {
    actor: keyActor,
    success: () => ({ path: '/v1/access-grants', options: { ...asKey(), body: { granteeOrgId: w.other.orgId, tier: 'legitimate_interest' } }, status: 201 }),
    refused: () => ({ path: '/v1/access-grants', options: { ...asKey(), body: { granteeOrgId: w.org.orgId, tier: 'legitimate_interest' } }, status: 422 }),
  },
  'DELETE /v1/access-grants/{grantId}': {
    actor: keyActor,
    prepare: async () => (await ok(call('POST', '/v1/access-grants', { ...asKey(), body: { granteeOrgId: w.other.orgId, tier: 'authority' } }), 201)).body.id as string,
    success: (id) => ({ path: `/v1/access-grants/${id}`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/access-grants/grant_${'0'.repeat(20)}`, options: asKey(), status: 404 }),
  },
  'PATCH /v1/dpps/{dppId}': {
    actor: keyActor,
    prepare: async () => {
      const id = await newProduct();
      return (await ok(call('PUT', `/v1/products/${id}/items/D1?force=true`, { ...asKey(), body: {} }), 201)).body.dppId as string;
    },
    success: (dppId) => ({ path: `/v1/dpps/${dppId}`, options: { ...asKey(), body: { data: { bottlingDate: '2025-03-14' } }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 200 }),
    refused: () => ({ path: '/v1/dpps/dpp_unknown', options: { ...asKey(), body: { status: 'withdrawn' }, headers: { 'content-type': 'application/merge-patch+json' } }, status: 404 }),
  },
  // Access requests (docs/access.md#access-requests): this organization asks the other; the other asks this one, which answers.
  'POST /v1/access-requests': {
    actor: keyActor,
    prepare: () => publishedBattery(w.other.live),
    success: (link) => ({ path: '/v1/access-requests', options: { ...asKey(), body: { productIds: [link], purpose: 'energy_services', justification: 'Events by route.' } }, status: 201 }),
    refused: (link) => ({ path: '/v1/access-requests', options: { ...asKey(), body: { productIds: [link], purpose: 'energy_services' } }, status: 422 }),
  },
  'POST /v1/access-requests/{requestId}/approve': {
    actor: keyActor,
    prepare: requestFromOther,
    success: (id) => ({ path: `/v1/access-requests/${id}/approve`, options: asKey(), status: 201 }),
    // Answered already: 409.
    refused: (id) => ({ path: `/v1/access-requests/${id}/approve`, options: asKey(), status: 409 }),
  },
  'POST /v1/access-requests/{requestId}/refuse': {
    actor: keyActor,
    prepare: requestFromOther,
    success: (id) => ({ path: `/v1/access-requests/${id}/refuse`, options: { ...asKey(), body: { reason: 'Not for this purpose.' } }, status: 200 }),
    refused: (id) => ({ path: `/v1/access-requests/${id}/refuse`, options: { ...asKey(), body: { reason: 'Again.' } }, status: 409 }),
  },
  // The EU registry (docs/registry.md#settings, docs/registry.md#registrations).
  'PUT /v1/registry/settings': {
    actor: keyActor,
    success: () => ({ path: '/v1/registry/settings', options: { ...asKey(), body: registrySettings(false) }, status: 200 }),
    refused: () => ({ path: '/v1/registry/settings', options: { ...asKey(), body: { ...registrySettings(true), operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO56' } } }, status: 422 }),
  },
  'POST /v1/registry/registrations': {
    actor: keyActor,
    // A passport published while registration was off, then registration turned on: the call creates its registration.
    prepare: async () => {
      await ok(call('PUT', '/v1/registry/settings', { ...asKey(), body: registrySettings(false) }), 200);
      const id = await newProduct();
      await publish(w.key.key, id);
      await ok(call('PUT', '/v1/registry/settings', { ...asKey(), body: registrySettings(true) }), 200);
      return id;
    },
    success: (id) => ({ path: '/v1/registry/registrations', options: { ...asKey(), body: { productIds: [id] } }, status: 200 }),
    refused: () => ({ path: '/v1/registry/registrations', options: { ...asKey(), body: {} }, status: 422 }),
  },
  // A battery's handover to its second life (docs/battery.md#second-life).
  'POST /v1/handovers': {
    actor: keyActor,
    prepare: () => newBatteryItem(w.key.key, 'H1'),
    success: (id) => ({ path: '/v1/handovers', options: { ...asKey(), body: { productId: id, serial: 'H1', toOrgId: w.other.orgId, operation: 'repurposing' } }, status: 201 }),
    refused: (id) => ({ path: '/v1/handovers', options: { ...asKey(), body: { productId: id, serial: 'H1', toOrgId: w.org.orgId, operation: 'repurposing' } }, status: 422 }),
  },
  'POST /v1/handovers/{handoverId}/accept': {
    actor: keyActor,
    prepare: async () => {
      // The other organization offers its battery to this one, which registered its own beforehand.
      const theirs = await newBatteryItem(w.other.live, 'O1');
      const offered = await ok(call('POST', '/v1/handovers', { key: w.other.live, body: { productId: theirs, serial: 'O1', toOrgId: w.org.orgId, operation: 'remanufacturing' } }), 201);
      return `${offered.body.id as string} ${await newBatteryItem(w.key.key, 'R1')}`;
    },
    success: (prepared) => {
      const [id, productId] = prepared.split(' ');
      return { path: `/v1/handovers/${id}/accept`, options: { ...asKey(), body: { productId, serial: 'R1' } }, status: 200 };
    },
    // Accepted already: 409.
    refused: (prepared) => {
      const [id, productId] = prepared.split(' ');
      return { path: `/v1/handovers/${id}/accept`, options: { ...asKey(), body: { productId, serial: 'R1' } }, status: 409 };
    },
  },
  // A battery's life (docs/battery.md#a-batterys-life): the other organization hands its battery over as waste to this one, which declares it recycled.
  'POST /v1/handovers/{handoverId}/recycle': {
    actor: keyActor,
    prepare: async () => {
      const theirs = await newBatteryItem(w.other.live, 'W1');
      const offered = await ok(call('POST', '/v1/handovers', { key: w.other.live, body: { productId: theirs, serial: 'W1', toOrgId: w.org.orgId, operation: 'waste' } }), 201);
      await ok(call('POST', `/v1/handovers/${offered.body.id as string}/accept`, { ...asKey(), body: {} }), 200);
      return offered.body.id as string;
    },
    success: (id) => ({ path: `/v1/handovers/${id}/recycle`, options: asKey(), status: 200 }),
    // Recycled already: 409.
    refused: (id) => ({ path: `/v1/handovers/${id}/recycle`, options: asKey(), status: 409 }),
  },
  'DELETE /v1/handovers/{handoverId}': {
    actor: keyActor,
    prepare: async () => {
      const productId = await newBatteryItem(w.key.key, 'C1');
      return (await ok(call('POST', '/v1/handovers', { ...asKey(), body: { productId, serial: 'C1', toOrgId: w.other.orgId, operation: 'repurposing' } }), 201)).body.id as string;
    },
    success: (id) => ({ path: `/v1/handovers/${id}`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/handovers/ho_${'0'.repeat(20)}`, options: asKey(), status: 404 }),
  },
  // A product transferred to another organization (docs/transfers.md): this one offers and cancels; the other offers to it, and it accepts or declines.
  'POST /v1/transfers': {
    actor: keyActor,
    prepare: newProduct,
    success: (id) => ({ path: '/v1/transfers', options: { ...asKey(), body: { productId: id, toOrgId: w.other.orgId } }, status: 201 }),
    refused: (id) => ({ path: '/v1/transfers', options: { ...asKey(), body: { productId: id, toOrgId: w.org.orgId } }, status: 422 }),
  },
  'POST /v1/transfers/{transferId}/accept': {
    actor: keyActor,
    prepare: async () => {
      const theirs = await createProduct(w.other.live, { name: 'Events transferred wine' });
      return (await ok(call('POST', '/v1/transfers', { key: w.other.live, body: { productId: theirs.productId, toOrgId: w.org.orgId } }), 201)).body.id as string;
    },
    success: (id) => ({ path: `/v1/transfers/${id}/accept`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/transfers/tr_${'0'.repeat(20)}/accept`, options: asKey(), status: 404 }),
  },
  'POST /v1/transfers/{transferId}/decline': {
    actor: keyActor,
    prepare: async () => {
      const theirs = await createProduct(w.other.live, { name: 'Events declined wine' });
      return (await ok(call('POST', '/v1/transfers', { key: w.other.live, body: { productId: theirs.productId, toOrgId: w.org.orgId } }), 201)).body.id as string;
    },
    success: (id) => ({ path: `/v1/transfers/${id}/decline`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/transfers/tr_${'0'.repeat(20)}/decline`, options: asKey(), status: 404 }),
  },
  'POST /v1/transfers/{transferId}/cancel': {
    actor: keyActor,
    prepare: async () => (await ok(call('POST', '/v1/transfers', { ...asKey(), body: { productId: await newProduct(), toOrgId: w.other.orgId } }), 201)).body.id as string,
    success: (id) => ({ path: `/v1/transfers/${id}/cancel`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/transfers/tr_${'0'.repeat(20)}/cancel`, options: asKey(), status: 404 }),
  },
  'POST /v1/event-subscriptions': {
    actor: keyActor,
    success: () => ({ path: '/v1/event-subscriptions', options: { ...asKey(), body: { url: 'http://127.0.0.1:9/x', events: ['*'] } }, status: 201 }),
    refused: () => ({ path: '/v1/event-subscriptions', options: { ...asKey(), body: { url: 'ftp://127.0.0.1/x', events: ['*'] } }, status: 422 }),
  },
  'PATCH /v1/event-subscriptions/{subscriptionId}': {
    actor: keyActor,
    prepare: () => newSubscription(),
    success: (id) => ({ path: `/v1/event-subscriptions/${id}`, options: { ...asKey(), body: { description: 'renamed' } }, status: 200 }),
    refused: () => ({ path: `/v1/event-subscriptions/${UNKNOWN_SUBSCRIPTION}`, options: { ...asKey(), body: { description: 'renamed' } }, status: 404 }),
  },
  'DELETE /v1/event-subscriptions/{subscriptionId}': {
    actor: keyActor,
    prepare: () => newSubscription(),
    success: (id) => ({ path: `/v1/event-subscriptions/${id}`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/event-subscriptions/${UNKNOWN_SUBSCRIPTION}`, options: asKey(), status: 404 }),
  },
  'POST /v1/event-subscriptions/{subscriptionId}/rotate-secret': {
    actor: keyActor,
    prepare: () => newSubscription(),
    success: (id) => ({ path: `/v1/event-subscriptions/${id}/rotate-secret`, options: asKey(), status: 200 }),
    refused: () => ({ path: `/v1/event-subscriptions/${UNKNOWN_SUBSCRIPTION}/rotate-secret`, options: asKey(), status: 404 }),
  },
  'POST /v1/suppliers': {
    actor: keyActor,
    success: () => ({ path: '/v1/suppliers', options: { ...asKey(), body: { name: `Supplier ${randomBytes(3).toString('hex')}`, country: 'FR' } }, status: 201 }),
    refused: () => ({ path: '/v1/suppliers', options: { ...asKey(), body: { country: 'FR' } }, status: 422 }),
  },
  // The EU registry's web upload (docs/registry.md#files-out): one registration ready, so one submitted; then the registry's result for it.
  'POST /v1/registry/files': {
    actor: keyActor,
    prepare: readyForRegistry,
    success: () => ({ path: '/v1/registry/files', options: { ...asKey(), body: { format: 'json' } }, status: 200 }),
    refused: () => ({ path: '/v1/registry/files', options: { ...asKey(), body: { format: 'pdf' } }, status: 422 }),
  },
  'POST /v1/registry/results': {
    actor: keyActor,
    prepare: async () => {
      const upi = await readyForRegistry();
      await ok(call('POST', '/v1/registry/files', { ...asKey(), body: { format: 'json' } }), 200);
      return upi;
    },
    success: (upi) => ({ path: '/v1/registry/results', options: { ...asKey(), rawBody: `upi,status,registryId\n${upi},registered,EU-REG-1\n`, headers: { 'content-type': 'text/csv' } }, status: 200 }),
    refused: (upi) => ({ path: '/v1/registry/results', options: { ...asKey(), rawBody: `upi,status,colour\n${upi},registered,red\n`, headers: { 'content-type': 'text/csv' } }, status: 422 }),
  },
  // Fix and resubmit (docs/registry.md#fix-and-resubmit): a registration sent in a file and rejected by the registry's result file.
  'POST /v1/registry/registrations/{registrationId}/resubmit': {
    actor: keyActor,
    prepare: async () => {
      const upi = await readyForRegistry();
      await ok(call('POST', '/v1/registry/files', { ...asKey(), body: { format: 'json' } }), 200);
      await ok(call('POST', '/v1/registry/results', { ...asKey(), rawBody: `upi,status,errors\n${upi},rejected,Operator not verified\n`, headers: { 'content-type': 'text/csv' } }), 200);
      const page = await ok(call('GET', '/v1/registry/registrations?status=rejected&limit=100', asKey()), 200);
      return (page.body.data as Array<{ id: string; upi: string }>).find((r) => r.upi === upi)?.id ?? '';
    },
    success: (id) => ({ path: `/v1/registry/registrations/${id}/resubmit`, options: asKey(), status: 200 }),
    // An id of no registration of this environment.
    refused: () => ({ path: `/v1/registry/registrations/reg_${'a'.repeat(26)}/resubmit`, options: asKey(), status: 404 }),
  },
  'POST /v1/imports': {
    actor: keyActor,
    success: () => ({
      path: '/v1/imports',
      options: { ...asKey(), rawBody: `gtin,name,category\n${uniqueGtin13()},Imported,wine\n`, headers: { 'content-type': 'text/csv' } },
      status: 202,
    }),
    refused: () => ({ path: '/v1/imports', options: { ...asKey(), rawBody: 'gtin,name\n', headers: { 'content-type': 'application/pdf' } }, status: 415 }),
    settle: async (response) => {
      // Polled with a generous bound: the worker is slower on a busy machine.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const job = await call('GET', `/v1/imports/${response.body.id}`, asKey());
        if (job.body.status === 'succeeded' || job.body.status === 'failed') return;
        if (Date.now() > deadline) throw new Error(`import ${response.body.id} still ${job.body.status} after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  },
  'POST /v1/webhooks/endpoints': {
    actor: userActor,
    success: () => ({ path: '/v1/webhooks/endpoints', options: { ...asSession(), body: { source: 'headless-cms' } }, status: 201 }),
    refused: () => ({ path: '/v1/webhooks/endpoints', options: { ...asSession(), body: { source: 'no-such-source' } }, status: 422 }),
  },
  'PATCH /v1/webhooks/endpoints/{endpointId}': {
    actor: userActor,
    prepare: newEndpoint,
    success: (id) => ({ path: `/v1/webhooks/endpoints/${id}`, options: { ...asSession(), body: { description: 'Renamed' } }, status: 200 }),
    refused: () => ({ path: `/v1/webhooks/endpoints/${UNKNOWN_ENDPOINT}`, options: { ...asSession(), body: { description: 'Renamed' } }, status: 404 }),
  },
  'DELETE /v1/webhooks/endpoints/{endpointId}': {
    actor: userActor,
    prepare: newEndpoint,
    success: (id) => ({ path: `/v1/webhooks/endpoints/${id}`, options: asSession(), status: 200 }),
    refused: () => ({ path: `/v1/webhooks/endpoints/${UNKNOWN_ENDPOINT}`, options: asSession(), status: 404 }),
  },
  'POST /v1/webhooks/endpoints/{endpointId}/rotate-secret': {
    actor: userActor,
    prepare: newEndpoint,
    success: (id) => ({ path: `/v1/webhooks/endpoints/${id}/rotate-secret`, options: asSession(), status: 200 }),
    refused: () => ({ path: `/v1/webhooks/endpoints/${UNKNOWN_ENDPOINT}/rotate-secret`, options: asSession(), status: 404 }),
  },
  'POST /v1/webhooks/ingest': {
    actor: webhookActor,
    success: () => ({ path: `/v1/webhooks/ingest?endpoint=${w.endpoint.id}`, options: delivery(w.endpoint.secret), status: 200 }),
    refused: () => ({ path: `/v1/webhooks/ingest?endpoint=${w.endpoint.id}`, options: delivery('whsec_not-the-secret'), status: 401 }),
  },
  'POST /v1/domains': {
    actor: userActor,
    success: () => ({ path: '/v1/domains', options: { ...asSession(), body: { hostname: `id.${randomBytes(5).toString('hex')}.events.example` } }, status: 201 }),
    refused: () => ({ path: '/v1/domains', options: { ...asSession(), body: { hostname: 'not a hostname' } }, status: 422 }),
  },
  'PATCH /v1/domains/{domainId}': {
    actor: userActor,
    prepare: () => verifiedDomainId(w.org.orgId),
    success: (id) => ({ path: `/v1/domains/${id}`, options: { ...asSession(), body: { default: true } }, status: 200 }),
    refused: () => ({ path: `/v1/domains/${UNKNOWN_DOMAIN}`, options: { ...asSession(), body: { default: true } }, status: 404 }),
  },
  'DELETE /v1/domains/{domainId}': {
    actor: userActor,
    prepare: async () => (await pendingDomain()).id,
    success: (id) => ({ path: `/v1/domains/${id}`, options: asSession(), status: 200 }),
    refused: () => ({ path: `/v1/domains/${UNKNOWN_DOMAIN}`, options: asSession(), status: 404 }),
  },
  'POST /v1/domains/{domainId}/verify': {
    actor: userActor,
    prepare: async () => {
      const domain = await pendingDomain();
      // As `npm run admin -- dns set-txt` publishes it, without a CLI process (test/support/domains.ts).
      publishTxt(domain.verification.name, [domain.verification.value]);
      return domain.id;
    },
    success: (id) => ({ path: `/v1/domains/${id}/verify`, options: asSession(), status: 200 }),
    refused: () => ({ path: `/v1/domains/${UNKNOWN_DOMAIN}/verify`, options: asSession(), status: 404 }),
  },
  'POST /v1/auth/api-keys': {
    actor: userActor,
    success: () => ({ path: '/v1/auth/api-keys', options: { ...asSession(), body: { name: 'Evented key', scopes: ['products:read'] } }, status: 201 }),
    refused: () => ({ path: '/v1/auth/api-keys', options: { ...asSession(), body: { name: 'Bad key', scopes: ['no:such-scope'] } }, status: 422 }),
  },
  'DELETE /v1/auth/api-keys/{keyId}': {
    actor: userActor,
    prepare: async () =>
      (await ok(call('POST', '/v1/auth/api-keys', { ...asSession(), body: { name: 'To revoke', scopes: ['products:read'] } }), 201)).body.id as string,
    success: (id) => ({ path: `/v1/auth/api-keys/${id}`, options: asSession(), status: 200 }),
    refused: () => ({ path: `/v1/auth/api-keys/${UNKNOWN_KEY}`, options: asSession(), status: 404 }),
  },
  // An organization's corrections of legal terms (docs/labelling.md#correcting-a-term).
  'PUT /v1/labelling/terms/{lang}/{termKey}': {
    actor: keyActor,
    success: () => ({ path: '/v1/labelling/terms/de/contains', options: { ...asKey(), body: { text: 'Enthält (Allergene): {list}' } }, status: 200 }),
    // The platform text's placeholder dropped: 422.
    refused: () => ({ path: '/v1/labelling/terms/de/contains', options: { ...asKey(), body: { text: 'Enthält Sulfite' } }, status: 422 }),
  },
  'DELETE /v1/labelling/terms/{lang}/{termKey}': {
    actor: userActor,
    prepare: async () => {
      await ok(call('PUT', '/v1/labelling/terms/fr/salt', { ...asSession(), body: { text: 'Sel' } }), 200);
      return 'fr/salt';
    },
    success: (term) => ({ path: `/v1/labelling/terms/${term}`, options: asSession(), status: 200 }),
    refused: () => ({ path: '/v1/labelling/terms/xx/salt', options: asSession(), status: 404 }),
  },
  // A compliance officer's sign-off of a language, and the languages the pages offer (docs/labelling.md#sign-off).
  'POST /v1/labelling/sign-offs': {
    actor: userActor,
    success: () => ({ path: '/v1/labelling/sign-offs', options: { ...asSession(), body: { lang: 'nl' } }, status: 201 }),
    refused: () => ({ path: '/v1/labelling/sign-offs', options: { ...asSession(), body: { lang: 'xx' } }, status: 422 }),
  },
  'PUT /v1/labelling/settings': {
    actor: keyActor,
    success: () => ({ path: '/v1/labelling/settings', options: { ...asKey(), body: { labelLanguages: 'signed-off' } }, status: 200 }),
    refused: () => ({ path: '/v1/labelling/settings', options: { ...asKey(), body: { labelLanguages: 'none' } }, status: 422 }),
  },
};

/** Routes that declare `event: {none}`: one successful call each, which must write nothing. */
/** An event subscription to a loopback port nothing listens on (the local stack allows loopback: docs/webhooks-outbound.md). */
async function newSubscription(): Promise<string> {
  const created = await ok(call('POST', '/v1/event-subscriptions', { ...asKey(), body: { url: 'http://127.0.0.1:9/events', events: ['supplier.created'] } }), 201);
  return created.body.id as string;
}

/** A subscription with one delivery in its log (a ping), for the retry route. */
async function subscriptionWithDelivery(): Promise<{ id: string; deliveryId: string }> {
  const id = await newSubscription();
  const ping = await ok(call('POST', `/v1/event-subscriptions/${id}/test`, asKey()), 202);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const log = await call('GET', `/v1/event-subscriptions/${id}/deliveries`, asKey());
    if (log.body.data?.length) return { id, deliveryId: ping.body.deliveryId as string };
    if (Date.now() > deadline) throw new Error(`no delivery logged for ${id}: ${log.text}`);
  }
}

const NONE_CASES: Readonly<Record<string, () => Promise<Request>>> = {
  'POST /v1/dppsByProductIds': async () => ({ path: '/v1/dppsByProductIds', options: { ...asKey(), body: { productIds: ['09520123456788'] } }, status: 200 }),
  'POST /v1/nutrition/calculate': async () => ({ path: '/v1/nutrition/calculate', options: { ...asKey(), body: { nutrition: { fatG: 0, carbohydratesG: 2.6, proteinG: 0.1 } } }, status: 200 }),
  'POST /v1/event-subscriptions/{subscriptionId}/test': async () => ({ path: `/v1/event-subscriptions/${await newSubscription()}/test`, options: asKey(), status: 202 }),
  'POST /v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry': async () => {
    const { id, deliveryId } = await subscriptionWithDelivery();
    return { path: `/v1/event-subscriptions/${id}/deliveries/${deliveryId}/retry`, options: asKey(), status: 202 };
  },
  'POST /v1/exports/archive': async () => ({ path: '/v1/exports/archive', options: asKey(), status: 200 }),
  'POST /v1/auth/logout': async () => ({ path: '/v1/auth/logout', options: { session: await newSession(w.org.orgId) }, status: 200 }),
  'POST /v1/auth/session': async () => ({ path: '/v1/auth/session', options: { ...asSession(), body: { environment: 'live' } }, status: 200 }),
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const stateChanging = ROUTES.filter((r) => STATE_CHANGING.has(r.method) && r.auth !== 'none');
const withEvent = stateChanging.filter((r): r is Route & { event: string } => typeof r.event === 'string');
const withNone = stateChanging.filter((r) => typeof r.event === 'object');

beforeAll(async () => {
  const org = await newOrg('Events by route');
  const session = await newSession(org.orgId);
  const scopes = ['products:read', 'products:write', 'passports:read', 'passports:write', 'suppliers:write', 'imports:read', 'imports:write', 'events:read', 'event_subscriptions:read', 'event_subscriptions:write', 'labelling:write', 'access_grants:read', 'access_grants:write', 'registry:read', 'registry:write'];
  const key = await ok(call('POST', '/v1/auth/api-keys', { session, body: { name: 'Events by route', scopes } }), 201);
  const endpoint = await ok(call('POST', '/v1/webhooks/endpoints', { session, body: { source: 'headless-cms' } }), 201);
  const other = await newOrg('Events by route, the other side');
  w = { org, other, session, key: { id: key.body.id, key: key.body.key }, endpoint: { id: endpoint.body.id, secret: endpoint.body.secret }, token: randomBytes(4).toString('hex') };
});

describe('the route table', () => {
  it('declares the event of every state-changing route (or why it has none)', () => {
    // Prepare
    const undeclared = stateChanging.filter((r) => r.event === undefined).map(routeKey);
    // Assess
    expect(undeclared).toEqual([]);
  });

  it('has a case here for every route with an event', () => {
    // Prepare
    const missing = [...withEvent.filter((r) => !(routeKey(r) in CASES)), ...withNone.filter((r) => !(routeKey(r) in NONE_CASES))].map(routeKey);
    // Assess
    expect(missing).toEqual([]);
  });
});

describe('a successful call writes exactly its event; a refused one writes none', () => {
  it.each(withEvent.map((r) => [routeKey(r), r] as const))('%s', async (key, route) => {
    // Prepare
    const c = CASES[key];
    if (!c) throw new Error(`no case for ${key}`);
    const prepared = c.prepare ? await c.prepare() : '';
    const before = await ids();
    const success = c.success(prepared);
    // Act
    const response = await call(route.method, success.path, success.options);
    if (c.settle) await c.settle(response);
    // Assess
    expect(response.status, response.text).toBe(success.status);
    const requestId = response.headers.get('request-id');
    expect(requestId).toBeTruthy();
    const written = await since(before);
    const fromCall = written.filter((e) => e.requestId === requestId);
    // Everything the call wrote carries its Request-Id (an import's worker too).
    expect(written.map((e) => e.requestId)).toEqual(written.map(() => requestId));
    if (route.changeEvents) {
      expect(fromCall.filter((e) => e.type === route.event)).toHaveLength(1);
      expect(fromCall.filter((e) => e.type !== route.event).map((e) => e.type).every((t) => route.changeEvents!.includes(t as never))).toBe(true);
      for (const event of fromCall) expect(event.actor).toEqual(c.actor());
    } else {
      const byCaller = fromCall.filter((e) => e.actor.type !== 'system');
      expect(byCaller.map((e) => e.type)).toEqual([route.event]);
      expect(byCaller[0]!.actor).toEqual(c.actor());
    }
    // No event ever carries a secret or a key's value that the response showed.
    for (const secret of [response.body?.secret, response.body?.key].filter((s): s is string => typeof s === 'string')) {
      expect(JSON.stringify(written)).not.toContain(secret);
    }

    // Act: the refused call
    const refused = c.refused(prepared);
    const before2 = await ids();
    const refusal = await call(route.method, refused.path, refused.options);
    // Assess
    expect(refusal.status, refusal.text).toBe(refused.status);
    expect(await since(before2)).toEqual([]);
  });

  it.each(withNone.map((r) => [routeKey(r), r] as const))('%s writes none', async (key, route) => {
    // Prepare
    const request = await NONE_CASES[key]!();
    const before = await ids();
    // Act
    const response = await call(route.method, request.path, request.options);
    // Assess
    expect(response.status, response.text).toBe(request.status);
    expect(await since(before)).toEqual([]);
  });
});

describe('the import worker and webhook deliveries', () => {
  it("an import's worker writes product.created and passport.published per new row, as the system, with the upload's Request-Id; a dry run writes nothing", async () => {
    // Prepare
    const gtin = uniqueGtin13();
    // A wine row with its whole nutrition declaration (a wine publishes only with it).
    const csv = `gtin,name,category,passport.colour,passport.vintage,passport.ingredients,passport.allergens.containsSulphites,passport.nutrition.energyKj,passport.nutrition.fatG,passport.nutrition.saturatedFatG,passport.nutrition.carbohydratesG,passport.nutrition.sugarsG,passport.nutrition.proteinG,passport.nutrition.saltG\n${gtin},Imported with passport,wine,red,2021,grapes|sulphites,true,320,0,0,2.5,0.6,0.1,0\n`;
    const dryBefore = await ids();
    const dry = await call('POST', '/v1/imports?dryRun=true', { ...asKey(), rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(dry.status, dry.text).toBe(200);
    expect(await since(dryBefore)).toEqual([]);
    const before = await ids();
    // Act
    const upload = await call('POST', '/v1/imports', { ...asKey(), rawBody: csv, headers: { 'content-type': 'text/csv' } });
    await CASES['POST /v1/imports']!.settle!(upload);
    // Assess
    expect(upload.status, upload.text).toBe(202);
    const job = await call('GET', `/v1/imports/${upload.body.id}`, asKey());
    const worker = (await since(before)).filter((e) => e.actor.type === 'system');
    const requestId = upload.headers.get('request-id');
    if (job.body.counts.created === 1) {
      expect(worker.map((e) => e.type).sort()).toEqual(['passport.published', 'product.created']);
      for (const event of worker) expect(event).toMatchObject({ actor: { type: 'system', id: upload.body.id }, requestId });
    } else {
      throw new Error(`the row was not imported: ${job.text}`);
    }
  });

  it('a replayed delivery writes nothing', async () => {
    // Prepare
    const options = delivery(w.endpoint.secret);
    await ok(call('POST', `/v1/webhooks/ingest?endpoint=${w.endpoint.id}`, options), 200);
    const before = await ids();
    // Act
    const replay = await call('POST', `/v1/webhooks/ingest?endpoint=${w.endpoint.id}`, options);
    // Assess
    expect(replay.status).toBe(200);
    expect(await since(before)).toEqual([]);
  });
});

describe('isolation of the event log', () => {
  it("another organization's event id is 404 and its events never appear in the list", async () => {
    // Prepare
    const other = await newOrg('Events elsewhere');
    const otherProduct = await createProduct(other.live);
    const otherEvents = await call<{ data: Event[] }>('GET', '/v1/events?limit=100', { session: await newSession(other.orgId) });
    const foreign = otherEvents.body.data.find((e) => e.data.object.productId === otherProduct.productId);
    expect(foreign).toBeDefined();
    // Act
    const read = await call('GET', `/v1/events/${foreign!.id}`, asKey());
    const listed = await events();
    // Assess
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(otherProduct.productId);
    expect(listed.some((e) => e.id === foreign!.id)).toBe(false);
    expect((await call('GET', `/v1/events/${listed[0]!.id}`, asKey())).status).toBe(200);
  });
});
