import { randomUUID } from 'node:crypto';
import type { HttpEvent, HttpMiddleware, HttpRequest } from './types.ts';

/** The request id API Gateway assigned (the local gateway assigns one the same way). */
export const requestIdOf = (event: HttpEvent): string => event.requestContext?.requestId || randomUUID();

/**
 * Puts `Request-Id` on every response, errors included, along with headers every API response
 * carries. Register it first so that its `after`/`onError` run last.
 */
export function requestIdHeader(): HttpMiddleware {
  const decorate = (request: HttpRequest): void => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      'Request-Id': requestIdOf(request.event),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    };
  };
  return { after: decorate, onError: decorate };
}
