import * as z from 'zod';
import { ACTOR_TYPES, EVENT_TYPES, type ActorType, type EventType } from './event-types.ts';
import { newSortableId } from './ids.ts';

export { EVENT_TYPES, ACTOR_TYPES, type EventType, type ActorType };

export interface Actor {
  type: ActorType;
  id: string;
  /** For people: an API key's name, a dashboard user's e-mail (absent for the system, a webhook and events written before it was kept). */
  name?: string;
}

/** Who made a change and in which request: every event carries it (docs/lifecycle.md#event-log). */
export interface Origin {
  actor: Actor;
  /** The API request that made the change; null for work the service did on its own. */
  requestId: string | null;
}

/** One entry of the append-only event log, as `GET /v1/events/{id}` shows it. */
export const eventSchema = z
  .object({
    id: z.string().describe('`evt_…`; ids sort by creation time'),
    type: z.enum(EVENT_TYPES),
    createdAt: z.iso.datetime(),
    actor: z.object({
      type: z.enum(ACTOR_TYPES),
      id: z.string(),
      name: z.string().optional().describe("For people: the API key's name or the dashboard user's e-mail, as they were when the change was made (absent for the system and webhooks)"),
    }),
    requestId: z.string().nullable().describe('The Request-Id of the API request that made the change; null for work the service did on its own'),
    data: z.object({ object: z.record(z.string(), z.unknown()).describe('The object as it was right after the change, in its API form') }),
  })
  .meta({ id: 'Event' });
export type DomainEvent = z.infer<typeof eventSchema>;

/** Event ids sort by creation time, so the log lists newest first by its sort key. */
export const newEventId = (): string => newSortableId('evt');

export const EVENT_ID_PATTERN = /^evt_[0-9a-z]{20}$/;

/** A new event of `type` about `object` (its API form after the change). */
export function newEvent(type: EventType, object: object, origin: Origin, now: string = new Date().toISOString()): DomainEvent {
  return { id: newEventId(), type, createdAt: now, actor: origin.actor, requestId: origin.requestId, data: { object: object as Record<string, unknown> } };
}
