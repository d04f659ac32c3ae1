import type { Origin } from '../domain/events.ts';

/**
 * The origin of a change the service makes outside any API request (an operator's admin command,
 * an organization's first keys at onboarding): its event names the system as actor and has no
 * request id (docs/lifecycle.md#event-log).
 */
export const SERVICE_ORIGIN: Origin = { actor: { type: 'system', id: 'service' }, requestId: null };
