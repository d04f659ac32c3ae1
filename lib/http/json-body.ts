import { InvalidRequestError, PayloadTooLargeError } from './errors.ts';
import type { HttpEvent } from './types.ts';

export const MAX_BODY_BYTES = 256 * 1024;

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** The exact bytes the client sent (API Gateway base64-encodes non-text bodies). */
export function rawBody(event: HttpEvent): Buffer {
  if (event.body === undefined) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

/**
 * Reads a JSON body: 400 when the content type is not JSON or the JSON is malformed, 413 past
 * 256 KiB. Unlike @middy/http-json-body-parser (415 for both), it answers with the statuses of
 * docs/decisions.md#errors-one-object-one-type-per-status, and it leaves `event.body` as the raw text.
 */
export function parseJsonBody(event: HttpEvent): unknown {
  const bytes = rawBody(event);
  if (bytes.length > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  const contentType = event.headers?.['content-type'];
  if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new InvalidRequestError('The request body must be JSON.', {
      suggestion: 'Send the header "Content-Type: application/json".',
    });
  }
  if (bytes.length === 0) {
    throw new InvalidRequestError('The request body is empty.', { suggestion: 'Send a JSON object.' });
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.', {
      suggestion: 'Check the JSON syntax: quotes, commas and brackets.',
    });
  }
}
