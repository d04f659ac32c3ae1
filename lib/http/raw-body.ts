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
 * Keeps the raw bytes of the body for `rawBody`, and answers 413 past the request's limit (256 KiB
 * unless `limitOf` gives its route's own). Register it before the JSON body parser.
 */
export function captureRawBody(limitOf: (event: HttpEvent) => number = () => MAX_BODY_BYTES): HttpMiddleware {
  return {
    before: (request) => {
      const bytes = decode(request.event);
      const limit = limitOf(request.event);
      if (bytes.length > limit) throw new PayloadTooLargeError(limit);
      captured.set(request.event, bytes);
    },
  };
}
