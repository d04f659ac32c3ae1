import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createRouteMatcher } from '../../infra/local/route-matcher.ts';
import { ROUTES, routeKey, type Route } from '../../lib/api/routes.ts';
import { issueApiKey, revokeKey } from '../../lib/services/api-keys.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { getApiKey, setApiKeyRateLimit } from '../../lib/data/api-keys.ts';
import { getEndpointById } from '../../lib/data/webhook-endpoints.ts';
import { PURPOSES } from '../../lib/domain/battery/access-tiers.ts';
import { HEADLESS_CMS_MAPPING } from '../../lib/domain/mapping.ts';
import { SUPPLIER_ROLES, WINE_COLOURS } from '../../lib/domain/passport.ts';
import { CATEGORIES } from '../../lib/domain/product.ts';
import { API_KEY_SCOPES, SCOPES } from '../../lib/domain/scopes.ts';
import { ERROR_TYPE_NAMES, statusesOf as statusesOfType } from '../../lib/http/error-types.ts';
import { MAX_BODY_BYTES } from '../../lib/http/raw-body.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { baseUrl, newSession, type TestSession } from '../support/api.ts';
import { checkContract } from '../support/contract.ts';
import { createProduct, publish, RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { diffSnapshots, snapshotOrg, type Snapshot } from '../support/snapshot.ts';
import { getImportJob } from '../../lib/data/imports.ts';
import { verifiedDomainId } from '../support/domains.ts';
import { runOfZeros, templateEntries, templateReaching, zipOf } from '../support/workbooks.ts';
import { getDomain } from '../../lib/data/domains.ts';

/**
 * Fuzzes every route of the route table (lib/api/routes.ts) over HTTP: random and malformed path
 * ids, query strings, headers (credentials, content types, Accept), bodies and sizes, mixed with
 * valid requests and near-valid mutations of them so that the handlers' deeper paths run too.
 *
 * For every response: never a 5xx; only statuses the matched route can answer (derived from its
 * table entry, and declared by the OpenAPI document, whose schema the body must also match); every
 * error in the API's shape with the type docs/decisions.md gives its status; and no 4xx
 * changes anything the organization has stored (a direct read of its partitions in DynamoDB Local
 * before and after; a 2xx may change it, and the next comparison starts from what it left).
 *
 * Replay: the seed is printed first (a fixed one unless FUZZ_SEED=random). FUZZ_SEED=<seed> replays a run, FUZZ_RUNS=<n> sets the cases
 * per route (and lifts the time budget, FUZZ_TIME_MS, that otherwise bounds the whole run).
 */

/** The seed of a plain run (`npm test`, `npm run test:fuzz`): the same cases every time. */
const FIXED_SEED = 20261123;
/** FUZZ_SEED=<n> replays a run; FUZZ_SEED=random (`npm run test:fuzz:random`) explores with a new seed. */
const SEED = !process.env.FUZZ_SEED
  ? FIXED_SEED
  : process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED);
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 40;
/** The whole run's budget (30 s: every route still gets its floor of 250 ms, and its attack seeds are sent whatever the budget). */
const TIME_MS = process.env.FUZZ_RUNS ? undefined : Number(process.env.FUZZ_TIME_MS ?? 30_000);
const PER_ROUTE_MS = TIME_MS === undefined ? undefined : Math.max(250, Math.floor(TIME_MS / ROUTES.length));
/** How long shrinking a failure may take beyond the budget. */
const SHRINK_MS = 20_000;

// ---- What a route may answer ------------------------------------------------------------------

/**
 * The error type of each status, from the table of error types (lib/http/error-types.ts).
 * Idempotency-Key conflicts (lib/api/idempotency.ts) answer 400 and 409 with type
 * `idempotency_error`: accepted only on its statuses and only for a request that sent the header.
 */
/** The types each error status may carry (409: duplicate_error or conflict), idempotency_error apart. */
const TYPES_OF_STATUS = new Map<number, Set<string>>();
for (const type of ERROR_TYPE_NAMES.filter((name) => name !== 'idempotency_error')) {
  for (const status of statusesOfType(type)) TYPES_OF_STATUS.set(status, (TYPES_OF_STATUS.get(status) ?? new Set()).add(type));
}
const IDEMPOTENCY_STATUSES = new Set(statusesOfType('idempotency_error'));
const ERROR_TYPES = new Set<string>(ERROR_TYPE_NAMES);

/** Statuses beyond what a route's table entry implies. */
const EXTRA_STATUSES: Readonly<Record<string, readonly number[]>> = {
  'POST /v1/products': [409],
  // A hostname the organization already has or another verified; the default changed meanwhile.
  'POST /v1/domains': [409],
  'PATCH /v1/domains/{domainId}': [409],
  'POST /v1/domains/{domainId}/verify': [409],
  // A file upload (docs/imports.md): queued (202), a dry run's report (200), another media type (415).
  'POST /v1/imports': [202, 415],
  // Withdrawing a withdrawn product, reinstating an active one; a draft changed by a concurrent request (docs/lifecycle.md).
  'POST /v1/products/{productId}/withdraw': [409],
  'POST /v1/products/{productId}/reinstate': [409],
  'PUT /v1/products/{productId}/draft': [409],
  'PATCH /v1/products/{productId}/draft': [409, 415],
  'DELETE /v1/products/{productId}/draft': [409],
  'POST /v1/products/{productId}/draft/publish': [409],
  // A host that is no verified brand domain has no DID document (docs/credentials.md).
  'GET /.well-known/did.json': [404],
  // A batch's or item's merge patch must say it is one (docs/api.md#batches-and-items); a write that lost its race five times (409 conflict).
  'PUT /v1/products/{productId}/batches/{lot}': [409],
  'PUT /v1/products/{productId}/items/{serial}': [409],
  'PATCH /v1/products/{productId}/batches/{lot}': [409, 415],
  'PATCH /v1/products/{productId}/items/{serial}': [409, 415],
  // An access request answered already (docs/access.md#access-requests).
  'POST /v1/access-requests/{requestId}/approve': [409],
  'POST /v1/access-requests/{requestId}/refuse': [409],
  'GET /v1/auth/login': [302],
  'GET /v1/auth/callback': [303, 401, 403],
  // An inspector's view, sign-in and callback (docs/access.md#market-surveillance-authorities): to the sign-in or the provider, 401 before signing in, 403 for an untrusted issuer, 429 past the address's limit.
  'GET /inspect/{dppId}': [302, 401, 429],
  'GET /inspect/sign-in': [302, 403, 429],
  'GET /inspect/callback': [303, 401, 403, 429],
  // The registry (docs/registry.md): off, or sending by its API (409 naming enabled or submission); a result file that is not CSV (415).
  'POST /v1/registry/registrations': [409],
  'POST /v1/registry/files': [409],
  'POST /v1/registry/results': [409, 415],
  // A transfer (docs/transfers.md): a product in an open transfer or a handover (409); an acceptance whose move goes on (202) or is refused by the state (409).
  'POST /v1/transfers': [409],
  'POST /v1/transfers/{transferId}/accept': [202, 409],
  'POST /v1/transfers/{transferId}/decline': [409],
  'POST /v1/transfers/{transferId}/cancel': [409],
  // A sign-off of terms that changed since they were read (409 naming digest, docs/labelling.md#sign-off).
  'POST /v1/labelling/sign-offs': [409],
  // A resubmission of a registration that is neither rejected nor held (409 naming status), or with registration off (enabled).
  'POST /v1/registry/registrations/{registrationId}/resubmit': [409],
};

const hasPathParams = (route: Route): boolean => /\{\w+\+?\}/.test(route.path);

/** Every status the route can answer, derived from its table entry. */
function statusesOf(route: Route): Set<number> {
  // The resolver redirects a Digital Link (307) or answers the linkset, or 410 for a withdrawn product; version pages answer 200 or 404 (docs/resolver.md),
  // or 301 to a language the version offers when its organization offers only those signed off (docs/labelling.md#sign-off).
  if (route.function === 'resolver') return new Set(route.method === 'OPTIONS' ? [204] : [200, 301, 307, 400, 404, 410]);
  const statuses = new Set<number>([200, 201, 400, 422, ...(EXTRA_STATUSES[routeKey(route)] ?? [])]);
  const add = (...more: number[]) => more.forEach((s) => statuses.add(s));
  if (route.auth === 'apiKey' || route.auth === 'optional') add(401, 403, 429);
  if (route.auth === 'session') add(401, 403, 429);
  if (route.auth === 'webhook') add(401, 413);
  if (route.body) add(413);
  if (hasPathParams(route) || route.body) add(404);
  return statuses;
}

// ---- The organization under fuzz --------------------------------------------------------------

interface Fixtures {
  orgId: string;
  keys: Record<'live' | 'test' | 'narrow' | 'revoked', string>;
  session: TestSession;
  productId: string;
  gtin14: string;
  testProductId: string;
  testGtin14: string;
  passportId: string;
  supplierId: string;
  /** A key the fuzzer may revoke (re-issued when it does). */
  keyId: string;
  /** An endpoint the fuzzer may change, rotate or delete (re-created when it does). */
  endpointId: string;
  /** A verified brand domain the fuzzer may change, verify or delete (re-created when it does). */
  domainId: string;
  /** The endpoint deliveries are signed for; no fuzzed management call ever names it. */
  ingest: { id: string; secret: string };
  /** A battery product with a published battery passport (docs/battery.md): its passports take battery data, anything else is a 4xx. */
  batteryProductId: string;
}

let fx: Fixtures;
const NO_LIMIT = 1_000_000;

async function sacrificialKey(orgId: string): Promise<string> {
  const { record } = await issueApiKey({ orgId, environment: 'live', scopes: ['products:read'], name: 'fuzz sacrificial' });
  return record.keyId;
}

async function managedEndpoint(orgId: string): Promise<string> {
  return (await createEndpoint({ orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' })).endpoint.endpointId;
}

async function setUp(): Promise<Fixtures> {
  const { organization, keys } = await createOrganization('Fuzz Winery');
  const orgId = organization.orgId;
  const narrow = await issueApiKey({ orgId, environment: 'live', scopes: ['analytics:read'], name: 'fuzz narrow' });
  const revoked = await issueApiKey({ orgId, environment: 'live', scopes: ['products:read', 'products:write'], name: 'fuzz revoked' });
  await revokeKey(orgId, revoked.record.keyId);
  const keyIds = [keys.live.keyId, keys.test.keyId, narrow.record.keyId];
  // Thousands of requests a minute: the fuzzer should meet the handlers, not the rate limit.
  for (const keyId of keyIds) await setApiKeyRateLimit(orgId, keyId, NO_LIMIT);

  const product = await createProduct(keys.live.key, { name: 'Fuzz Rouge 2022' });
  const passport = await publish(keys.live.key, product.productId, RED_WINE);
  const battery = await createProduct(keys.live.key, { name: 'Fuzz traction battery', category: 'battery' });
  await publish(keys.live.key, battery.productId, BATTERY_PASSPORT);
  const testList = await fetch(`${baseUrl()}/v1/products`, { headers: { authorization: `Bearer ${keys.test.key}` } });
  const testProduct = ((await testList.json()) as { data: Array<{ productId: string; gtin: string }> }).data[0];
  if (!testProduct) throw new Error('the sandbox has no product');
  const supplier = await fetch(`${baseUrl()}/v1/suppliers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.live.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fuzz Supplier', country: 'FR' }),
  });
  const ingest = await createEndpoint({ orgId, environment: 'live' }, { source: 'headless-cms', defaultCategory: 'wine' });
  return {
    orgId,
    keys: { live: keys.live.key, test: keys.test.key, narrow: narrow.key, revoked: revoked.key },
    session: await newSession(orgId),
    productId: product.productId,
    gtin14: `0${product.gtin}`,
    testProductId: testProduct.productId,
    testGtin14: testProduct.gtin,
    passportId: passport.passportId,
    supplierId: ((await supplier.json()) as { supplierId: string }).supplierId,
    keyId: await sacrificialKey(orgId),
    endpointId: await managedEndpoint(orgId),
    domainId: await verifiedDomainId(orgId),
    ingest: { id: ingest.endpoint.endpointId, secret: ingest.secret },
    batteryProductId: battery.productId,
  };
}

/**
 * After a success of a session route: restore whatever fixture it used up (a revoked key, a
 * deleted endpoint, an ended session). API-key routes cannot use any of them up.
 */
async function repair(route: Route): Promise<void> {
  if (route.auth !== 'session') return;
  const key = await getApiKey(fx.orgId, fx.keyId);
  if (!key || key.revokedAt) fx.keyId = await sacrificialKey(fx.orgId);
  if (!(await getEndpointById(fx.endpointId))) fx.endpointId = await managedEndpoint(fx.orgId);
  if (!(await getDomain(fx.orgId, fx.domainId))) fx.domainId = await verifiedDomainId(fx.orgId);
  const session = await fetch(`${baseUrl()}/v1/auth/session`, { headers: { cookie: fx.session.cookie } });
  await session.arrayBuffer();
  if (session.status !== 200) fx.session = await newSession(fx.orgId);
}

/**
 * After a queued import (202): waits until its worker has finished (docs/imports.md), so that its
 * writes do not land between the snapshots of a later case.
 */
async function settled(route: Route, response: Received): Promise<void> {
  if (routeKey(route) !== 'POST /v1/imports' || response.status !== 202) return;
  const { id } = JSON.parse(response.text) as { id: string };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const jobs = await Promise.all((['live', 'test'] as const).map((environment) => getImportJob({ orgId: fx.orgId, environment }, id, true)));
    if (jobs.some((job) => job?.status === 'succeeded' || job?.status === 'failed')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`import ${id} did not finish within 60 s`);
}

const snapshot = (): Promise<Snapshot> => snapshotOrg(fx.orgId, [`WHE#${fx.ingest.id}`, `WHE#${fx.endpointId}`]);

// ---- Symbolic values: generated as names, resolved against the fixtures when sent -------------

type RefName =
  | 'productId'
  | 'productIdUpper'
  | 'testProductId'
  | 'passportId'
  | 'supplierId'
  | 'keyId'
  | 'endpointId'
  | 'domainId'
  | 'freshHostname'
  | 'ingestEndpointId'
  | 'orgId'
  | 'gtin14'
  | 'gtin13'
  | 'testGtin14'
  | 'freshGtin'
  | 'batteryProductId';

interface Ref {
  $ref: RefName;
}

function resolveRef(name: RefName): string {
  switch (name) {
    case 'productId':
      return fx.productId;
    case 'productIdUpper':
      return fx.productId.toUpperCase();
    case 'testProductId':
      return fx.testProductId;
    case 'passportId':
      return fx.passportId;
    case 'supplierId':
      return fx.supplierId;
    case 'keyId':
      return fx.keyId;
    case 'endpointId':
      return fx.endpointId;
    case 'domainId':
      return fx.domainId;
    case 'freshHostname':
      return `id${uniqueGtin13()}.fuzz.example`;
    case 'ingestEndpointId':
      return fx.ingest.id;
    case 'orgId':
      return fx.orgId;
    case 'gtin14':
      return fx.gtin14;
    case 'gtin13':
      return fx.gtin14.slice(1);
    case 'testGtin14':
      return fx.testGtin14;
    case 'freshGtin':
      return uniqueGtin13();
    case 'batteryProductId':
      return fx.batteryProductId;
  }
}

const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && '$ref' in value;

/** The value with every `{$ref}` replaced by what it names now. */
function resolve(value: unknown): unknown {
  if (isRef(value)) return resolveRef(value.$ref);
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  return value;
}

const ref = (...names: RefName[]): fc.Arbitrary<Ref> => fc.constantFrom(...names).map(($ref) => ({ $ref }));

// ---- Arbitraries ------------------------------------------------------------------------------

/** Header-safe text: printable Latin-1 (fetch refuses anything else in a header). */
const headerText = (maxLength = 60) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f && (c < 0x80 || c > 0x9f)).map((c) => String.fromCharCode(c)), maxLength });

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'toString',
  '0',
  '-1',
  '1e309',
  'NaN',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\ud800',
  '\uffff',
  '😀',
  "'; DROP TABLE products; --",
  '<script>alert(1)</script>',
  'a'.repeat(1_500),
);

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: nastyStrings },
);

const weirdNumbers = fc.constantFrom(0, -0, -1, 0.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 1e308, 5e-324);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: weirdNumbers },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null]) },
);

/** A value for a field: mostly plausible, sometimes anything. */
const field = (plausible: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });

const uuid = fc.uuid();
const productIdish = fc.oneof(ref('productId', 'productIdUpper', 'testProductId', 'batteryProductId'), uuid, text);
const gtinish = fc.oneof(
  { weight: 4, arbitrary: ref('freshGtin') },
  { weight: 1, arbitrary: ref('gtin14', 'gtin13', 'testGtin14') },
  { weight: 1, arbitrary: fc.constantFrom('96385074', '4006381333931', '04006381333931', '4006381333932', '123', '0000000000000', ' 4006381333931 ', '４００６３８１３３３９３１') },
  { weight: 1, arbitrary: fc.stringMatching(/^\d{1,15}$/) },
);
const country = fc.oneof(fc.constantFrom('FR', 'DE', 'fr', 'XX', 'FRA', ''), text);
const name = fc.oneof({ weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) }, { weight: 1, arbitrary: text });
const passportData = fc.record(
  {
    productType: field(fc.constantFrom(...CATEGORIES, 'spirits')),
    colour: field(fc.constantFrom(...WINE_COLOURS, 'blue')),
    vintage: field(fc.integer({ min: 1700, max: 2200 })),
    ingredients: field(fc.array(text, { maxLength: 5 })),
    nutrition: field(fc.dictionary(fc.constantFrom('energyKj', 'fatG', 'sugarsG', 'alcoholG', 'fatg'), field(fc.double({ min: -10, max: 200_000, noNaN: true })))),
    allergens: field(fc.dictionary(fc.constantFrom('containsSulphites', 'containsEgg', 'containsNuts'), field(fc.boolean()))),
    origin: field(fc.record({ country, region: text, designation: text }, { requiredKeys: [] })),
    producers: field(fc.array(fc.record({ name, role: field(fc.constantFrom(...SUPPLIER_ROLES)), country }, { requiredKeys: [] }), { maxLength: 3 })),
  },
  { requiredKeys: [] },
);
const scopes = fc.array(fc.oneof(fc.constantFrom<string>(...SCOPES), text), { maxLength: 4 });
const mapping = fc.oneof(
  fc.constant(HEADLESS_CMS_MAPPING as Record<string, unknown>),
  fc.dictionary(fc.oneof(fc.constantFrom('gtin', 'name', 'vintage', 'nutrition.fatG', 'colour'), text), fc.oneof(text, fc.constantFrom('a.b[].c', 'entity.attributes.barcode[].barcode_number'), fc.record({ path: text, convert: text }))),
);

const validName = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
const validPassportData = fc.record(
  {
    productType: fc.constantFrom(...CATEGORIES),
    colour: fc.constantFrom(...WINE_COLOURS),
    vintage: fc.integer({ min: 1800, max: 2025 }),
    // Vocabulary entries too: one that carries an allergen without its flag is a 422 (docs/labelling.md#allergens-follow-the-ingredients).
    ingredients: fc.array(fc.oneof({ weight: 3, arbitrary: validName }, { weight: 1, arbitrary: fc.constantFrom({ code: 'grapes' }, { code: 'sulphur-dioxide' }, { code: 'egg-albumin' }) }), { maxLength: 4 }),
    nutrition: fc.oneof(
      fc.record(
        { energyKj: fc.double({ min: 0, max: 5_000, noNaN: true }), fatG: fc.double({ min: 0, max: 100, noNaN: true }), alcoholG: fc.double({ min: 0, max: 100, noNaN: true }) },
        { requiredKeys: [] },
      ),
      // The full declaration a wine must have to be published (Regulation (EU) No 1169/2011 Art. 30(1)); energy computed from the nutrients.
      fc.record({
        fatG: fc.constantFrom(0, 0.2, 1.5),
        saturatedFatG: fc.constantFrom(0, 0.1),
        carbohydratesG: fc.double({ min: 0, max: 30, noNaN: true }),
        sugarsG: fc.double({ min: 0, max: 30, noNaN: true }),
        proteinG: fc.constantFrom(0, 0.1, 0.4),
        saltG: fc.constantFrom(0, 0.01),
        alcoholG: fc.double({ min: 0, max: 20, noNaN: true }),
      }),
      // Negligible nutrients in place of their figures (Art. 34(5)).
      fc.record({ energyKj: fc.constant(320), carbohydratesG: fc.constant(2.6), sugarsG: fc.constant(0.6), negligible: fc.constant(['fat', 'saturates', 'protein', 'salt']) }),
    ),
    alcoholByVolume: fc.integer({ min: 0, max: 1000 }).map((tenths) => tenths / 10),
    allergens: fc.record({ containsSulphites: fc.boolean(), containsEgg: fc.boolean() }, { requiredKeys: [] }),
    origin: fc.record({ country: fc.constantFrom('FR', 'DE', 'IT'), region: validName, designation: validName }, { requiredKeys: [] }),
    producers: fc.array(fc.record({ name: validName, role: fc.constantFrom(...SUPPLIER_ROLES), country: fc.constantFrom('FR', 'DE') }, { requiredKeys: ['name'] }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
/** The example battery passport (docs/examples/battery-passport.json), whole: what the battery fixture publishes. */
const BATTERY_PASSPORT = JSON.parse(readFileSync(new URL('../../docs/examples/battery-passport.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
/** Battery passports: some of the example's aspects, of any battery category (a missing mandatory element is refused only from 18 February 2027). */
const validBatteryData = fc
  .tuple(fc.subarray(Object.keys(BATTERY_PASSPORT), { minLength: 1 }), fc.constantFrom('ev', 'lmt', 'industrial', 'stationary'))
  .map(([aspects, batteryCategory]) => {
    const data = Object.fromEntries(aspects.map((aspect) => [aspect, structuredClone(BATTERY_PASSPORT[aspect])]));
    if (data.generalProductInformation) data.generalProductInformation = { ...data.generalProductInformation, batteryCategory };
    return data;
  });
const validScopes = fc.uniqueArray(fc.constantFrom(...API_KEY_SCOPES), { minLength: 1, maxLength: 3 });
/** A wine lot's data (lib/domain/unit-data.ts), sometimes with a value off its bounds. */
const wineUnitData = fc.record(
  {
    bottlingDate: fc.constantFrom('2025-03-14', '2024-12-31', '2025-02-30', 'yesterday'),
    analysis: fc.record(
      { alcoholByVolume: fc.oneof(fc.integer({ min: 0, max: 1000 }).map((tenths) => tenths / 10), weirdNumbers), residualSugarGPerL: fc.double({ min: 0, max: 200, noNaN: true }) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

/** Valid bodies of the routes that take one (mutated() makes near misses of them). */
const VALID_BODIES: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  'POST /v1/products': fc.record(
    { name: validName, category: fc.constantFrom(...CATEGORIES), gtin: ref('freshGtin'), brand: validName, sku: validName },
    { requiredKeys: ['name', 'category', 'gtin'] },
  ),
  'PATCH /v1/products/{productId}': fc.record({ name: validName, category: fc.constantFrom(...CATEGORIES), brand: validName, sku: fc.option(validName) }, { requiredKeys: [] }),
  // Either kind of passport data for either product: the other kind is a 422 naming data (docs/battery.md#the-api).
  'POST /v1/passports': fc.record({ productId: ref('productId', 'batteryProductId'), data: fc.oneof(validPassportData, validBatteryData) }),
  'POST /v1/suppliers': fc.record(
    { name: validName, country: fc.constantFrom('FR', 'DE'), role: fc.constantFrom(...SUPPLIER_ROLES), vatNumber: fc.constantFrom('FR40303265045', 'DE 136 695 976') },
    { requiredKeys: ['name'] },
  ),
  'POST /v1/webhooks/endpoints': fc.oneof(
    fc.record({ source: fc.constant('headless-cms'), environment: fc.constantFrom('live', 'test'), defaultCategory: fc.constantFrom(...CATEGORIES), description: validName }, { requiredKeys: ['source'] }),
    fc.record({ source: fc.constant('custom'), mapping: fc.constant(HEADLESS_CMS_MAPPING as Record<string, unknown>) }),
  ),
  'PATCH /v1/webhooks/endpoints/{endpointId}': fc.record(
    { defaultCategory: fc.constantFrom(...CATEGORIES), mapping: fc.constant(HEADLESS_CMS_MAPPING as Record<string, unknown>), description: validName },
    { requiredKeys: [] },
  ),
  'POST /v1/auth/session': fc.record({ orgId: ref('orgId'), environment: fc.constantFrom('live', 'test') }, { requiredKeys: [] }),
  'POST /v1/auth/api-keys': fc.record({ name: validName, scopes: validScopes, environment: fc.constantFrom('live', 'test') }, { requiredKeys: ['name', 'scopes'] }),
  'POST /v1/domains': fc.record({ hostname: ref('freshHostname') }),
  'PATCH /v1/domains/{domainId}': fc.record({ default: fc.boolean() }),
  'PUT /v1/labelling/terms/{lang}/{termKey}': fc.record({ text: fc.constantFrom('Enthält: {list}', 'Contains: {list}', 'davon Zucker', 'Salt'), note: validName }, { requiredKeys: ['text'] }),
  // A language's sign-off, and offering only the languages signed off (docs/labelling.md#sign-off).
  'POST /v1/labelling/sign-offs': fc.record({ lang: fc.constantFrom('de', 'fr', 'en', 'ga') }),
  'PUT /v1/labelling/settings': fc.record({ labelLanguages: fc.constantFrom('all', 'signed-off') }),
  // A wine product's batch and item (docs/api.md#batches-and-items): its bottling date and analysis.
  'PUT /v1/products/{productId}/batches/{lot}': fc.record({ status: fc.constantFrom('active', 'withdrawn'), data: wineUnitData }, { requiredKeys: [] }),
  'PUT /v1/products/{productId}/items/{serial}': fc.record({ lot: fc.constantFrom('F1', 'L-2'), status: fc.constantFrom('active', 'withdrawn'), data: wineUnitData }, { requiredKeys: [] }),
  'PATCH /v1/products/{productId}/batches/{lot}': fc.record({ status: fc.constantFrom('active', 'withdrawn'), data: fc.option(wineUnitData, { nil: null }) }, { requiredKeys: [] }),
  'PATCH /v1/products/{productId}/items/{serial}': fc.record({ lot: fc.option(fc.constantFrom('F1', 'L-2'), { nil: null }), status: fc.constantFrom('active', 'withdrawn') }, { requiredKeys: [] }),
  // A request for access (docs/access.md#access-requests): the fuzzed organization names its own products, so it is refused (422) after its deeper checks.
  'POST /v1/access-requests': fc.record({ ownerOrgId: ref('orgId'), gtin: ref('gtin14', 'gtin13', 'testGtin14'), purpose: fc.constantFrom(...PURPOSES), justification: validName }),
  'POST /v1/access-requests/{requestId}/refuse': fc.record({ reason: validName }),
};

/** Plausible but mostly invalid bodies of the routes that take one. */
const ODD_BODIES: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  'POST /v1/products': fc.record(
    { name, category: fc.constantFrom(...CATEGORIES), gtin: gtinish, brand: name, sku: name },
    { requiredKeys: ['name', 'category', 'gtin'] },
  ),
  'PATCH /v1/products/{productId}': fc.record(
    { name, category: fc.constantFrom(...CATEGORIES), brand: name, sku: fc.option(name) },
    { requiredKeys: [] },
  ),
  'POST /v1/passports': fc.record({ productId: productIdish, data: passportData }),
  'POST /v1/suppliers': fc.record(
    { name, country, role: fc.constantFrom(...SUPPLIER_ROLES), vatNumber: fc.constantFrom('FR40303265045', 'DE 136 695 976', 'XX1') },
    { requiredKeys: ['name'] },
  ),
  'POST /v1/webhooks/endpoints': fc.record(
    {
      source: fc.constantFrom('headless-cms', 'custom'),
      environment: fc.constantFrom('live', 'test'),
      defaultCategory: fc.constantFrom(...CATEGORIES),
      mapping,
      description: text,
    },
    { requiredKeys: ['source'] },
  ),
  'PATCH /v1/webhooks/endpoints/{endpointId}': fc.record(
    { defaultCategory: fc.constantFrom(...CATEGORIES), mapping, description: text },
    { requiredKeys: [] },
  ),
  'POST /v1/auth/session': fc.record(
    { orgId: fc.oneof(ref('orgId'), fc.constantFrom('org_0000000000000000'), text), environment: fc.constantFrom('live', 'test', 'prod') },
    { requiredKeys: [] },
  ),
  'POST /v1/auth/api-keys': fc.record(
    { name, scopes, environment: fc.constantFrom('live', 'test', 'prod') },
    { requiredKeys: ['name', 'scopes'] },
  ),
  'POST /v1/domains': fc.record({
    hostname: fc.oneof(
      ref('freshHostname'),
      fc.constantFrom('127.0.0.1', '[::1]', 'localhost', 'id.localhost', '*.brand.example', 'brand', '-a.example', 'a_b.example', 'ID.Brand.Example', 'id.brand.example.', `${'a'.repeat(64)}.example`),
      text,
    ),
  }),
  'PATCH /v1/domains/{domainId}': fc.record({ default: fc.oneof(fc.boolean(), anyJson) }, { requiredKeys: [] }),
};

/** A valid body with one field dropped, replaced by anything, or one unknown field added. */
const mutated = (valid: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(valid, fc.constantFrom('drop', 'replace', 'extra'), fc.nat(), anyJson, fc.oneof(text, fc.constantFrom('gtin', 'productId', 'tenantId', 'orgId', '__proto__')))
    .map(([body, how, index, value, extraName]) => {
      const keys = Object.keys(body);
      const key = keys.length ? keys[index % keys.length]! : extraName;
      const copy: Record<string, unknown> = { ...body };
      if (how === 'drop') delete copy[key];
      else if (how === 'replace') copy[key] = value;
      else Object.defineProperty(copy, extraName, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    });

/** The sample headless-CMS payload (events/webhooks/) with a fresh barcode, mutated here and there. */
const SAMPLE = JSON.parse(readFileSync(new URL('../../events/webhooks/headless-cms-product.json', import.meta.url), 'utf8')) as {
  entity: { attributes: Record<string, unknown> & { barcode: Array<Record<string, unknown>> } };
};
const ATTRIBUTES = [...Object.keys(SAMPLE.entity.attributes), 'contains_egg', 'fat', 'producer', 'energy_value_kcal'];
const ingestPayload = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: anyJson })), { maxLength: 3 }),
    gtinish,
    fc.constantFrom('entity.update', 'entity.create', 'entity.delete', undefined, 42),
  )
  .map(([changes, gtin, eventType]) => {
    const doc = structuredClone(SAMPLE) as Record<string, any>;
    doc.entity.attributes.barcode[0].barcode_number = gtin;
    if (eventType === undefined) delete doc.event_type;
    else doc.event_type = eventType;
    for (const [attribute, value] of changes) {
      if (value === undefined) delete doc.entity.attributes[attribute];
      else doc.entity.attributes[attribute] = value;
    }
    return doc;
  });

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'deep'; depth: number; open: string; close: string }
  | { kind: 'huge'; bytes: number };

const malformedJson = fc.oneof(
  fc.constantFrom('{', '[', '{"name":', 'nul', "{'name':'x'}", '{"name":"x",}', '{} {}', '\ufeff{}', '{"a":1}garbage', '"\\ud800"', 'NaN', '{"a":01}'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Routes whose body is a file, not JSON (their valid requests send it as text/csv): a few CSV files, good and bad. */
const FILE_BODIES: Readonly<Record<string, fc.Arbitrary<Body>>> = {
  'POST /v1/imports': fc
    .constantFrom(
      'gtin,name,category\n4006381333931,Fuzz Riesling,wine\n',
      'gtin,name,category,passport.vintage\n4006381333931,Fuzz Riesling,wine,1700\n',
      'gtin\n4006381333931\n',
      'gtin,name\n"unclosed,x\n',
      'gtin,unknown\n1,2\n',
      '\uFEFFgtin,name,category\r\n96385074,Fuzz,food\r\n',
    )
    .map((text): Body => ({ kind: 'text', text })),
};

function bodyFor(route: Route): fc.Arbitrary<Body | undefined> {
  if (route.method === 'GET' || route.method === 'HEAD') return fc.constant(undefined);
  const valid = VALID_BODIES[routeKey(route)];
  const jsonValues: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 2, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.dictionary(text, anyJson, { maxKeys: 4 }) },
  ];
  if (valid) jsonValues.push({ weight: 3, arbitrary: valid }, { weight: 4, arbitrary: mutated(valid) });
  const odd = ODD_BODIES[routeKey(route)];
  if (odd) jsonValues.push({ weight: 4, arbitrary: odd });
  if (route.auth === 'webhook') jsonValues.push({ weight: 8, arbitrary: ingestPayload });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 12, arbitrary: fc.oneof(...jsonValues).map((value) => ({ kind: 'json' as const, value })) },
    { weight: 2, arbitrary: malformedJson.map((t) => ({ kind: 'text' as const, text: t })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'bytes' as const, bytes })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(100, 5_000, 60_000), fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"data":', '}']))
        .map(([depth, [open, close]]) => ({ kind: 'deep' as const, depth, open: open!, close: close! })),
    },
    { weight: 1, arbitrary: fc.constantFrom(MAX_BODY_BYTES - 20, MAX_BODY_BYTES + 1).map((bytes) => ({ kind: 'huge' as const, bytes })) },
  );
}

/** Content types, mostly JSON. */
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'APPLICATION/JSON',
      'application/json;charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/octet-stream',
      'application/merge-patch+json',
      '',
    ),
  },
  { weight: 1, arbitrary: headerText(40) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const accept = fc.oneof(
  fc.constantFrom('text/html', 'application/json', 'application/linkset+json', '*/*', 'image/svg+xml', 'text/html;q=0,application/json;q=abc', 'application/*;q=0.5, text/*', ''),
  headerText(60),
);

type AuthChoice = 'live' | 'test' | 'narrow' | 'revoked' | 'none' | { raw: string };
const authorization: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<AuthChoice>('live') },
  { weight: 2, arbitrary: fc.constantFrom<AuthChoice>('test', 'narrow', 'revoked', 'none') },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom('Bearer', 'Bearer ', 'bearer sk_live_', `Bearer sk_live_${'A'.repeat(32)}`, `Bearer sk_prod_${'A'.repeat(32)}`, 'Basic dXNlcjpwYXNz', `Bearer  sk_test_${'a'.repeat(33)}`),
        headerText(80).map((t) => `Bearer ${t}`),
        headerText(80),
      )
      .map((raw) => ({ raw })),
  },
);

interface SessionChoice {
  cookie: 'valid' | 'tampered' | 'none' | 'other' | { raw: string };
  origin: 'ok' | 'evil' | 'null' | 'none';
  csrf: 'ok' | 'wrong' | 'none';
}
const sessionChoice: fc.Arbitrary<SessionChoice> = fc.record({
  cookie: fc.oneof(
    { weight: 4, arbitrary: fc.constant<SessionChoice['cookie']>('valid') },
    { weight: 2, arbitrary: fc.constantFrom<SessionChoice['cookie']>('tampered', 'none', 'other') },
    { weight: 1, arbitrary: headerText(80).map((raw) => ({ raw })) },
  ),
  origin: fc.oneof({ weight: 4, arbitrary: fc.constant<SessionChoice['origin']>('ok') }, { weight: 2, arbitrary: fc.constantFrom<SessionChoice['origin']>('evil', 'null', 'none') }),
  csrf: fc.oneof({ weight: 4, arbitrary: fc.constant<SessionChoice['csrf']>('ok') }, { weight: 2, arbitrary: fc.constantFrom<SessionChoice['csrf']>('wrong', 'none') }),
});

interface WebhookChoice {
  endpointIn: 'query' | 'header' | 'both' | 'none';
  endpoint: Ref | string;
  signature: 'valid' | 'upper' | 'wrongSecret' | 'otherBody' | 'none' | { raw: string };
}
const webhookChoice: fc.Arbitrary<WebhookChoice> = fc.record({
  endpointIn: fc.oneof({ weight: 6, arbitrary: fc.constant<WebhookChoice['endpointIn']>('query') }, { weight: 1, arbitrary: fc.constantFrom<WebhookChoice['endpointIn']>('header', 'both', 'none') }),
  endpoint: fc.oneof({ weight: 8, arbitrary: ref('ingestEndpointId') }, { weight: 1, arbitrary: ref('endpointId') }, { weight: 1, arbitrary: fc.oneof(text, fc.constant('whe_00000000000000000000')) }),
  signature: fc.oneof(
    { weight: 4, arbitrary: fc.constant<WebhookChoice['signature']>('valid') },
    { weight: 2, arbitrary: fc.constantFrom<WebhookChoice['signature']>('upper', 'wrongSecret', 'otherBody', 'none') },
    { weight: 1, arbitrary: fc.oneof(headerText(80), fc.constantFrom('sha256=', `sha256=${'0'.repeat(64)}`, `sha256=${'0'.repeat(63)}`)).map((raw) => ({ raw })) },
  ),
});

/** A path segment: a fixture's id (valid, foreign-environment, re-cased) or anything, encoded or raw. */
interface Segment {
  value: Ref | string;
  raw: boolean;
}

const REFS_OF_PARAM: Readonly<Record<string, RefName[]>> = {
  productId: ['productId', 'productIdUpper', 'testProductId', 'batteryProductId'],
  supplierId: ['supplierId'],
  keyId: ['keyId'],
  endpointId: ['endpointId'],
  domainId: ['domainId'],
  orgId: ['orgId'],
  gtin: ['gtin14', 'gtin13', 'testGtin14'],
};

/** Values a path parameter names a fixture with (or plausible values of it). */
function plausibleSegment(param: string, greedy: boolean): fc.Arbitrary<Ref | string> {
  if (param === 'environment') return fc.constantFrom('live', 'test', 'LIVE', 'prod');
  // The e-label's legal terms (docs/labelling.md#correcting-a-term): real ones, an interface text, near misses.
  if (param === 'lang') return fc.constantFrom('de', 'fr', 'en', 'ga', 'DE', 'xx', 'de-AT');
  if (param === 'termKey') return fc.constantFrom('contains', 'sugars', 'allergen_sulphites', 'pageKicker', 'Sugars', 'nope');
  // Lots and serials (GS1 AI 10 and 21, docs/api.md#batches-and-items): the fixture's, new ones, and near misses.
  if (param === 'lot' || param === 'serial') return fc.constantFrom('F1', 'FUZZ-LOT', 'A/B%"1', 'x'.repeat(20), 'x'.repeat(21), 'L 1', 'é', '10');
  if (greedy) return fc.constantFrom('10/LOT1', '22/CPV/10/LOT1/21/SER1', '21/%2F', '235/TPX', '10', '99/x', '10/LOT1/10/LOT2', 'a/b/c/d/e/f/g');
  const known = REFS_OF_PARAM[param];
  return known ? ref(...known) : ref('productId', 'supplierId', 'endpointId', 'orgId');
}

function segmentFor(param: string, greedy: boolean): fc.Arbitrary<Segment> {
  const anything = fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    nastyStrings,
    uuid,
    fc.constantFrom('sup_00000000000000000000', 'key_00000000000000000000', 'whe_00000000000000000000', 'dom_00000000000000000000', 'org_0000000000000000', 'ps_x', '.', '..', '%2e%2e', '%', '%zz', '%F0%9F'),
  );
  return fc.oneof(
    { weight: 3, arbitrary: plausibleSegment(param, greedy).map((value) => ({ value, raw: true })) },
    { weight: 3, arbitrary: anything.map((value) => ({ value, raw: false })) },
    { weight: 1, arbitrary: anything.map((value) => ({ value, raw: true })) },
  );
}

const QUERY_NAMES = ['limit', 'offset', 'starting_after', 'size', 'margin', 'start', 'end', 'granularity', 'environment', 'returnTo', 'endpoint', 'linkType', 'code', 'state'];
const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '100', '101', '20', '1.5', '1e2', '0x10', 'NaN', 'Infinity', '', ' ', '2026-01-01', '2025-02-30', '1900-01-01', 'day', 'week', 'month', 'year', 'live', 'test', 'linkset', 'all', '/v1/auth/session', '//evil.example', 'https://evil.example/'),
  ref('productId', 'passportId', 'supplierId'),
  text,
);
type Query = { pairs: Array<[string, Ref | string]> } | { raw: string };
const query: fc.Arbitrary<Query> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Query>({ pairs: [] }) },
  { weight: 6, arbitrary: fc.array(fc.tuple(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: text }), queryValue), { minLength: 1, maxLength: 3 }).map((pairs) => ({ pairs })) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '&&&', '=x', 'limit=%E0%A4%A', 'limit=1&limit=2', 'a[b]=1', 'limit', '__proto__=1', 'constructor=x').map((raw) => ({ raw })) },
);

const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('accept-language', 'user-agent', 'referer', 'cloudfront-viewer-country', 'x-forwarded-for', 'idempotency-key', 'x-request-id', 'if-none-match'),
        fc.stringMatching(/^x-fuzz-[a-z0-9-]{1,20}$/),
      ),
      headerText(120),
    ),
    // A few keys used again and again: replays, and the same key with another body.
    fc.tuple(fc.constant('idempotency-key'), fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3')),
  ),
  { maxLength: 3 },
);

interface Case {
  segments: Record<string, Segment>;
  query: Query;
  auth: AuthChoice;
  session: SessionChoice;
  webhook: WebhookChoice;
  accept?: string;
  contentType?: string;
  headers: Array<[string, string]>;
  body?: Body;
}

/** Which part of a request a case fuzzes; the other parts are those of a valid request. */
type Focus = 'path' | 'query' | 'credentials' | 'headers' | 'body' | 'everything' | 'nothing';
const FOCUS: ReadonlyArray<fc.WeightedArbitrary<Focus>> = [
  { weight: 3, arbitrary: fc.constantFrom<Focus>('path', 'query', 'credentials', 'headers', 'body') },
  { weight: 1, arbitrary: fc.constant<Focus>('everything') },
  { weight: 1, arbitrary: fc.constant<Focus>('nothing') },
];

function caseFor(route: Route): fc.Arbitrary<Case> {
  const params = [...route.path.matchAll(/\{(\w+)(\+?)\}/g)].map((m) => ({ name: m[1]!, greedy: m[2] === '+' }));
  const segments = (of: (name: string, greedy: boolean) => fc.Arbitrary<Segment>) =>
    fc.record(Object.fromEntries(params.map((p) => [p.name, of(p.name, p.greedy)])) as Record<string, fc.Arbitrary<Segment>>);
  const fuzzed = fc.record({
    segments: segments(segmentFor),
    query,
    auth: authorization,
    session: sessionChoice,
    webhook: webhookChoice,
    accept: fc.option(accept, { nil: undefined }),
    contentType,
    headers: extraHeaders,
    body: bodyFor(route),
  });
  const validBody = VALID_BODIES[routeKey(route)] ?? (route.auth === 'webhook' ? ingestPayload : undefined);
  const file = FILE_BODIES[routeKey(route)];
  const plain = fc.record({
    segments: segments((name, greedy) => plausibleSegment(name, greedy).map((value) => ({ value, raw: true }))),
    query: fc.constant<Query>({ pairs: [] }),
    auth: fc.constant<AuthChoice>('live'),
    session: fc.constant<SessionChoice>({ cookie: 'valid', origin: 'ok', csrf: 'ok' }),
    webhook: fc.constant<WebhookChoice>({ endpointIn: 'query', endpoint: { $ref: 'ingestEndpointId' }, signature: 'valid' }),
    accept: fc.constant(undefined),
    contentType: fc.constant(file ? 'text/csv' : 'application/json'),
    headers: fc.constant<Array<[string, string]>>([]),
    body: file ?? (validBody ? validBody.map((value): Body => ({ kind: 'json', value })) : bodyFor(route)),
  });
  return fc.tuple(fc.oneof(...FOCUS), fuzzed, plain).map(([focus, f, p]): Case => {
    switch (focus) {
      case 'everything':
        return f;
      case 'nothing':
        return p;
      case 'path':
        return { ...p, segments: f.segments };
      case 'query':
        return { ...p, query: f.query };
      case 'credentials':
        return { ...p, auth: f.auth, session: f.session, webhook: f.webhook };
      case 'headers':
        return { ...p, accept: f.accept, contentType: f.contentType, headers: f.headers };
      case 'body':
        return { ...p, body: f.body, contentType: f.contentType };
    }
  });
}

// ---- Sending a case ---------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const str = (value: Ref | string): string => (isRef(value) ? resolveRef(value.$ref) : value);

/** encodeURIComponent, with lone surrogates (which it refuses) sent as U+FFFD. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

function encodeSegment(segment: Segment, greedy: boolean): string {
  const value = str(segment.value);
  if (segment.raw) return value.replace(/[#?]/g, encodeURIComponent);
  return greedy ? value.split('/').map(encode).join('/') : encode(value);
}

function bodyBytes(body: Body): Buffer {
  switch (body.kind) {
    case 'json':
      return Buffer.from(JSON.stringify(resolve(body.value)) ?? 'null');
    case 'text':
      return Buffer.from(body.text);
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'deep':
      return Buffer.from(`${body.open.repeat(body.depth)}1${body.close.repeat(body.depth)}`);
    case 'huge': {
      const shell = Buffer.from('{"name":"","category":"wine","gtin":"96385074"}');
      return Buffer.from(`{"name":"${'a'.repeat(Math.max(0, body.bytes - shell.length))}","category":"wine","gtin":"96385074"}`);
    }
  }
}

function materialize(route: Route, c: Case): Sent {
  const path = route.path.replace(/\{(\w+)(\+?)\}/g, (_, param: string, plus: string) => encodeSegment(c.segments[param]!, plus === '+'));
  const headers: Record<string, string> = {};
  let search = '';
  if ('raw' in c.query) search = c.query.raw;
  else search = c.query.pairs.map(([k, v]) => `${encode(k)}=${encode(str(v))}`).join('&');

  if (c.auth !== 'none') headers.authorization = typeof c.auth === 'object' ? c.auth.raw : `Bearer ${fx.keys[c.auth]}`;
  if (route.auth === 'session') {
    // A session route gets the cookie; an API key sent along shows that a key never stands in for it.
    if (c.auth === 'live') delete headers.authorization;
    const { cookie, origin, csrf } = c.session;
    if (cookie === 'valid') headers.cookie = fx.session.cookie;
    else if (cookie === 'tampered') headers.cookie = `${fx.session.cookie.slice(0, -6)}AAAAAA`;
    else if (cookie === 'other') headers.cookie = 'theme=dark; passport_sessionx=1';
    else if (typeof cookie === 'object') headers.cookie = cookie.raw;
    if (origin === 'ok') headers.origin = baseUrl();
    else if (origin === 'evil') headers.origin = 'https://evil.example';
    else if (origin === 'null') headers.origin = 'null';
    if (csrf === 'ok') headers['x-csrf-token'] = fx.session.csrfToken;
    else if (csrf === 'wrong') headers['x-csrf-token'] = 'x'.repeat(fx.session.csrfToken.length);
  }
  for (const [name, value] of c.headers) headers[name] = value;
  if (c.accept !== undefined) headers.accept = c.accept;

  let body: Buffer | undefined;
  if (c.body) {
    body = bodyBytes(c.body);
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  }
  if (route.auth === 'webhook') {
    const { endpointIn, endpoint, signature } = c.webhook;
    const id = str(endpoint);
    if (endpointIn === 'query' || endpointIn === 'both') search = `endpoint=${encode(id)}${search ? `&${search}` : ''}`;
    if (endpointIn === 'header' || endpointIn === 'both') headers['x-webhook-endpoint'] = id;
    const bytes = body ?? Buffer.alloc(0);
    const sign = (secret: string, data: Buffer) => `sha256=${createHmac('sha256', secret).update(data).digest('hex')}`;
    if (signature === 'valid') headers['x-webhook-signature'] = sign(fx.ingest.secret, bytes);
    else if (signature === 'upper') headers['x-webhook-signature'] = sign(fx.ingest.secret, bytes).toUpperCase();
    else if (signature === 'wrongSecret') headers['x-webhook-signature'] = sign('whsec_wrong', bytes);
    else if (signature === 'otherBody') headers['x-webhook-signature'] = sign(fx.ingest.secret, Buffer.concat([bytes, Buffer.from(' ')]));
    else if (typeof signature === 'object') headers['x-webhook-signature'] = signature.raw;
  }
  return { method: route.method, url: `${baseUrl()}${path}${search ? `?${search}` : ''}`, headers, ...(body ? { body } : {}) };
}

interface Received {
  status: number;
  headers: Headers;
  text: string;
}

async function send(request: Sent): Promise<Received> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body ? { body: request.body } : {}),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const preview = (value: string | Buffer | undefined, max = 300): string => {
  const s = value === undefined ? '' : value.toString();
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
};

function describeExchange(request: Sent, response: Received): string {
  return [
    `${request.method} ${preview(request.url, 400)}`,
    `headers: ${preview(JSON.stringify(request.headers), 600)}`,
    `body: ${preview(request.body)}`,
    `→ ${response.status} ${response.headers.get('content-type') ?? ''} ${preview(response.text, 600)}`,
    `(replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/fuzz)`,
  ].join('\n  ');
}

// ---- The checks -------------------------------------------------------------------------------

const match = createRouteMatcher(ROUTES);

/** The route the gateway serves `request` with, and what it may answer. */
function expectationOf(request: Sent): { label: string; statuses: Set<number>; route?: Route } {
  const found = match(request.method, new URL(request.url).pathname);
  if (found.kind === 'none') return { label: 'no route', statuses: new Set([404]) };
  if (found.kind === 'method-not-allowed') return { label: 'method not allowed', statuses: new Set([405]) };
  return { label: routeKey(found.route), statuses: statusesOf(found.route), route: found.route };
}

function checkResponse(request: Sent, response: Received): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n  ${describeExchange(request, response)}`);
  };
  const expected = expectationOf(request);
  if (response.status >= 500) fail(`a ${response.status}`);
  if (!expected.statuses.has(response.status)) fail(`status ${response.status} is not one ${expected.label} can answer (${[...expected.statuses].join(', ')})`);
  if (!response.headers.get('request-id')) fail('no Request-Id header');
  // The OpenAPI document (lib/api) declares the operation's statuses and bodies: the answer must be one of them.
  const contentType = response.headers.get('content-type') ?? '';
  let parsedBody: unknown = response.text;
  if (contentType.includes('json') && response.text) {
    try {
      parsedBody = JSON.parse(response.text);
    } catch {
      fail('a JSON content type with a body that is not JSON');
    }
  }
  try {
    checkContract(request.method, request.url, response.status, contentType, parsedBody);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (response.status < 400) return;

  // The resolver answers browsers' errors with a friendly page; HEAD answers carry no body.
  if (request.method === 'HEAD') return;
  if (expected.route?.function === 'resolver' && contentType.startsWith('text/html')) {
    if (!/<html/i.test(response.text)) fail('an HTML error without a page');
    return;
  }
  if (!/^application\/json\b/.test(contentType)) fail(`an error with content type '${contentType}'`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    fail('an error body that is not JSON');
  }
  const body = parsed as { error?: Record<string, unknown> };
  const error = body?.error;
  if (typeof error !== 'object' || error === null || Object.keys(body).length !== 1) fail('an error body that is not {error: {...}}');
  const { type, code, message, param, suggestion, documentationUrl } = error!;
  if (typeof type !== 'string' || !ERROR_TYPES.has(type)) fail(`error.type '${String(type)}' is not a type of lib/http/error-types.ts`);
  if (code !== type) fail('error.code differs from error.type');
  const idempotencyConflict = type === 'idempotency_error' && IDEMPOTENCY_STATUSES.has(response.status) && request.headers['idempotency-key'] !== undefined;
  if (!TYPES_OF_STATUS.get(response.status)?.has(String(type)) && !idempotencyConflict) {
    fail(`error.type '${String(type)}' on a ${response.status} (lib/http/error-types.ts: ${[...(TYPES_OF_STATUS.get(response.status) ?? [])].join(' or ')})`);
  }
  if (typeof message !== 'string' || message === '') fail('error.message is not a non-empty string');
  if (/\[native code\]|\[object \w+\]/.test(String(message))) fail('error.message is not a readable sentence');
  for (const [name, value] of Object.entries({ param, suggestion, documentationUrl })) {
    if (value !== undefined && typeof value !== 'string') fail(`error.${name} is not a string`);
  }
  // params: every field a refusal names when it names several (a battery passport's missing elements; lib/api/schemas.ts errorSchema).
  const { params } = error!;
  if (params !== undefined && !(Array.isArray(params) && params.length > 0 && params.every((p) => typeof p === 'string'))) fail('error.params is not a list of field names');
  const extra = Object.keys(error!).filter((k) => !['type', 'code', 'message', 'param', 'params', 'suggestion', 'documentationUrl'].includes(k));
  if (extra.length) fail(`error has fields the error object does not name: ${extra.join(', ')}`);
}

// ---- The suite --------------------------------------------------------------------------------

/** A stable per-route seed, so that replaying one route needs only FUZZ_SEED. */
function seedOf(route: Route): number {
  let hash = SEED | 0;
  for (const ch of routeKey(route)) hash = (Math.imul(hash ^ ch.charCodeAt(0), 16777619) + 1) | 0;
  return hash;
}

// ---- The reviews' attacks, sent first on every run ---------------------------------------------

/**
 * The reviews' attacks (docs/security.md#the-second-review-issue-24, #the-third-review-issue-37) as fast-check examples:
 * every run sends them before its generated cases, so a regression shows as a 5xx, an undeclared
 * status or a 4xx that changed data, whether or not the seed would have found it.
 */
function attackCase(route: Route, parts: Partial<Case>): Case {
  const segments = Object.fromEntries(
    [...route.path.matchAll(/\{(\w+)(\+?)\}/g)].map((m) => [m[1]!, { value: REFS_OF_PARAM[m[1]!] ? { $ref: REFS_OF_PARAM[m[1]!]![0]! } : '10/LOT1', raw: true }]),
  ) as Record<string, Segment>;
  return {
    segments,
    query: { pairs: [] },
    auth: 'live',
    session: { cookie: 'valid', origin: 'ok', csrf: 'ok' },
    webhook: { endpointIn: 'query', endpoint: { $ref: 'ingestEndpointId' }, signature: 'valid' },
    accept: undefined,
    contentType: 'application/json',
    headers: [],
    ...parts,
  };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const LONG_HOST = `${'a'.repeat(63)}.`.repeat(64).slice(0, 4_000);

/** Route key → the attacks sent to it. Built once, before the first route (the workbooks are async). */
async function reviewAttacks(): Promise<Map<string, Case[]>> {
  const byKey = (key: string): Route => {
    const route = ROUTES.find((r) => routeKey(r) === key);
    if (!route) throw new Error(`attack seed for ${key}: no such route in the route table`);
    return route;
  };
  const attacks = new Map<string, Case[]>();
  const add = (key: string, ...parts: Array<Partial<Case>>) => attacks.set(key, [...(attacks.get(key) ?? []), ...parts.map((p) => attackCase(byKey(key), p))]);
  const dryRun: Query = { pairs: [['dryRun', 'true']] };
  // Findings 1, 2, 7, 8: tall.xlsx, a 40 MiB bomb, JSON Lines 200,000 deep, formula cells.
  const bomb = zipOf([...(await templateEntries()), await runOfZeros('xl/media/image1.bin', 40 * 1024 * 1024)]);
  add(
    'POST /v1/imports',
    { query: dryRun, contentType: XLSX_TYPE, body: { kind: 'bytes', bytes: await templateReaching(1_048_576) } },
    { query: dryRun, contentType: XLSX_TYPE, body: { kind: 'bytes', bytes: bomb } },
    { query: dryRun, contentType: 'application/x-ndjson', body: { kind: 'text', text: `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}\n` } },
    { query: dryRun, contentType: 'text/csv', body: { kind: 'text', text: 'gtin,name,category\n4006381333931,"=HYPERLINK(""https://evil.example"")",wine\n' } },
  );
  // Finding 9: IPv6 forms that embed IPv4.
  add(
    'POST /v1/event-subscriptions',
    ...['https://[::127.0.0.1]/hook', 'https://[::ffff:0:127.0.0.1]/hook', 'https://[::a9fe:a9fe]/hook'].map((url): Partial<Case> => ({ body: { kind: 'json', value: { url, events: ['*'] } } })),
  );
  // Finding 11: special-use names as brand domains.
  add('POST /v1/domains', ...['localhost.localdomain', 'brand.onion', 'id.internal'].map((hostname): Partial<Case> => ({ body: { kind: 'json', value: { hostname } } })));
  // Finding 6 and 11: a 2,000-character host, and an origin the resolver did not expect.
  const hosts: Array<Partial<Case>> = [{ headers: [['x-forwarded-host', LONG_HOST]] }, { headers: [['x-forwarded-host', 'evil_host!.example']] }];
  add('GET /.well-known/did.json', ...hosts);
  add('GET /01/{gtin}', ...hosts, { headers: [['x-resolver-origin', 'https://evil.example']] });
  add('GET /{orgId}/{environment}/01/{gtin}', { headers: [['x-resolver-origin', 'https://evil.example']] });
  // JSON bodies past the depth budget, on a merge patch and a signed delivery.
  add('PATCH /v1/products/{productId}/draft', { contentType: 'application/merge-patch+json', body: { kind: 'deep', depth: 40_000, open: '{"data":', close: '}' } });
  add('POST /v1/webhooks/ingest', { body: { kind: 'deep', depth: 33, open: '{"entity":', close: '}' } });
  // Finding 8 of issue 37: a key twice in one object, and a name with a terminal escape, BEL and a right-to-left override.
  add(
    'POST /v1/products',
    { body: { kind: 'text', text: '{"name":"Riesling","category":"wine","gtin":"4006381333931","\\u006eame":"Evil"}' } },
    { body: { kind: 'json', value: { name: 'Riesling\u001b[2J\u0007\u202Egnilseir', category: 'wine', gtin: '4006381333931' } } },
  );
  // Issue 37, finding 3: an anonymous batch of 100 copies of one identifier, and 11 distinct ones (over the anonymous 10).
  const link = 'https://id.example/01/09520123456788/21/SER1';
  add(
    'POST /v1/dppsByProductIds',
    { auth: 'none', body: { kind: 'json', value: { productIds: Array.from({ length: 100 }, () => link) } } },
    { auth: 'none', body: { kind: 'json', value: { productIds: Array.from({ length: 11 }, (_, i) => `${link}${i}`) } } },
  );
  // Issue 37, finding 7: serials '.' and '..' through the items import, as PUT refuses them.
  add('POST /v1/imports', {
    query: { pairs: [['type', 'items'], ['productId', { $ref: 'productId' }], ['dryRun', 'true']] },
    contentType: 'text/csv',
    body: { kind: 'text', text: 'serial,status\n.,active\n..,active\n' },
  });
  return attacks;
}
let attacks: Map<string, Case[]>;

let stored: Snapshot;
const summary: string[] = [];

beforeAll(async () => {
  console.log(`[fuzz] seed ${SEED}, ${RUNS} cases per route${PER_ROUTE_MS ? `, at most ${PER_ROUTE_MS} ms per route` : ''} (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/fuzz)`);
  fx = await setUp();
  attacks = await reviewAttacks();
  stored = await snapshot();
});

afterAll(() => {
  const total = summary.reduce((sum, line) => sum + Number(/: (\d+) cases/.exec(line)?.[1] ?? 0), 0);
  console.log(`[fuzz] seed ${SEED}: ${total} requests over ${summary.length} routes${process.env.FUZZ_VERBOSE ? `\n  ${summary.join('\n  ')}` : ' (FUZZ_VERBOSE=1 for each route\'s statuses)'}`);
});

describe('fuzzing every route of the route table', () => {
  for (const route of ROUTES) {
    it(routeKey(route), { timeout: PER_ROUTE_MS ? PER_ROUTE_MS * 3 + 30_000 : 600_000 }, async () => {
      const seen = new Map<number, number>();
      let cases = 0;
      let requestMs = 0;
      // The time budget: once spent, the remaining cases pass without a request (shrinking a failure gets extra time).
      // The review's attack seeds (fast-check runs them first) are sent whatever the budget.
      const deadline = PER_ROUTE_MS === undefined ? Infinity : Date.now() + PER_ROUTE_MS;
      const examples = attacks.get(routeKey(route)) ?? [];
      let failedAt: number | undefined;
      await fc.assert(
        fc.asyncProperty(caseFor(route), async (c) => {
          if (cases >= examples.length && Date.now() > (failedAt === undefined ? deadline : failedAt + SHRINK_MS)) return;
          cases++;
          // Prepare
          const request = materialize(route, c);
          // Act
          const sentAt = performance.now();
          const response = await send(request);
          requestMs += performance.now() - sentAt;
          seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
          // Assess
          try {
            checkResponse(request, response);
            if (response.status >= 400) {
              const changes = diffSnapshots(stored, await snapshot());
              if (changes.length) throw new Error(`a ${response.status} changed stored data:\n    ${changes.slice(0, 10).join('\n    ')}\n  ${describeExchange(request, response)}`);
            }
          } catch (error) {
            failedAt ??= Date.now();
            throw error;
          } finally {
            if (response.status < 400 || failedAt !== undefined) {
              await repair(route);
              await settled(route, response);
              stored = await snapshot();
            }
          }
        }),
        { seed: seedOf(route), numRuns: RUNS, examples: examples.map((c): [Case] => [c]) },
      );
      const statuses = [...seen].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
      summary.push(`${routeKey(route)}: ${cases} cases, ${statuses} (${Math.round(requestMs / Math.max(1, cases))} ms a request)`);
      if (cases === 0) throw new Error('no case ran');
    });
  }
});
