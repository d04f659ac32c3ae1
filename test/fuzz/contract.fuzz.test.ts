import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';
import { setApiKeyRateLimit } from '../../lib/data/api-keys.ts';
import { issueApiKey } from '../../lib/services/api-keys.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { registrationIdOf } from '../../lib/domain/registry/registration.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { baseUrl, call, newSession, type ApiResponse, type TestSession } from '../support/api.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { arbitraryOf, queryArbitrary, type JsonSchema, type QueryParameter } from '../support/json-schema-arbitrary.ts';

/**
 * The contract, generatively (issue 12 item 6): requests built from `GET /v1/openapi.json` itself
 * (not from the handlers' schemas) with fast-check, one property per operation. Whatever the
 * document calls valid must be accepted: a 2xx, or a 404/409 only for a reason the document gives
 * about stored state (a GTIN already registered is 409; a path id the test made up is 404). Never
 * a 400 or 422. Path ids are those of resources of the test's own organization, so a 404 there is
 * a bug; requests carry a key with every scope, or a dashboard session for session routes.
 *
 * The document's extensions are rules too: `x-check-digit` (GTINs get a valid GS1 check digit),
 * `x-mutually-exclusive-with` (offset and starting_after never together), `x-date-window`
 * (analytics windows as the extension bounds them) and `x-refers-to` (a cursor names an existing
 * passport; a resolver's linkType one the product has).
 *
 * Replay: the seed is printed. A plain run uses a fixed seed; FUZZ_SEED=<n> replays another,
 * FUZZ_SEED=random explores. FUZZ_RUNS (default 8) sets the requests per operation; all of them
 * are sent, so a plain run sends the same requests on any machine. CONTRACT_TIME_MS, when set,
 * bounds the whole file instead (a quick look; which requests are sent then depends on the machine).
 */
const FIXED_SEED = 20_261_123;
const SEED = !process.env.FUZZ_SEED ? FIXED_SEED : process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
/** 8 a plain run: the first 8 of the 12 requests it used to send (same seed); the bugs it found are regression tests now (docs/testing.md). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const TIME_MS = process.env.CONTRACT_TIME_MS ? Number(process.env.CONTRACT_TIME_MS) : undefined;

/** Operations the property does not send, and why. */
const SKIPPED: Readonly<Record<string, string>> = {
  'POST /v1/webhooks/ingest':
    "needs an HMAC signature over the body with an endpoint secret, and its body's rules are the endpoint's own mapping, stored state no schema of the document can carry (covered by test/fuzz/api.fuzz.test.ts and the webhook tests)",
  'GET /v1/auth/login': 'redirects to the identity provider: a browser flow (test/integration/auth.test.ts)',
  'GET /v1/auth/callback': 'the identity provider’s return with its one-time code and the sign-in cookie (test/integration/auth.test.ts)',
  'GET /inspect/sign-in': 'redirects an authority’s inspector to its identity provider: a browser flow (test/integration/inspector.test.ts)',
  'GET /inspect/callback': 'the authority’s identity provider’s return with its one-time code and the sign-in cookie (test/integration/inspector.test.ts)',
  'PATCH /v1/products/{productId}/draft':
    'a merge patch (RFC 7396) is valid or not by the draft it merges into, stored state no schema of the document can carry (covered by test/integration/lifecycle.test.ts and test/fuzz/api.fuzz.test.ts)',
  'PATCH /v1/products/{productId}/batches/{lot}':
    'a merge patch (RFC 7396) is valid or not by the batch it merges into, stored state no schema of the document can carry (covered by test/integration/items.test.ts and test/fuzz/api.fuzz.test.ts)',
  'PATCH /v1/products/{productId}/items/{serial}':
    'a merge patch (RFC 7396) is valid or not by the item it merges into, stored state no schema of the document can carry (covered by test/integration/items.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/access-grants':
    'its body names another organization on the platform by id, stored state no schema of the document can carry (covered by test/integration/access.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/access-requests':
    'its body names another organization’s published battery passports (by Digital Link, or by organization id and GTIN), stored state no schema of the document can carry (covered by test/integration/access-requests.test.ts and test/fuzz/api.fuzz.test.ts)',
  'PATCH /v1/dpps/{dppId}':
    'a merge patch (RFC 7396) is valid or not by the item it merges into, stored state no schema of the document can carry (covered by test/integration/access.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/handovers':
    'its body names another organization on the platform by id and a battery item of the caller, stored state no schema of the document can carry (covered by test/integration/battery-handover.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/transfers':
    'its body names another organization on the platform by id, stored state no schema of the document can carry (covered by test/integration/transfers.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/registry/results':
    'its body is the registry\'s result file (CSV) whose rows must name entries submitted before, stored state no schema of the document can carry (covered by test/integration/registry-files.test.ts and test/fuzz/api.fuzz.test.ts)',
  'POST /v1/imports':
    'its body is a file (CSV, XLSX, JSON Lines) whose rules are the template’s columns, which no schema of a media type can state (covered by test/fuzz/api.fuzz.test.ts and test/integration/imports.test.ts)',
};

type Json = Record<string, any>;
interface Operation {
  key: string;
  method: string;
  path: string;
}
const OPERATIONS: Operation[] = Object.entries(buildOpenApi().paths).flatMap(([path, methods]) =>
  Object.keys(methods).map((method) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path })),
);

interface Fixtures {
  orgId: string;
  key: string;
  productId: string;
  gtin14: string;
  passportId: string;
  supplierId: string;
  keyId: string;
  endpointId: string;
  /** A verified brand domain (verify answers it as it is; default may be set on it). */
  domainId: string;
  /** An event of the organization (the fixture product's creation). */
  eventId: string;
  /** A batch and an item of the fixture product (docs/api.md#batches-and-items). */
  lot: string;
  serial: string;
  /** The fixture product's registration in the EU registry (its model's), made by prepare() (docs/registry.md#registrations). */
  registrationId: string;
  /**
   * A food product, the one a generated passport is published for: a wine must carry its whole
   * nutrition declaration (docs/labelling.md#which-products-are-wine), which generated data all but
   * never does, so that every request for the wine would be a documented 422 and none accepted.
   */
  foodProductId: string;
}
let fx: Fixtures;
let document: Json;
let budgetPerOperation = Infinity;

async function sacrificialKeyId(orgId: string): Promise<string> {
  return (await issueApiKey({ orgId, environment: 'live', scopes: ['products:read'], name: 'contract sacrificial' })).record.keyId;
}
async function endpointId(orgId: string): Promise<string> {
  return (await createEndpoint({ orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' })).endpoint.endpointId;
}

beforeAll(async () => {
  const response = await fetch(`${baseUrl()}/v1/openapi.json`);
  document = (await response.json()) as Json;
  const { organization } = await createOrganization('Contract Winery');
  const orgId = organization.orgId;
  const all = await issueApiKey({ orgId, environment: 'live', scopes: ['products:read', 'products:write', 'passports:read', 'passports:write', 'suppliers:read', 'suppliers:write', 'analytics:read', 'imports:read', 'imports:write', 'events:read', 'event_subscriptions:read', 'event_subscriptions:write', 'labelling:read', 'labelling:write', 'access_grants:read', 'access_grants:write', 'registry:read', 'registry:write'], name: 'contract: every scope' });
  // Hundreds of requests a minute: the property should meet the handlers, not the rate limit.
  await setApiKeyRateLimit(orgId, all.record.keyId, 1_000_000);
  const key = all.key;
  const product = await createProduct(key, { name: 'Contract Rouge 2022' });
  const food = await createProduct(key, { name: 'Contract Passata', category: 'food' });
  const passport = await publish(key, product.productId, RED_WINE);
  const supplier = await call('POST', '/v1/suppliers', { key, body: { name: 'Contract Supplier', country: 'FR' } });
  await putDraft(key, product.productId);
  await putUnits(key, product.productId);
  const events = await call('GET', '/v1/events?limit=1', { key });
  fx = {
    orgId,
    key,
    productId: product.productId,
    foodProductId: food.productId,
    gtin14: product.gtin.padStart(14, '0'),
    passportId: passport.passportId,
    supplierId: (supplier.body as { supplierId: string }).supplierId,
    keyId: await sacrificialKeyId(orgId),
    endpointId: await endpointId(orgId),
    domainId: await verifiedDomainId(orgId),
    eventId: (events.body as { data: { id: string }[] }).data[0]?.id ?? '',
    lot: 'CL1',
    serial: 'CS1',
    registrationId: registrationIdOf(orgId, 'live', product.qrCodeUrl),
  };
  if (TIME_MS !== undefined) budgetPerOperation = Math.max(300, Math.floor(TIME_MS / OPERATIONS.filter((o) => !skipReason(o)).length));
  const budget = Number.isFinite(budgetPerOperation) ? `, at most ${budgetPerOperation} ms each` : '';
  console.log(`[contract] seed ${SEED}, ${RUNS} requests per operation${budget} (replay: FUZZ_SEED=${SEED} npx vitest run test/fuzz/contract.fuzz.test.ts)`);
}, 120_000);

/** A path parameter: the fixture of that name (an existing resource), or a value from its schema. */
function pathValue(name: string): string | undefined {
  switch (name) {
    case 'productId':
      return fx.productId;
    case 'supplierId':
      return fx.supplierId;
    case 'keyId':
      return fx.keyId;
    case 'endpointId':
      return fx.endpointId;
    case 'domainId':
      return fx.domainId;
    case 'eventId':
      return fx.eventId;
    case 'orgId':
      return fx.orgId;
    case 'environment':
      return 'live';
    case 'gtin':
      return fx.gtin14;
    case 'lot':
      return fx.lot;
    case 'serial':
      return fx.serial;
    case 'registrationId':
      return fx.registrationId;
    default:
      return undefined;
  }
}

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Analytics windows as `x-date-window` bounds them: end not before start, at most maxDays days. */
function dateWindow(rule: { start: string; end: string; maxDays: number }): fc.Arbitrary<Record<string, string>> {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return fc
    .record({ endOffset: fc.integer({ min: -800, max: 30 }), span: fc.integer({ min: 0, max: rule.maxDays - 1 }), form: fc.constantFrom('both', 'start', 'end', 'neither') })
    .map(({ endOffset, span, form }) => {
      const end = form === 'start' ? today : today + endOffset * DAY_MS;
      const window: Record<string, string> = {};
      if (form === 'both' || form === 'start') window[rule.start] = day(end - span * DAY_MS);
      if (form === 'both' || form === 'end') window[rule.end] = day(end);
      return window;
    });
}

interface Request {
  /** The path, its fixture parameters resolved when it is sent. */
  path: () => string;
  query: Record<string, string>;
  body?: unknown;
  /** Path parameters generated rather than taken from the fixtures: a 404 on them is a state reason. */
  madeUp: string[];
}

function requestArbitrary(operation: Operation, spec: Json): fc.Arbitrary<Request> {
  const parameters = (spec.parameters ?? []) as Array<QueryParameter & { in: string; 'x-refers-to'?: string }>;
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const path = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        // A fixture is looked up when the request is sent: a repaired fixture (a new key) is a new id.
        const fixture = pathValue(p.name) !== undefined;
        // A made-up value fills a path segment, which cannot be empty.
        const schema = typeof p.schema === 'object' && p.schema.minLength === undefined && !p.schema.enum ? { ...p.schema, minLength: 1 } : p.schema;
        return [p.name, fixture ? fc.constant({ fixture: p.name, madeUp: false }) : arbitraryOf(schema, { root: document }).map((v) => ({ value: String(v), madeUp: true }))];
      }),
    ),
  );
  const cursorRefs = queryParams.filter((p) => p['x-refers-to'] === 'passportId').map((p) => p.name);
  const linkTypeRefs = queryParams.filter((p) => p['x-refers-to'] === 'linkType').map((p) => p.name);
  const eventRefs = queryParams.filter((p) => p['x-refers-to'] === 'eventId').map((p) => p.name);
  const productRefs = queryParams.filter((p) => p['x-refers-to'] === 'productId').map((p) => p.name);
  const window = spec['x-date-window'] as { start: string; end: string; maxDays: number } | undefined;
  const query = fc.tuple(queryArbitrary(queryParams, { root: document }), window ? dateWindow(window) : fc.constant({})).map(([generated, dates]) => {
    const out: Record<string, string> = { ...generated };
    if (window) {
      delete out[window.start];
      delete out[window.end];
    }
    // x-refers-to: the cursor names the fixture product's passport.
    for (const name of cursorRefs) if (name in out) out[name] = fx.passportId;
    for (const name of eventRefs) if (name in out) out[name] = fx.eventId;
    // x-refers-to productId: the query names the fixture product (the items export); a required one is always there.
    for (const name of productRefs) out[name] = fx.productId;
    // x-refers-to linkType: a link every product has (its e-label page, or the linkset).
    for (const name of linkTypeRefs) if (name in out) out[name] = out[name]!.length % 2 === 0 ? 'gs1:pip' : 'linkset';
    return { ...out, ...dates };
  });
  const bodySchema = spec.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
  const body = bodySchema === undefined ? fc.constant(undefined) : arbitraryOf(bodySchema, { root: document });
  return fc.record({ path, query, body }).map(({ path: values, query: q, body: b }) => {
    const url = () => {
      let out = operation.path;
      for (const [name, param] of Object.entries(values as Record<string, { value?: string; fixture?: string }>)) {
        const value = param.fixture ? (pathValue(param.fixture) ?? '') : (param.value ?? '');
        // The greedy {qualifiers} keeps its slashes; every other segment is encoded.
        const encoded = name === 'qualifiers' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
        out = out.replace(`{${name}}`, encoded);
      }
      return out;
    };
    const request: Request = { path: url, query: q, madeUp: Object.entries(values).filter(([, v]) => v.madeUp).map(([n]) => n) };
    if (b !== undefined) request.body = withFixtureIds(b, operation.key === 'POST /v1/passports' ? fx.foodProductId : fx.productId);
    return request;
  });
}

/** Ids in a body that must name the organization's own resources do. */
function withFixtureIds(body: unknown, productId: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out = { ...(body as Json) };
  if ('productId' in out) out.productId = productId;
  // An event subscription's receiver: a generated host cannot resolve here (no network), so the
  // local stack's loopback, which it allows (docs/webhooks-outbound.md#ssrf).
  if (typeof out.url === 'string' && Array.isArray(out.events)) out.url = 'http://127.0.0.1:9/contract';
  if ('orgId' in out) out.orgId = fx.orgId;
  return out;
}

/** The documented reasons about stored state, or a rule the schema cannot state, for which a valid request may be refused. */
function stateReason(operation: Operation, request: Request, response: ApiResponse): boolean {
  const code = (response.body as { error?: { type?: string } } | undefined)?.error?.type;
  // Generated product ids name no product of the organization, generated lots and serials none of its batches and items: stored state (docs/registry.md#registrations).
  if (response.status === 404 && operation.key === 'POST /v1/registry/registrations') {
    return /^(?:productIds\[\d+\]|items\[\d+\]\.(?:productId|serial|lot))$/.test((response.body as { error?: { param?: string } }).error?.param ?? '');
  }
  if (response.status === 409) {
    // A GTIN already registered; a hostname the organization already has (generated hostnames repeat).
    if (['POST /v1/products', 'POST /v1/domains'].includes(operation.key)) return code === 'duplicate_error';
    // A digest (generated) that is not the one of the language's terms as they are now: stored state (docs/labelling.md#sign-off).
    if (operation.key === 'POST /v1/labelling/sign-offs') return code === 'conflict' && (response.body as { error?: { param?: string } }).error?.param === 'digest';
    return false;
  }
  // A subscription URL whose generated host does not resolve: DNS is the world's state, not the document's (docs/webhooks-outbound.md#ssrf).
  if (response.status === 422 && operation.path.startsWith('/v1/event-subscriptions')) {
    const error = (response.body as { error?: { param?: string; message?: string } }).error;
    return error?.param === 'url' && /does not resolve/.test(error.message ?? '');
  }
  // A batch's or item's data is checked against its product's category (a wine's is WineUnitData), a rule
  // across the path and the body that the data's description states in words (docs/api.md#the-data-of-a-batch-or-an-item).
  if (response.status === 422 && /^PUT \/v1\/products\/\{productId\}\/(batches|items)\//.test(operation.key)) {
    const error = (response.body as { error?: { param?: string } }).error;
    return /^data(\.|$)/.test(error?.param ?? '');
  }
  // A declared energy far from what the generated nutrients give: a rule across fields that the
  // document states in words, not in JSON Schema (docs/labelling.md#energy-and-rounding).
  if (response.status === 422) {
    const error = (response.body as { error?: { param?: string; message?: string } }).error;
    if (/^data\.nutrition\.energyK(j|cal)$/.test(error?.param ?? '') && /disagrees with the nutrients/.test(error?.message ?? '')) return true;
    // Passport data of the other kind than the product's category takes (a battery passport for the fixture's wine): data's description states it (docs/battery.md#the-api).
    if (error?.param === 'data' && /category/.test(error?.message ?? '')) return true;
    // A wine that declares fish: its fish-derived fining agents are exempt (Reg. (EU) No 1169/2011 Annex II point 4(b)); the allergens' description states it.
    if (error?.param === 'data.allergens.containsFish' && /Annex II point 4\(b\)/.test(error?.message ?? '')) return true;
    // A vocabulary ingredient that carries an allergen whose flag is not true: the allergens' description states it (docs/labelling.md#allergens-follow-the-ingredients).
    if (/^data\.allergens\.contains(Sulphites|Egg|Milk)$/.test(error?.param ?? '') && /must be true: data\.ingredients\[\d+\]/.test(error?.message ?? '')) return true;
    // A wine's allergen flag that no ingredient of its list carries, and a wine's free text naming E 220 or a sulphiting agent, lysozyme or casein
    // without its term: rules the allergens' description and docs/labelling.md#free-text-allergens state in words.
    if (/^data\.allergens\.contains(Sulphites|Egg|Milk)$/.test(error?.param ?? '') && /no ingredient of the list carries/.test(error?.message ?? '')) return true;
    if (/^data\.ingredients\[\d+\](\.text\.[a-z]{2})?$/.test(error?.param ?? '') && /without the term a wine's list of ingredients/.test(error?.message ?? '')) return true;
    // An "of which" value under no row of its nutrient, and a wine's strength not in whole or half units: the nutrition's and alcoholByVolume's descriptions state them.
    if (/^(data\.)?nutrition\.(saturatedFatG|sugarsG)$/.test(error?.param ?? '') && /"of which/.test(error?.message ?? '')) return true;
    if (error?.param === 'data.alcoholByVolume' && /whole or half units/.test(error.message ?? '')) return true;
    // A term's wording must keep the placeholders of the platform text the path names, and the path's key must be a legal term in
    // that language: rules across the path and the body that the text's and termKey's descriptions state in words (docs/labelling.md#correcting-a-term).
    if (operation.path.startsWith('/v1/labelling/terms/')) {
      if (error?.param === 'text' && /placeholder/.test(error?.message ?? '')) return true;
      if (error?.param === 'termKey' && /interface text/.test(error?.message ?? '')) return true;
    }
    // A wine published without the full nutrition declaration, a nutrient listed as negligible
    // with a value above its threshold, or listed twice: rules that the nutrition schema's
    // description states in words (Regulation (EU) No 1169/2011 Art. 30(1) and 34(5)); the
    // nutrition calculator takes the same nutrition object, without the `data.` prefix.
    if (/^data\.nutrition(\.(energyKj|fatG|saturatedFatG|carbohydratesG|sugarsG|proteinG|saltG))?$/.test(error?.param ?? '') && /is required for a wine/.test(error?.message ?? '')) return true;
    // At most one decimal place, which the document states in words (multipleOf 0.1 is not float-safe).
    if (error?.param === 'data.alcoholByVolume' && /at most one decimal place/.test(error.message ?? '')) return true;
    if (/^(data\.)?nutrition\.negligible$/.test(error?.param ?? '') && /must not list a nutrient twice/.test(error?.message ?? '')) return true;
    return /^(data\.)?nutrition\.(fatG|saturatedFatG|carbohydratesG|sugarsG|proteinG|saltG)$/.test(error?.param ?? '') && /a negligible amount of/.test(error?.message ?? '');
  }
  // An id the test made up; an instant before the product's first version (docs/lifecycle.md#point-in-time);
  // an instant before a batch's or item's first version.
  if (response.status === 404 && /\/(batches|items)\/\{(lot|serial)\}$/.test(operation.path) && 'at' in request.query) return true;
  // An id the test made up; an instant before the product's first version (docs/lifecycle.md#point-in-time).
  if (response.status === 404) return request.madeUp.length > 0 || (operation.key === 'GET /v1/products/{productId}/passport' && 'at' in request.query);
  return false;
}

/** After a success that used a fixture up (a revoked key, a deleted endpoint), a new one. */
async function repair(operation: Operation): Promise<void> {
  if (operation.key === 'DELETE /v1/auth/api-keys/{keyId}') fx.keyId = await sacrificialKeyId(fx.orgId);
  if (operation.key === 'DELETE /v1/webhooks/endpoints/{endpointId}') fx.endpointId = await endpointId(fx.orgId);
  if (operation.key === 'DELETE /v1/domains/{domainId}') fx.domainId = await verifiedDomainId(fx.orgId);
  // The fixture product stays a wine: its passport's kind follows its category (docs/battery.md#the-api), and a generated patch may make it a battery.
  if (operation.key === 'PATCH /v1/products/{productId}') await call('PATCH', `/v1/products/${fx.productId}`, { key: fx.key, body: { category: 'wine' } });
  // The fixture product stays resolvable and keeps a draft (docs/lifecycle.md).
  if (operation.key === 'POST /v1/products/{productId}/withdraw') await call('POST', `/v1/products/${fx.productId}/reinstate`, { key: fx.key });
  if (['DELETE /v1/products/{productId}/draft', 'POST /v1/products/{productId}/draft/publish'].includes(operation.key)) await putDraft(fx.key, fx.productId);
  // The fixture batch and item stay registered, active and together, whatever a PUT made of them.
  if (/^PUT \/v1\/products\/\{productId\}\/(batches|items)\//.test(operation.key)) await putUnits(fx.key, fx.productId);
}

/** Before a request that needs a state the fixtures do not keep: a withdrawn product to reinstate (docs/lifecycle.md#withdrawal). */
async function prepare(operation: Operation): Promise<void> {
  // Registration on, by files, whatever a generated PUT of the settings left (docs/registry.md#settings).
  if (['POST /v1/registry/files', 'POST /v1/registry/registrations'].includes(operation.key)) {
    const settings = { enabled: true, submission: 'files', operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000' };
    const saved = await call('PUT', '/v1/registry/settings', { key: fx.key, body: settings });
    if (saved.status !== 200) throw new Error(`prepare registry settings: ${saved.status} ${saved.text}`);
  }
  // The fixture product's registration, for the operations that name it: registration on, and made on demand (once; then existing).
  // Its Digital Link is on the platform's host, so no upload file ever takes it: it stays pending_checks, to be resubmitted.
  if (operation.path.startsWith('/v1/registry/registrations/{registrationId}')) {
    const settings = { enabled: true, submission: 'files', operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'], commodityCode: '85076000' };
    const saved = await call('PUT', '/v1/registry/settings', { key: fx.key, body: settings });
    const made = await call('POST', '/v1/registry/registrations', { key: fx.key, body: { productIds: [fx.productId] } });
    if (saved.status !== 200 || made.status !== 200) throw new Error(`prepare the fixture registration: ${saved.status} ${made.status} ${made.text}`);
  }
  if (operation.key === 'POST /v1/products/{productId}/reinstate') {
    await call('POST', `/v1/products/${fx.productId}/withdraw`, { key: fx.key, body: { reason: 'contract: to be reinstated' } });
  }
}

/** The fixture batch CL1 and its item CS1, active (docs/api.md#batches-and-items): every Digital Link of lot and serial fixtures resolves. */
async function putUnits(key: string, productId: string): Promise<void> {
  for (const [path, body] of [
    [`/v1/products/${productId}/batches/CL1`, {}],
    [`/v1/products/${productId}/items/CS1`, { lot: 'CL1' }],
  ] as const) {
    const unit = await call('PUT', path, { key, body });
    if (unit.status !== 201 && unit.status !== 200) throw new Error(`put ${path}: ${unit.status} ${unit.text}`);
  }
}

async function putDraft(key: string, productId: string): Promise<void> {
  const response = await call('PUT', `/v1/products/${productId}/draft`, { key, body: { data: RED_WINE } });
  if (response.status !== 200) throw new Error(`put draft: ${response.status} ${response.text}`);
}

/** Why an operation is not sent, if it is not. */
function skipReason(operation: Operation): string | undefined {
  if (SKIPPED[operation.key]) return SKIPPED[operation.key];
  // The brand-domain resolver paths (no organization in them) answer only on a verified brand domain's host.
  if (operation.path.startsWith('/01/') || operation.path === '/.well-known/did.json') {
    return "answered only on the host of a brand domain verified over DNS, which a request to the local stack's address cannot be";
  }
  return undefined;
}

describe('requests the OpenAPI document calls valid are accepted', () => {
  it('the served document is the one the code builds, operation for operation', () => {
    const served = Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served.sort()).toEqual(OPERATIONS.map((o) => o.key).sort());
  });

  for (const operation of OPERATIONS) {
    const skipped = skipReason(operation);
    if (skipped) {
      it.skip(`${operation.key} (skipped: ${skipped})`, () => {});
      continue;
    }
    it(`${operation.key}: 2xx, or 404/409 for a documented state reason; never 400 or 422`, async () => {
      // Prepare
      const spec = (document.paths as Json)[operation.path][operation.method.toLowerCase()] as Json;
      const security = (spec.security ?? []) as Array<Record<string, string[]>>;
      const usesKey = security.some((s) => 'ApiKey' in s);
      const usesSession = !usesKey && security.some((s) => 'SessionCookie' in s);
      // Signing out and switching change the session itself: those two get a fresh one per request.
      // Every other session operation has a user of its own, so no operation meets the per-user rate limit.
      const ownSession = ['POST /v1/auth/logout', 'POST /v1/auth/session'].includes(operation.key);
      const operationSession = usesSession && !ownSession ? await newSession(fx.orgId) : undefined;
      const seen = new Map<number, number>();
      // The time budget ends the runs between requests (fast-check's interruptAfterTimeLimit would
      // leave a request in flight while the next operation starts).
      const deadline = Date.now() + budgetPerOperation;
      let sent = 0;
      // Act & Assess
      const result = await fc.check(
        fc.asyncProperty(requestArbitrary(operation, spec), async (request) => {
          if (sent > 0 && Date.now() > deadline) return;
          sent += 1;
          await prepare(operation);
          const session = usesSession ? (operationSession ?? (await newSession(fx.orgId))) : undefined;
          const query = new URLSearchParams(request.query).toString();
          const path = request.path();
          const response = await call(operation.method, `${path}${query ? `?${query}` : ''}`, {
            ...(usesKey ? { key: fx.key } : {}),
            ...(session ? { session } : {}),
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
          // A 2xx, or a redirect the operation declares (the resolver's 307 to the chosen link).
          const declared = String(response.status) in (spec.responses as Json);
          const accepted = (response.status >= 200 && response.status < 300) || (response.status < 400 && declared) || stateReason(operation, request, response);
          if (!accepted) {
            throw new Error(`${operation.method} ${path}?${query} ${request.body === undefined ? '' : JSON.stringify(request.body)} → ${response.status} ${response.text.slice(0, 400)}`);
          }
          if (response.status < 300) await repair(operation);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // Assess
      if (result.failed) {
        throw new Error(`${operation.key}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n(replay: FUZZ_SEED=${SEED})`);
      }
      expect(sent, `${operation.key}: no request was sent`).toBeGreaterThan(0);
      // With every path id a fixture, at least one request was accepted outright: the property did not pass on refusals alone.
      const madeUpPath = ((spec.parameters ?? []) as Array<{ in: string; name: string }>).some((p) => p.in === 'path' && pathValue(p.name) === undefined);
      if (!madeUpPath) expect([...seen.keys()].some((status) => status < 400), `${operation.key}: ${JSON.stringify([...seen])}`).toBe(true);
    }, 60_000);
  }
});
