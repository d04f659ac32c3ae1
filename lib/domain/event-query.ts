import * as z from 'zod';
import { EVENT_ID_PATTERN, EVENT_TYPES } from './events.ts';
import { cursorQuerySchema } from './pagination.ts';

/** `GET /v1/events`: `limit` (1–100, default 25), `starting_after` (an event id), `type` (one event type). */
export const listEventsQuerySchema = cursorQuerySchema(
  'event id',
  z.string().regex(EVENT_ID_PATTERN, { error: 'starting_after must be an event id (evt_…).' }),
).extend({
  type: z.enum(EVENT_TYPES, { error: `type must be one of: ${EVENT_TYPES.join(', ')}.` }).optional(),
});
