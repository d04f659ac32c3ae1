import { useEffect, useState } from 'preact/hooks';
import { EVENT_TYPES } from '../../../lib/domain/event-types.ts';
import { api, type DomainEvent, type Environment } from '../api.ts';
import { ErrorNotice, Loading, PageHeader } from '../components.tsx';
import { formatDateTime } from '../format.ts';
import { href } from '../router.ts';

/**
 * The organization's event log (docs/lifecycle.md#event-log): `GET /v1/events`, newest first, with
 * a type filter and "Load more" by `starting_after`.
 */
const PAGE_SIZE = 25;

interface EventPage {
  data: DomainEvent[];
  hasMore: boolean;
}

const ACTOR_LABELS: Record<DomainEvent['actor']['type'], string> = {
  api_key: 'API key',
  user: 'Dashboard user',
  webhook: 'Webhook endpoint',
  system: 'System',
};

/** Where the dashboard shows the event's object, when it has a page for it. */
function objectLink(event: DomainEvent): { href: string; label: string } | undefined {
  const object = event.data.object;
  const id = typeof object.id === 'string' ? object.id : undefined;
  if (typeof object.productId === 'string') return { href: href('products', object.productId), label: typeof object.name === 'string' ? object.name : 'Product' };
  if (event.type.startsWith('webhook_endpoint.') && id && event.type !== 'webhook_endpoint.deleted') return { href: href('webhooks', id), label: 'Webhook endpoint' };
  if (event.type === 'webhook_delivery.ingested' && typeof object.endpointId === 'string') return { href: href('webhooks', object.endpointId), label: 'Webhook endpoint' };
  if (event.type === 'import.created' && id) return { href: href('imports', id), label: 'Import' };
  if (event.type.startsWith('domain.') && event.type !== 'domain.deleted') return { href: href('domains'), label: typeof object.hostname === 'string' ? object.hostname : 'Domain' };
  if (event.type.startsWith('api_key.')) return { href: href('keys'), label: typeof object.name === 'string' ? object.name : 'API key' };
  return undefined;
}

export function ActivityPage(props: { environment: Environment }) {
  const [type, setType] = useState('');
  const [events, setEvents] = useState<DomainEvent[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();

  const load = async (startingAfter: string | undefined, append: boolean) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await api<EventPage>('GET', '/v1/events', { query: { limit: PAGE_SIZE, type: type || undefined, starting_after: startingAfter } });
      setEvents((current) => (append ? [...current, ...page.data] : page.data));
      setHasMore(page.hasMore);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    void load(undefined, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type]);

  return (
    <>
      <PageHeader title="Activity" lead={`Every change to your organization's data, newest first: who made it and when (${props.environment} environment).`} />
      <div class="toolbar">
        <label for="activity-type">Type</label>
        <select id="activity-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          <option value="">All types</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {loading && events.length === 0 ? <Loading /> : null}
      {!loading && !error && events.length === 0 ? (
        <div class="empty card">
          <p>{type ? `No ${type} events yet.` : 'No activity yet.'}</p>
        </div>
      ) : null}
      {events.length ? (
        <div class="table-wrap card">
          <table class="table" data-testid="activity-table" aria-busy={loading ? 'true' : 'false'}>
            <caption class="visually-hidden">Activity{type ? ` of type ${type}` : ''}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">When</th>
                <th scope="col">Actor</th>
                <th scope="col">Object</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => {
                const link = objectLink(event);
                return (
                  <tr key={event.id}>
                    <th scope="row">
                      <span class="badge mono">{event.type}</span>
                    </th>
                    <td class="nowrap">{formatDateTime(event.createdAt)}</td>
                    <td>
                      {ACTOR_LABELS[event.actor.type]} <span class="mono hint">{event.actor.id}</span>
                    </td>
                    <td>{link ? <a href={link.href}>{link.label}</a> : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {hasMore ? (
        <nav class="pagination" aria-label="More activity">
          <div class="actions">
            <button type="button" class="button button-secondary" disabled={loading} onClick={() => void load(events.at(-1)?.id, true)}>
              Load more
            </button>
          </div>
        </nav>
      ) : null}
    </>
  );
}
