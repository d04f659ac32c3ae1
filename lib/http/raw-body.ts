import { PayloadTooLargeError } from './errors.ts';
import type { HttpEvent, HttpMiddleware } from './types.ts';

export const MAX_BODY_BYTES = 256 * 1024;

/** The bytes each request sent, kept before @middy/http-json-body-parser replaces `event.body`. */
const captured = new WeakMap<HttpEvent, Buffer>();

const decode = (event: HttpEvent): Buffer =>
  event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

/**
 * The exact bytes the client sent (API Gateway base64-encodes non-text bodies): what a webhook's
 * HMAC and an Idempotency-Key's body hash are computed over, also once the body is parsed.
 */
export function rawBody(event: HttpEvent): Buffer {
  const bytes = captured.get(event);
  if (bytes) return bytes;
  if (event.body !== undefined && typeof event.body !== 'string') throw new Error('The body was parsed before its raw bytes were captured.');
  return decode(event);
}

/**
 * Keeps the raw bytes of the body for `rawBody`, and answers 413 past 256 KiB. Register it before
 * the JSON body parser.
 */
export function captureRawBody(): HttpMiddleware {
  return {
    before: (request) => {
      const bytes = decode(request.event);
      if (bytes.length > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
      captured.set(request.event, bytes);
    },
  };
}
