import { createHmac } from 'node:crypto';
import * as z from 'zod';
import { plainText } from './text.ts';
import { EVENT_TYPES, type EventType } from './event-types.ts';
import { newSortableId } from './ids.ts';
import { cursorQuerySchema } from './pagination.ts';
import type { Environment } from './tenant.ts';
import type { WebhookSecret } from './webhook.ts';

/**
 * Event subscriptions: outbound webhooks that deliver the event log (docs/lifecycle.md#event-log)
 * to a customer's URL, signed per Standard Webhooks (docs/webhooks-outbound.md). Not to be
 * confused with the inbound webhook endpoints of lib/domain/webhook.ts (PIM → us).
 */

export const SUBSCRIPTION_STATUSES = ['enabled', 'disabled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** `*` subscribes to every event type, present and future. */
export const ALL_EVENTS = '*';
export type SubscribedEvent = EventType | typeof ALL_EVENTS;

/** The event a `POST …/test` sends; it is not in the event log. */
export const PING_EVENT_TYPE = 'ping';

export const SUBSCRIPTION_ID_PATTERN = /^sub_[0-9a-z]{20}$/;
export const DELIVERY_ID_PATTERN = /^del_[0-9a-z]{20}$/;
export const newSubscriptionId = (): string => newSortableId('sub');

/**
 * The most event subscriptions a tenant (an organization's live or test environment) may have:
 * each event costs one delivery per subscription, up to 8 attempts each (docs/security.md).
 */
export const MAX_EVENT_SUBSCRIPTIONS = 20;

/**
 * One delivery per subscription per event: its id is the event's (`evt_x` → `del_x`), so a
 * repeated fan-out of the same event finds the same delivery, and deliveries sort by event time.
 */
export const deliveryIdOf = (eventId: string): string => `del_${eventId.slice(4)}`;
export const eventIdOf = (deliveryId: string): string => `evt_${deliveryId.slice(4)}`;

/** A subscription whose deliveries have all failed this long is disabled (docs/webhooks-outbound.md#retries). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 60 * 60 * 1000;
/** Delivery log items expire after 30 days (DynamoDB TTL). */
export const DELIVERY_LOG_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The receiver must answer within this. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * Seconds to wait before each retry after a failed attempt: the first retry within 10 s, then
 * growing; after the last, the delivery gives up (8 attempts over about 28 hours).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** A subscription's secret: the inbound endpoints' model, rotated the same way (lib/domain/webhook.ts). */
export type SubscriptionSecret = WebhookSecret;

export interface SubscriptionRecord {
  subscriptionId: string;
  orgId: string;
  environment: Environment;
  url: string;
  events: SubscribedEvent[];
  description?: string;
  status: SubscriptionStatus;
  /** Why the service disabled it (absent when enabled, or disabled by its owner). */
  disabledReason?: string;
  /** The first failed attempt since the last successful one. */
  failingSince?: string;
  /** Newest first. */
  secrets: SubscriptionSecret[];
  createdAt: string;
  updatedAt: string;
}

/**
 * How a subscription URL starts in every deployment (the OpenAPI document's `pattern`). The schema
 * lets `http://` through too, for the local stack's loopback receivers; the service refuses it
 * elsewhere (lib/domain/outbound-address.ts urlProblem), so that in AWS the two say the same.
 */
export const SUBSCRIPTION_URL_PATTERN = '^https://';

const urlSchema = z
  .string({ error: (i) => (i.input === undefined ? 'url is required.' : 'url must be a string.') })
  .refine((value) => /^https?:\/\//.test(value), { error: 'url must start with https://.' })
  .trim()
  .max(2048, { error: 'url must be at most 2048 characters.' })
  .refine((value) => URL.canParse(value), { error: 'url must be an absolute URL such as https://example.com/webhooks.' })
  .meta({ format: 'uri', pattern: SUBSCRIPTION_URL_PATTERN })
  .describe(
    'Where events are POSTed: an absolute URL of at most 2048 characters that starts with https:// (lower case, nothing before it), with no user name, password or fragment. ' +
      'Its host must resolve in DNS when the subscription is saved, and the host and every address it resolves to must be globally reachable unicast: ' +
      'private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7), loopback (127.0.0.0/8, ::1, localhost), link-local (169.254.0.0/16, where cloud metadata services answer, and fe80::/10), shared (100.64.0.0/10), ' +
      'documentation, benchmarking, multicast and reserved addresses, the other blocks of the IANA special-purpose registries that are not globally reachable, IPv6 outside 2000::/3, and IPv6 forms that embed an IPv4 address other than IPv4-mapped and NAT64 (checked as the IPv4 address they reach) are refused: 422 with param url (docs/webhooks-outbound.md#ssrf). ' +
      'Every delivery checks again and connects to the address it checked, following no redirect. Only a local stack (EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK=true) also accepts http:// and loopback addresses.',
  );

const eventsSchema = z
  .array(z.enum([...EVENT_TYPES, ALL_EVENTS], { error: `events must hold event types (${EVENT_TYPES.join(', ')}) or "*".` }), {
    error: 'events must be an array of event types.',
  })
  .min(1, { error: 'events must name at least one event type, or "*".' })
  .max(EVENT_TYPES.length + 1, { error: 'events names too many types.' })
  .transform((events) => [...new Set(events)])
  .describe('The event types delivered, or ["*"] for all');

const descriptionSchema = plainText(z.string().trim().max(200, { error: 'description must be at most 200 characters.' }), 'description');

export const createSubscriptionSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.optional(),
});
export type CreateSubscriptionInput = z.infer<typeof createSubscriptionSchema>;

export const updateSubscriptionSchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.optional(),
  status: z.enum(SUBSCRIPTION_STATUSES, { error: 'status must be enabled or disabled.' }).optional(),
});
export type UpdateSubscriptionInput = z.infer<typeof updateSubscriptionSchema>;

export const subscriptionSchema = z
  .object({
    id: z.string().describe('`sub_…`'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    disabledReason: z.string().nullable().describe('Why the service disabled the subscription (every delivery failed for 3 days); null otherwise'),
    secretPreviousValidUntil: z.iso.datetime().nullable().describe('After a rotation, until when the previous secret signs beside the new one'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'EventSubscription' });

export const createdSubscriptionSchema = subscriptionSchema.extend({ secret: z.string().describe('`whsec_…`, shown this once') }).meta({ id: 'CreatedEventSubscription' });

export type SubscriptionView = z.infer<typeof subscriptionSchema>;

export function toSubscriptionView(s: SubscriptionRecord, now = Date.now()): SubscriptionView {
  const previous = s.secrets[1]?.expiresAt;
  return {
    id: s.subscriptionId,
    url: s.url,
    events: s.events,
    description: s.description ?? null,
    status: s.status,
    disabledReason: s.disabledReason ?? null,
    secretPreviousValidUntil: previous && Date.parse(previous) > now ? previous : null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** Whether the subscription wants events of `type`. */
export const wants = (s: Pick<SubscriptionRecord, 'events'>, type: string): boolean =>
  s.events.includes(ALL_EVENTS) || (s.events as string[]).includes(type);

/** The secrets that sign at `now`: the current one, and a rotated-out one during its overlap. */
export const signingSecrets = (secrets: readonly SubscriptionSecret[], now = Date.now()): SubscriptionSecret[] =>
  secrets.filter((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now);

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks: the key is the base64 after the prefix). */
export const SECRET_PREFIX = 'whsec_';

/**
 * The `webhook-signature` header (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded secret after `whsec_`;
 * one entry per signing secret, separated by a space.
 */
export function standardSignatures(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
    })
    .join(' ');
}

/** One try of a delivery, as the delivery log shows it. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** The receiver's status, or null when it did not answer (timeout, refused connection, refused address). */
  statusCode: number | null;
  durationMs: number;
  /** Why it failed without a status. */
  error: string | null;
  /** The start of the receiver's answer (at most 1 KiB of text). */
  responseBody: string | null;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryRecord {
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextRetryAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const deliverySchema = z
  .object({
    id: z.string().describe('`del_…`; one per subscription and event'),
    subscriptionId: z.string(),
    eventId: z.string().describe('The event delivered, and the `webhook-id` header of every attempt'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES).describe('pending: being tried or waiting for a retry; succeeded: a 2xx answer; failed: gave up'),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        at: z.iso.datetime(),
        statusCode: z.number().int().nullable(),
        durationMs: z.number().int(),
        error: z.string().nullable(),
        responseBody: z.string().nullable().describe('The first 1 KiB of the answer'),
      }),
    ),
    nextRetryAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'EventDelivery' });

/** `GET /v1/event-subscriptions`: `limit` (1–100, default 25), `starting_after` (a subscription id). */
export const listSubscriptionsQuerySchema = cursorQuerySchema(
  'subscription id',
  z.string().regex(SUBSCRIPTION_ID_PATTERN, { error: 'starting_after must be a subscription id (sub_…).' }),
);

/** `GET …/deliveries`: `limit` (1–100, default 25), `starting_after` (a delivery id). */
export const listDeliveriesQuerySchema = cursorQuerySchema(
  'delivery id',
  z.string().regex(DELIVERY_ID_PATTERN, { error: 'starting_after must be a delivery id (del_…).' }),
);

export type DeliveryView = z.infer<typeof deliverySchema>;

export const toDeliveryView = (d: DeliveryRecord): DeliveryView => ({
  id: d.deliveryId,
  subscriptionId: d.subscriptionId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  nextRetryAt: d.nextRetryAt,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** The message of one delivery attempt on the delivery queue (lib/data/delivery-queue.ts). */
export interface DeliveryMessage {
  orgId: string;
  environment: Environment;
  subscriptionId: string;
  eventId: string;
  /** 1 for the first try. */
  attempt: number;
  /** Not before this (epoch ms): a delay beyond SQS's 15 minutes is a chain of messages. */
  notBefore?: number;
  /** The event itself when small enough; else the worker reads it from the log. A ping always. */
  event?: Record<string, unknown>;
  /** A manual retry (POST …/retry): one attempt, no schedule after it. */
  manual?: boolean;
}
