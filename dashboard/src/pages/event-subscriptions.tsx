import { useRef, useState } from 'preact/hooks';
import { EVENT_TYPES } from '../../../lib/domain/event-types.ts';
import { api, type EventDelivery, type EventSubscription, type Environment } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, FormActions, ListTable, Loading, Notice, PageHeader, placeError, SecretOnce, useLoad, type ListColumn } from '../components.tsx';
import { eventTypeLabel, formatDateTime } from '../format.ts';
import { href } from '../router.ts';

/**
 * Event subscriptions (docs/webhooks-outbound.md): outbound webhooks of the event log to the
 * organization's own systems. The list, a form to add one (its secret shown once), and per
 * subscription its delivery log with a test button, secret rotation and manual retries.
 */
function AddSubscriptionForm(props: { onAdded: (created: EventSubscription & { secret: string }) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const fields = ['url', 'events', 'description'];
  const placed = placeError(error, fields);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = { url, events: all ? ['*'] : types, ...(description ? { description } : {}) };
      props.onAdded(await api<EventSubscription & { secret: string }>('POST', '/v1/event-subscriptions', { body }));
    } catch (failure) {
      setError(failure);
      focusField(form.current, placeError(failure, fields).field);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (type: string) => setTypes((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]));

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="add-subscription-title" noValidate>
      <h2 id="add-subscription-title">Add a subscription</h2>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <Field label="URL" name="url" error={error} errorField={placed.field} hint="Your receiver, https:// on a public address. Events are POSTed to it, signed per Standard Webhooks.">
        {(a) => <input {...a} type="url" required maxLength={2048} autoComplete="off" spellcheck={false} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <fieldset class="field" aria-describedby={placed.field === 'events' || placed.field?.startsWith('events[') ? 'events-error' : undefined}>
        <legend>Events</legend>
        <label class="checkbox">
          <input type="checkbox" name="events" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> Every event type, present and future
        </label>
        {!all
          ? EVENT_TYPES.map((type) => (
              <label key={type} class="checkbox">
                <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} /> {eventTypeLabel(type)} <span class="mono hint">{type}</span>
              </label>
            ))
          : null}
        {placed.field === 'events' || placed.field?.startsWith('events[') ? (
          <p id="events-error" class="field-error">
            {error instanceof Error ? error.message : 'Choose at least one event type.'}
          </p>
        ) : null}
      </fieldset>
      <Field label="Description (optional)" name="description" error={error} errorField={placed.field}>
        {(a) => <input {...a} type="text" maxLength={200} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
      </Field>
      <FormActions submitLabel="Add subscription" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

/** A subscription's event types in people's words (`*` is every event), the types themselves as tooltips. */
function EventList(props: { events: readonly string[] }) {
  return (
    <ul class="chips">
      {props.events.map((type) => (
        <li key={type} class="chip" title={type}>
          {eventTypeLabel(type)}
        </li>
      ))}
    </ul>
  );
}

const SUBSCRIPTION_COLUMNS: readonly ListColumn<EventSubscription>[] = [
  {
    header: 'URL',
    rowHeader: true,
    cell: (s) => (
      <>
        <a href={href('event-subscriptions', s.id)} class="mono">
          {s.url}
        </a>
        {s.description ? <div class="hint">{s.description}</div> : null}
      </>
    ),
  },
  { header: 'Events', cell: (s) => <EventList events={s.events} /> },
  {
    header: 'Status',
    cell: (s) => (
      <>
        <StatusBadge subscription={s} />
        {s.disabledReason ? <div class="hint">{s.disabledReason}</div> : null}
      </>
    ),
  },
  { header: 'Created', class: 'nowrap', cell: (s) => formatDateTime(s.createdAt) },
];

function StatusBadge(props: { subscription: EventSubscription }) {
  return props.subscription.status === 'enabled' ? <span class="badge badge-success">enabled</span> : <span class="badge badge-test">disabled</span>;
}

/** Every subscription of the tenant, following the list's cursor pages (a tenant has at most 20: one page of 100). */
async function allSubscriptions(): Promise<{ data: EventSubscription[] }> {
  const data: EventSubscription[] = [];
  for (;;) {
    const page = await api<{ data: EventSubscription[]; hasMore: boolean }>('GET', '/v1/event-subscriptions', { query: { limit: 100, starting_after: data.at(-1)?.id } });
    data.push(...page.data);
    if (!page.hasMore || page.data.length === 0) return { data };
  }
}

export function EventSubscriptionsPage(props: { environment: Environment }) {
  const subscriptions = useLoad(allSubscriptions, []);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<EventSubscription & { secret: string }>();

  return (
    <>
      <PageHeader
        title="Event subscriptions"
        lead={`Send changes to your own systems as they happen: every event of the types you choose is POSTed to your URL, signed, and retried for a day when it fails. ${props.environment === 'test' ? 'These are the test environment’s subscriptions: they receive test events only.' : ''}`}
      >
        {!adding && !created ? (
          <button type="button" class="button" onClick={() => setAdding(true)}>
            Add subscription
          </button>
        ) : null}
      </PageHeader>
      {adding ? (
        <AddSubscriptionForm
          onCancel={() => setAdding(false)}
          onAdded={(subscription) => {
            setAdding(false);
            setCreated(subscription);
            subscriptions.reload();
          }}
        />
      ) : null}
      {created ? (
        <SecretOnce
          title="Subscription added"
          label="Signing secret"
          value={created.secret}
          risk="anyone with it can sign requests your receiver would accept."
          onDone={() => setCreated(undefined)}
        >
          <p class="hint">
            Verify each delivery's <span class="mono">webhook-signature</span> with it (for example with the <span class="mono">standardwebhooks</span> package), and dedupe on{' '}
            <span class="mono">webhook-id</span>.
          </p>
        </SecretOnce>
      ) : null}
      <ListTable
        items={subscriptions.data?.data}
        loading={subscriptions.loading}
        error={subscriptions.error}
        columns={SUBSCRIPTION_COLUMNS}
        rowKey={(s) => s.id}
        caption="Event subscriptions"
        empty="No subscriptions yet. Add the URL of a receiver to get events without polling."
        testId="event-subscriptions"
      />
    </>
  );
}

function DeliveryRow(props: { delivery: EventDelivery; onRetry: () => Promise<void>; busy: boolean }) {
  const { delivery } = props;
  const last = delivery.attempts.at(-1);
  return (
    <tr data-delivery={delivery.id}>
      <td title={delivery.eventType}>{eventTypeLabel(delivery.eventType)}</td>
      <td>
        <span class={`badge ${delivery.status === 'succeeded' ? 'badge-success' : delivery.status === 'failed' ? 'badge-danger' : 'badge-test'}`}>{delivery.status}</span>
      </td>
      <td>{delivery.attempts.length}</td>
      <td>
        {last ? (
          <>
            {last.statusCode ?? 'no answer'} in {last.durationMs} ms
            {last.error ? <div class="hint">{last.error}</div> : null}
            {last.responseBody ? <div class="hint mono">{last.responseBody.slice(0, 120)}</div> : null}
          </>
        ) : (
          '—'
        )}
      </td>
      <td>{formatDateTime(delivery.nextRetryAt)}</td>
      <td>{formatDateTime(delivery.updatedAt)}</td>
      <td>
        <button type="button" class="button button-secondary button-small" disabled={props.busy} onClick={() => void props.onRetry()}>
          Retry<span class="visually-hidden"> delivery of {delivery.eventId}</span>
        </button>
      </td>
    </tr>
  );
}

export function EventSubscriptionPage(props: { subscriptionId: string }) {
  const path = `/v1/event-subscriptions/${encodeURIComponent(props.subscriptionId)}`;
  const subscription = useLoad(() => api<EventSubscription>('GET', path), [path]);
  const deliveries = useLoad(() => api<{ data: EventDelivery[]; hasMore: boolean }>('GET', `${path}/deliveries?limit=50`), [path]);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretValidUntil: string }>();

  const act = async (action: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    try {
      setMessage(await action());
      subscription.reload();
      deliveries.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const s = subscription.data;

  return (
    <>
      <PageHeader title="Event subscription" lead={s ? <span class="mono">{s.url}</span> : undefined}>
        <a class="button button-secondary" href={href('event-subscriptions')}>
          All subscriptions
        </a>
      </PageHeader>
      {subscription.error ? <ErrorNotice error={subscription.error} /> : null}
      {subscription.loading && !s ? <Loading /> : null}
      {message ? <Notice kind="success">{message}</Notice> : null}
      {error ? <ErrorNotice error={error} title="Not done" /> : null}
      {rotated ? (
        <SecretOnce
          title="New signing secret"
          label="Signing secret"
          value={rotated.secret}
          risk="anyone with it can sign requests your receiver would accept."
          onDone={() => setRotated(undefined)}
        >
          <p class="hint">Until {formatDateTime(rotated.previousSecretValidUntil)}, every delivery carries two signatures: one with the previous secret, one with this one.</p>
        </SecretOnce>
      ) : null}
      {s ? (
        <section class="card" aria-label="Subscription">
          <dl class="details">
            <div>
              <dt>Status</dt>
              <dd>
                <StatusBadge subscription={s} />
                {s.disabledReason ? <p class="hint">{s.disabledReason}</p> : null}
              </dd>
            </div>
            <div>
              <dt>Events</dt>
              <dd>
                <EventList events={s.events} />
              </dd>
            </div>
            {s.description ? (
              <div>
                <dt>Description</dt>
                <dd>{s.description}</dd>
              </div>
            ) : null}
            {s.secretPreviousValidUntil ? (
              <div>
                <dt>Previous secret</dt>
                <dd>signs beside the new one until {formatDateTime(s.secretPreviousValidUntil)}</dd>
              </div>
            ) : null}
          </dl>
          <div class="actions actions-start">
            <button
              type="button"
              class="button"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  await api('POST', `${path}/test`);
                  return 'A ping event is on its way; it appears in the log below within seconds.';
                })
              }
            >
              Send test event
            </button>
            <button
              type="button"
              class="button button-secondary"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  const next = s.status === 'enabled' ? 'disabled' : 'enabled';
                  await api('PATCH', path, { body: { status: next } });
                  return next === 'enabled' ? 'Enabled: new events are delivered again.' : 'Disabled: no events are delivered until you enable it.';
                })
              }
            >
              {s.status === 'enabled' ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              class="button button-secondary"
              label="Rotate secret"
              title="Rotate the signing secret?"
              confirmLabel="Rotate secret"
              onConfirm={async () => {
                setRotated(await api<{ secret: string; previousSecretValidUntil: string }>('POST', `${path}/rotate-secret`));
                subscription.reload();
              }}
            >
              <p>A new secret is issued and shown once. For 24 hours deliveries are signed with both; update your receiver within that time.</p>
            </ConfirmButton>
            <ConfirmButton
              class="button button-danger"
              label="Delete"
              title="Delete this subscription?"
              confirmLabel="Delete subscription"
              danger
              onConfirm={async () => {
                await api('DELETE', path);
                window.location.hash = href('event-subscriptions');
              }}
            >
              <p>No more events are sent to {s.url}; retries still pending are dropped.</p>
            </ConfirmButton>
          </div>
        </section>
      ) : null}
      <h2>Deliveries</h2>
      <p class="hint">The last 30 days, newest first. A failed delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.</p>
      {deliveries.error ? <ErrorNotice error={deliveries.error} /> : null}
      {deliveries.loading && !deliveries.data ? <Loading /> : null}
      {deliveries.data ? (
        deliveries.data.data.length === 0 ? (
          <div class="empty card">
            <p>No deliveries yet. Send a test event to try your receiver.</p>
          </div>
        ) : (
          <table class="table" data-testid="deliveries">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Next retry</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  busy={busy}
                  onRetry={() =>
                    act(async () => {
                      await api('POST', `${path}/deliveries/${encodeURIComponent(delivery.id)}/retry`);
                      return `Delivery of “${eventTypeLabel(delivery.eventType)}” queued again.`;
                    })
                  }
                />
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </>
  );
}
