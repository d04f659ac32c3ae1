import type { Origin } from '../domain/events.ts';
import type { ApiRequest } from './handler.ts';

/** Who makes a request's changes, for the events it writes (docs/lifecycle.md#event-log). */
export function originOf(request: Pick<ApiRequest, 'principal' | 'requestId'>): Origin {
  const { principal } = request;
  return {
    actor: principal.kind === 'apiKey' ? { type: 'api_key', id: principal.keyId } : { type: 'user', id: principal.userId },
    requestId: request.requestId,
  };
}
