import * as z from 'zod';
import { analyticsQuerySchema, analyticsSchema } from '../domain/analytics.ts';
import { createApiKeySchema, listApiKeysQuerySchema } from '../domain/api-key.ts';
import { cursorLimit } from '../domain/pagination.ts';
import { createdPassportSchema, createPassportSchema, passportSchema, passportViewSchema } from '../domain/passport.ts';
import {
  createdProductSchema,
  createProductSchema,
  productListSchema,
  productViewSchema,
  qrQuerySchema,
  updateProductSchema,
} from '../domain/product.ts';
import { switchSessionSchema } from '../domain/session.ts';
import { createSupplierSchema, supplierViewSchema } from '../domain/supplier.ts';
import { createEndpointSchema, updateEndpointSchema } from '../domain/webhook.ts';
import {
  apiKeyViewSchema,
  createdApiKeySchema,
  cursorPage,
  dataList,
  ingestResultSchema,
  revokedApiKeySchema,
  sessionViewSchema,
  webhookEndpointSchema,
} from './schemas.ts';

/**
 * What the OpenAPI document says of each route of the route table beyond its method, path, auth
 * and scopes: a summary, the query and body schemas the handler validates with, and the answers.
 * The schemas are the very ones the handlers use, so the document cannot drift from the code.
 */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface OperationDoc {
  summary: string;
  description?: string;
  tag: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Success answers by status. */
  responses: Record<number, Answer>;
  /** Error statuses the operation answers with, each with the error object. */
  errors: readonly number[];
}

const API_KEY_ERRORS = [401, 403, 429] as const;
const SESSION_ERRORS = [401, 403] as const;

const listProductsQuery = z.object({
  limit: z.int().min(1).max(100).optional().describe('Page size: 1..100; default 20 (offset form) or 25 (cursor form)'),
  offset: z.int().min(0).optional().describe('Offset form: items to skip (at most 10,000)'),
  starting_after: z.uuid().optional().describe('Cursor form: the productId of the last item of the previous page'),
  q: z.string().min(1).max(100).optional().describe('Search: products whose name contains q (any letter case) or whose GTIN starts with q (as GTIN-14, -13, -12 or -8)'),
});
const cursorQuery = (id: string) =>
  z.object({ limit: cursorLimit.optional(), starting_after: z.string().optional().describe(`Cursor: the ${id} of the last item of the previous page`) });

const html = (description: string): Answer => ({ description, contentType: 'text/html', schema: z.string() });

const resolverAnswers: Record<number, Answer> = {
  200: {
    description:
      'The newest passport, by content negotiation: the e-label page (text/html, the default), the passport read form (application/json), or an RFC 9264 linkset (application/linkset+json, or ?linkType=linkset)',
    schema: passportViewSchema,
  },
};

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST /v1/products': {
    summary: 'Register a product',
    tag: 'Products',
    body: createProductSchema,
    responses: { 201: { description: 'Created; qrCodeUrl is final', schema: createdProductSchema } },
    errors: [400, ...API_KEY_ERRORS, 409, 413, 422],
  },
  'GET /v1/products': {
    summary: "List the organization's products",
    description: 'Offset form without starting_after; cursor form with it. Oldest first.',
    tag: 'Products',
    query: listProductsQuery,
    responses: { 200: { description: 'A page of products', schema: productListSchema } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/products/{productId}': {
    summary: 'Get a product',
    tag: 'Products',
    responses: { 200: { description: 'The product', schema: productViewSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'PATCH /v1/products/{productId}': {
    summary: 'Update a product',
    description: 'Partial: omitted fields stay; sku: null clears the SKU; gtin cannot change. Never changes passport data.',
    tag: 'Products',
    body: updateProductSchema,
    responses: { 200: { description: 'The updated product', schema: z.object({ product: productViewSchema }) } },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
  },
  'GET /v1/products/{productId}/qr': {
    summary: "The product's QR code",
    tag: 'Products',
    query: qrQuerySchema,
    responses: { 200: { description: 'An SVG QR code of qrCodeUrl', contentType: 'image/svg+xml', schema: z.string() } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'POST /v1/passports': {
    summary: 'Publish a passport version',
    description: "Publishes data as the product's next version (1, 2, …).",
    tag: 'Passports',
    body: createPassportSchema,
    responses: { 201: { description: 'Published', schema: createdPassportSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
  },
  'GET /v1/products/{productId}/passport': {
    summary: "A product's current passport",
    tag: 'Passports',
    responses: { 200: { description: 'The read form', schema: passportViewSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'GET /v1/products/{productId}/passports': {
    summary: "A product's passport versions, newest first",
    tag: 'Passports',
    query: cursorQuery('passportId'),
    responses: { 200: { description: 'A page of versions', schema: cursorPage(passportSchema) } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'POST /v1/suppliers': {
    summary: 'Register a supplier (economic operator)',
    tag: 'Suppliers',
    body: createSupplierSchema,
    responses: { 201: { description: 'Created', schema: supplierViewSchema } },
    errors: [400, ...API_KEY_ERRORS, 413, 422],
  },
  'GET /v1/suppliers': {
    summary: 'List suppliers, oldest first',
    tag: 'Suppliers',
    query: cursorQuery('supplierId'),
    responses: { 200: { description: 'A page of suppliers', schema: cursorPage(supplierViewSchema) } },
    errors: [400, ...API_KEY_ERRORS, 422],
  },
  'GET /v1/suppliers/{supplierId}': {
    summary: 'Get a supplier',
    tag: 'Suppliers',
    responses: { 200: { description: 'The supplier', schema: supplierViewSchema } },
    errors: [...API_KEY_ERRORS, 404],
  },
  'GET /v1/analytics/product/{productId}': {
    summary: "A product's scan analytics",
    description: 'Aggregate counts only: nothing personal is kept.',
    tag: 'Analytics',
    query: analyticsQuerySchema,
    responses: { 200: { description: 'Analytics of the window', schema: analyticsSchema } },
    errors: [400, ...API_KEY_ERRORS, 404, 422],
  },
  'GET /{orgId}/{environment}/01/{gtin}': {
    summary: 'Resolve a GS1 Digital Link (the printed QR code)',
    tag: 'Resolver',
    query: z.object({ linkType: z.string().optional().describe('linkset (or all) for the linkset') }),
    responses: resolverAnswers,
    errors: [400, 404],
  },
  'GET /{orgId}/{environment}/01/{gtin}/{qualifiers+}': {
    summary: 'Resolve a GS1 Digital Link with key qualifiers (/22/…, /10/{lot}, /21/{serial})',
    tag: 'Resolver',
    query: z.object({ linkType: z.string().optional() }),
    responses: resolverAnswers,
    errors: [400, 404],
  },
  'HEAD /{orgId}/{environment}/01/{gtin}': { summary: 'Headers of a resolution', tag: 'Resolver', responses: { 200: { description: 'As GET, without a body' } }, errors: [400, 404] },
  'HEAD /{orgId}/{environment}/01/{gtin}/{qualifiers+}': { summary: 'Headers of a resolution', tag: 'Resolver', responses: { 200: { description: 'As GET, without a body' } }, errors: [400, 404] },
  'OPTIONS /{orgId}/{environment}/01/{gtin}': { summary: 'CORS preflight', tag: 'Resolver', responses: { 204: { description: 'CORS open to every origin' } }, errors: [] },
  'OPTIONS /{orgId}/{environment}/01/{gtin}/{qualifiers+}': { summary: 'CORS preflight', tag: 'Resolver', responses: { 204: { description: 'CORS open to every origin' } }, errors: [] },
  'GET /.well-known/gs1resolver': {
    summary: 'What this GS1 resolver supports',
    tag: 'Resolver',
    responses: { 200: { description: 'The resolver description', schema: z.object({ name: z.string(), resolverRoot: z.string(), supportedPrimaryKeys: z.array(z.string()) }).loose() } },
    errors: [],
  },
  'POST /v1/webhooks/endpoints': {
    summary: 'Create a webhook endpoint',
    tag: 'Webhooks',
    body: createEndpointSchema,
    responses: { 201: { description: 'Created; secret is shown this once', schema: webhookEndpointSchema } },
    errors: [400, ...SESSION_ERRORS, 413, 422],
  },
  'GET /v1/webhooks/endpoints': {
    summary: "The organization's webhook endpoints",
    tag: 'Webhooks',
    responses: { 200: { description: 'Every endpoint', schema: dataList(webhookEndpointSchema) } },
    errors: [...SESSION_ERRORS],
  },
  'GET /v1/webhooks/endpoints/{endpointId}': {
    summary: 'A webhook endpoint, its mapping included',
    tag: 'Webhooks',
    responses: { 200: { description: 'The endpoint', schema: webhookEndpointSchema } },
    errors: [...SESSION_ERRORS, 404],
  },
  'PATCH /v1/webhooks/endpoints/{endpointId}': {
    summary: "Change a webhook endpoint's mapping, default category or description",
    tag: 'Webhooks',
    body: updateEndpointSchema,
    responses: { 200: { description: 'The endpoint', schema: webhookEndpointSchema } },
    errors: [400, ...SESSION_ERRORS, 404, 413, 422],
  },
  'DELETE /v1/webhooks/endpoints/{endpointId}': {
    summary: 'Delete a webhook endpoint',
    tag: 'Webhooks',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) } },
    errors: [...SESSION_ERRORS, 404],
  },
  'POST /v1/webhooks/endpoints/{endpointId}/rotate-secret': {
    summary: "Rotate a webhook endpoint's secret",
    description: 'The previous secret keeps verifying for 24 hours.',
    tag: 'Webhooks',
    responses: {
      200: { description: 'The new secret, shown once', schema: z.object({ id: z.string(), secret: z.string(), previousSecretValidUntil: z.iso.datetime() }) },
    },
    errors: [...SESSION_ERRORS, 404],
  },
  'POST /v1/webhooks/ingest': {
    summary: 'Receive a signed delivery from a product-information system',
    description: 'X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body>. The endpoint is named by ?endpoint=whe_… or X-Webhook-Endpoint.',
    tag: 'Webhooks',
    query: z.object({ endpoint: z.string().optional() }),
    body: z.object({}).loose().describe('The PIM payload, mapped by the endpoint’s mapping'),
    responses: { 200: { description: 'Applied (or a duplicate, or an ignored event type)', schema: ingestResultSchema } },
    errors: [400, 401, 413, 422],
  },
  'GET /v1/openapi.json': {
    summary: 'This document',
    tag: 'Reference',
    responses: { 200: { description: 'The OpenAPI 3.1 document', schema: z.object({ openapi: z.string() }).loose() } },
    errors: [],
  },
  'GET /docs': { summary: 'The API reference page', tag: 'Reference', responses: { 200: html('Swagger UI on this document, served offline') }, errors: [] },
  'GET /docs/{asset}': { summary: 'A file of the reference page', tag: 'Reference', responses: { 200: { description: 'CSS or JavaScript' } }, errors: [404] },
  'GET /v1/auth/login': {
    summary: 'Sign in to the dashboard',
    tag: 'Dashboard session',
    query: z.object({ returnTo: z.string().optional() }),
    responses: { 302: { description: 'To the identity provider (authorization code flow with PKCE)' } },
    errors: [400, 422],
  },
  'GET /v1/auth/callback': {
    summary: 'The identity provider returns here',
    tag: 'Dashboard session',
    responses: { 303: { description: 'Signed in: the session cookie is set' } },
    errors: [400, 401, 403],
  },
  'POST /v1/auth/logout': {
    summary: 'Sign out',
    tag: 'Dashboard session',
    responses: { 200: { description: 'Signed out', schema: z.object({ signedOut: z.literal(true) }) } },
    errors: [...SESSION_ERRORS],
  },
  'GET /v1/auth/session': {
    summary: 'The signed-in user, organizations and current environment',
    tag: 'Dashboard session',
    responses: { 200: { description: 'The session', schema: sessionViewSchema } },
    errors: [...SESSION_ERRORS],
  },
  'POST /v1/auth/session': {
    summary: 'Switch organization or environment',
    tag: 'Dashboard session',
    body: switchSessionSchema,
    responses: { 200: { description: 'The switched session', schema: sessionViewSchema } },
    errors: [400, ...SESSION_ERRORS, 404, 413, 422],
  },
  'POST /v1/auth/api-keys': {
    summary: 'Create an API key',
    tag: 'API keys',
    body: createApiKeySchema,
    responses: { 201: { description: 'Created; key is shown this once', schema: createdApiKeySchema } },
    errors: [400, ...SESSION_ERRORS, 413, 422],
  },
  'GET /v1/auth/api-keys': {
    summary: "The organization's active API keys, masked",
    tag: 'API keys',
    query: listApiKeysQuerySchema,
    responses: { 200: { description: 'Active keys', schema: dataList(apiKeyViewSchema) } },
    errors: [400, ...SESSION_ERRORS, 422],
  },
  'DELETE /v1/auth/api-keys/{keyId}': {
    summary: 'Revoke an API key (irreversible; effective within 5 seconds)',
    tag: 'API keys',
    responses: { 200: { description: 'Revoked', schema: revokedApiKeySchema } },
    errors: [...SESSION_ERRORS, 404],
  },
};
