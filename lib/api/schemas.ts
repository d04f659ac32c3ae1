import * as z from 'zod';
import { mappingSchema } from '../domain/mapping.ts';
import { CATEGORIES } from '../domain/product.ts';
import { SCOPES } from '../domain/scopes.ts';
import { ENVIRONMENTS } from '../domain/tenant.ts';
import { SIGNATURE_SCHEMES, SOURCES } from '../domain/webhook.ts';
import { ERROR_TYPE_NAMES } from '../http/error-types.ts';

/**
 * Response shapes that no domain module owns (errors, dashboard session, API keys, webhook
 * endpoints), as zod schemas: the OpenAPI document is generated from them, and the contract test
 * holds every response of the integration suite to it.
 */
/** The error types of the table (lib/http/error-types.ts). */
export const ERROR_TYPES = ERROR_TYPE_NAMES;

/**
 * The media type of the DID documents (DID Core's JSON representation), which did:web resolvers
 * read whatever the type (docs/credentials.md#did-documents-media-type).
 */
export const DID_JSON_MEDIA_TYPE = 'application/did+json';

export const errorSchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      code: z.enum(ERROR_TYPES).describe('Always equal to type'),
      message: z.string(),
      param: z.string().optional().describe('The offending request field, when there is one'),
      params: z
        .array(z.string())
        .optional()
        .describe('Every offending field, when a refusal names several (a battery passport lacking mandatory elements: each element\'s path); param is the first'),
      suggestion: z.string().optional(),
      documentationUrl: z.string().optional(),
    }),
  })
  .meta({ id: 'Error' });

const environment = z.enum(ENVIRONMENTS);

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    environment,
    prefix: z.string(),
    last4: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    rateLimitPerMinute: z.int(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema
  .pick({ id: true, name: true, scopes: true, environment: true, prefix: true, createdAt: true })
  .extend({ key: z.string().describe('The full key: shown this once') })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const revokedApiKeySchema = z.object({ id: z.string(), revoked: z.literal(true), revokedAt: z.iso.datetime() });

export const sessionSchema = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string().optional() }),
    organizations: z.array(z.object({ id: z.string(), name: z.string() })),
    organization: z.object({ id: z.string(), name: z.string() }),
    environment,
    csrfToken: z.string().describe('Send as X-CSRF-Token, with Origin, on state-changing calls'),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    source: z.enum(SOURCES),
    environment,
    defaultCategory: z.enum(CATEGORIES),
    mapping: mappingSchema,
    description: z.string().nullable(),
    secretPreviousValidUntil: z.iso.datetime().nullable(),
    signatureScheme: z.enum(SIGNATURE_SCHEMES).describe('How deliveries are signed (docs/security.md)'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    secret: z.string().optional().describe('Only in the answer to create: shown once'),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const ingestResultSchema = z
  .object({
    received: z.literal(true),
    ignored: z.boolean().optional(),
    eventType: z.string().nullable().optional(),
    duplicate: z.boolean().optional(),
    stale: z.boolean().optional().describe('Every product was older than its published data (revision or update time): nothing was written'),
    productId: z.uuid().optional(),
    passportId: z.string().optional(),
    version: z.int().optional(),
    products: z
      .array(
        z.object({
          gtin: z.string(),
          productId: z.uuid(),
          passportId: z.string(),
          version: z.int(),
          duplicate: z.boolean(),
          productCreated: z.boolean(),
          stale: z.boolean().optional(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'IngestResult' });

export const dataList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
export const cursorPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), hasMore: z.boolean() });
