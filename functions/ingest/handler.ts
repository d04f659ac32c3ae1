import middy from '@middy/core';
import { getEndpointById } from '../../lib/data/webhook-endpoints.ts';
import { verifySignature } from '../../lib/domain/webhook.ts';
import { errorHandler } from '../../lib/http/error-handler.ts';
import { AuthenticationError, InvalidRequestError, PayloadTooLargeError } from '../../lib/http/errors.ts';
import { MAX_BODY_BYTES, rawBody } from '../../lib/http/json-body.ts';
import { logger } from '../../lib/http/logger.ts';
import { requestIdHeader } from '../../lib/http/request-id.ts';
import { json } from '../../lib/http/response.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { ingest } from '../../lib/services/ingest.ts';

const ENDPOINT_ID = /^whe_[0-9a-z]{20}$/;

/** One answer for every authentication failure, so that nothing tells which part was wrong. */
const unauthenticated = () =>
  new AuthenticationError('The webhook signature is missing or invalid, or the endpoint is unknown.', {
    suggestion: 'Sign the exact body: X-Webhook-Signature: sha256=<hex HMAC-SHA256 with the endpoint secret>, and name the endpoint with ?endpoint=whe_….',
  });

/**
 * `POST /v1/webhooks/ingest`: a product-information system's delivery. The HMAC is checked over
 * the exact raw bytes before anything is parsed; then the payload is mapped with the endpoint's
 * mapping and applied idempotently.
 */
async function receive(event: HttpEvent): Promise<HttpResult> {
  const bytes = rawBody(event);
  if (bytes.length > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  const endpointId = event.queryStringParameters?.endpoint ?? event.headers?.['x-webhook-endpoint'] ?? '';
  const endpoint = ENDPOINT_ID.test(endpointId) ? await getEndpointById(endpointId) : undefined;
  if (!endpoint || !verifySignature(event.headers?.['x-webhook-signature'], bytes, endpoint.secrets)) throw unauthenticated();
  logger.appendKeys({ orgId: endpoint.orgId, environment: endpoint.environment, endpointId });

  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidRequestError('The payload is not valid JSON.', { suggestion: 'Send the JSON document the signature was computed over.' });
  }
  const result = await ingest(endpoint, payload);
  if (result.ignored) return json(200, { received: true, ignored: true, eventType: result.eventType });
  const first = result.products[0];
  return json(200, {
    received: true,
    duplicate: result.products.every((p) => p.duplicate),
    productId: first?.productId,
    passportId: first?.passportId,
    version: first?.version,
    products: result.products,
  });
}

export const handler = middy<HttpEvent, HttpResult>().use(requestIdHeader()).use(errorHandler()).handler(receive);
