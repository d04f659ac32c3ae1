import { useEffect, useState } from 'preact/hooks';
import { EVENT_TYPES } from '../../../lib/domain/event-types.ts';
import { api, type ApiKey, type DomainEvent, type Environment } from '../api.ts';
import { ListTable, PageHeader, type ListColumn } from '../components.tsx';
import { eventTypeLabel, formatDateTime } from '../format.ts';
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
  organization: 'Another organization',
  inspector: 'Market surveillance inspector',
};

/** Names of actors the event itself does not name (events written before they were kept): keys by id, the signed-in user. */
type KnownNames = ReadonlyMap<string, string>;

/**
 * Who made a change, for people: the user's e-mail or the key's name as the event recorded it, else
 * as the dashboard knows it (the keys, the signed-in user, an api_key event's own object); the sample
 * data and an import's worker by what they are. The id stays as a tooltip.
 */
function actorText(event: DomainEvent, known: KnownNames): string {
  const { actor } = event;
  const name = actor.name ?? known.get(actor.id);
  if (actor.type === 'system') return actor.id === 'sandbox' ? 'Sample data' : actor.id.startsWith('imp_') ? 'Import (the worker)' : 'The service';
  if (actor.type === 'webhook') return 'Webhook delivery';
  if (actor.type === 'api_key') return name ? `API key “${name}”` : 'An API key (revoked or unknown)';
  return name ?? 'Another member of the organization';
}

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

export function ActivityPage(props: { environment: Environment; user?: { id: string; email: string } }) {
  const [type, setType] = useState('');
  const [events, setEvents] = useState<DomainEvent[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const [keyNames, setKeyNames] = useState<KnownNames>(new Map());

  useEffect(() => {
    // Names of the organization's keys, for events that recorded only a key's id (older events).
    api<{ data: ApiKey[] }>('GET', '/v1/auth/api-keys').then(
      (keys) => setKeyNames(new Map(keys.data.map((key) => [key.id, key.name]))),
      () => undefined,
    );
  }, []);
  const known: KnownNames = new Map([
    ...keyNames,
    ...events.filter((e) => e.type.startsWith('api_key.') && typeof e.data.object.id === 'string' && typeof e.data.object.name === 'string').map((e) => [e.data.object.id as string, e.data.object.name as string] as const),
    ...(props.user ? [[props.user.id, props.user.email] as const] : []),
  ]);
  const columns: ListColumn<DomainEvent>[] = [
    { header: 'Event', rowHeader: true, cell: (event) => <span title={event.type}>{eventTypeLabel(event.type)}</span> },
    { header: 'When', class: 'nowrap', cell: (event) => formatDateTime(event.createdAt) },
    { header: 'By', cell: (event) => <span title={`${ACTOR_LABELS[event.actor.type]} ${event.actor.id}`}>{actorText(event, known)}</span> },
    {
      header: 'Object',
      cell: (event) => {
        const link = objectLink(event);
        return link ? <a href={link.href}>{link.label}</a> : '—';
      },
    },
  ];

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
              {eventTypeLabel(t)}
            </option>
          ))}
        </select>
      </div>
      <ListTable
        items={(loading || error) && events.length === 0 ? undefined : events}
        loading={loading}
        error={error}
        columns={columns}
        rowKey={(event) => event.id}
        caption={`Activity${type ? `: ${eventTypeLabel(type)}` : ''}, newest first`}
        empty={type ? `No “${eventTypeLabel(type)}” events yet.` : 'No activity yet.'}
        testId="activity-table"
      />
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
