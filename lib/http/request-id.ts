import { randomUUID } from 'node:crypto';
import type { HttpEvent, HttpMiddleware, HttpRequest } from './types.ts';

/** The request id API Gateway assigned (the local gateway assigns one the same way). */
export const requestIdOf = (event: HttpEvent): string => event.requestContext?.requestId || randomUUID();

/**
 * Puts `Request-Id` on every response, errors included, along with headers every API response
 * carries. Register it first so that its `after`/`onError` run last. `Cache-Control` is `no-store`
 * unless the handler set its own (the resolver's immutable version pages, functions/resolver/pages.ts).
 */
export function requestIdHeader(): HttpMiddleware {
  const decorate = (request: HttpRequest): void => {
    if (!request.response) return;
    request.response.headers = {
      'Cache-Control': 'no-store',
      ...request.response.headers,
      'Request-Id': requestIdOf(request.event),
      'X-Content-Type-Options': 'nosniff',
    };
  };
  return { after: decorate, onError: decorate };
}
