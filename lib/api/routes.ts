import type { EventType } from '../domain/event-types.ts';
import type { Scope } from '../domain/scopes.ts';

/**
 * The one route table. The CDK stack (infra/) creates an API Gateway route and integration for each entry,
 * and the local gateway serves exactly these; each function's handler checks at load time that it
 * implements exactly the routes the table gives it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';

export type FunctionName =
  | 'products'
  | 'passports'
  | 'suppliers'
  | 'resolver'
  | 'auth'
  | 'analytics'
  | 'aggregator'
  | 'webhooks'
  | 'ingest'
  | 'docs'
  | 'domains'
  | 'imports'
  | 'import-worker'
  | 'events'
  | 'labelling'
  | 'credentials'
  | 'event-subscriptions'
  | 'event-fanout'
  | 'event-delivery'
  | 'items'
  | 'registry'
  | 'health'
  | 'scan-spill'
  | 'access'
  | 'inspect'
  | 'registry-files'
  | 'registry-outbox-feed'
  | 'registry-outbox'
  | 'transfers';

/**
 * How a route authenticates: an API key (Bearer; the dashboard's session cookie is accepted too, see
 * lib/api/handler.ts), the dashboard session cookie only, none (the public resolver), the webhook
 * HMAC signature, or `optional`: an API key or session when the request has one (then checked as
 * `apiKey`), else none (the EN 18222 reads: a caller without credentials reads the public tier,
 * docs/access.md#reads).
 */
export type Auth = 'apiKey' | 'session' | 'none' | 'webhook' | 'optional';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: `{name}` for a segment, `{name+}` for the rest. */
  path: string;
  function: FunctionName;
  auth: Auth;
  /** Any one of these scopes authorizes the call. */
  scopes: readonly Scope[];
  /** Whether the operation reads a body (JSON, unless `rawBody`). */
  body: boolean;
  /**
   * The operation reads the body's raw bytes (a file upload: CSV, XLSX, JSON Lines) and checks its
   * Content-Type itself; the JSON body parser is skipped.
   */
  rawBody?: boolean;
  /** The largest body accepted, in bytes (default 256 KiB, lib/http/raw-body.ts); 413 beyond. */
  maxBodyBytes?: number;
  /** Creates something: an `Idempotency-Key` header makes retries safe (lib/api/idempotency.ts). */
  idempotent?: boolean;
  /**
   * What a state-changing route (POST, PUT, PATCH, DELETE) writes to the event log, in the
   * transaction of its change (docs/lifecycle.md#event-log): one event of this type per successful
   * call that changes something, none for a refused one; or `{ none: why }` for a route that changes
   * no organization data (signing out). test/integration/events-by-route.test.ts holds every route to it.
   */
  event?: EventType | { none: string };
  /**
   * A batch route's further events: one per change it makes (a webhook delivery creates products
   * and publishes versions), each in that change's transaction, beside its one `event`.
   */
  changeEvents?: readonly EventType[];
  /**
   * What the same route writes instead of `event` when its change is of another kind: a PUT that
   * replaces an existing batch writes `batch.updated`, one that withdraws it `batch.withdrawn`
   * (docs/api.md#batches-and-items). Still one event per call that changes something.
   */
  otherEvents?: readonly EventType[];
}

/** Event subscriptions are configuration of the outbound webhooks, not in the event log. */

export const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v1/products', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: true, idempotent: true, event: 'product.created' },
  { method: 'GET', path: '/v1/products', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'GET', path: '/v1/products/{productId}', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'PATCH', path: '/v1/products/{productId}', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: true, event: 'product.updated' },
  // Withdrawal, not deletion (docs/lifecycle.md#withdrawal).
  { method: 'POST', path: '/v1/products/{productId}/withdraw', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: true, event: 'product.withdrawn' },
  { method: 'POST', path: '/v1/products/{productId}/reinstate', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'product.reinstated' },
  { method: 'GET', path: '/v1/products/{productId}/qr', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },
  // The export needs both scopes: the table admits either, the handler requires both (docs/import-export.md#export).
  { method: 'GET', path: '/v1/exports/products', function: 'products', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  // The organization's whole archive, a presigned URL to a ZIP (docs/import-export.md#leaving-the-archive); both scopes, as the export.
  // Served by the credentials function: it signs the versions never signed, and only that function holds the signing keys.
  // A POST: it changes state (signs, writes the archive), so a session cookie's call needs the CSRF proof (lib/auth/session.ts).
  { method: 'POST', path: '/v1/exports/archive', function: 'credentials', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false, event: { none: 'builds the organization\'s archive: signs the versions never signed yet (credentials, which every version may have) and uploads the ZIP; no passport, product or item changes' } },

  { method: 'POST', path: '/v1/passports', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: true, idempotent: true, event: 'passport.published' },
  { method: 'GET', path: '/v1/products/{productId}/passport', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  { method: 'GET', path: '/v1/products/{productId}/passports', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  // A battery passport's completeness report by element (docs/battery.md#completeness-and-publishing); other passports' missing fields.
  { method: 'GET', path: '/v1/products/{productId}/passport/completeness', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  // The product's one draft (docs/lifecycle.md#drafts): never public; publishing it makes the next version.
  { method: 'GET', path: '/v1/products/{productId}/draft', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  { method: 'PUT', path: '/v1/products/{productId}/draft', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: true, event: 'passport.draft.updated' },
  { method: 'PATCH', path: '/v1/products/{productId}/draft', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: true, event: 'passport.draft.updated' },
  { method: 'DELETE', path: '/v1/products/{productId}/draft', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: false, event: 'passport.draft.deleted' },
  { method: 'POST', path: '/v1/products/{productId}/draft/publish', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: false, event: 'passport.published' },

  // A product's batches and serialised items (docs/api.md#batches-and-items): reads as the product's, writes with products:write.
  ...(['batch', 'item'] as const).flatMap((kind) => {
    const [collection, name] = kind === 'batch' ? (['batches', 'lot'] as const) : (['items', 'serial'] as const);
    const base = `/v1/products/{productId}/${collection}`;
    const read = ['products:read', 'passports:read'] as const;
    return [
      { method: 'GET', path: base, function: 'items', auth: 'apiKey', scopes: read, body: false } as const,
      { method: 'PUT', path: `${base}/{${name}}`, function: 'items', auth: 'apiKey', scopes: ['products:write'], body: true, event: `${kind}.created`, otherEvents: [`${kind}.updated`, `${kind}.withdrawn`] } as const,
      { method: 'GET', path: `${base}/{${name}}`, function: 'items', auth: 'apiKey', scopes: read, body: false } as const,
      { method: 'PATCH', path: `${base}/{${name}}`, function: 'items', auth: 'apiKey', scopes: ['products:write'], body: true, event: `${kind}.updated`, otherEvents: [`${kind}.withdrawn`] } as const,
      { method: 'GET', path: `${base}/{${name}}/qr`, function: 'items', auth: 'apiKey', scopes: read, body: false } as const,
    ];
  }),
  // The items of a product with their Digital Links, for a label printer (docs/import-export.md#items).
  { method: 'GET', path: '/v1/exports/items', function: 'items', auth: 'apiKey', scopes: ['products:read'], body: false },
  // Access beyond the public tier (docs/access.md): grants, and the EN 18222 reads, whose callers may have no credentials.
  { method: 'POST', path: '/v1/access-grants', function: 'access', auth: 'apiKey', scopes: ['access_grants:write'], body: true, idempotent: true, event: 'access_grant.created' },
  { method: 'GET', path: '/v1/access-grants', function: 'access', auth: 'apiKey', scopes: ['access_grants:read'], body: false },
  { method: 'GET', path: '/v1/access-grants/{grantId}', function: 'access', auth: 'apiKey', scopes: ['access_grants:read'], body: false },
  { method: 'DELETE', path: '/v1/access-grants/{grantId}', function: 'access', auth: 'apiKey', scopes: ['access_grants:write'], body: false, event: 'access_grant.revoked' },
  // Requests for access by a person with a legitimate interest (docs/access.md#access-requests): the requester asks, the owner answers.
  { method: 'POST', path: '/v1/access-requests', function: 'access', auth: 'apiKey', scopes: ['access_grants:write'], body: true, idempotent: true, event: 'access_request.created' },
  { method: 'GET', path: '/v1/access-requests', function: 'access', auth: 'apiKey', scopes: ['access_grants:read'], body: false },
  { method: 'GET', path: '/v1/access-requests/{requestId}', function: 'access', auth: 'apiKey', scopes: ['access_grants:read'], body: false },
  { method: 'POST', path: '/v1/access-requests/{requestId}/approve', function: 'access', auth: 'apiKey', scopes: ['access_grants:write'], body: false, event: 'access_request.approved', changeEvents: ['access_grant.created'] },
  { method: 'POST', path: '/v1/access-requests/{requestId}/refuse', function: 'access', auth: 'apiKey', scopes: ['access_grants:write'], body: true, event: 'access_request.refused' },
  // The EU registry (docs/registry.md#settings, docs/registry.md#registrations): the tenant's settings and its registrations.
  { method: 'GET', path: '/v1/registry/settings', function: 'registry', auth: 'apiKey', scopes: ['registry:read'], body: false },
  { method: 'PUT', path: '/v1/registry/settings', function: 'registry', auth: 'apiKey', scopes: ['registry:write'], body: true, event: 'registry.settings.updated' },
  { method: 'POST', path: '/v1/registry/registrations', function: 'registry', auth: 'apiKey', scopes: ['registry:write'], body: true, idempotent: true, event: 'registry.registrations.created' },
  { method: 'GET', path: '/v1/registry/registrations', function: 'registry', auth: 'apiKey', scopes: ['registry:read'], body: false },
  { method: 'GET', path: '/v1/registry/registrations/{registrationId}', function: 'registry', auth: 'apiKey', scopes: ['registry:read'], body: false },
  // Fix and resubmit (docs/registry.md#fix-and-resubmit): a rejected or held registration back to the pre-checks.
  { method: 'POST', path: '/v1/registry/registrations/{registrationId}/resubmit', function: 'registry', auth: 'apiKey', scopes: ['registry:write'], body: false, idempotent: true, event: 'registry.registration.resubmitted' },
  { method: 'GET', path: '/v1/dpps/{dppId}', function: 'access', auth: 'optional', scopes: [], body: false },
  { method: 'PATCH', path: '/v1/dpps/{dppId}', function: 'access', auth: 'apiKey', scopes: ['products:write'], body: true, event: 'item.updated', otherEvents: ['item.withdrawn'] },
  { method: 'GET', path: '/v1/dpps/{dppId}/elements/{elementPath}', function: 'access', auth: 'optional', scopes: [], body: false },
  { method: 'GET', path: '/v1/dppsByProductId/{productIdentifier}', function: 'access', auth: 'optional', scopes: [], body: false },
  { method: 'GET', path: '/v1/dppsByIdAndDate/{dppId}', function: 'access', auth: 'optional', scopes: [], body: false },
  { method: 'POST', path: '/v1/dppsByProductIds', function: 'access', auth: 'optional', scopes: [], body: true, event: { none: 'reads passports: nothing changes (a read of restricted elements is logged as passport.accessed)' } },
  // Market surveillance from a scan (docs/access.md#market-surveillance-authorities): an inspector signs in with its authority's
  // own identity provider and reads as the authority audience. No API key, no session: the inspector's cookie is read by the function.
  { method: 'GET', path: '/inspect/{dppId}', function: 'inspect', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/inspect/sign-in', function: 'inspect', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/inspect/callback', function: 'inspect', auth: 'none', scopes: [], body: false },
  // A battery handed over to another organization for its second life or as waste (docs/battery.md#second-life).
  { method: 'POST', path: '/v1/handovers', function: 'items', auth: 'apiKey', scopes: ['products:write'], body: true, idempotent: true, event: 'handover.offered' },
  { method: 'GET', path: '/v1/handovers', function: 'items', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'GET', path: '/v1/handovers/{handoverId}', function: 'items', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'POST', path: '/v1/handovers/{handoverId}/accept', function: 'items', auth: 'apiKey', scopes: ['products:write'], body: true, event: 'handover.accepted', changeEvents: ['item.updated'] },
  { method: 'DELETE', path: '/v1/handovers/{handoverId}', function: 'items', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'handover.cancelled' },
  // The responsible organization of a waste battery declares it recycled: its passport ceases (docs/battery.md#a-batterys-life).
  { method: 'POST', path: '/v1/handovers/{handoverId}/recycle', function: 'items', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'item.recycled' },
  // A product transferred to another organization, a change of economic operator (docs/transfers.md): the sender offers or cancels, the receiver accepts or declines.
  // Accepting moves the product; a call that ends before the move does is continued by the next accept (transfer.completed when it finishes).
  { method: 'POST', path: '/v1/transfers', function: 'transfers', auth: 'apiKey', scopes: ['products:write'], body: true, idempotent: true, event: 'transfer.offered' },
  { method: 'GET', path: '/v1/transfers', function: 'transfers', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'GET', path: '/v1/transfers/{transferId}', function: 'transfers', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'POST', path: '/v1/transfers/{transferId}/accept', function: 'transfers', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'transfer.accepted', changeEvents: ['transfer.completed'] },
  { method: 'POST', path: '/v1/transfers/{transferId}/decline', function: 'transfers', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'transfer.declined' },
  { method: 'POST', path: '/v1/transfers/{transferId}/cancel', function: 'transfers', auth: 'apiKey', scopes: ['products:write'], body: false, event: 'transfer.cancelled' },

  { method: 'POST', path: '/v1/suppliers', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:write'], body: true, idempotent: true, event: 'supplier.created' },
  { method: 'GET', path: '/v1/suppliers', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:read'], body: false },
  { method: 'GET', path: '/v1/suppliers/{supplierId}', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:read'], body: false },

  // The public resolver: every qrCodeUrl, with or without GS1 qualifiers after the GTIN.
  ...(['GET', 'HEAD', 'OPTIONS'] as const).flatMap((method) => [
    { method, path: '/{orgId}/{environment}/01/{gtin}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
    { method, path: '/{orgId}/{environment}/01/{gtin}/{qualifiers+}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
    // A compressed Digital Link (docs/resolver.md#compressed-uris): answered as its uncompressed form.
    { method, path: '/{orgId}/{environment}/{compressed}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
  ]),
  // The same on a brand's verified domain: the Host names the organization (live), docs/resolver.md.
  ...(['GET', 'HEAD', 'OPTIONS'] as const).flatMap((method) => [
    { method, path: '/01/{gtin}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
    { method, path: '/01/{gtin}/{qualifiers+}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
    { method, path: '/{compressed}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
  ]),
  { method: 'GET', path: '/.well-known/gs1resolver', function: 'resolver', auth: 'none', scopes: [], body: false },
  // The immutable pages of a published version (lib/domain/page-urls.ts): page is a language or passport.json.
  ...(['GET', 'HEAD'] as const).map(
    (method) => ({ method, path: '/{orgId}/{environment}/p/{gtin}/{version}/{page}', function: 'resolver', auth: 'none', scopes: [], body: false }) as const,
  ),
  // A batch's or item's immutable page (lib/domain/unit.ts): the version's page with the record's version; ai is 10 or 21.
  ...(['GET', 'HEAD'] as const).map(
    (method) => ({ method, path: '/{orgId}/{environment}/p/{gtin}/{version}/{ai}/{unit}/{unitVersion}/{page}', function: 'resolver', auth: 'none', scopes: [], body: false }) as const,
  ),

  // Signed passports (docs/credentials.md): a version's credential (application/vc+jwt) through the API and
  // beside its pages, the organization's DID documents and its status lists. Literal segments beat the resolver's {page}.
  { method: 'GET', path: '/v1/products/{productId}/passports/{passportId}/credential', function: 'credentials', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  { method: 'GET', path: '/{orgId}/{environment}/p/{gtin}/{version}/credential.jwt', function: 'credentials', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/orgs/{orgId}/did.json', function: 'credentials', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/.well-known/did.json', function: 'credentials', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/{orgId}/{environment}/status/{list}', function: 'credentials', auth: 'none', scopes: [], body: false },

  // The EU registry's web upload (docs/registry.md#files-out): a POST, since building the files marks their registrations submitted.
  { method: 'POST', path: '/v1/registry/files', function: 'registry-files', auth: 'apiKey', scopes: ['registry:write'], body: true, event: 'registry.registration.submitted' },
  // The registry's result file (CSV, docs/registry.md#results-in), read raw within its parser's budget of 1 MiB (lib/domain/registry/results.ts).
  {
    method: 'POST',
    path: '/v1/registry/results',
    function: 'registry-files',
    auth: 'apiKey',
    scopes: ['registry:write'],
    body: true,
    rawBody: true,
    maxBodyBytes: 1024 * 1024,
    event: 'registry.registration.registered',
    otherEvents: ['registry.registration.rejected'],
  },

  // Bulk import jobs (docs/imports.md): the upload is a file, up to 5 MB (XLSX up to 4 MB: API Gateway base64-encodes it into Lambda's 6 MB payload).
  { method: 'POST', path: '/v1/imports', function: 'imports', auth: 'apiKey', scopes: ['imports:write'], body: true, rawBody: true, maxBodyBytes: 5 * 1024 * 1024, idempotent: true, event: 'import.created' },
  { method: 'GET', path: '/v1/imports', function: 'imports', auth: 'apiKey', scopes: ['imports:read'], body: false },
  { method: 'GET', path: '/v1/imports/{importId}', function: 'imports', auth: 'apiKey', scopes: ['imports:read'], body: false },
  // The import template (docs/import-export.md#the-template): literal paths, so they win over {importId}.
  { method: 'GET', path: '/v1/imports/template.csv', function: 'imports', auth: 'apiKey', scopes: ['imports:read'], body: false },
  { method: 'GET', path: '/v1/imports/template.xlsx', function: 'imports', auth: 'apiKey', scopes: ['imports:read'], body: false },

  { method: 'GET', path: '/v1/analytics/product/{productId}', function: 'analytics', auth: 'apiKey', scopes: ['analytics:read'], body: false },

  // The event log (docs/lifecycle.md#event-log): read-only, newest first.
  { method: 'GET', path: '/v1/events', function: 'events', auth: 'apiKey', scopes: ['events:read'], body: false },
  { method: 'GET', path: '/v1/events/{eventId}', function: 'events', auth: 'apiKey', scopes: ['events:read'], body: false },

  // Event subscriptions: outbound webhooks of the event log (docs/webhooks-outbound.md).
  { method: 'POST', path: '/v1/event-subscriptions', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: true, idempotent: true, event: 'event_subscription.created' },
  { method: 'GET', path: '/v1/event-subscriptions', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:read'], body: false },
  { method: 'GET', path: '/v1/event-subscriptions/{subscriptionId}', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:read'], body: false },
  { method: 'PATCH', path: '/v1/event-subscriptions/{subscriptionId}', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: true, event: 'event_subscription.updated' },
  { method: 'DELETE', path: '/v1/event-subscriptions/{subscriptionId}', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: false, event: 'event_subscription.deleted' },
  { method: 'POST', path: '/v1/event-subscriptions/{subscriptionId}/rotate-secret', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: false, event: 'event_subscription.updated' },
  { method: 'POST', path: '/v1/event-subscriptions/{subscriptionId}/test', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: false, event: { none: 'sends a ping to the subscription: no data changes' } },
  { method: 'GET', path: '/v1/event-subscriptions/{subscriptionId}/deliveries', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:read'], body: false },
  { method: 'POST', path: '/v1/event-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry', function: 'event-subscriptions', auth: 'apiKey', scopes: ['event_subscriptions:write'], body: false, event: { none: 'queues one more attempt of a delivery: no organization data changes' } },

  { method: 'POST', path: '/v1/webhooks/endpoints', function: 'webhooks', auth: 'session', scopes: [], body: true, idempotent: true, event: 'webhook_endpoint.created' },
  { method: 'GET', path: '/v1/webhooks/endpoints', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'GET', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'PATCH', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: true, event: 'webhook_endpoint.updated' },
  { method: 'DELETE', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: false, event: 'webhook_endpoint.deleted' },
  { method: 'POST', path: '/v1/webhooks/endpoints/{endpointId}/rotate-secret', function: 'webhooks', auth: 'session', scopes: [], body: false, event: 'webhook_endpoint.updated' },
  {
    method: 'POST',
    path: '/v1/webhooks/ingest',
    function: 'ingest',
    auth: 'webhook',
    scopes: [],
    body: false,
    event: 'webhook_delivery.ingested',
    changeEvents: ['product.created', 'product.updated', 'passport.published', 'supplier.created'],
  },

  // Brand-owned resolver domains (docs/brand-domains.md), session only.
  { method: 'POST', path: '/v1/domains', function: 'domains', auth: 'session', scopes: [], body: true, idempotent: true, event: 'domain.created' },
  { method: 'GET', path: '/v1/domains', function: 'domains', auth: 'session', scopes: [], body: false },
  { method: 'GET', path: '/v1/domains/{domainId}', function: 'domains', auth: 'session', scopes: [], body: false },
  { method: 'PATCH', path: '/v1/domains/{domainId}', function: 'domains', auth: 'session', scopes: [], body: true, event: 'domain.updated' },
  { method: 'DELETE', path: '/v1/domains/{domainId}', function: 'domains', auth: 'session', scopes: [], body: false, event: 'domain.deleted' },
  { method: 'POST', path: '/v1/domains/{domainId}/verify', function: 'domains', auth: 'session', scopes: [], body: false, event: 'domain.verified' },

  // Labelling (docs/labelling.md): the ingredient vocabulary (public, cacheable) and the energy calculator (any key or session).
  { method: 'GET', path: '/v1/vocabulary/ingredients', function: 'labelling', auth: 'none', scopes: [], body: false },
  { method: 'POST', path: '/v1/nutrition/calculate', function: 'labelling', auth: 'apiKey', scopes: [], body: true, event: { none: 'computes energy from the nutrients sent and stores nothing' } },
  // An organization's corrections of the e-label's legal terms, per tenant; pages of versions published afterwards show them (docs/labelling.md#correcting-a-term).
  { method: 'GET', path: '/v1/labelling/terms', function: 'labelling', auth: 'apiKey', scopes: ['labelling:read'], body: false },
  { method: 'GET', path: '/v1/labelling/terms/{lang}/{termKey}', function: 'labelling', auth: 'apiKey', scopes: ['labelling:read'], body: false },
  { method: 'PUT', path: '/v1/labelling/terms/{lang}/{termKey}', function: 'labelling', auth: 'apiKey', scopes: ['labelling:write'], body: true, event: 'labelling_term.updated' },
  { method: 'DELETE', path: '/v1/labelling/terms/{lang}/{termKey}', function: 'labelling', auth: 'apiKey', scopes: ['labelling:write'], body: false, event: 'labelling_term.deleted' },
  // A compliance officer's sign-off of a language (a dashboard user, or a key with labelling:write), and offering only the languages signed off (docs/labelling.md#sign-off).
  { method: 'GET', path: '/v1/labelling/sign-offs', function: 'labelling', auth: 'apiKey', scopes: ['labelling:read'], body: false },
  { method: 'GET', path: '/v1/labelling/sign-offs/{lang}', function: 'labelling', auth: 'apiKey', scopes: ['labelling:read'], body: false },
  { method: 'POST', path: '/v1/labelling/sign-offs', function: 'labelling', auth: 'apiKey', scopes: ['labelling:write'], body: true, idempotent: true, event: 'labelling.sign_off.created' },
  { method: 'GET', path: '/v1/labelling/settings', function: 'labelling', auth: 'apiKey', scopes: ['labelling:read'], body: false },
  { method: 'PUT', path: '/v1/labelling/settings', function: 'labelling', auth: 'apiKey', scopes: ['labelling:write'], body: true, event: 'labelling.settings.updated' },

  { method: 'GET', path: '/v1/openapi.json', function: 'docs', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/docs', function: 'docs', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/docs/{asset}', function: 'docs', auth: 'none', scopes: [], body: false },

  // Readiness (docs/api.md#when-a-dependency-is-down): do the table and the queues answer? No data, no authentication.
  { method: 'GET', path: '/ready', function: 'health', auth: 'none', scopes: [], body: false },

  // Dashboard sign-in and sessions, and API key management (session only: an API key alone is refused).
  { method: 'GET', path: '/v1/auth/login', function: 'auth', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/v1/auth/callback', function: 'auth', auth: 'none', scopes: [], body: false },
  { method: 'POST', path: '/v1/auth/logout', function: 'auth', auth: 'session', scopes: [], body: false, event: { none: 'ends the caller’s own session: no organization data changes' } },
  { method: 'GET', path: '/v1/auth/session', function: 'auth', auth: 'session', scopes: [], body: false },
  { method: 'POST', path: '/v1/auth/session', function: 'auth', auth: 'session', scopes: [], body: true, event: { none: 'switches the caller’s own session to another organization or environment: no organization data changes' } },
  { method: 'POST', path: '/v1/auth/api-keys', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: true, idempotent: true, event: 'api_key.created' },
  { method: 'GET', path: '/v1/auth/api-keys', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: false },
  { method: 'DELETE', path: '/v1/auth/api-keys/{keyId}', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: false, event: 'api_key.revoked' },
];

/** API Gateway's route key, as it arrives in `event.routeKey`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const routesOf = (fn: FunctionName): Route[] => ROUTES.filter((route) => route.function === fn);
