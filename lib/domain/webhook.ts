import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { plainText } from './text.ts';
import { SIGNATURE_SCHEMES, SOURCES, type SignatureScheme, type Source } from './enums.ts';
import { HEADLESS_CMS_MAPPING, mappingSchema, TARGETS, type Mapping } from './mapping.ts';
import { CATEGORIES, type Category } from './product.ts';
import { ENVIRONMENTS, type Environment } from './tenant.ts';

export { SIGNATURE_SCHEMES, SOURCES, type SignatureScheme, type Source };

/** How far a Standard Webhooks `webhook-timestamp` may be from the server's clock, either way. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/** How long a rotated-out secret keeps verifying. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A signing secret of an inbound endpoint or an outbound subscription (docs/webhooks-outbound.md). */
export interface WebhookSecret {
  secret: string;
  createdAt: string;
  /** Set when a newer secret replaced this one; it verifies (or signs) until then. */
  expiresAt?: string;
}

/**
 * The secrets after a rotation at `now`: the new one first, the current one beside it until
 * ROTATION_OVERLAP_MS from now, any older one gone.
 */
export function rotatedSecrets(secrets: readonly WebhookSecret[], secret: string, now: number): { secrets: WebhookSecret[]; previousValidUntil: string } {
  const previousValidUntil = new Date(now + ROTATION_OVERLAP_MS).toISOString();
  const previous = secrets[0];
  return {
    secrets: [{ secret, createdAt: new Date(now).toISOString() }, ...(previous ? [{ ...previous, expiresAt: previousValidUntil }] : [])],
    previousValidUntil,
  };
}

/** An organization's webhook endpoint: where its PIM delivers, and how payloads map to passports. */
export interface WebhookEndpointRecord {
  endpointId: string;
  orgId: string;
  environment: Environment;
  source: Source;
  defaultCategory: Category;
  mapping: Mapping;
  /** Newest first. */
  secrets: WebhookSecret[];
  description?: string;
  /** Absent: `hmac-body`. */
  signatureScheme?: SignatureScheme;
  createdAt: string;
  updatedAt: string;
}

const signatureSchemeSchema = z
  .enum(SIGNATURE_SCHEMES, { error: `signatureScheme must be one of: ${SIGNATURE_SCHEMES.join(', ')}.` })
  .describe('How deliveries are signed: hmac-body (X-Webhook-Signature, the default) or standard-webhooks (webhook-id, webhook-timestamp, webhook-signature; ±5 min)');

/** A mapping in a request: mappingSchema, with its refinements as the OpenAPI document states them. */
const mappingInput = mappingSchema.meta({
  description: 'Target field → source path in the payload; gtin is required',
  propertyNames: { enum: Object.keys(TARGETS) },
  // `gtin` required; in an allOf so that `properties` there leaves the values' schema to additionalProperties.
  allOf: [{ properties: { gtin: true }, required: ['gtin'] }],
});

export const createEndpointSchema = z
  .strictObject({
    source: z.enum(SOURCES, { error: (i) => (i.input === undefined ? 'source is required.' : `source must be one of: ${SOURCES.join(', ')}.`) }),
    environment: z.enum(ENVIRONMENTS, { error: 'environment must be live or test.' }).optional(),
    defaultCategory: z.enum(CATEGORIES, { error: `defaultCategory must be one of: ${CATEGORIES.join(', ')}.` }).default('wine'),
    mapping: mappingInput.optional(),
    description: plainText(z.string().trim().max(200, { error: 'description must be at most 200 characters.' }), 'description').optional(),
    signatureScheme: signatureSchemeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.source === 'custom' && !body.mapping) {
      ctx.addIssue({ code: 'custom', path: ['mapping'], message: 'A custom source needs a mapping.', params: { suggestion: 'Send mapping: {"gtin": "…", "name": "…", …}.' } });
    }
  })
  // The refinement above, as the OpenAPI document states it.
  .meta({ if: { properties: { source: { const: 'custom' } }, required: ['source'] }, then: { properties: { mapping: { type: 'object' } }, required: ['mapping'] } });
export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;

export const updateEndpointSchema = z.strictObject({
  defaultCategory: z.enum(CATEGORIES, { error: `defaultCategory must be one of: ${CATEGORIES.join(', ')}.` }).optional(),
  mapping: mappingInput.optional(),
  description: plainText(z.string().trim().max(200, { error: 'description must be at most 200 characters.' }), 'description').optional(),
  signatureScheme: signatureSchemeSchema.optional(),
});
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;

export const defaultMapping = (source: Source): Mapping | undefined => (source === 'headless-cms' ? HEADLESS_CMS_MAPPING : undefined);

/** The endpoint as its owner sees it: secrets never appear after creation or rotation. */
export function toEndpointView(endpoint: WebhookEndpointRecord): {
  id: string;
  source: Source;
  environment: Environment;
  defaultCategory: Category;
  mapping: Mapping;
  description: string | null;
  secretPreviousValidUntil: string | null;
  signatureScheme: SignatureScheme;
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
    signatureScheme: endpoint.signatureScheme ?? 'hmac-body',
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

const STANDARD_SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;
const WEBHOOK_ID = /^[\x21-\x7e]{1,255}$/;
const WEBHOOK_TIMESTAMP = /^\d{1,12}$/;

/** The HMAC key of a secret under Standard Webhooks: the base64 after `whsec_`. */
const standardKey = (secret: string): Buffer => (secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8'));

export type StandardVerification = { ok: true; id: string; timestamp: number } | { ok: false; reason: 'signature' | 'timestamp' };

/**
 * A Standard Webhooks delivery: `webhook-signature` holds space-separated `v1,<base64>` entries, any
 * of which may be the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with any
 * secret valid at `now` (constant-time, every pair tried). The timestamp (Unix seconds) is checked
 * only after the signature, so that only a signer learns that it was out of tolerance.
 */
export function verifyStandardWebhook(
  headers: Readonly<Record<string, string | undefined>>,
  body: Buffer,
  secrets: readonly WebhookSecret[],
  now = Date.now(),
): StandardVerification {
  const id = headers['webhook-id'] ?? '';
  const timestamp = headers['webhook-timestamp'] ?? '';
  if (!WEBHOOK_ID.test(id) || !WEBHOOK_TIMESTAMP.test(timestamp)) return { ok: false, reason: 'signature' };
  const given = (headers['webhook-signature'] ?? '')
    .split(' ')
    .map((entry) => STANDARD_SIGNATURE.exec(entry)?.[1])
    .filter((b64): b64 is string => b64 !== undefined)
    .slice(0, 10)
    .map((b64) => Buffer.from(b64, 'base64'));
  if (given.length === 0) return { ok: false, reason: 'signature' };
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  let valid = false;
  for (const { secret, expiresAt } of secrets) {
    if (expiresAt !== undefined && Date.parse(expiresAt) <= now) continue;
    const expected = createHmac('sha256', standardKey(secret)).update(signed).digest();
    for (const candidate of given) valid = timingSafeEqual(expected, candidate) || valid;
  }
  if (!valid) return { ok: false, reason: 'signature' };
  const sentAt = Number(timestamp) * 1000;
  if (Math.abs(now - sentAt) > TIMESTAMP_TOLERANCE_MS) return { ok: false, reason: 'timestamp' };
  return { ok: true, id, timestamp: sentAt };
}

/** Event types that create or change a product; anything else is acknowledged and ignored. */
export function isUpsertEvent(payload: Record<string, unknown>): boolean {
  const eventType = payload.event_type;
  const entityType = payload.entity_type;
  if (typeof entityType === 'string' && !/product/i.test(entityType)) return false;
  if (eventType === undefined) return true;
  return typeof eventType === 'string' && /create|update|publish|upsert|save|change/i.test(eventType);
}
