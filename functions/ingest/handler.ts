import { createHash } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { getEndpointById } from '../../lib/data/webhook-endpoints.ts';
import { verifySignature, verifyStandardWebhook } from '../../lib/domain/webhook.ts';
import { errorResponses } from '../../lib/http/api-errors.ts';
import { AuthenticationError } from '../../lib/http/errors.ts';
import { logger } from '../../lib/http/logger.ts';
import { jsonDepthLimit } from '../../lib/http/json-depth.ts';
import { captureRawBody, rawBody } from '../../lib/http/raw-body.ts';
import { requestIdHeader, requestIdOf } from '../../lib/http/request-id.ts';
import { json } from '../../lib/http/response.ts';
import type { HttpEvent, HttpMiddleware, HttpResult } from '../../lib/http/types.ts';
import { ingest, type DeliveryKeys } from '../../lib/services/ingest.ts';

const ENDPOINT_ID = /^whe_[0-9a-z]{20}$/;

/** One answer for every authentication failure, so that nothing tells which part was wrong. */
const unauthenticated = () =>
  new AuthenticationError('The webhook signature is missing or invalid, or the endpoint is unknown.', {
    suggestion: 'Sign the exact body: X-Webhook-Signature: sha256=<hex HMAC-SHA256 with the endpoint secret>, and name the endpoint with ?endpoint=whe_….',
  });

type Endpoint = NonNullable<Awaited<ReturnType<typeof getEndpointById>>>;
const verified = new WeakMap<HttpEvent, { endpoint: Endpoint; keys: DeliveryKeys }>();

/** A Standard Webhooks delivery whose signature verifies, sent more than 5 minutes from now: told apart, since only a signer sees it. */
const outOfTolerance = () =>
  new AuthenticationError('The webhook-timestamp is more than 5 minutes away from the server’s clock: the delivery is refused as a possible replay.', {
    suggestion: 'Sign each attempt with the current Unix time in webhook-timestamp, and keep the sender’s clock in sync (NTP).',
  });

/**
 * The signature, checked over the exact raw bytes (kept by captureRawBody) before anything is
 * parsed, in the endpoint's scheme; then the delivery's keys in the replay ledger: the SHA-256 of
 * the body and, under Standard Webhooks, the webhook-id (docs/security.md).
 */
const verifySignatureFirst: HttpMiddleware = {
  before: async ({ event }) => {
    const endpointId = event.queryStringParameters?.endpoint ?? event.headers?.['x-webhook-endpoint'] ?? '';
    const endpoint = ENDPOINT_ID.test(endpointId) ? await getEndpointById(endpointId) : undefined;
    if (!endpoint) throw unauthenticated();
    const bytes = rawBody(event);
    const keys: DeliveryKeys[number][] = [{ kind: 'sha256', value: createHash('sha256').update(bytes).digest('hex') }];
    if (endpoint.signatureScheme === 'standard-webhooks') {
      const result = verifyStandardWebhook(event.headers ?? {}, bytes, endpoint.secrets);
      if (!result.ok) throw result.reason === 'timestamp' ? outOfTolerance() : unauthenticated();
      keys.push({ kind: 'webhook-id', value: result.id });
    } else if (!verifySignature(event.headers?.['x-webhook-signature'], bytes, endpoint.secrets)) {
      throw unauthenticated();
    }
    logger().appendKeys({ orgId: endpoint.orgId, environment: endpoint.environment, endpointId });
    verified.set(event, { endpoint, keys });
  },
};

/**
 * `POST /v1/webhooks/ingest`: a product-information system's delivery, signed over the exact
 * body; the parsed payload is mapped with the endpoint's mapping and applied idempotently.
 */
async function receive(event: HttpEvent): Promise<HttpResult> {
  const { endpoint, keys } = verified.get(event)!;
  const payload: unknown = event.body;
  const result = await ingest(endpoint, payload, { keys, requestId: requestIdOf(event) });
  if (result.ignored) return json(200, { received: true, ignored: true, eventType: result.eventType });
  const first = result.products[0];
  return json(200, {
    received: true,
    duplicate: result.products.every((p) => p.duplicate),
    ...(result.products.every((p) => p.stale) ? { stale: true } : {}),
    productId: first?.productId,
    passportId: first?.passportId,
    version: first?.version,
    products: result.products,
  });
}

/**
 * Raw bytes first (413 past 256 KiB), then the signature over them, their nesting (400 past 32
 * levels), then
 * @middy/http-json-body-parser (any content type, as before: deliveries are signed, not typed).
 */
export const handler = middy<HttpEvent, HttpResult>()
  .use(requestIdHeader())
  .use(errorResponses())
  .use(captureRawBody())
  .use(verifySignatureFirst)
  .use(jsonDepthLimit())
  .use(httpJsonBodyParser({ disableContentTypeCheck: true }) as HttpMiddleware)
  .handler(receive);
