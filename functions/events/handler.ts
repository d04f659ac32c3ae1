import { getEvent, listEvents } from '../../lib/data/events.ts';
import { EVENT_ID_PATTERN } from '../../lib/domain/events.ts';
import { listEventsQuerySchema } from '../../lib/domain/event-query.ts';
import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { NotFoundError, ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';

/** `GET /v1/events`: the tenant's events, newest first (docs/lifecycle.md#event-log). */
async function list(request: ApiRequest) {
  const query = parseQuery(listEventsQuerySchema, request.event.queryStringParameters, ['limit', 'starting_after', 'type']);
  const tenant = request.principal.tenant;
  if (query.starting_after !== undefined && !(await getEvent(tenant, query.starting_after))) {
    throw new ValidationError(`No event '${query.starting_after}'.`, 'starting_after', 'Send the id of the last event of the previous page.');
  }
  const page = await listEvents(tenant, {
    limit: query.limit,
    ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
    ...(query.type === undefined ? {} : { type: query.type }),
  });
  return json(200, { data: page.events, hasMore: page.hasMore });
}

async function read(request: ApiRequest) {
  const eventId = pathParam(request, 'eventId');
  const event = EVENT_ID_PATTERN.test(eventId) ? await getEvent(request.principal.tenant, eventId) : undefined;
  if (!event) throw new NotFoundError(`No event with id '${eventId}'.`, { param: 'eventId' });
  return json(200, event);
}

export const handler = defineApiHandler('events', {
  'GET /v1/events': list,
  'GET /v1/events/{eventId}': read,
});
