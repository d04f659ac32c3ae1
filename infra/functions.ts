import type { FunctionName } from '../lib/api/routes.ts';

/**
 * Deployment facts of each function (memory, timeout, grants, assets). The route table in
 * lib/api/routes.ts says what each function serves; this file says what it may touch. Runtime code
 * never imports this file (docs/architecture.md#layers).
 */
/**
 * What a function may touch. The CDK stack grants exactly this (least privilege), so a function
 * that starts using a new AWS action must say so here.
 */
export interface Grants {
  /** DynamoDB actions on the single table. */
  table: readonly TableAction[];
  /** SQS actions on the scan queue. */
  scanQueue?: readonly ('sqs:SendMessage' | 'sqs:ReceiveMessage' | 'sqs:DeleteMessage' | 'sqs:GetQueueAttributes' | 'sqs:ChangeMessageVisibility')[];
  /** SQS actions on the import queue (bulk import chunks, docs/imports.md); GetQueueAttributes: readiness. */
  importQueue?: readonly ('sqs:SendMessage' | 'sqs:GetQueueAttributes')[];
  /** SQS actions on the event delivery queue (outbound webhooks, docs/webhooks-outbound.md); GetQueueAttributes: readiness. */
  deliveryQueue?: readonly ('sqs:SendMessage' | 'sqs:GetQueueAttributes')[];
  /**
   * SQS actions on the registry outbox queue (docs/registry.md#the-outbox): SendMessage for the feed
   * and the worker's delayed looks again, ChangeMessageVisibility for a registry's Retry-After.
   */
  registryOutboxQueue?: readonly ('sqs:SendMessage' | 'sqs:ChangeMessageVisibility')[];
  /**
   * `secretsmanager:GetSecretValue` on the session encryption key (always granted to `auth`): every
   * function with session or API-key routes needs it, since API-key routes also take the session.
   */
  sessionSecret?: boolean;
  /**
   * KMS actions on the key sealing webhook signing secrets (lib/data/secret-box.ts;
   * docs/security.md, finding 3): GenerateDataKey to seal a secret, Decrypt to open one.
   */
  secretsKey?: readonly ('kms:GenerateDataKey' | 'kms:Decrypt')[];
  /**
   * CloudFront actions on the multi-tenant distribution serving brand domains and its tenants
   * (lib/data/cloudfront-tenants.ts; docs/brand-domains.md): a verified domain gets a tenant.
   */
  cloudfrontTenants?: readonly ('cloudfront:CreateDistributionTenant' | 'cloudfront:TagResource')[];
  /**
   * KMS actions on the organizations' credential signing keys (lib/data/signers.ts;
   * docs/credentials.md#keys): CreateKey (with TagResource, for its tags) on first use, Sign and
   * GetPublicKey, each limited to keys tagged as this service's signing keys.
   */
  signingKeys?: readonly ('kms:CreateKey' | 'kms:TagResource' | 'kms:Sign' | 'kms:GetPublicKey')[];
  /**
   * S3 actions on the exports bucket's objects (infra/cdk/constructs/exports.ts): the archive of
   * `POST /v1/exports/archive` is uploaded (in parts; an unfinished upload aborted) and read back
   * through a presigned URL signed with the function's role (docs/import-export.md#leaving-the-archive).
   */
  exportsBucket?: readonly ('s3:PutObject' | 's3:GetObject' | 's3:AbortMultipartUpload')[];
  /**
   * The EU registry's API (docs/registry.md#the-outbox): the function gets the registries' settings
   * the deployment names (REGISTRY_*, REGISTRY_ACCEPTANCE_*) and `secretsmanager:GetSecretValue` on
   * their client secrets.
   */
  registry?: boolean;
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
  trigger?:
    | { kind: 'sqs'; queue: 'scan' | 'import' | 'delivery' | 'registryOutbox'; batchSize: number; maxBatchingWindowSeconds: number }
    /**
     * The table's stream (new images), filtered to items whose `type` is `itemType`: the stack
     * grants the mapping's stream reads (docs/webhooks-outbound.md#how-it-works).
     */
    | {
        kind: 'tableStream';
        queue?: undefined;
        itemType: string;
        batchSize: number;
        maxBatchingWindowSeconds: number;
        /**
         * Changed items too (MODIFY), and only those whose `status` is one of these: the registry
         * outbox's feed (docs/registry.md#the-outbox), whose mapping is the outbox pipeline's. Unset: new items only.
         */
        changedWithStatus?: readonly string[];
        /**
         * Retries of a record that fails alone (the mapping splits a failing batch first, which
         * costs no retry) before it is set aside: reported to the pipeline's stream failure queue
         * and skipped, so that it holds back no other record for longer. Unset: retried until the
         * record expires from the stream (24 hours). The local poller plays the same.
         */
        retryAttempts?: number;
      };
  /** Static files (paths from the repository root) the function reads at run time; bundled into `docs-assets/` beside it. */
  assets?: readonly string[];
  /**
   * Served by its Lambda function URL (auth type AWS_IAM) behind the resolver distribution's origin
   * access control instead of API Gateway: its routes of lib/api/routes.ts get no API Gateway route
   * (docs/deploy.md#the-public-path).
   */
  functionUrl?: boolean;
  /**
   * Lambda's application log level (advanced logging controls, JSON format): lines below it are
   * dropped before CloudWatch Logs ingests them, and the Powertools logger follows it. Default
   * WARN (infra/cdk/function-table.ts); the system log level is WARN for every function
   * (docs/configuration.md#logs).
   */
  logLevel?: LogLevel;
  /**
   * `false`: Node does not map stack traces to the TypeScript sources at run time (no
   * `--enable-source-maps`), because reading the map costs the cold start more than the traces are
   * worth on this path (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk). The bundle
   * still ships its map, to read a logged trace against. Default: traces are mapped.
   */
  sourceMapsAtRunTime?: false;
}

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

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
    description: 'Products API: create, list, get, update, withdraw, reinstate, QR code',
    memoryMb: 512,
    timeoutSeconds: 10,
    // BatchGetItem: the product export reads the products' passports 100 at a time (lib/data/product-export.ts).
    grants: { table: [...WRITE, 'dynamodb:DeleteItem', 'dynamodb:BatchGetItem'], sessionSecret: true },
  },
  passports: {
    entry: 'functions/passports/handler.ts',
    description: 'Passports API: publish versions, drafts, read the current one, one at an instant, and the history',
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
    // From `npx tsx test/bench/resolver.ts` (docs/benchmarks.md#right-sized-functions): a warm scan is
    // ~1 ms of CPU at one vCPU and ~10 ms of waiting, so 512 MB costs about 3/5 of 1024 MB per scan and
    // keeps the cold start's import near 85 ms of CPU (256 MB: 170 ms, for 0.03 $ per million scans less).
    memoryMb: 512,
    timeoutSeconds: 5,
    // BatchGetItem: a scan of a lot or serial reads the GTIN item and the batch or item in one call (docs/resolver.md#batches-and-items).
    // PutItem: a scan spilled to the table while the queue fails (docs/decisions.md#scans-while-the-queue-is-down).
    grants: { table: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem'], scanQueue: ['sqs:SendMessage'] },
    // CloudFront → function URL with origin access control: no API Gateway request per scan.
    functionUrl: true,
    sourceMapsAtRunTime: false,
  },
  items: {
    entry: 'functions/items/handler.ts',
    description: "Batches and serialised items of a product: create or replace, patch, read (at an instant), list, QR codes, the items export; battery handovers between organizations",
    memoryMb: 512,
    timeoutSeconds: 10,
    // A version, its archived predecessor and its event in one transaction (Put, ConditionCheck); the export's Query;
    // DeleteItem for Powertools idempotency (POST /v1/handovers takes an Idempotency-Key).
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  registry: {
    entry: 'functions/registry/handler.ts',
    description: "The EU registry: the organization's registry settings, and its registrations (list, read, create the missing ones on demand) (docs/registry.md#registrations)",
    memoryMb: 512,
    // 29 s, API Gateway's integration limit: an on-demand call reads a product's records and creates up to 1,000 registrations.
    timeoutSeconds: 29,
    // The settings' Get and Put with its event (a transaction); the registrations' Gets, Query and conditional Puts; the products'
    // and records' Queries; which registrations exist (BatchGetItem); DeleteItem for Powertools idempotency.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem', 'dynamodb:BatchGetItem'], sessionSecret: true },
  },
  access: {
    entry: 'functions/access/handler.ts',
    description: 'Access grants, and the EN 18222 reads of passports by tier (docs/access.md)',
    memoryMb: 512,
    timeoutSeconds: 10,
    // A grant's three items and its events in one transaction; a read's Gets and the grantee Query, and
    // the passport.accessed event (a one-item transaction); a grantee's item write; DeleteItem for Powertools idempotency.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true },
  },
  'registry-files': {
    entry: 'functions/registry-files/handler.ts',
    description: "The EU registry's web upload: upload files of the registrations that pass the pre-checks, and the registry's result file read back (docs/registry.md#files-out)",
    memoryMb: 1024,
    // 29 s, API Gateway's integration limit: a call checks up to 1,000 registrations, fetching each one's backup copy (5 s at most each, 16 at once).
    timeoutSeconds: 29,
    // The registrations' Query and Gets, the products', passports' and batches' and items' reads (BatchGetItem); each
    // registration's change with its event in one transaction (Put, ConditionCheck); the rate-limit counters (UpdateItem).
    grants: { table: [...WRITE, 'dynamodb:BatchGetItem'], sessionSecret: true },
  },
  inspect: {
    entry: 'functions/inspect/handler.ts',
    description: 'Market surveillance from a scan: an authority inspector signs in with its own identity provider and reads a passport as the authority audience (docs/access.md)',
    memoryMb: 512,
    timeoutSeconds: 10,
    // A read's Gets (the passport, its product and record); the rate-limit counters (UpdateItem); the
    // passport.accessed event (a one-item transaction: PutItem). The session key seals the inspector's cookie.
    grants: { table: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], sessionSecret: true },
  },
  events: {
    entry: 'functions/events/handler.ts',
    description: 'Event log API: list and read the append-only events of the caller’s tenant',
    memoryMb: 512,
    timeoutSeconds: 10,
    grants: { table: API_READ, sessionSecret: true },
  },
  credentials: {
    entry: 'functions/credentials/handler.ts',
    description: 'Signed passports: version credentials (VC-JOSE), DID documents and status lists',
    memoryMb: 512,
    // 29 s, API Gateway's integration limit, for POST /v1/exports/archive, whose budgets end well inside it (docs/import-export.md#leaving-the-archive).
    timeoutSeconds: 29,
    // The first credential of a version is signed and stored (PutItem); a product's status index is claimed (UpdateItem, PutItem, a transaction).
    // The archive reads the products' passports (BatchGetItem, as the product export) and writes the exports bucket.
    grants: {
      table: API_READ.concat(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem', 'dynamodb:BatchGetItem']),
      sessionSecret: true,
      signingKeys: ['kms:CreateKey', 'kms:TagResource', 'kms:Sign', 'kms:GetPublicKey'],
      exportsBucket: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'],
    },
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
    // Rollup updates, ledger puts and the ledger's queries (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan).
    grants: { table: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query'] },
    trigger: { kind: 'sqs', queue: 'scan', batchSize: 100, maxBatchingWindowSeconds: 5 },
  },
  imports: {
    entry: 'functions/imports/handler.ts',
    description: 'Bulk import jobs: upload a CSV, XLSX or JSON Lines file, read a job and list jobs',
    // exceljs holds a whole workbook: an honest 10,000-row sheet of the template's 39 columns inflates
    // to about 22 MB and took about 800 MB of RSS to load, the inflated budget allows 32 MiB
    // (docs/security.md#parser-budgets), so 2 GB keeps the largest accepted file clear of the limit
    // (and gives the parse more CPU: Lambda's CPU grows with memory).
    memoryMb: 2048,
    timeoutSeconds: 29,
    // The job and its chunk items in transactions; one SendMessage per chunk.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'], sessionSecret: true, importQueue: ['sqs:SendMessage'] },
  },
  'import-worker': {
    entry: 'functions/import-worker/handler.ts',
    description: 'Imports the rows of one chunk of a bulk import job: upserts products by GTIN and publishes changed passports',
    memoryMb: 1024,
    timeoutSeconds: 120,
    // BatchGetItem reads a chunk's GTIN and product items (and an items chunk's stored items); transactions of Put, Update and
    // ConditionCheck; BatchWriteItem registers an items chunk (docs/api.md#bulk-registration).
    grants: { table: [...WRITE, 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'] },
    trigger: { kind: 'sqs', queue: 'import', batchSize: 1, maxBatchingWindowSeconds: 0 },
  },
  'registry-outbox-feed': {
    entry: 'functions/registry-outbox-feed/handler.ts',
    description: 'The registry outbox feed: each registration written in a state that needs work (table stream) becomes one message on the registry outbox queue',
    memoryMb: 256,
    timeoutSeconds: 30,
    // SendMessageBatch to the outbox queue; it reads nothing.
    grants: { table: [], registryOutboxQueue: ['sqs:SendMessage'] },
    trigger: { kind: 'tableStream', itemType: 'registration', batchSize: 100, maxBatchingWindowSeconds: 0, changedWithStatus: ['pending_checks', 'ready', 'submitted'] },
  },
  'registry-outbox': {
    entry: 'functions/registry-outbox/handler.ts',
    description: "The registry outbox worker: checks each registration, sends those that pass to the EU registry's API (links first), asks for the outcome of those pending, and writes each change with its event",
    memoryMb: 512,
    // Ten registrations, each a backup copy fetched (5 s at most) and a registry call (10 s at most), eight at once.
    timeoutSeconds: 60,
    // The registrations' consistent Gets and conditional Puts with their events (a transaction: Put, ConditionCheck); what the
    // pre-checks read (the domains' and registrations' Queries, the products', passports', batches' and items' Gets, BatchGetItem);
    // the organization's signing key pointer (GetItem) and its key (kms:Sign) to seal each request.
    grants: {
      table: [...WRITE, 'dynamodb:BatchGetItem'],
      registryOutboxQueue: ['sqs:SendMessage', 'sqs:ChangeMessageVisibility'],
      signingKeys: ['kms:CreateKey', 'kms:TagResource', 'kms:Sign', 'kms:GetPublicKey'],
      registry: true,
    },
    trigger: { kind: 'sqs', queue: 'registryOutbox', batchSize: 10, maxBatchingWindowSeconds: 0 },
  },
  'event-subscriptions': {
    entry: 'functions/event-subscriptions/handler.ts',
    description: 'Event subscriptions (outbound webhooks): create, list, change, delete, rotate, test, delivery log and retry',
    memoryMb: 512,
    timeoutSeconds: 10,
    // Seals new and rotated secrets and opens them to carry them over; a test or retry queues one message.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true, secretsKey: ['kms:GenerateDataKey', 'kms:Decrypt'], deliveryQueue: ['sqs:SendMessage'] },
  },
  'event-fanout': {
    entry: 'functions/event-fanout/handler.ts',
    description: 'Turns each new event of the log (table stream) into one delivery message per matching event subscription',
    memoryMb: 256,
    timeoutSeconds: 30,
    // One Query of the tenant's subscriptions per event; SendMessageBatch to the delivery queue.
    grants: { table: ['dynamodb:Query'], deliveryQueue: ['sqs:SendMessage'] },
    // A record that still fails alone after 10 retries is set aside (docs/webhooks-outbound.md#a-record-that-keeps-failing).
    trigger: { kind: 'tableStream', itemType: 'event', batchSize: 100, maxBatchingWindowSeconds: 0, retryAttempts: 10 },
  },
  'event-delivery': {
    entry: 'functions/event-delivery/handler.ts',
    description: 'Delivers one attempt of an event to a subscription (Standard Webhooks signature) and schedules its retry',
    memoryMb: 256,
    // Ten deliveries at once, each at most 10 s (docs/webhooks-outbound.md).
    timeoutSeconds: 30,
    // Reads the subscription (opens its secrets) and the event; UpdateItem for the delivery log and the subscription's health.
    grants: { table: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], secretsKey: ['kms:Decrypt'], deliveryQueue: ['sqs:SendMessage'] },
    trigger: { kind: 'sqs', queue: 'delivery', batchSize: 10, maxBatchingWindowSeconds: 0 },
  },
  webhooks: {
    entry: 'functions/webhooks/handler.ts',
    description: 'Webhook endpoints of an organization (dashboard session)',
    memoryMb: 512,
    timeoutSeconds: 10,
    // Seals new and rotated secrets, opens them to carry them over a rotation or an edit.
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true, secretsKey: ['kms:GenerateDataKey', 'kms:Decrypt'] },
  },
  domains: {
    entry: 'functions/domains/handler.ts',
    description: 'Brand-owned resolver domains of an organization (dashboard session): TXT verification, default domain',
    memoryMb: 512,
    timeoutSeconds: 10,
    // Transactions of Put, Update and Delete (the domain, its hostname claim, the default pointer).
    grants: { table: [...WRITE, 'dynamodb:DeleteItem'], sessionSecret: true, cloudfrontTenants: ['cloudfront:CreateDistributionTenant', 'cloudfront:TagResource'] },
  },
  labelling: {
    entry: 'functions/labelling/handler.ts',
    description: 'The ingredient vocabulary (public), the energy calculator, and the organization\'s corrections of legal terms',
    memoryMb: 256,
    timeoutSeconds: 5,
    // The vocabulary is bundled; the calculator stores nothing; an organization's term corrections are put and deleted with their events.
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
    // Opens the endpoint's sealed secrets to verify a delivery; never seals.
    grants: { table: WRITE, secretsKey: ['kms:Decrypt'] },
  },
  'scan-spill': {
    entry: 'functions/scan-spill/handler.ts',
    description: 'Counts the scans the resolver spilled to the table while the scan queue failed, exactly once',
    memoryMb: 512,
    timeoutSeconds: 30,
    // The aggregator's writes and ledger queries (docs/decisions.md#scans-while-the-queue-is-down).
    grants: { table: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query'] },
    trigger: { kind: 'tableStream', itemType: 'scanSpill', batchSize: 100, maxBatchingWindowSeconds: 1 },
  },
  health: {
    entry: 'functions/health/handler.ts',
    description: 'Readiness (GET /ready): whether the table and the queues answer',
    memoryMb: 256,
    timeoutSeconds: 5,
    // One GetItem of a key never written, and GetQueueAttributes on each queue, at most once a second per instance (docs/api.md#when-a-dependency-is-down).
    grants: { table: ['dynamodb:GetItem'], scanQueue: ['sqs:GetQueueAttributes'], importQueue: ['sqs:GetQueueAttributes'], deliveryQueue: ['sqs:GetQueueAttributes'] },
  },
  transfers: {
    entry: 'functions/transfers/handler.ts',
    description: 'Transfers of a product to another organization (a change of economic operator): offer, accept (and the move), decline, cancel, read, list (docs/transfers.md)',
    memoryMb: 512,
    // 29 s, API Gateway's integration limit: an acceptance moves the product for at most 20 s (MOVE_BUDGET_MS), the next call goes on.
    timeoutSeconds: 29,
    // The transfer's copies, events and the acceptance in transactions (Put, Update, Delete, ConditionCheck); the move's pages
    // (Query), copies and deletions 25 a call (BatchWriteItem); DeleteItem for Powertools idempotency (POST /v1/transfers).
    grants: { table: [...WRITE, 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'], sessionSecret: true },
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

