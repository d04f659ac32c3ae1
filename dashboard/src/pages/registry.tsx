import { useCallback, useEffect, useState } from 'preact/hooks';
import { REGISTRATION_STATUSES, type RegistrationStatus } from '../../../lib/domain/registry/entry.ts';
import type { RegistrationView, RegistrySettingsView } from '../../../lib/domain/registry/settings.ts';
import { api, type Environment, type ProductList } from '../api.ts';
import { ErrorNotice, ListTable, Loading, Notice, PageHeader, useLoad, type ListColumn } from '../components.tsx';
import { formatDateTime, plural } from '../format.ts';
import { href, navigate } from '../router.ts';

/**
 * The EU registry (docs/dashboard.md#the-eu-registry, docs/registry.md#dashboard-sdk-and-cli): the
 * operator identity as the settings hold it, how many registrations stand in each status, the
 * entries the registry rejected and those our pre-checks hold, each with its reasons and a "Fix and
 * resubmit" button (POST …/resubmit: back to the pre-checks once the cause is fixed), and one
 * product's registrations: its model's, its batches' and its items'.
 */

type Registration = RegistrationView;
type Page = { data: Registration[]; hasMore: boolean };

/** The most registrations the counts read (100 a request): beyond it they say "at least". */
const MAX_COUNTED = 2000;
const PAGE_SIZE = 100;

const STATUS_LABELS: Readonly<Record<RegistrationStatus, string>> = {
  pending_checks: 'Pending checks',
  ready: 'Ready',
  submitted: 'Submitted',
  registered: 'Registered',
  rejected: 'Rejected',
  deactivated: 'Deactivated',
};
const STATUS_BADGES: Readonly<Record<RegistrationStatus, string>> = {
  pending_checks: 'badge-warning',
  ready: 'badge-accent',
  submitted: 'badge-accent',
  registered: 'badge-success',
  rejected: 'badge-danger',
  deactivated: '',
};

/** What a person must look at: rejected by the registry, or held by our pre-checks (pending_checks with reasons). */
const needsAttention = (r: Registration): boolean => r.status === 'rejected' || (r.status === 'pending_checks' && r.reasons.length > 0);
const isResubmittable = (r: Registration): boolean => r.status === 'rejected' || r.status === 'pending_checks';

function StatusBadge(props: { registration: Registration }) {
  const { status } = props.registration;
  const held = status === 'pending_checks' && props.registration.reasons.length > 0;
  return (
    <span class={`badge ${held ? 'badge-danger' : STATUS_BADGES[status]}`} data-status={status}>
      {held ? 'Held' : STATUS_LABELS[status]}
    </span>
  );
}

function Reasons(props: { registration: Registration }) {
  const { reasons, warnings } = props.registration;
  if (reasons.length === 0 && warnings.length === 0) return <>—</>;
  return (
    <ul class="reasons">
      {reasons.map((reason, i) => (
        <li key={`r${i}`} data-reason-code={reason.code}>
          {reason.message}
          <div class="hint mono">
            {reason.source === 'registry' ? 'the registry' : 'pre-check'} · {reason.code}
            {reason.field ? ` · ${reason.field}` : ''}
          </div>
        </li>
      ))}
      {warnings.map((warning, i) => (
        <li key={`w${i}`} data-warning-code={warning.code}>
          Warning: {warning.message}
        </li>
      ))}
    </ul>
  );
}

/** A URL that may break after each slash, so that a long Digital Link wraps in its cell. */
function Breakable(props: { text: string }) {
  const parts = props.text.split('/');
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              /<wbr />
            </>
          ) : null}
        </span>
      ))}
    </>
  );
}

/** What a registration names: its level and its lot or serial, the identifier below. */
function Identifier(props: { registration: Registration; linkProduct?: boolean }) {
  const r = props.registration;
  const unit = r.serial ? `item ${r.serial}` : r.lot ? `batch ${r.lot}` : 'model';
  return (
    <>
      {props.linkProduct ? <a href={href('registry', r.productId)}>{unit}</a> : unit}
      <div class="hint mono">
        <Breakable text={r.upi} />
      </div>
    </>
  );
}

/** The "Fix and resubmit" button of one entry: on success the row shows the registration as the API answered it. */
function ResubmitButton(props: { registration: Registration; onResubmitted: (after: Registration, before: Registration) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const r = props.registration;
  if (!needsAttention(r)) return r.status === 'pending_checks' ? <span class="hint">Waiting to be checked again</span> : null;
  const resubmit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      props.onResubmitted(await api<Registration>('POST', `/v1/registry/registrations/${encodeURIComponent(r.id)}/resubmit`), r);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="button button-small" disabled={busy || !isResubmittable(r)} onClick={() => void resubmit()} aria-label={`Fix and resubmit ${r.upi}`}>
        Fix and resubmit
      </button>
      {error ? <ErrorNotice error={error} title="Not resubmitted" /> : null}
    </>
  );
}

function OperatorCard(props: { settings: RegistrySettingsView | undefined; error: unknown }) {
  const { settings } = props;
  return (
    <section class="card" aria-labelledby="registry-operator-title" data-testid="registry-operator">
      <h2 id="registry-operator-title">Operator identity</h2>
      {props.error ? <ErrorNotice error={props.error} /> : null}
      {!settings && !props.error ? <Loading /> : null}
      {settings ? (
        <>
          {!settings.enabled ? (
            <Notice kind="info">
              Registration is off in this environment: nothing published is registered. Turn it on with <span class="mono">PUT /v1/registry/settings</span> (docs/registry.md#settings).
            </Notice>
          ) : null}
          <dl class="details">
            <dt>Identifier</dt>
            <dd class="mono" data-testid="registry-operator-identifier">
              {settings.operator?.identifier ?? 'Not set'}
            </dd>
            <dt>Scheme</dt>
            <dd data-testid="registry-operator-scheme">{settings.operator?.scheme ?? '—'}</dd>
            <dt>As entries name it</dt>
            <dd class="mono">{settings.reoId ?? '—'}</dd>
            <dt>Verification</dt>
            <dd data-testid="registry-operator-verification" data-verification={settings.verification.status}>
              {settings.verification.status === 'verified' ? (
                <>
                  <span class="badge badge-success">Verified</span> since {formatDateTime(settings.verification.verifiedAt)}
                </>
              ) : (
                <>
                  <span class="badge badge-warning">Not verified yet</span>
                  <div class="hint">Verified once the registry takes an entry naming this operator; again after the operator changes.</div>
                </>
              )}
            </dd>
            <dt>Seal certificate</dt>
            <dd class="mono">{settings.sealCertificate ?? 'Not recorded'}</dd>
            <dt>Registry</dt>
            <dd>{settings.registry === 'acceptance' ? 'Acceptance (test)' : 'Production'}</dd>
            <dt>Entries go out</dt>
            <dd>{settings.submission === 'api' ? "Through the registry's API, as soon as they pass the pre-checks" : 'In upload files you build and upload'}</dd>
            <dt>Facilities</dt>
            <dd class="mono">{settings.facilities.length ? settings.facilities.join(', ') : '—'}</dd>
            <dt>Commodity code</dt>
            <dd class="mono">{settings.commodityCode ?? '—'}</dd>
            <dt>Saved</dt>
            <dd>{formatDateTime(settings.updatedAt)}</dd>
          </dl>
        </>
      ) : null}
    </section>
  );
}

/** Every registration's status, read 100 at a time up to MAX_COUNTED. */
async function countStatuses(): Promise<{ counts: Record<RegistrationStatus, number>; complete: boolean }> {
  const counts = Object.fromEntries(REGISTRATION_STATUSES.map((s) => [s, 0])) as Record<RegistrationStatus, number>;
  let after: string | undefined;
  let read = 0;
  for (;;) {
    const page = await api<Page>('GET', '/v1/registry/registrations', { query: { limit: PAGE_SIZE, starting_after: after } });
    for (const r of page.data) counts[r.status] += 1;
    read += page.data.length;
    after = page.data.at(-1)?.id;
    if (!page.hasMore || after === undefined) return { counts, complete: true };
    if (read >= MAX_COUNTED) return { counts, complete: false };
  }
}

/** The entries that need a person: rejected, then held (the first page of each status). */
async function attentionEntries(): Promise<{ entries: Registration[]; more: boolean }> {
  const [rejected, pending] = await Promise.all(
    (['rejected', 'pending_checks'] as const).map((status) => api<Page>('GET', '/v1/registry/registrations', { query: { status, limit: PAGE_SIZE } })),
  );
  const entries = [...(rejected?.data ?? []), ...(pending?.data ?? []).filter(needsAttention)];
  return { entries, more: Boolean(rejected?.hasMore || pending?.hasMore) };
}

function ProductRegistrations(props: { productId: string | undefined; onResubmitted: (after: Registration, before: Registration) => void }) {
  const products = useLoad(() => api<ProductList>('GET', '/v1/products', { query: { limit: 100 } }), []);
  const [items, setItems] = useState<Registration[]>();
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>();
  const load = useCallback(
    async (after?: string) => {
      if (!props.productId) return;
      setLoading(true);
      setError(undefined);
      try {
        const page = await api<Page>('GET', '/v1/registry/registrations', { query: { productId: props.productId, limit: PAGE_SIZE, starting_after: after } });
        setItems((current) => (after ? [...(current ?? []), ...page.data] : page.data));
        setHasMore(page.hasMore && page.data.length > 0);
      } catch (failure) {
        setError(failure);
      } finally {
        setLoading(false);
      }
    },
    [props.productId],
  );
  useEffect(() => {
    setItems(undefined);
    void load();
  }, [load]);
  const columns: ListColumn<Registration>[] = [
    { header: 'Registration', rowHeader: true, cell: (r) => <Identifier registration={r} /> },
    { header: 'Status', cell: (r) => <StatusBadge registration={r} /> },
    { header: 'Reasons', cell: (r) => <Reasons registration={r} /> },
    { header: 'Registry id', class: 'mono', cell: (r) => r.registryId ?? '—' },
    { header: 'Proof valid until', class: 'nowrap', cell: (r) => formatDateTime(r.proofExpiresAt) },
    {
      header: <span class="visually-hidden">Actions</span>,
      cell: (r) => (
        <ResubmitButton
          registration={r}
          onResubmitted={(after, before) => {
            setItems((current) => current?.map((one) => (one.id === after.id ? after : one)));
            props.onResubmitted(after, before);
          }}
        />
      ),
    },
  ];
  const productOptions = products.data?.data ?? [];
  return (
    <section class="card" aria-labelledby="registry-product-title">
      <h2 id="registry-product-title">By product</h2>
      <div class="toolbar">
        <label for="registry-product">Product</label>
        <select id="registry-product" value={props.productId ?? ''} onChange={(e) => navigate(e.currentTarget.value ? href('registry', e.currentTarget.value) : href('registry'))}>
          <option value="">Choose a product…</option>
          {props.productId && !productOptions.some((p) => p.productId === props.productId) ? <option value={props.productId}>{props.productId}</option> : null}
          {productOptions.map((p) => (
            <option key={p.productId} value={p.productId}>
              {p.name}
            </option>
          ))}
        </select>
        {props.productId ? <a href={href('products', props.productId)}>The product</a> : null}
      </div>
      {products.error ? <ErrorNotice error={products.error} /> : null}
      {props.productId ? (
        <>
          <ListTable
            items={items}
            columns={columns}
            rowKey={(r) => r.id}
            caption="The product's registrations: its model's, its batches' and its items'"
            empty="This product has no registration: publish its passport with registration on, or create the missing ones (POST /v1/registry/registrations)."
            loading={loading}
            error={error}
            testId="registry-product-registrations"
            rowAttributes={(r) => ({ 'data-registration-id': r.id, 'data-status': r.status })}
          />
          {hasMore ? (
            <div class="actions">
              <button type="button" class="button button-secondary" disabled={loading} onClick={() => void load(items?.at(-1)?.id)}>
                Load more
              </button>
            </div>
          ) : null}
        </>
      ) : (
        <p class="hint">Choose a product to see the registration of its model, and of each of its batches and items.</p>
      )}
    </section>
  );
}

export function RegistryPage(props: { environment: Environment; productId?: string | undefined }) {
  const settings = useLoad(() => api<RegistrySettingsView>('GET', '/v1/registry/settings'), []);
  const counted = useLoad(countStatuses, []);
  const attention = useLoad(attentionEntries, []);
  const [counts, setCounts] = useState<Record<RegistrationStatus, number>>();
  const [entries, setEntries] = useState<Registration[]>();
  const [resubmitted, setResubmitted] = useState<string>();
  useEffect(() => setCounts(counted.data?.counts), [counted.data]);
  useEffect(() => setEntries(attention.data?.entries), [attention.data]);

  /** A resubmission moves one registration from its status to pending_checks: the counts and the rows follow without a reload. */
  const onResubmitted = (after: Registration, before: Registration) => {
    setCounts((current) => (current && before.status !== after.status ? { ...current, [before.status]: current[before.status] - 1, [after.status]: current[after.status] + 1 } : current));
    setEntries((current) => current?.map((one) => (one.id === after.id ? after : one)));
    setResubmitted(`Resubmitted ${after.upi}: it is checked again ${settings.data?.submission === 'api' ? 'and sent by the outbox' : 'and goes in your next upload file'} if its cause is fixed.`);
  };

  const columns: ListColumn<Registration>[] = [
    { header: 'Registration', rowHeader: true, cell: (r) => <Identifier registration={r} linkProduct /> },
    { header: 'Status', cell: (r) => <StatusBadge registration={r} /> },
    { header: 'Reasons', cell: (r) => <Reasons registration={r} /> },
    { header: <span class="visually-hidden">Actions</span>, cell: (r) => <ResubmitButton registration={r} onResubmitted={onResubmitted} /> },
  ];

  return (
    <>
      <PageHeader
        title="EU registry"
        lead={`Your passports' entries in the EU registry of digital product passports (${props.environment} environment): where each stands, and what holds an entry back. Fix the cause (your settings, the product, its brand domain), then resubmit it.`}
      />
      <div class="grid-2">
        <OperatorCard settings={settings.data} error={settings.error} />
        <section class="card" aria-labelledby="registry-counts-title">
          <h2 id="registry-counts-title">Registrations by status</h2>
          {counted.error ? <ErrorNotice error={counted.error} /> : null}
          {!counts && !counted.error ? <Loading /> : null}
          {counts ? (
            <>
              <dl class="counts" data-testid="registry-counts">
                {REGISTRATION_STATUSES.map((status) => (
                  <div key={status} data-status={status}>
                    <dt>{STATUS_LABELS[status]}</dt>
                    <dd>{counts[status].toLocaleString()}</dd>
                  </div>
                ))}
              </dl>
              {counted.data && !counted.data.complete ? <p class="hint">The first {MAX_COUNTED.toLocaleString()} registrations, counted: there are more.</p> : null}
            </>
          ) : null}
        </section>
      </div>

      <section aria-labelledby="registry-attention-title">
        <h2 id="registry-attention-title">Rejected and held</h2>
        {resubmitted ? <Notice kind="success">{resubmitted}</Notice> : null}
        <ListTable
          items={entries}
          columns={columns}
          rowKey={(r) => r.id}
          caption="Entries the registry rejected and entries the pre-checks hold, with their reasons"
          empty="No entry is rejected or held."
          loading={attention.loading}
          error={attention.error}
          testId="registry-attention"
          rowAttributes={(r) => ({ 'data-registration-id': r.id, 'data-status': r.status })}
        />
        {attention.data?.more ? <p class="hint">The first {plural(PAGE_SIZE, 'entry', 'entries')} of each status: resubmit these, then reload for more.</p> : null}
      </section>

      <ProductRegistrations productId={props.productId} onResubmitted={onResubmitted} />
    </>
  );
}
