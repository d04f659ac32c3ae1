import type { Origin } from '../domain/events.ts';
import type { ApiRequest } from './handler.ts';

/** Who makes a request's changes, for the events it writes (docs/lifecycle.md#event-log). */
export function originOf(request: Pick<ApiRequest, 'principal' | 'requestId'>): Origin {
  const { principal } = request;
  return {
    // The actor's name for people: the key's name, the user's e-mail (docs/lifecycle.md#event-log).
    actor:
      principal.kind === 'apiKey'
        ? { type: 'api_key', id: principal.keyId, ...(principal.name ? { name: principal.name } : {}) }
        : { type: 'user', id: principal.userId, name: principal.email },
    requestId: request.requestId,
  };
}
