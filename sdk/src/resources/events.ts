import { List } from '../pagination.ts';
import { init, ok, type Api, type RequestOptions } from '../request.ts';
import { sleep } from '../retry.ts';
import type { Event, Query } from '../types.ts';

export type EventListQuery = Omit<Query<'/v1/events', 'get'>, 'starting_after'>;

export interface TailOptions extends RequestOptions {
  /** Only events of this type. */
  type?: EventListQuery['type'];
  /** Time between two reads of the log. Default 2 s. */
  intervalMs?: number;
  /**
   * How far back a read looks for events committed late (two writers: an event can become visible
   * after a newer one). Default 10 s.
   */
  overlapMs?: number;
  /** Called once the tail has read where the log stands: events from then on are yielded. */
  onStart?: () => void;
}

/** The event log, newest first (docs/lifecycle.md#event-log). */
export const events = (api: Api) => {
  const list = (query: EventListQuery = {}, options?: RequestOptions) =>
    new List<Event>(
      (after) => ok(api.GET('/v1/events', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (event) => event.id,
    );
  return {
    /** Every event, newest first; `type` filters. */
    list,
    get: (eventId: string, options?: RequestOptions) => ok(api.GET('/v1/events/{eventId}', { params: { path: { eventId } }, ...init(options) })),
    /**
     * The events that happen from now on, oldest first, as they appear: reads the log every
     * `intervalMs` until `signal` aborts. Each event is yielded once.
     */
    async *tail(options: TailOptions = {}): AsyncGenerator<Event, void, undefined> {
      const { type, intervalMs = 2000, overlapMs = 10_000, signal, onStart } = options;
      const query: EventListQuery = type ? { type } : {};
      const seen = new Map<string, number>();
      let newest = 0;
      const read = async (): Promise<Event[]> => {
        const fresh: Event[] = [];
        for await (const event of list(query, { ...(signal ? { signal } : {}) })) {
          const at = Date.parse(event.createdAt);
          if (at < newest - overlapMs) break;
          if (!seen.has(event.id)) fresh.push(event);
        }
        for (const event of fresh) seen.set(event.id, Date.parse(event.createdAt));
        newest = Math.max(newest, ...fresh.map((e) => Date.parse(e.createdAt)));
        for (const [id, at] of seen) if (at < newest - overlapMs) seen.delete(id);
        return fresh.reverse();
      };
      // What is in the log already is not news: the first read only sets where the tail starts.
      const [latest] = await list({ ...query, limit: 1 }, { ...(signal ? { signal } : {}) }).toArray(1);
      if (latest) {
        newest = Date.parse(latest.createdAt);
        await read();
      }
      onStart?.();
      try {
        for (;;) {
          await sleep(intervalMs, signal);
          yield* await read();
        }
      } catch (error) {
        // Aborting ends the tail; anything else is the caller's to see.
        if (!signal?.aborted) throw error;
      }
    },
  };
};
