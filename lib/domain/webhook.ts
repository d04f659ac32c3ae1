import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { HEADLESS_CMS_MAPPING, mappingSchema, type Mapping } from './mapping.ts';
import { CATEGORIES, type Category } from './product.ts';
import { ENVIRONMENTS, type Environment } from './tenant.ts';

export const SOURCES = ['headless-cms', 'custom'] as const;
export type Source = (typeof SOURCES)[number];

/** How long a rotated-out secret keeps verifying. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookSecret {
  secret: string;
  createdAt: string;
  /** Set when a newer secret replaced this one; it verifies until then. */
  expiresAt?: string;
}

/** An organization's webhook endpoint: where its PIM delivers, and how payloads map to passports. */
export interface WebhookEndpoint {
  endpointId: string;
  orgId: string;
  environment: Environment;
  source: Source;
  defaultCategory: Category;
  mapping: Mapping;
  /** Newest first. */
  secrets: WebhookSecret[];
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export const createEndpointSchema = z
  .strictObject({
    source: z.enum(SOURCES, { error: (i) => (i.input === undefined ? 'source is required.' : `source must be one of: ${SOURCES.join(', ')}.`) }),
    environment: z.enum(ENVIRONMENTS, { error: 'environment must be live or test.' }).optional(),
    defaultCategory: z.enum(CATEGORIES, { error: `defaultCategory must be one of: ${CATEGORIES.join(', ')}.` }).default('wine'),
    mapping: mappingSchema.optional(),
    description: z.string().trim().max(200, { error: 'description must be at most 200 characters.' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.source === 'custom' && !body.mapping) {
      ctx.addIssue({ code: 'custom', path: ['mapping'], message: 'A custom source needs a mapping.', params: { suggestion: 'Send mapping: {"gtin": "…", "name": "…", …}.' } });
    }
  });
export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;

export const updateEndpointSchema = z.strictObject({
  defaultCategory: z.enum(CATEGORIES, { error: `defaultCategory must be one of: ${CATEGORIES.join(', ')}.` }).optional(),
  mapping: mappingSchema.optional(),
  description: z.string().trim().max(200, { error: 'description must be at most 200 characters.' }).optional(),
});
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;

export const defaultMapping = (source: Source): Mapping | undefined => (source === 'headless-cms' ? HEADLESS_CMS_MAPPING : undefined);

/** The endpoint as its owner sees it: secrets never appear after creation or rotation. */
export function toEndpointView(endpoint: WebhookEndpoint): {
  id: string;
  source: Source;
  environment: Environment;
  defaultCategory: Category;
  mapping: Mapping;
  description: string | null;
  secretPreviousValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
} {
  return {
    id: endpoint.endpointId,
    source: endpoint.source,
    environment: endpoint.environment,
    defaultCategory: endpoint.defaultCategory,
    mapping: endpoint.mapping,
    description: endpoint.description ?? null,
    secretPreviousValidUntil: endpoint.secrets[1]?.expiresAt ?? null,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact bytes (docs/decisions.md#webhooks-hmac-over-the-raw-bytes). */
export const sign = (secret: string, body: Buffer): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Whether `header` is a valid signature of `body` under any secret still valid at `now`. Every
 * comparison is constant-time, and every secret is tried, so timing reveals nothing.
 */
export function verifySignature(header: string | undefined, body: Buffer, secrets: readonly WebhookSecret[], now = Date.now()): boolean {
  const match = SIGNATURE.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1], 'hex');
  let valid = false;
  for (const { secret, expiresAt } of secrets) {
    if (expiresAt !== undefined && Date.parse(expiresAt) <= now) continue;
    const expected = createHmac('sha256', secret).update(body).digest();
    valid = timingSafeEqual(expected, given) || valid;
  }
  return valid;
}

/** Event types that create or change a product; anything else is acknowledged and ignored. */
export function isUpsertEvent(payload: Record<string, unknown>): boolean {
  const eventType = payload.event_type;
  const entityType = payload.entity_type;
  if (typeof entityType === 'string' && !/product/i.test(entityType)) return false;
  if (eventType === undefined) return true;
  return typeof eventType === 'string' && /create|update|publish|upsert|save|change/i.test(eventType);
}
