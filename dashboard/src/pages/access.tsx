import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type AccessGrant, type DomainEvent, type Environment } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, FormActions, ListTable, Notice, PageHeader, SelectField, type ListColumn } from '../components.tsx';
import { formatDateTime, plural } from '../format.ts';
import { href } from '../router.ts';

/**
 * Access (docs/dashboard.md#access): the grants the organization gave (with "Grant access" and "Revoke"), the
 * grants it holds from others, and the access log, the `passport.accessed` events of other
 * organizations' reads of restricted elements. Each list follows the API's cursor by "Load more".
 */
const PAGE_SIZE = 25;

/** A cursor list of the API (`{data, hasMore}`, `starting_after` the last id): the first page, then more on demand. */
function useCursorList<T extends { id: string }>(path: string, query: Record<string, string>) {
  const [items, setItems] = useState<T[]>();
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const key = `${path}?${new URLSearchParams(query)}`;
  const load = useCallback(
    async (after?: string) => {
      setLoading(true);
      setError(undefined);
      try {
        const page = await api<{ data: T[]; hasMore: boolean }>('GET', path, { query: { ...query, limit: PAGE_SIZE, starting_after: after } });
        setItems((current) => (after ? [...(current ?? []), ...page.data] : page.data));
        setHasMore(page.hasMore && page.data.length > 0);
      } catch (failure) {
        setError(failure);
      } finally {
        setLoading(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  useEffect(() => void load(), [load]);
  return { items, hasMore, loading, error, reload: () => void load(), more: () => void load(items?.at(-1)?.id) };
}

function LoadMore(props: { list: { hasMore: boolean; loading: boolean; more: () => void }; label: string }) {
  if (!props.list.hasMore) return null;
  return (
    <nav class="pagination" aria-label={props.label}>
      <div class="actions">
        <button type="button" class="button button-secondary" disabled={props.list.loading} onClick={props.list.more}>
          Load more
        </button>
      </div>
    </nav>
  );
}

const TIERS = ['legitimate_interest', 'authority'] as const;
const TIER_LABELS: Record<string, string> = { legitimate_interest: 'Legitimate interest', authority: 'Authority', public: 'Public', owner: 'Owner' };
const tierLabel = (tier: string): string => TIER_LABELS[tier] ?? tier;
const VIA_LABELS: Record<string, string> = { grant: 'A grant', authority: 'Authority status', none: 'No grant', anonymous: 'Anonymous' };

const FIELDS = ['granteeOrgId', 'tier', 'productIds', 'expiresAt'];
/** The form field an API error names (`productIds[2]` is the product ids field), or none. */
const fieldOf = (error: unknown): string | undefined => {
  const param = error instanceof ApiError ? error.param?.replace(/\[\d+\]$/, '') : undefined;
  return param && FIELDS.includes(param) ? param : undefined;
};

function GrantForm(props: { onGranted: (grant: AccessGrant) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [granteeOrgId, setGranteeOrgId] = useState('');
  const [tier, setTier] = useState<string>('legitimate_interest');
  const [productIds, setProductIds] = useState('');
  const [expires, setExpires] = useState('');
  const [write, setWrite] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const field = fieldOf(error);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const ids = productIds.split(',').map((id) => id.trim()).filter(Boolean);
    // A date is granted until the end of that day (UTC).
    const body = { granteeOrgId: granteeOrgId.trim(), tier, ...(ids.length ? { productIds: ids } : {}), ...(expires ? { expiresAt: `${expires}T23:59:59Z` } : {}), write };
    try {
      props.onGranted(await api<AccessGrant>('POST', '/v1/access-grants', { body }));
    } catch (failure) {
      setError(failure);
      focusField(form.current, fieldOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="grant-title" noValidate>
      <h2 id="grant-title">Grant access</h2>
      {error && !field ? <ErrorNotice error={error} /> : null}
      <div class="form-grid">
        <Field label="Organization id" name="granteeOrgId" error={error} errorField={field} hint="The other organization's id (org_…), as its dashboard's footer shows it.">
          {(a) => <input {...a} type="text" required autoComplete="off" spellcheck={false} class="mono" value={granteeOrgId} onInput={(e) => setGranteeOrgId(e.currentTarget.value)} />}
        </Field>
        <SelectField
          label="Tier"
          name="tier"
          error={error}
          errorField={field}
          values={TIERS}
          labelOf={tierLabel}
          value={tier}
          onChange={(e) => setTier(e.currentTarget.value)}
          hint="For a battery: legitimate interest opens Annex XIII points 2 and 4 (both purposes; a purpose narrows it through the API), authority points 2 and 3."
        />
      </div>
      <Field label="Product ids (optional)" name="productIds" error={error} errorField={field} hint="Separated by commas; leave empty for all your products in this environment, also those added later.">
        {(a) => <input {...a} type="text" autoComplete="off" spellcheck={false} class="mono" value={productIds} onInput={(e) => setProductIds(e.currentTarget.value)} />}
      </Field>
      <Field label="Expires (optional)" name="expiresAt" error={error} errorField={field} hint="The grant ends at the end of this day (UTC); leave empty to keep it until you revoke it.">
        {(a) => <input {...a} type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />}
      </Field>
      <label class="checkbox">
        <input type="checkbox" name="write" checked={write} onChange={(e) => setWrite(e.currentTarget.checked)} /> May also update the dynamic data of the covered items (a repairer, a
        repurposer)
      </label>
      <FormActions submitLabel="Grant access" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

function Products(props: { grant: AccessGrant; own: boolean }) {
  const ids = props.grant.productIds;
  if (!ids) return <>All products</>;
  return (
    <ul class="chips">
      {ids.map((id) => (
        <li key={id} class="chip mono">
          {props.own ? <a href={href('products', id)}>{id}</a> : id}
        </li>
      ))}
    </ul>
  );
}

function GrantStatus(props: { grant: AccessGrant }) {
  const { grant } = props;
  if (grant.active) return <span class="badge badge-success">active</span>;
  return <span class="badge badge-danger">{grant.revokedAt ? `revoked ${formatDateTime(grant.revokedAt)}` : 'expired'}</span>;
}

/** The columns both grant lists share; `other` is the organization on the other side. */
function grantColumns(other: { header: string; id: (grant: AccessGrant) => string }, own: boolean): ListColumn<AccessGrant>[] {
  return [
    { header: other.header, rowHeader: true, class: 'mono', cell: other.id },
    { header: 'Tier', cell: (g) => tierLabel(g.tier) },
    { header: 'Products', cell: (g) => <Products grant={g} own={own} /> },
    { header: 'Write', cell: (g) => (g.write ? 'Yes' : 'No') },
    { header: 'Expires', class: 'nowrap', cell: (g) => (g.expiresAt ? formatDateTime(g.expiresAt) : 'Never') },
    { header: 'Status', cell: (g) => <GrantStatus grant={g} /> },
  ];
}

type AccessEvent = DomainEvent & { data: { object: { dppId?: string; productId?: string; reader?: { orgId?: string; tier?: string; via?: string; grantId?: string }; elements?: string[] } } };

const LOG_COLUMNS: readonly ListColumn<AccessEvent>[] = [
  { header: 'When', rowHeader: true, class: 'nowrap', cell: (e) => formatDateTime(e.createdAt) },
  {
    header: 'Organization',
    cell: (e) => (
      <>
        {e.actor.name ?? 'Unknown organization'}
        <div class="hint mono">{e.actor.id}</div>
      </>
    ),
  },
  { header: 'Tier', cell: (e) => tierLabel(e.data.object.reader?.tier ?? '') },
  { header: 'Via', cell: (e) => VIA_LABELS[e.data.object.reader?.via ?? ''] ?? e.data.object.reader?.via ?? '—' },
  {
    header: 'Product',
    cell: (e) => {
      const { productId, dppId } = e.data.object;
      return (
        <>
          {productId ? (
            <a href={href('products', productId)} class="mono" title={dppId ? `DPP id ${dppId}` : undefined}>
              {productId}
            </a>
          ) : (
            '—'
          )}
        </>
      );
    },
  },
  {
    header: 'Elements',
    cell: (e) => {
      const elements = e.data.object.elements ?? [];
      return (
        <details class="access-elements">
          <summary>{plural(elements.length, 'element')}</summary>
          <ul>
            {elements.map((path) => (
              <li key={path} class="mono">
                {path}
              </li>
            ))}
          </ul>
        </details>
      );
    },
  },
];

export function AccessPage(props: { environment: Environment }) {
  const given = useCursorList<AccessGrant>('/v1/access-grants', { as: 'owner' });
  const held = useCursorList<AccessGrant>('/v1/access-grants', { as: 'grantee' });
  const log = useCursorList<AccessEvent>('/v1/events', { type: 'passport.accessed' });
  const [granting, setGranting] = useState(false);
  const [message, setMessage] = useState<string>();

  const givenColumns: ListColumn<AccessGrant>[] = [
    ...grantColumns({ header: 'Organization', id: (g) => g.granteeOrgId }, true),
    {
      header: <span class="visually-hidden">Actions</span>,
      class: 'nowrap',
      cell: (g) =>
        g.active ? (
          <ConfirmButton
            label="Revoke"
            accessibleLabel={`Revoke the grant to ${g.granteeOrgId}`}
            title="Revoke this grant?"
            confirmLabel="Revoke grant"
            danger
            onConfirm={async () => {
              await api('DELETE', `/v1/access-grants/${encodeURIComponent(g.id)}`);
              setMessage(`The grant to ${g.granteeOrgId} was revoked: from its next request on it reads only the public tier.`);
              given.reload();
            }}
          >
            <p>
              <span class="mono">{g.granteeOrgId}</span> reads only the public elements of your passports from its next request on. This cannot be undone; grant again if needed.
            </p>
          </ConfirmButton>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader
        title="Access"
        lead={`Other organizations read the public elements of your passports; a grant opens more of them (a battery's restricted elements) to one organization. ${props.environment === 'test' ? 'These are the test environment’s grants and reads.' : ''}`}
      >
        {!granting ? (
          <button type="button" class="button" onClick={() => setGranting(true)}>
            Grant access
          </button>
        ) : null}
      </PageHeader>
      {granting ? (
        <GrantForm
          onCancel={() => setGranting(false)}
          onGranted={(grant) => {
            setGranting(false);
            setMessage(`${grant.granteeOrgId} now reads at the ${tierLabel(grant.tier).toLowerCase()} tier.`);
            given.reload();
          }}
        />
      ) : null}
      {message ? <Notice kind="success">{message}</Notice> : null}

      <h2 id="given-title">Grants you gave</h2>
      <ListTable
        items={given.items}
        loading={given.loading}
        error={given.error}
        columns={givenColumns}
        rowKey={(g) => g.id}
        rowAttributes={(g) => ({ 'data-grant': g.id })}
        caption="Grants you gave"
        empty="You have not granted access to anyone. Grant access to let a recycler, a repairer or an authority read more than the public elements."
        testId="grants-given"
      />
      <LoadMore list={given} label="More grants you gave" />

      <h2 id="held-title">Grants you hold</h2>
      <ListTable
        items={held.items}
        loading={held.loading}
        error={held.error}
        columns={grantColumns({ header: 'From organization', id: (g) => g.ownerOrgId }, false)}
        rowKey={(g) => g.id}
        caption="Grants you hold"
        empty="No organization has granted you access to its passports."
        testId="grants-held"
      />
      <LoadMore list={held} label="More grants you hold" />

      <h2 id="log-title">Access log</h2>
      <p class="hint">Every read of your passports' restricted elements by another organization, newest first. Reads of public elements are not logged.</p>
      <ListTable
        items={log.items}
        loading={log.loading}
        error={log.error}
        columns={LOG_COLUMNS}
        rowKey={(e) => e.id}
        caption="Access log"
        empty="No other organization has read restricted elements of your passports."
        testId="access-log"
      />
      <LoadMore list={log} label="More of the access log" />
    </>
  );
}
