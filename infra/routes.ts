import type { Scope } from '../lib/domain/scopes.ts';

/**
 * The one route table. The CDK stack creates an API Gateway route and integration for each entry,
 * and the local gateway serves exactly these; each function's handler checks at load time that it
 * implements exactly the routes the table gives it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';

export type FunctionName = 'products' | 'passports' | 'suppliers' | 'resolver' | 'auth' | 'analytics' | 'aggregator' | 'webhooks' | 'ingest' | 'docs';

/**
 * What a function may touch. The CDK stack grants exactly this (least privilege), so a function
 * that starts using a new AWS action must say so here.
 */
export interface Grants {
  /** DynamoDB actions on the single table. */
  table: readonly TableAction[];
  /** SQS actions on the scan queue. */
  scanQueue?: readonly ('sqs:SendMessage' | 'sqs:ReceiveMessage' | 'sqs:DeleteMessage' | 'sqs:GetQueueAttributes' | 'sqs:ChangeMessageVisibility')[];
  /**
   * `secretsmanager:GetSecretValue` on the session encryption key (always granted to `auth`): every
   * function with session or API-key routes needs it, since API-key routes also take the session.
   */
  sessionSecret?: boolean;
}

export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:Query'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchWriteItem'
  | 'dynamodb:ConditionCheckItem';

export interface FunctionSpec {
  /** Handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  memoryMb: number;
  timeoutSeconds: number;
  grants: Grants;
  /**
   * Set for functions the scan queue's event source mapping invokes instead of HTTP. The stack
   * grants the mapping's own needs (sqs:ReceiveMessage, DeleteMessage, GetQueueAttributes).
   */
  trigger?: { kind: 'sqs'; queue: 'scan'; batchSize: number; maxBatchingWindowSeconds: number };
  /** Static files (paths from the repository root) the function reads at run time; bundled into `docs-assets/` beside it. */
  assets?: readonly string[];
}

/** DynamoDB transactions are authorized per contained action (Put/Update/ConditionCheck). */
const READ: readonly TableAction[] = ['dynamodb:GetItem', 'dynamodb:Query'];
const WRITE: readonly TableAction[] = [...READ, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'];
/**
 * A read-only API behind API keys: every API-key request also counts against its key's rate limit
 * (UpdateItem on its counter item, and on the key's lastUsedAt once a minute; lib/auth/rate-limit.ts).
 */
const API_READ: readonly TableAction[] = [...READ, 'dynamodb:UpdateItem'];

export const FUNCTIONS: Record<FunctionName, FunctionSpec> = {
  products: {
    entry: 'functions/products/handler.ts',
    description: 'Products API: create, list, get, update, QR code',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  passports: {
    entry: 'functions/passports/handler.ts',
    description: 'Passports API: publish versions, read the current one and the history',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  suppliers: {
    entry: 'functions/suppliers/handler.ts',
    description: 'Suppliers API: create, list, get',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  resolver: {
    entry: 'functions/resolver/handler.ts',
    description: 'Public GS1 Digital Link resolver and e-label page; sends one scan event per GET',
    memoryMb: 1024,
    timeoutSeconds: 5,
    grants: { table: ['dynamodb:GetItem'], scanQueue: ['sqs:SendMessage'] },
  },
  analytics: {
    entry: 'functions/analytics/handler.ts',
    description: 'Scan analytics of a product',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: API_READ, sessionSecret: true },
  },
  aggregator: {
    entry: 'functions/aggregator/handler.ts',
    description: 'Turns batches of scan events into exact per-product day rollups',
    memoryMb: 512,
    timeoutSeconds: 30,
    // Transactions are authorized per contained action: ledger puts and rollup updates.
    grants: { table: ['dynamodb:PutItem', 'dynamodb:UpdateItem'] },
    trigger: { kind: 'sqs', queue: 'scan', batchSize: 100, maxBatchingWindowSeconds: 5 },
  },
  webhooks: {
    entry: 'functions/webhooks/handler.ts',
    description: 'Webhook endpoints of an organization (dashboard session)',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  docs: {
    entry: 'functions/docs/handler.ts',
    description: 'The OpenAPI document and the API reference page',
    memoryMb: 256,
    timeoutSeconds: 5,
    grants: { table: [] },
    assets: [
      'node_modules/swagger-ui-dist/swagger-ui.css',
      'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
      'functions/docs/docs.js',
    ],
  },
  ingest: {
    entry: 'functions/ingest/handler.ts',
    description: 'Signed webhook deliveries from product-information systems',
    memoryMb: 512,
    timeoutSeconds: 30,
    grants: { table: WRITE },
  },
  auth: {
    entry: 'functions/auth/handler.ts',
    description: 'Dashboard sign-in (OIDC), sessions and API key management',
    memoryMb: 512,
    timeoutSeconds: 10,
    // DeleteItem: sign-out removes the session item.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
};

/**
 * How a route authenticates: an API key (Bearer; the dashboard's session cookie is accepted too, see
 * lib/http/api-handler.ts), the dashboard session cookie only, none (the public resolver), or the
 * webhook HMAC signature.
 */
export type Auth = 'apiKey' | 'session' | 'none' | 'webhook';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: `{name}` for a segment, `{name+}` for the rest. */
  path: string;
  function: FunctionName;
  auth: Auth;
  /** Any one of these scopes authorizes the call. */
  scopes: readonly Scope[];
  /** Whether the operation reads a JSON body. */
  body: boolean;
  /** Creates something: an `Idempotency-Key` header makes retries safe (lib/http/idempotency.ts). */
  idempotent?: boolean;
}

export const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v1/products', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: true, idempotent: true },
  { method: 'GET', path: '/v1/products', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'GET', path: '/v1/products/{productId}', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },
  { method: 'PATCH', path: '/v1/products/{productId}', function: 'products', auth: 'apiKey', scopes: ['products:write'], body: true },
  { method: 'GET', path: '/v1/products/{productId}/qr', function: 'products', auth: 'apiKey', scopes: ['products:read'], body: false },

  { method: 'POST', path: '/v1/passports', function: 'passports', auth: 'apiKey', scopes: ['passports:write'], body: true, idempotent: true },
  { method: 'GET', path: '/v1/products/{productId}/passport', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },
  { method: 'GET', path: '/v1/products/{productId}/passports', function: 'passports', auth: 'apiKey', scopes: ['products:read', 'passports:read'], body: false },

  { method: 'POST', path: '/v1/suppliers', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:write'], body: true, idempotent: true },
  { method: 'GET', path: '/v1/suppliers', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:read'], body: false },
  { method: 'GET', path: '/v1/suppliers/{supplierId}', function: 'suppliers', auth: 'apiKey', scopes: ['suppliers:read'], body: false },

  // The public resolver: every qrCodeUrl, with or without GS1 qualifiers after the GTIN.
  ...(['GET', 'HEAD', 'OPTIONS'] as const).flatMap((method) => [
    { method, path: '/{orgId}/{environment}/01/{gtin}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
    { method, path: '/{orgId}/{environment}/01/{gtin}/{qualifiers+}', function: 'resolver', auth: 'none', scopes: [], body: false } as const,
  ]),
  { method: 'GET', path: '/.well-known/gs1resolver', function: 'resolver', auth: 'none', scopes: [], body: false },

  { method: 'GET', path: '/v1/analytics/product/{productId}', function: 'analytics', auth: 'apiKey', scopes: ['analytics:read'], body: false },

  { method: 'POST', path: '/v1/webhooks/endpoints', function: 'webhooks', auth: 'session', scopes: [], body: true, idempotent: true },
  { method: 'GET', path: '/v1/webhooks/endpoints', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'GET', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'PATCH', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: true },
  { method: 'DELETE', path: '/v1/webhooks/endpoints/{endpointId}', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'POST', path: '/v1/webhooks/endpoints/{endpointId}/rotate-secret', function: 'webhooks', auth: 'session', scopes: [], body: false },
  { method: 'POST', path: '/v1/webhooks/ingest', function: 'ingest', auth: 'webhook', scopes: [], body: false },

  { method: 'GET', path: '/v1/openapi.json', function: 'docs', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/docs', function: 'docs', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/docs/{asset}', function: 'docs', auth: 'none', scopes: [], body: false },

  // Dashboard sign-in and sessions, and API key management (session only: an API key alone is refused).
  { method: 'GET', path: '/v1/auth/login', function: 'auth', auth: 'none', scopes: [], body: false },
  { method: 'GET', path: '/v1/auth/callback', function: 'auth', auth: 'none', scopes: [], body: false },
  { method: 'POST', path: '/v1/auth/logout', function: 'auth', auth: 'session', scopes: [], body: false },
  { method: 'GET', path: '/v1/auth/session', function: 'auth', auth: 'session', scopes: [], body: false },
  { method: 'POST', path: '/v1/auth/session', function: 'auth', auth: 'session', scopes: [], body: true },
  { method: 'POST', path: '/v1/auth/api-keys', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: true, idempotent: true },
  { method: 'GET', path: '/v1/auth/api-keys', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: false },
  { method: 'DELETE', path: '/v1/auth/api-keys/{keyId}', function: 'auth', auth: 'session', scopes: ['api_keys:manage'], body: false },
];

/** API Gateway's route key, as it arrives in `event.routeKey`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const routesOf = (fn: FunctionName): Route[] => ROUTES.filter((route) => route.function === fn);
