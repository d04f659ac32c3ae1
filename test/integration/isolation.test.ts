import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey, type Route } from '../../lib/api/routes.ts';
import { baseUrl, call, expectError, newOrg, newSession, type ApiResponse, type CallOptions, type TestOrg, type TestSession } from '../support/api.ts';
import { batteryModelData } from '../support/battery.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { diffSnapshots, snapshotOrg, type Snapshot } from '../support/snapshot.ts';
import { templateReaching } from '../support/workbooks.ts';
import { MAX_EVENT_SUBSCRIPTIONS } from '../../lib/domain/event-subscription.ts';

/**
 * Tenant isolation, driven by the route table: every route that names a resource (a path
 * parameter, or an id in its body) is called for a resource of organization A with organization
 * B's credentials and with A's other-environment credentials (API key or dashboard session). Each
 * answer is a 404 (never a 403: no existence oracle) that carries none of the resource's values
 * beyond what the caller sent; the call changes nothing stored in either organization; A's own
 * call still finds the resource. Listings never show foreign items. A route added to the table
 * without a case here fails the first test.
 */

interface World {
  a: TestOrg;
  b: TestOrg;
  aSession: TestSession;
  /** A's session switched to its test environment. */
  aTestSession: TestSession;
  bSession: TestSession;
  token: string;
  productId: string;
  gtin14: string;
  passportId: string;
  supplierId: string;
  endpoint: { id: string; secret: string };
  key: { id: string; key: string };
  /** A's brand domain (pending: its hostname is claimed for A until another organization verifies it). */
  domain: { id: string; hostname: string };
  bEndpoint: { id: string; secret: string };
  bProductId: string;
  /** GTINs of two more A-live products, which other tenants register too (so not among the secrets). */
  oracle: { productId: string; gtin14: string };
  delivered: { productId: string; gtin14: string; name: string };
  /** A's finished bulk import (docs/imports.md). */
  importId: string;
  /** A's newest live event (docs/lifecycle.md#event-log). */
  eventId: string;
  /** A's event subscription (docs/webhooks-outbound.md), to an event type the suite never causes. */
  subscription: { id: string; secret: string };
  /** A's battery handed over to a third organization (docs/battery.md#second-life). */
  handover: { id: string; productId: string; serial: string; toOrgId: string };
  /** A's access grant to the third organization, and the DPP id of A's item (docs/access.md). */
  grantId: string;
  itemDppId: string;
  /** A's request for access to the third organization's battery passport, and the GTIN of A's battery, which has no published passport (docs/access.md#access-requests). */
  accessRequestId: string;
  batteryGtin: string;
  /** A's registration of its product's passport in the EU registry (docs/registry.md#registrations). */
  registrationId: string;
  /** A's product offered to the third organization (docs/transfers.md): B is party to nothing. */
  transferId: string;
  /** Every value that identifies A's resources. */
  secrets: string[];
}

let w: World;

const sessionIn = async (session: TestSession, environment: 'live' | 'test'): Promise<TestSession> => {
  const switched = await call('POST', '/v1/auth/session', { session, body: { environment } });
  if (switched.status !== 200) throw new Error(`switch session: ${switched.status} ${switched.text}`);
  return { ...session, cookie: (switched.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '' };
};

async function setUp(): Promise<World> {
  const token = randomBytes(6).toString('hex');
  const a = await newOrg('Isolation A');
  const b = await newOrg('Isolation B');
  const aSession = await newSession(a.orgId);
  const bSession = await newSession(b.orgId);

  const product = await createProduct(a.live, { name: `Secret Rouge ${token}`, brand: `Secret Brand ${token}`, sku: `SKU-${token}` });
  const passport = await publish(a.live, product.productId, {
    ...RED_WINE,
    origin: { country: 'FR', region: `Secret Region ${token}` },
    producers: [{ name: `Secret Producer ${token}`, role: 'producer', country: 'FR' }],
  });
  const supplier = await call('POST', '/v1/suppliers', { key: a.live, body: { name: `Secret Supplier ${token}`, country: 'FR' } });
  const draft = await call('PUT', `/v1/products/${product.productId}/draft`, { key: a.live, body: { data: { ...RED_WINE, origin: { region: `Secret Draft ${token}` } } } });
  const endpoint = await call('POST', '/v1/webhooks/endpoints', { session: aSession, body: { source: 'headless-cms', description: `Secret endpoint ${token}` } });
  const key = await call('POST', '/v1/auth/api-keys', { session: aSession, body: { name: `Secret key ${token}`, scopes: ['products:read'] } });
  const bEndpoint = await call('POST', '/v1/webhooks/endpoints', { session: bSession, body: { source: 'headless-cms' } });
  const domain = await call('POST', '/v1/domains', { session: aSession, body: { hostname: `id.${token}.isolation.example` } });
  const bProduct = await createProduct(b.live);
  const oracle = await createProduct(a.live, { name: 'Registered twice' });
  const delivered = await createProduct(a.live, { name: 'Delivered twice' });
  for (const r of [supplier, endpoint, key, bEndpoint, domain]) if (r.status !== 201) throw new Error(`set-up: ${r.status} ${r.text}`);
  if (draft.status !== 200) throw new Error(`set-up: ${draft.status} ${draft.text}`);
  const upload = await call('POST', '/v1/imports', {
    key: a.live,
    rawBody: `gtin,name,category\n${uniqueGtin13()},Secret Import ${token},wine\n`,
    headers: { 'content-type': 'text/csv' },
  });
  if (upload.status !== 202) throw new Error(`set-up: ${upload.status} ${upload.text}`);
  // Wait for the worker, so that no write of it lands between the snapshots of a check (a generous bound).
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await call('GET', `/v1/imports/${upload.body.id}`, { key: a.live });
    if (job.body.status === 'succeeded') break;
    if (job.body.status === 'failed') throw new Error(`set-up import failed: ${job.text}`);
    if (Date.now() > deadline) throw new Error(`set-up import still ${job.body.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const newest = await call('GET', '/v1/events?limit=1', { session: aSession });
  if (newest.status !== 200 || !newest.body.data[0]) throw new Error(`set-up: ${newest.status} ${newest.text}`);
  const eventId: string = newest.body.data[0].id;
  const subscription = await call('POST', '/v1/event-subscriptions', {
    key: a.live,
    body: { url: `http://127.0.0.1:9/${token}`, events: ['api_key.revoked'], description: `Secret subscription ${token}` },
  });
  if (subscription.status !== 201) throw new Error(`set-up: ${subscription.status} ${subscription.text}`);
  // A's batch and item of the product (docs/api.md#batches-and-items), the item's serial holding the token.
  for (const [path, body] of [
    [`/v1/products/${product.productId}/batches/L${token}`, { data: { bottlingDate: '2025-03-14' } }],
    [`/v1/products/${product.productId}/items/S${token}`, { lot: `L${token}` }],
  ] as const) {
    const unit = await call('PUT', path, { key: a.live, body });
    if (unit.status !== 201) throw new Error(`set-up: ${unit.status} ${unit.text}`);
  }
  // A's correction of a legal term in live (docs/labelling.md#correcting-a-term), its text holding the token.
  const term = await call('PUT', '/v1/labelling/terms/de/contains', { key: a.live, body: { text: `Enthält ${token}: {list}`, note: `Secret note ${token}` } });
  if (term.status !== 200) throw new Error(`set-up: ${term.status} ${term.text}`);
  // A's sign-off of German (docs/labelling.md#sign-off): its digest covers the correction above, so no other tenant has it.
  const signOff = await call('POST', '/v1/labelling/sign-offs', { key: a.live, body: { lang: 'de' } });
  if (signOff.status !== 201) throw new Error(`set-up: ${signOff.status} ${signOff.text}`);
  // A's battery offered to a third organization (docs/battery.md#second-life): B is party to nothing.
  const c = await newOrg('Isolation C');
  const battery = await createProduct(a.live, { name: `Secret Battery ${token}`, category: 'battery' });
  const cell = await call('PUT', `/v1/products/${battery.productId}/items/H${token}?force=true`, { key: a.live, body: {} });
  const handover = await call('POST', '/v1/handovers', { key: a.live, body: { productId: battery.productId, serial: `H${token}`, toOrgId: c.orgId, operation: 'repurposing' } });
  if (cell.status !== 201 || handover.status !== 201) throw new Error(`set-up: ${handover.status} ${handover.text}`);
  const grant = await call('POST', '/v1/access-grants', { key: a.live, body: { granteeOrgId: c.orgId, tier: 'legitimate_interest', productIds: [battery.productId], write: true } });
  const aItem = await call('GET', `/v1/products/${product.productId}/items/S${token}`, { key: a.live });
  if (grant.status !== 201 || aItem.status !== 200) throw new Error(`set-up: ${grant.status} ${grant.text}`);
  const cBattery = await createProduct(c.live, { name: 'Isolation C battery', category: 'battery' });
  await publish(c.live, cBattery.productId, batteryModelData());
  const accessRequest = await call('POST', '/v1/access-requests', {
    key: a.live,
    body: { productIds: [cBattery.qrCodeUrl], purpose: 'dismantling_repair_repurposing_recycling', justification: `Secret justification ${token}` },
  });
  if (accessRequest.status !== 201) throw new Error(`set-up: ${accessRequest.status} ${accessRequest.text}`);

  // A's registrations in the EU registry (docs/registry.md#registrations): turned on, then made on demand for its product's passport, batch and item.
  // A's operator identity is a GLN of its own (a GTIN-13 has a GLN's form and check digit), so that its settings hold a value no other tenant has.
  const operatorGln = uniqueGtin13();
  const registrySettings = { enabled: true, operator: { scheme: 'GLN', identifier: operatorGln }, facilities: ['4006381000017'], commodityCode: '22042110' };
  const settings = await call('PUT', '/v1/registry/settings', { key: a.live, body: registrySettings });
  const registered = await call('POST', '/v1/registry/registrations', { key: a.live, body: { productIds: [product.productId] } });
  const registrations = await call('GET', `/v1/registry/registrations?productId=${product.productId}&granularity=MODEL`, { key: a.live });
  if (settings.status !== 200 || registered.status !== 200 || registrations.body.data?.length !== 1) throw new Error(`set-up: ${registered.status} ${registered.text} ${registrations.text}`);
  const registrationId = registrations.body.data[0].id as string;
  // A's product offered to the third organization (docs/transfers.md), its name holding the token.
  const transferred = await createProduct(a.live, { name: `Secret Transfer ${token}` });
  const transfer = await call('POST', '/v1/transfers', { key: a.live, body: { productId: transferred.productId, toOrgId: c.orgId } });
  if (transfer.status !== 201) throw new Error(`set-up: ${transfer.status} ${transfer.text}`);

  const gtin14 = `0${product.gtin}`;
  return {
    a,
    b,
    aSession,
    aTestSession: await sessionIn(aSession, 'test'),
    bSession,
    token,
    productId: product.productId,
    gtin14,
    passportId: passport.passportId,
    supplierId: supplier.body.supplierId,
    endpoint: { id: endpoint.body.id, secret: endpoint.body.secret },
    key: { id: key.body.id, key: key.body.key },
    domain: { id: domain.body.id, hostname: domain.body.hostname },
    bEndpoint: { id: bEndpoint.body.id, secret: bEndpoint.body.secret },
    bProductId: bProduct.productId,
    oracle: { productId: oracle.productId, gtin14: `0${oracle.gtin}` },
    delivered: { productId: delivered.productId, gtin14: `0${delivered.gtin}`, name: 'Delivered twice' },
    importId: upload.body.id,
    eventId,
    subscription: { id: subscription.body.id, secret: subscription.body.secret },
    handover: { id: handover.body.id, productId: battery.productId, serial: `H${token}`, toOrgId: c.orgId },
    grantId: grant.body.id,
    itemDppId: aItem.body.dppId,
    accessRequestId: accessRequest.body.id,
    batteryGtin: battery.gtin,
    registrationId,
    transferId: transfer.body.id,
    secrets: [
      transfer.body.id,
      transferred.productId,
      `0${transferred.gtin}`,
      signOff.body.digest,
      registrationId,
      operatorGln,
      grant.body.id,
      accessRequest.body.id,
      handover.body.id,
      battery.productId,
      `0${battery.gtin}`,
      subscription.body.id,
      subscription.body.secret,
      upload.body.id,
      eventId,
      a.orgId,
      product.productId,
      gtin14,
      product.gtin,
      token, // in the product's name, brand and sku, the passport's region and producer, the supplier's, endpoint's and key's names
      passport.passportId,
      supplier.body.supplierId,
      endpoint.body.id,
      endpoint.body.secret,
      key.body.id,
      key.body.key,
      domain.body.id, // the hostname holds the token
      domain.body.verification.value,
      a.live,
      a.test,
    ],
  };
}

// ---- Checks -----------------------------------------------------------------------------------

const snapshotBoth = async (): Promise<[Snapshot, Snapshot]> =>
  Promise.all([snapshotOrg(w.a.orgId, [`WHE#${w.endpoint.id}`, `HOST#${w.domain.hostname}`]), snapshotOrg(w.b.orgId, [`WHE#${w.bEndpoint.id}`])]);

/**
 * The response carries none of A's identifying values, except those the request itself sent (and
 * A's organization id, when the caller is A in its other environment).
 */
function expectNoLeak(response: ApiResponse, sent: string, label: string, caller?: Caller): void {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  for (const secret of w.secrets) {
    if (sent.toLowerCase().includes(secret.toLowerCase())) continue;
    if (caller?.isA && secret === w.a.orgId) continue;
    expect(response.text, `${label}: body leaks ${secret}`).not.toContain(secret);
    expect(headers, `${label}: headers leak ${secret}`).not.toContain(secret);
  }
}

interface Caller {
  label: string;
  options: () => CallOptions;
  /** The tenant the caller acts in. */
  tenant: string;
  /** Organization A in its other environment. */
  isA?: boolean;
}

/** Who is not allowed to see A's live resources through an API-key route. */
const apiKeyCallers: Caller[] = [
  { label: "B's live key", options: () => ({ key: w.b.live }), tenant: 'B live' },
  { label: "B's test key", options: () => ({ key: w.b.test }), tenant: 'B test' },
  { label: "A's test key", options: () => ({ key: w.a.test }), tenant: 'A test', isA: true },
  { label: "B's session", options: () => ({ session: w.bSession }), tenant: 'B live' },
  { label: "A's session in its test environment", options: () => ({ session: w.aTestSession }), tenant: 'A test', isA: true },
];

/**
 * Who is not allowed to see A's resources through a session route. API keys and webhook endpoints
 * belong to the organization (either environment's are listed, with their `environment`), so
 * A's other environment sees them by design; another organization never does.
 */
const sessionCallers: Caller[] = [{ label: "B's session", options: () => ({ session: w.bSession }), tenant: 'B live' }];

const callersOf = (route: Route): Caller[] => (route.auth === 'session' ? sessionCallers : apiKeyCallers);
const ownerOf = (route: Route): CallOptions => (route.auth === 'session' ? { session: w.aSession } : { key: w.a.live });

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** A route that names a resource of A: the request for it, and how A sees that it still exists. */
interface ResourceCase {
  request: () => Request;
  /** A's own request afterwards (default: the same request); its status proves the resource is there. */
  owner?: () => Request;
  ownerStatus?: number;
}

/** Path parameters that name no tenant data, with the reason. */
type NotTenantData = { notTenantData: string };

const path = (route: Route, params: Record<string, string>): string =>
  route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${route.path}`);
    return value;
  });

const same = (route: Route, params: () => Record<string, string>, body?: () => unknown): ResourceCase => ({
  request: () => ({ method: route.method, path: path(route, params()), ...(body ? { body: body() } : {}) }),
});

const byKey = new Map(ROUTES.map((route) => [routeKey(route), route]));
const route = (key: string): Route => {
  const found = byKey.get(key);
  if (!found) throw new Error(`the route table has no ${key}`);
  return found;
};
const product = () => ({ productId: w.productId });
const readProduct = (): Request => ({ method: 'GET', path: `/v1/products/${w.productId}` });
const readDraft = (): Request => ({ method: 'GET', path: `/v1/products/${w.productId}/draft` });
const endpoint = () => ({ endpointId: w.endpoint.id });
const readEndpoint = (): Request => ({ method: 'GET', path: `/v1/webhooks/endpoints/${w.endpoint.id}` });
const domain = () => ({ domainId: w.domain.id });
const readDomain = (): Request => ({ method: 'GET', path: `/v1/domains/${w.domain.id}` });
const subscription = () => ({ subscriptionId: w.subscription.id });
const batch = () => ({ productId: w.productId, lot: `L${w.token}` });
const item = () => ({ productId: w.productId, serial: `S${w.token}` });
const readBatch = (): Request => ({ method: 'GET', path: `/v1/products/${w.productId}/batches/L${w.token}` });
const readItem = (): Request => ({ method: 'GET', path: `/v1/products/${w.productId}/items/S${w.token}` });
const readSubscription = (): Request => ({ method: 'GET', path: `/v1/event-subscriptions/${w.subscription.id}` });
const handover = () => ({ handoverId: w.handover.id });
const accessGrant = () => ({ grantId: w.grantId });
const readGrant = (): Request => ({ method: 'GET', path: `/v1/access-grants/${w.grantId}` });
const accessRequest = () => ({ requestId: w.accessRequestId });
const readAccessRequest = (): Request => ({ method: 'GET', path: `/v1/access-requests/${w.accessRequestId}` });
const PUBLIC_TIER = 'answers anyone the public tier of any passport by design (a caller without a grant reads what the resolver shows); restricted elements by tier only (test/integration/access.test.ts)';
const readHandover = (): Request => ({ method: 'GET', path: `/v1/handovers/${w.handover.id}` });
const transfer = () => ({ transferId: w.transferId });
const readTransfer = (): Request => ({ method: 'GET', path: `/v1/transfers/${w.transferId}` });

/** Every route with a path parameter (the resolver's are tested below, by path). */
const PATH_CASES: Readonly<Record<string, ResourceCase | NotTenantData | { resolver: true }>> = {
  'GET /v1/products/{productId}': same(route('GET /v1/products/{productId}'), product),
  'PATCH /v1/products/{productId}': {
    ...same(route('PATCH /v1/products/{productId}'), product, () => ({ name: 'Hijacked', sku: null })),
    owner: () => ({ method: 'GET', path: `/v1/products/${w.productId}` }),
  },
  'GET /v1/products/{productId}/qr': same(route('GET /v1/products/{productId}/qr'), product),
  'POST /v1/products/{productId}/withdraw': { ...same(route('POST /v1/products/{productId}/withdraw'), product, () => ({ reason: 'Hijacked' })), owner: readProduct },
  'POST /v1/products/{productId}/reinstate': { ...same(route('POST /v1/products/{productId}/reinstate'), product), owner: readProduct },
  'GET /v1/products/{productId}/draft': same(route('GET /v1/products/{productId}/draft'), product),
  'PUT /v1/products/{productId}/draft': { ...same(route('PUT /v1/products/{productId}/draft'), product, () => ({ data: RED_WINE })), owner: readDraft },
  'PATCH /v1/products/{productId}/draft': { ...same(route('PATCH /v1/products/{productId}/draft'), product, () => ({ data: { vintage: 2001 } })), owner: readDraft },
  'DELETE /v1/products/{productId}/draft': { ...same(route('DELETE /v1/products/{productId}/draft'), product), owner: readDraft },
  'POST /v1/products/{productId}/draft/publish': { ...same(route('POST /v1/products/{productId}/draft/publish'), product), owner: readDraft },
  'GET /v1/products/{productId}/passport': same(route('GET /v1/products/{productId}/passport'), product),
  'GET /v1/products/{productId}/passports': same(route('GET /v1/products/{productId}/passports'), product),
  // A passport's completeness report (docs/battery.md#completeness-and-publishing).
  'GET /v1/products/{productId}/passport/completeness': same(route('GET /v1/products/{productId}/passport/completeness'), product),
  'GET /v1/analytics/product/{productId}': same(route('GET /v1/analytics/product/{productId}'), product),
  'GET /v1/suppliers/{supplierId}': same(route('GET /v1/suppliers/{supplierId}'), () => ({ supplierId: w.supplierId })),
  'GET /v1/webhooks/endpoints/{endpointId}': same(route('GET /v1/webhooks/endpoints/{endpointId}'), endpoint),
  'PATCH /v1/webhooks/endpoints/{endpointId}': {
    ...same(route('PATCH /v1/webhooks/endpoints/{endpointId}'), endpoint, () => ({ description: 'Hijacked', defaultCategory: 'food' })),
    owner: readEndpoint,
  },
  'DELETE /v1/webhooks/endpoints/{endpointId}': { ...same(route('DELETE /v1/webhooks/endpoints/{endpointId}'), endpoint), owner: readEndpoint },
  'POST /v1/webhooks/endpoints/{endpointId}/rotate-secret': {
    ...same(route('POST /v1/webhooks/endpoints/{endpointId}/rotate-secret'), endpoint),
    owner: readEndpoint,
  },
  'DELETE /v1/auth/api-keys/{keyId}': {
    ...same(route('DELETE /v1/auth/api-keys/{keyId}'), () => ({ keyId: w.key.id })),
    owner: () => ({ method: 'GET', path: '/v1/auth/api-keys' }),
  },
  'GET /v1/domains/{domainId}': same(route('GET /v1/domains/{domainId}'), domain),
  'PATCH /v1/domains/{domainId}': { ...same(route('PATCH /v1/domains/{domainId}'), domain, () => ({ default: true })), owner: readDomain },
  'DELETE /v1/domains/{domainId}': { ...same(route('DELETE /v1/domains/{domainId}'), domain), owner: readDomain },
  'POST /v1/domains/{domainId}/verify': { ...same(route('POST /v1/domains/{domainId}/verify'), domain), owner: readDomain },
  'GET /v1/imports/{importId}': same(route('GET /v1/imports/{importId}'), () => ({ importId: w.importId })),
  'GET /v1/events/{eventId}': same(route('GET /v1/events/{eventId}'), () => ({ eventId: w.eventId })),
  'GET /v1/event-subscriptions/{subscriptionId}': same(route('GET /v1/event-subscriptions/{subscriptionId}'), subscription),
  'PATCH /v1/event-subscriptions/{subscriptionId}': {
    ...same(route('PATCH /v1/event-subscriptions/{subscriptionId}'), subscription, () => ({ description: 'Hijacked', status: 'disabled' })),
    owner: readSubscription,
  },
  'DELETE /v1/event-subscriptions/{subscriptionId}': { ...same(route('DELETE /v1/event-subscriptions/{subscriptionId}'), subscription), owner: readSubscription },
  'POST /v1/event-subscriptions/{subscriptionId}/rotate-secret': { ...same(route('POST /v1/event-subscriptions/{subscriptionId}/rotate-secret'), subscription), owner: readSubscription },
  'POST /v1/event-subscriptions/{subscriptionId}/test': { ...same(route('POST /v1/event-subscriptions/{subscriptionId}/test'), subscription), owner: readSubscription },
  'GET /v1/event-subscriptions/{subscriptionId}/deliveries': same(route('GET /v1/event-subscriptions/{subscriptionId}/deliveries'), subscription),
  'POST /v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry': {
    ...same(route('POST /v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry'), () => ({ ...subscription(), deliveryId: 'del_00000000000000000000' })),
    owner: () => ({ method: 'GET', path: `/v1/event-subscriptions/${w.subscription.id}/deliveries` }),
  },
  // Batches and items (docs/api.md#batches-and-items): the path names A's product, and its record.
  'GET /v1/products/{productId}/batches': same(route('GET /v1/products/{productId}/batches'), product),
  'PUT /v1/products/{productId}/batches/{lot}': { ...same(route('PUT /v1/products/{productId}/batches/{lot}'), batch, () => ({ status: 'withdrawn' })), owner: readBatch },
  'GET /v1/products/{productId}/batches/{lot}': same(route('GET /v1/products/{productId}/batches/{lot}'), batch),
  'PATCH /v1/products/{productId}/batches/{lot}': { ...same(route('PATCH /v1/products/{productId}/batches/{lot}'), batch, () => ({ status: 'withdrawn' })), owner: readBatch },
  'GET /v1/products/{productId}/batches/{lot}/qr': same(route('GET /v1/products/{productId}/batches/{lot}/qr'), batch),
  'GET /v1/products/{productId}/items': same(route('GET /v1/products/{productId}/items'), product),
  'PUT /v1/products/{productId}/items/{serial}': { ...same(route('PUT /v1/products/{productId}/items/{serial}'), item, () => ({ status: 'withdrawn' })), owner: readItem },
  'GET /v1/products/{productId}/items/{serial}': same(route('GET /v1/products/{productId}/items/{serial}'), item),
  'PATCH /v1/products/{productId}/items/{serial}': { ...same(route('PATCH /v1/products/{productId}/items/{serial}'), item, () => ({ status: 'withdrawn' })), owner: readItem },
  'GET /v1/products/{productId}/items/{serial}/qr': same(route('GET /v1/products/{productId}/items/{serial}/qr'), item),
  // Battery handovers (docs/battery.md#second-life): A's offer to a third organization.
  'GET /v1/handovers/{handoverId}': same(route('GET /v1/handovers/{handoverId}'), handover),
  'POST /v1/handovers/{handoverId}/accept': {
    ...same(route('POST /v1/handovers/{handoverId}/accept'), handover, () => ({ productId: w.bProductId, serial: 'ACCEPT1' })),
    owner: readHandover,
  },
  'DELETE /v1/handovers/{handoverId}': { ...same(route('DELETE /v1/handovers/{handoverId}'), handover), owner: readHandover },
  // A battery's life (docs/battery.md#a-batterys-life): declaring A's handed-over battery recycled.
  'POST /v1/handovers/{handoverId}/recycle': { ...same(route('POST /v1/handovers/{handoverId}/recycle'), handover), owner: readHandover },
  // Transfers of a product (docs/transfers.md): A's offer to a third organization.
  'GET /v1/transfers/{transferId}': same(route('GET /v1/transfers/{transferId}'), transfer),
  'POST /v1/transfers/{transferId}/accept': { ...same(route('POST /v1/transfers/{transferId}/accept'), transfer), owner: readTransfer },
  'POST /v1/transfers/{transferId}/decline': { ...same(route('POST /v1/transfers/{transferId}/decline'), transfer), owner: readTransfer },
  'POST /v1/transfers/{transferId}/cancel': { ...same(route('POST /v1/transfers/{transferId}/cancel'), transfer), owner: readTransfer },
  // Access grants and the EN 18222 reads (docs/access.md).
  'GET /v1/access-grants/{grantId}': same(route('GET /v1/access-grants/{grantId}'), accessGrant),
  'DELETE /v1/access-grants/{grantId}': { ...same(route('DELETE /v1/access-grants/{grantId}'), accessGrant), owner: readGrant },
  'PATCH /v1/dpps/{dppId}': {
    ...same(route('PATCH /v1/dpps/{dppId}'), () => ({ dppId: w.itemDppId }), () => ({ status: 'withdrawn' })),
    owner: readItem,
  },
  // Access requests (docs/access.md#access-requests): A's request to the third organization, B party to nothing.
  'GET /v1/access-requests/{requestId}': same(route('GET /v1/access-requests/{requestId}'), accessRequest),
  'POST /v1/access-requests/{requestId}/approve': { ...same(route('POST /v1/access-requests/{requestId}/approve'), accessRequest), owner: readAccessRequest },
  'POST /v1/access-requests/{requestId}/refuse': {
    ...same(route('POST /v1/access-requests/{requestId}/refuse'), accessRequest, () => ({ reason: 'Hijacked' })),
    owner: readAccessRequest,
  },
  // The EU registry (docs/registry.md#registrations): A's registration of its product's passport.
  'GET /v1/registry/registrations/{registrationId}': same(route('GET /v1/registry/registrations/{registrationId}'), () => ({ registrationId: w.registrationId })),
  'POST /v1/registry/registrations/{registrationId}/resubmit': {
    ...same(route('POST /v1/registry/registrations/{registrationId}/resubmit'), () => ({ registrationId: w.registrationId })),
    owner: () => ({ method: 'GET', path: `/v1/registry/registrations/${w.registrationId}` }),
  },
  'GET /v1/dpps/{dppId}': { notTenantData: PUBLIC_TIER },
  'GET /v1/dpps/{dppId}/elements/{elementPath}': { notTenantData: PUBLIC_TIER },
  'GET /v1/dppsByProductId/{productIdentifier}': { notTenantData: PUBLIC_TIER },
  'GET /v1/dppsByIdAndDate/{dppId}': { notTenantData: PUBLIC_TIER },
  'GET /inspect/{dppId}': { notTenantData: 'takes no API key or session: an inspector of a trusted authority reads any live passport as the authority audience by design; others are sent to sign in (test/integration/inspector.test.ts)' },
  'GET /docs/{asset}': { notTenantData: 'the API reference’s static files' },
  // Every tenant has every legal term (the platform's wording); the path names the term, and the caller reads and writes only its own tenant's correction.
  'GET /v1/labelling/terms/{lang}/{termKey}': { notTenantData: 'the path names a platform term every tenant has; the answer carries the caller’s own correction only (A’s is checked below)' },
  'PUT /v1/labelling/terms/{lang}/{termKey}': { notTenantData: 'the path names a platform term every tenant has; the write lands in the caller’s own tenant only (checked below)' },
  'DELETE /v1/labelling/terms/{lang}/{termKey}': { notTenantData: 'the path names a platform term every tenant has; the delete removes the caller’s own correction only (checked below)' },
  'GET /v1/labelling/sign-offs/{lang}': { notTenantData: 'the path names a language every tenant has; the answer carries the caller’s own corrections and sign-off only (A’s German sign-off, in the listing below, is among the secrets)' },
  // Signed passports (docs/credentials.md).
  'GET /v1/products/{productId}/passports/{passportId}/credential': same(route('GET /v1/products/{productId}/passports/{passportId}/credential'), () => ({
    productId: w.productId,
    passportId: w.passportId,
  })),
  'GET /{orgId}/{environment}/p/{gtin}/{version}/credential.jwt': {
    notTenantData: 'public by design, like the version’s pages beside it: the path names the tenant, and another tenant’s path is a 404 (test/integration/credentials.test.ts)',
  },
  'GET /orgs/{orgId}/did.json': { notTenantData: 'public by design: the organization’s DID document holds its public keys only' },
  'GET /{orgId}/{environment}/status/{list}': { notTenantData: 'public by design: a revocation list of bits, the path names the tenant (test/integration/credentials.test.ts)' },
  ...Object.fromEntries(ROUTES.filter((r) => r.function === 'resolver' && r.path.includes('{')).map((r) => [routeKey(r), { resolver: true as const }])),
};

/** Routes that name a resource of another kind in their body, or that must not act as an oracle on one. */
const BODY_CASES: Readonly<Record<string, { foreign: () => Request; expect: 404 | 201; param?: string } | NotTenantData>> = {
  // A GTIN is unique per tenant: another tenant registering A's GTIN is no conflict (a 409 would tell it A has the GTIN).
  'POST /v1/products': { foreign: () => ({ method: 'POST', path: '/v1/products', body: { name: 'Mine', category: 'wine', gtin: w.oracle.gtin14 } }), expect: 201 },
  'PATCH /v1/products/{productId}': { notTenantData: 'its path names the product (above); the body names none' },
  'POST /v1/products/{productId}/withdraw': { notTenantData: 'its path names the product (above); the body is a reason' },
  'PUT /v1/products/{productId}/draft': { notTenantData: 'its path names the product (above); the body is passport data' },
  'PATCH /v1/products/{productId}/draft': { notTenantData: 'its path names the product (above); the body is a merge patch of passport data' },
  'POST /v1/passports': { foreign: () => ({ method: 'POST', path: '/v1/passports', body: { productId: w.productId, data: RED_WINE } }), expect: 404, param: 'productId' },
  'POST /v1/suppliers': { notTenantData: 'the body names no existing resource; names are unique per tenant only' },
  'POST /v1/webhooks/endpoints': { notTenantData: 'the body names no existing resource' },
  'PATCH /v1/webhooks/endpoints/{endpointId}': { notTenantData: 'its path names the endpoint (above)' },
  'POST /v1/auth/session': { foreign: () => ({ method: 'POST', path: '/v1/auth/session', body: { orgId: w.a.orgId } }), expect: 404, param: 'orgId' },
  'POST /v1/domains': {
    notTenantData: 'the body names a hostname, which DNS makes public; one another organization verified is a 409 by design (docs/brand-domains.md)',
  },
  'PATCH /v1/domains/{domainId}': { notTenantData: 'its path names the domain (above)' },
  'POST /v1/auth/api-keys': { notTenantData: 'the body names no existing resource; the key goes to the session’s organization' },
  'POST /v1/event-subscriptions': { notTenantData: 'the body names a URL of the caller’s own receiver and event types, no existing resource' },
  'PATCH /v1/event-subscriptions/{subscriptionId}': { notTenantData: 'its path names the subscription (above)' },
  'POST /v1/imports': { notTenantData: 'the body is a file whose rows upsert products by GTIN in the caller’s own tenant (GTINs are unique per tenant only)' },
  'POST /v1/registry/files': { notTenantData: 'the body names a format only; the files are built of the caller’s own tenant’s registrations' },
  'POST /v1/registry/results': {
    notTenantData: 'the body is a result file whose identifiers are looked up in the caller’s own tenant only: another tenant’s identifier is a row of `unmatched` and changes nothing (test/integration/registry-files.test.ts)',
  },
  'POST /v1/nutrition/calculate': { notTenantData: 'the body names no resource; the energy calculator reads and writes nothing' },
  'PUT /v1/labelling/terms/{lang}/{termKey}': { notTenantData: 'the body is a wording and a note, naming no resource' },
  'POST /v1/labelling/sign-offs': { notTenantData: 'the body names a language every tenant has; the sign-off lands in the caller’s own tenant only (test/integration/labelling-sign-offs.test.ts)' },
  'PUT /v1/labelling/settings': { notTenantData: "the body is the caller's own setting, naming no resource" },
  'PUT /v1/products/{productId}/batches/{lot}': { notTenantData: 'its path names the product and the lot (above); the body is the batch’s status and data' },
  'PATCH /v1/products/{productId}/batches/{lot}': { notTenantData: 'its path names the product and the lot (above); the body is a merge patch of its status and data' },
  'PUT /v1/products/{productId}/items/{serial}': { notTenantData: 'its path names the product and the serial (above); the body is the item’s lot (a value, no resource), status and data' },
  'PATCH /v1/products/{productId}/items/{serial}': { notTenantData: 'its path names the product and the serial (above); the body is a merge patch of its lot, status and data' },
  // Offering A's battery: the product named in the body is looked up in the caller's own tenant.
  'POST /v1/handovers': {
    foreign: () => ({ method: 'POST', path: '/v1/handovers', body: { productId: w.handover.productId, serial: w.handover.serial, toOrgId: w.handover.toOrgId, operation: 'repurposing' } }),
    expect: 404,
    param: 'productId',
  },
  // Transferring A's product: the product named in the body is looked up in the caller's own tenant.
  'POST /v1/transfers': {
    foreign: () => ({ method: 'POST', path: '/v1/transfers', body: { productId: w.productId, toOrgId: w.handover.toOrgId } }),
    expect: 404,
    param: 'productId',
  },
  'POST /v1/access-grants': {
    foreign: () => ({ method: 'POST', path: '/v1/access-grants', body: { granteeOrgId: w.handover.toOrgId, tier: 'authority', productIds: [w.productId] } }),
    expect: 404,
    param: 'productIds[0]',
  },
  'PATCH /v1/dpps/{dppId}': { notTenantData: 'its path names the item’s passport (above); the body is a merge patch of its status and data' },
  // Asking for access names another organization's published passport by design (its Digital Link is public); A's battery has none: 404, nothing written in either tenant.
  'POST /v1/access-requests': {
    foreign: () => ({ method: 'POST', path: '/v1/access-requests', body: { ownerOrgId: w.a.orgId, gtin: w.batteryGtin, purpose: 'energy_services', justification: 'Hijack' } }),
    expect: 404,
    param: 'gtin',
  },
  'POST /v1/access-requests/{requestId}/refuse': { notTenantData: 'its path names the request (above); the body is a reason' },
  'PUT /v1/registry/settings': { notTenantData: "the body is the caller's own operator identity, facilities and commodity code, naming no resource" },
  // Registering A's product on demand: the products named are looked up in the caller's own tenant, before its settings are.
  'POST /v1/registry/registrations': {
    foreign: () => ({ method: 'POST', path: '/v1/registry/registrations', body: { productIds: [w.productId] } }),
    expect: 404,
    param: 'productIds[0]',
  },
  'POST /v1/dppsByProductIds': { notTenantData: PUBLIC_TIER },
  'POST /v1/handovers/{handoverId}/accept': {
    notTenantData: 'its path names the handover (above); the product named in its body is looked up in the caller’s own tenant (test/integration/battery-handover.test.ts)',
  },
};

/** Listings (GET routes of a tenant without path parameters) and what a foreign caller must not find in them. */
const LISTINGS: Readonly<Record<string, { paths: () => string[] } | NotTenantData>> = {
  'GET /v1/products': { paths: () => ['/v1/products?limit=100', `/v1/products?limit=100&starting_after=${w.productId}`] },
  'GET /v1/suppliers': { paths: () => ['/v1/suppliers?limit=100', `/v1/suppliers?limit=100&starting_after=${w.supplierId}`] },
  'GET /v1/webhooks/endpoints': { paths: () => ['/v1/webhooks/endpoints'] },
  'GET /v1/auth/api-keys': { paths: () => ['/v1/auth/api-keys', '/v1/auth/api-keys?environment=live'] },
  'GET /v1/auth/session': { paths: () => ['/v1/auth/session'] },
  'GET /v1/domains': { paths: () => ['/v1/domains'] },
  'GET /v1/exports/products': {
    paths: () => ['/v1/exports/products', '/v1/exports/products?format=ndjson', `/v1/exports/products?limit=1000&starting_after=${w.productId}`],
  },
  'GET /v1/imports': { paths: () => ['/v1/imports?limit=100', `/v1/imports?limit=100&starting_after=${w.importId}`] },
  'GET /v1/events': { paths: () => ['/v1/events?limit=100', '/v1/events?limit=100&type=product.created'] },
  'GET /v1/event-subscriptions': { paths: () => ['/v1/event-subscriptions'] },
  'GET /v1/access-grants': { paths: () => ['/v1/access-grants', '/v1/access-grants?as=grantee', `/v1/access-grants?starting_after=${w.grantId}`] },
  'GET /v1/access-requests': {
    paths: () => ['/v1/access-requests?as=requester', '/v1/access-requests', `/v1/access-requests?as=requester&starting_after=${w.accessRequestId}`],
  },
  'GET /v1/handovers': { paths: () => ['/v1/handovers', '/v1/handovers?as=recipient', `/v1/handovers?starting_after=${w.handover.id}`] },
  'GET /v1/transfers': { paths: () => ['/v1/transfers', '/v1/transfers?direction=incoming', '/v1/transfers?direction=outgoing', `/v1/transfers?starting_after=${w.transferId}`] },
  'GET /v1/labelling/terms': { paths: () => ['/v1/labelling/terms?lang=de', '/v1/labelling/terms'] },
  'GET /v1/labelling/sign-offs': { paths: () => ['/v1/labelling/sign-offs', '/v1/labelling/sign-offs/de'] },
  'GET /v1/labelling/settings': { notTenantData: 'a choice of two values and the languages signed off, which identify nothing (another organization sees its own: test/integration/labelling-sign-offs.test.ts)' },
  'GET /v1/registry/settings': { paths: () => ['/v1/registry/settings'] },
  'GET /v1/registry/registrations': {
    paths: () => ['/v1/registry/registrations?limit=100', `/v1/registry/registrations?productId=${w.productId}`, `/v1/registry/registrations?limit=100&starting_after=${w.registrationId}`],
  },
  'GET /v1/exports/items': {
    notTenantData: 'names the product in its query, like a path: another tenant’s product is a 404 (test/integration/items-import.test.ts); it lists nothing of the caller’s tenant otherwise',
  },
  'GET /v1/imports/template.csv': { notTenantData: 'the template is the same for every organization' },
  'GET /v1/imports/template.xlsx': { notTenantData: 'the template is the same for every organization' },
};

const hasPathParams = (r: Route): boolean => /\{\w+\+?\}/.test(r.path);
const isListing = (r: Route): boolean => r.method === 'GET' && !hasPathParams(r) && (r.auth === 'apiKey' || r.auth === 'session');

beforeAll(async () => {
  w = await setUp();
});

describe('the isolation cases cover the route table', () => {
  it('has a case for every route with a path parameter, every route with a body and every listing', () => {
    const missing = [
      ...ROUTES.filter(hasPathParams).filter((r) => !(routeKey(r) in PATH_CASES)).map((r) => `path: ${routeKey(r)}`),
      ...ROUTES.filter((r) => r.body).filter((r) => !(routeKey(r) in BODY_CASES)).map((r) => `body: ${routeKey(r)}`),
      ...ROUTES.filter(isListing).filter((r) => !(routeKey(r) in LISTINGS)).map((r) => `listing: ${routeKey(r)}`),
    ];
    expect(missing, 'routes without an isolation case: add them to PATH_CASES, BODY_CASES or LISTINGS').toEqual([]);
    const stale = [...Object.keys(PATH_CASES), ...Object.keys(BODY_CASES), ...Object.keys(LISTINGS)].filter((key) => !byKey.has(key));
    expect(stale, 'cases of routes the table no longer has').toEqual([]);
  });
});

const resourceRoutes = ROUTES.filter((r) => {
  const c = PATH_CASES[routeKey(r)];
  return c !== undefined && !('notTenantData' in c) && !('resolver' in c);
});

describe("another tenant's resource named in the path is a 404 that leaks nothing and changes nothing", () => {
  it.each(resourceRoutes.map((r) => [routeKey(r), r] as const))('%s', async (_key, r) => {
    const c = PATH_CASES[routeKey(r)] as ResourceCase;
    // Each caller's call is compared with the data as the previous caller's check left it (read once, not again).
    let [beforeA, beforeB] = await snapshotBoth();
    for (const caller of callersOf(r)) {
      // Prepare
      const request = c.request();
      // Act
      const response = await call(request.method, request.path, { ...caller.options(), ...(request.body === undefined ? {} : { body: request.body }) });
      // Assess
      const label = `${caller.label}: ${request.method} ${request.path}`;
      expectError(response, 404, 'not_found');
      expectNoLeak(response, `${request.path} ${JSON.stringify(request.body ?? '')}`, label, caller);
      const [afterA, afterB] = await snapshotBoth();
      expect(diffSnapshots(beforeA, afterA), `${label} changed A's data`).toEqual([]);
      expect(diffSnapshots(beforeB, afterB), `${label} changed B's data`).toEqual([]);
      [beforeA, beforeB] = [afterA, afterB];
    }
    // The resource is there for its owner: the 404s were not for want of one.
    const own = c.owner?.() ?? c.request();
    const mine = await call(own.method, own.path, { ...ownerOf(r), ...(own.body === undefined ? {} : { body: own.body }) });
    expect(mine.status, `A's own ${own.method} ${own.path}: ${mine.text}`).toBe(c.ownerStatus ?? 200);
    if (routeKey(r) === 'DELETE /v1/auth/api-keys/{keyId}') {
      expect(mine.body.data.map((k: { id: string }) => k.id)).toContain(w.key.id);
      expect((await call('GET', '/v1/products', { key: w.key.key })).status).toBe(200);
    }
  });
});

describe("another tenant's resource named in a body", () => {
  const bodyRoutes = ROUTES.filter((r) => {
    const c = BODY_CASES[routeKey(r)];
    return c !== undefined && !('notTenantData' in c);
  });
  it.each(bodyRoutes.map((r) => [routeKey(r), r] as const))('%s', async (_key, r) => {
    const c = BODY_CASES[routeKey(r)] as { foreign: () => Request; expect: 404 | 201; param?: string };
    const created = new Set<string>();
    for (const caller of callersOf(r)) {
      // Prepare
      const request = c.foreign();
      const [beforeA, beforeB] = await snapshotBoth();
      // Act
      const response = await call(request.method, request.path, { ...caller.options(), body: request.body });
      // Assess
      const label = `${caller.label}: ${request.method} ${request.path} ${JSON.stringify(request.body)}`;
      expectNoLeak(response, JSON.stringify(request.body), label, caller);
      const [afterA] = await snapshotBoth();
      // A creating in its own test environment changes that environment, and only that.
      const ownWrites = (line: string) => caller.isA === true && c.expect === 201 && line.includes(` T#${w.a.orgId}#test `.trim());
      expect(diffSnapshots(beforeA, afterA).filter((line) => !ownWrites(line)), `${label} changed A's data`).toEqual([]);
      if (c.expect === 404) {
        expectError(response, 404, 'not_found', c.param);
        const [, afterB] = await snapshotBoth();
        expect(diffSnapshots(beforeB, afterB), `${label} changed B's data`).toEqual([]);
      } else {
        // Created once per tenant: a second caller in the same tenant meets its own tenant's GTIN.
        expect(response.status, `${label}: ${response.text}`).toBe(created.has(caller.tenant) ? 409 : c.expect);
        created.add(caller.tenant);
      }
    }
  });
});

describe('listings never include foreign items', () => {
  const tenantListings = ROUTES.filter(isListing).filter((r) => {
    const c = LISTINGS[routeKey(r)];
    return c !== undefined && 'paths' in c;
  });
  it.each(tenantListings.map((r) => [routeKey(r), r] as const))('%s', async (_key, r) => {
    const listing = LISTINGS[routeKey(r)] as { paths: () => string[] };
    for (const caller of callersOf(r)) {
      for (const p of listing.paths()) {
        // Act
        const response = await call('GET', p, caller.options());
        // Assess
        expect(response.status, `${caller.label}: GET ${p}: ${response.text}`).toBe(200);
        expectNoLeak(response, p, `${caller.label}: GET ${p}`, caller);
      }
    }
    // A's own listing shows what the others could not see (the check above is not vacuous).
    const own = await call('GET', listing.paths()[0]!, ownerOf(r));
    expect(w.secrets.some((s) => own.text.includes(s)), `A's own ${routeKey(r)} shows A's data`).toBe(true);
  });
});

describe('the public resolver', () => {
  const resolverRoutes = ROUTES.filter((r) => r.function === 'resolver' && 'resolver' in (PATH_CASES[routeKey(r)] ?? {}));

  it.each(resolverRoutes.map((r) => [routeKey(r), r] as const))("%s: A's GTIN under B's organization or A's test environment is a 404", async (_key, r) => {
    const qualifiers = r.path.includes('{qualifiers+}') ? '/10/LOT1' : '';
    const paths = [`/${w.b.orgId}/live/01/${w.gtin14}${qualifiers}`, `/${w.a.orgId}/test/01/${w.gtin14}${qualifiers}`, `/${w.b.orgId}/test/01/${w.gtin14}${qualifiers}`];
    for (const p of paths) {
      for (const accept of ['application/json', 'text/html', 'application/linkset+json']) {
        // Act
        const response = await fetch(`${baseUrl()}${p}`, { method: r.method, headers: { accept } });
        const text = await response.text();
        // Assess
        const label = `${r.method} ${p} (${accept})`;
        if (r.method === 'OPTIONS') {
          expect(response.status, label).toBe(204);
          expect(text, label).toBe('');
          continue;
        }
        expect(response.status, label).toBe(404);
        if (r.method === 'GET' && accept === 'application/json') {
          expect(JSON.parse(text).error, label).toMatchObject({ type: 'not_found', code: 'not_found' });
        }
        for (const secret of w.secrets) if (!p.includes(secret)) expect(text, `${label} leaks ${secret}`).not.toContain(secret);
        expect(text, `${label} shows A's passport`).not.toContain(w.token);
      }
    }
    // A's own link resolves: the 404s were not for want of a passport.
    const own = await fetch(`${baseUrl()}/${w.a.orgId}/live/01/${w.gtin14}${qualifiers}`, { method: r.method, headers: { accept: 'application/json' } });
    await own.arrayBuffer();
    expect(own.status).toBe(r.method === 'OPTIONS' ? 204 : 200);
  });
});

describe('webhook deliveries', () => {
  const sample = readFileSync(new URL('../../events/webhooks/headless-cms-product.json', import.meta.url), 'utf8');
  const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const deliver = (endpointId: string, signature: string, body: string) =>
    fetch(`${baseUrl()}/v1/webhooks/ingest?endpoint=${endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, body });

  it("refuse A's endpoint with B's secret, and B's delivery of A's GTIN lands in B alone", async () => {
    // Prepare
    const doc = JSON.parse(sample);
    doc.entity.attributes.barcode[0].barcode_number = w.delivered.gtin14;
    doc.entity.attributes.product_name = 'B’s own wine';
    const body = JSON.stringify(doc);
    const [beforeA] = await snapshotBoth();
    // Act
    const forged = await deliver(w.endpoint.id, sign(w.bEndpoint.secret, body), body);
    const own = await deliver(w.bEndpoint.id, sign(w.bEndpoint.secret, body), body);
    // Assess
    expect(forged.status).toBe(401);
    expect(await forged.text()).not.toContain(w.token);
    expect(own.status).toBe(200);
    const result = (await own.json()) as { productId: string; version: number };
    expect(result.productId).not.toBe(w.delivered.productId);
    expect(result.version).toBe(1);
    const [afterA] = await snapshotBoth();
    expect(diffSnapshots(beforeA, afterA)).toEqual([]);
    const read = await call('GET', `/v1/products/${w.delivered.productId}`, { key: w.a.live });
    expect(read.body.name).toBe(w.delivered.name);
    expect((await call('GET', `/v1/products/${result.productId}`, { key: w.b.live })).body.gtin).toBe(w.delivered.gtin14);
    expectError(await call('GET', `/v1/products/${result.productId}`, { key: w.a.live }), 404, 'not_found');
  });
});

describe("corrections of legal terms (docs/labelling.md#correcting-a-term)", () => {
  it("another tenant's PUT, GET and DELETE of the term A corrected touch only its own tenant", async () => {
    for (const caller of apiKeyCallers) {
      // Prepare
      const [beforeA] = await snapshotBoth();
      // Act
      const read = await call('GET', '/v1/labelling/terms/de/contains', caller.options());
      const put = await call('PUT', '/v1/labelling/terms/de/contains', { ...caller.options(), body: { text: 'Enthält: {list}' } });
      const deleted = await call('DELETE', '/v1/labelling/terms/de/contains', caller.options());
      // Assess
      const label = caller.label;
      expect(read.status, `${label}: ${read.text}`).toBe(200);
      expect(read.body.override, label).toBeNull();
      expectNoLeak(read, '', label, caller);
      expect(put.status, `${label}: ${put.text}`).toBe(200);
      expect(deleted.status, `${label}: ${deleted.text}`).toBe(200);
      const [afterA] = await snapshotBoth();
      // A's other environment writes its own partition (and its events), never A live's correction.
      const aLive = (line: string) => line.includes(`T#${w.a.orgId}#live`) || line.includes(`EVENTS#${w.a.orgId}#live`);
      expect(diffSnapshots(beforeA, afterA).filter(aLive), `${label} changed A live's data`).toEqual([]);
    }
    const own = await call('GET', '/v1/labelling/terms/de/contains', { key: w.a.live });
    expect(own.body.override?.text).toBe(`Enthält ${w.token}: {list}`);
  });
});

describe('cursors naming a foreign item', () => {
  it("page B's own passports only, and answer a foreign passport id as an unknown cursor", async () => {
    // Act
    const response = await call('GET', `/v1/products/${w.bProductId}/passports?starting_after=${w.passportId}`, { key: w.b.live });
    // Assess
    expectError(response, 422, 'validation_error', 'starting_after');
    expectNoLeak(response, w.passportId, 'foreign passport cursor');
    const ownCursor = await call('GET', `/v1/products/${w.productId}/passports?starting_after=${w.passportId}`, { key: w.a.live });
    expect(ownCursor.status, ownCursor.text).toBe(200);
    const unrelated = uniqueGtin13();
    expect(unrelated).not.toBe(w.gtin14);
  });
});

describe("the second review's attacks stay inside their tenant (docs/security.md#the-second-review-issue-24)", () => {
  it("attack: B racing DELETE and PATCH {default: true} on A's domain gets two 404s and changes nothing of A's", async () => {
    // Prepare
    const [beforeA] = await snapshotBoth();
    // Act
    const [deleted, patched] = await Promise.all([
      call('DELETE', `/v1/domains/${w.domain.id}`, { session: w.bSession }),
      call('PATCH', `/v1/domains/${w.domain.id}`, { session: w.bSession, body: { default: true } }),
    ]);
    // Assess
    expectError(deleted, 404, 'not_found');
    expectError(patched, 404, 'not_found');
    const [afterA] = await snapshotBoth();
    expect(diffSnapshots(beforeA, afterA)).toEqual([]);
  });

  it("attack: B's tall workbook is refused with 413 and leaves A's data as it was", async () => {
    // Prepare
    const [beforeA] = await snapshotBoth();
    const tall = await templateReaching(1_048_576);
    // Act
    const response = await call('POST', '/v1/imports', { key: w.b.live, rawBody: tall, headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } });
    // Assess
    expectError(response, 413, 'invalid_request_error');
    const [afterA] = await snapshotBoth();
    expect(diffSnapshots(beforeA, afterA)).toEqual([]);
  });

  it(`attack: A at its cap of ${MAX_EVENT_SUBSCRIPTIONS} event subscriptions limits A alone: B still subscribes, and neither list shows the other's`, async () => {
    // Prepare: A already has one subscription (the set-up's)
    const extra: string[] = [];
    for (let i = 1; i < MAX_EVENT_SUBSCRIPTIONS; i++) {
      const created = await call('POST', '/v1/event-subscriptions', { key: w.a.live, body: { url: `http://127.0.0.1:9/cap-${i}`, events: ['api_key.revoked'] } });
      expect(created.status, created.text).toBe(201);
      extra.push(created.body.id);
    }
    try {
      // Act
      const aOver = await call('POST', '/v1/event-subscriptions', { key: w.a.live, body: { url: 'http://127.0.0.1:9/over', events: ['api_key.revoked'] } });
      const bOwn = await call('POST', '/v1/event-subscriptions', { key: w.b.live, body: { url: 'http://127.0.0.1:9/b', events: ['api_key.revoked'] } });
      // Assess
      expectError(aOver, 422, 'validation_error');
      expect(bOwn.status, bOwn.text).toBe(201);
      const bList = await call('GET', '/v1/event-subscriptions?limit=100', { key: w.b.live });
      expect(bList.body.data.map((s: { id: string }) => s.id)).toEqual([bOwn.body.id]);
      expectNoLeak(bList, '', 'B listing subscriptions');
      await call('DELETE', `/v1/event-subscriptions/${bOwn.body.id}`, { key: w.b.live });
    } finally {
      for (const id of extra) await call('DELETE', `/v1/event-subscriptions/${id}`, { key: w.a.live });
    }
  });
});

describe("the third review's attacks stay inside their tenant (docs/security.md#the-third-review-issue-37)", () => {
  it("attack: B names A's item 100 times in a batch read without a grant: one public entry, nothing written in A's log", async () => {
    // Prepare
    const link = (await call('GET', `/v1/dpps/${w.itemDppId}`)).body.uniqueProductIdentifier as string;
    const [beforeA] = await snapshotBoth();
    // Act
    const response = await call('POST', '/v1/dppsByProductIds', { key: w.b.live, body: { productIds: Array.from({ length: 100 }, () => link) } });
    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toHaveLength(1);
    expect(response.body.data[0].dpp.accessTier).toBe('public');
    const [afterA] = await snapshotBoth();
    expect(diffSnapshots(beforeA, afterA)).toEqual([]);
  });

  it("attack: B holding A's write grant cannot withdraw A's item or rewrite its identity: 403 naming the field, A's item unchanged", async () => {
    // Prepare: A gives B write access to the item's product for this test only
    const grant = await call('POST', '/v1/access-grants', { key: w.a.live, body: { granteeOrgId: w.b.orgId, tier: 'legitimate_interest', productIds: [w.productId], write: true } });
    expect(grant.status, grant.text).toBe(201);
    const before = (await call('GET', `/v1/dpps/${w.itemDppId}`, { key: w.a.live })).body;
    try {
      // Act
      const withdraw = await call('PATCH', `/v1/dpps/${w.itemDppId}`, { key: w.b.live, headers: { 'content-type': 'application/merge-patch+json' }, body: { status: 'withdrawn' } });
      const identity = await call('PATCH', `/v1/dpps/${w.itemDppId}`, {
        key: w.b.live,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { data: { generalProductInformation: { productIdentifier: 'https://id.evil.example/01/09520123456788/21/X' } } },
      });
      // Assess
      expectError(withdraw, 403, 'permission_error', 'status');
      expectError(identity, 403, 'permission_error', 'data.generalProductInformation.productIdentifier');
      const after = (await call('GET', `/v1/dpps/${w.itemDppId}`, { key: w.a.live })).body;
      expect(after.unit).toEqual(before.unit);
      expect(after.data).toEqual(before.data);
    } finally {
      await call('DELETE', `/v1/access-grants/${grant.body.id}`, { key: w.a.live });
    }
  });

  it("attack: another spelling of A's item's DPP id is a 404 for B and carries nothing of A's", async () => {
    // Prepare: an item of A whose DPP id's bytes leave one byte over a multiple of 3, so that its last
    // base64url character has 4 unused low bits: 15 other spellings of the same bytes
    const prefix = Buffer.byteLength(`${w.a.orgId} live ${w.gtin14} 21 `);
    const serial = `NC${'0'.repeat((((1 - prefix - 3) % 3) + 3) % 3)}1`;
    const item = await call('PUT', `/v1/products/${w.productId}/items/${serial}?force=true`, { key: w.a.live, body: {} });
    expect(item.status, item.text).toBe(201);
    const id = item.body.dppId as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const bytes = Buffer.from(id.slice(4), 'base64url');
    const variants = [...alphabet].map((c) => `${id.slice(0, -1)}${c}`).filter((v) => v !== id && Buffer.from(v.slice(4), 'base64url').equals(bytes));
    expect(variants).toHaveLength(15);
    // Act
    const answers = await Promise.all(variants.slice(0, 4).map((variant) => call('GET', `/v1/dpps/${variant}`, { key: w.b.live })));
    // Assess
    for (const [i, answer] of answers.entries()) {
      expectError(answer, 404, 'not_found', 'dppId');
      expectNoLeak(answer, variants[i]!, 'B reading a non-canonical DPP id');
    }
  });
});
