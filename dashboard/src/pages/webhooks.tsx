import { useRef, useState } from 'preact/hooks';
import { api, ApiError, type Environment, type WebhookEndpoint } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, FormActions, ListTable, Loading, Notice, PageHeader, placeError, SecretOnce, SelectField, useCreateFlow, useLoad, type ListColumn } from '../components.tsx';
import { CATEGORIES, ENVIRONMENTS, WEBHOOK_SOURCES } from '../constants.ts';
import { formatDateTime } from '../format.ts';
import { href, navigate } from '../router.ts';

const ingestUrl = (endpointId: string): string => `${window.location.origin}/v1/webhooks/ingest?endpoint=${encodeURIComponent(endpointId)}`;

/**
 * The mapping textarea: JSON is parsed here (a syntax error never leaves the browser), the API
 * validates what it means and names the offending target (param `mapping…`).
 */
function parseMapping(text: string): { ok: true; value: unknown } | { ok: false; error: ApiError } {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: new ApiError(0, { type: 'invalid_request_error', message: `The mapping is not valid JSON: ${(error as Error).message}`, param: 'mapping' }) };
  }
}

/** Any param under `mapping` belongs to the mapping textarea. */
const mappingParam = (error: unknown): unknown =>
  error instanceof ApiError && error.param?.startsWith('mapping') && error.param !== 'mapping'
    ? new ApiError(error.status, { type: error.type, message: `${error.param}: ${error.message}`, param: 'mapping', suggestion: error.suggestion })
    : error;

const FIELDS = ['source', 'environment', 'defaultCategory', 'description', 'mapping'];

type Created = WebhookEndpoint & { secret: string };

function CreateEndpointForm(props: { environment: Environment; onCreated: (endpoint: Created) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ source: 'headless-cms', environment: props.environment as string, defaultCategory: 'wine', description: '', mapping: '' });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, FIELDS);
  const set = (field: keyof typeof values) => (event: Event) => setValues((v) => ({ ...v, [field]: (event.currentTarget as HTMLInputElement).value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const mapping = parseMapping(values.mapping);
    if (!mapping.ok) {
      setError(mapping.error);
      focusField(form.current, 'mapping');
      return;
    }
    setBusy(true);
    try {
      const body: Record<string, unknown> = { source: values.source, environment: values.environment, defaultCategory: values.defaultCategory };
      if (values.description.trim()) body.description = values.description;
      if (mapping.value !== undefined) body.mapping = mapping.value;
      props.onCreated(await api<Created>('POST', '/v1/webhooks/endpoints', { body }));
    } catch (failure) {
      const shown = mappingParam(failure);
      setError(shown);
      focusField(form.current, placeError(shown, FIELDS).field);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="create-endpoint-title" noValidate>
      <h2 id="create-endpoint-title">New webhook endpoint</h2>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <div class="form-grid">
        <SelectField
          label="Source"
          name="source"
          error={error}
          errorField={placed.field}
          hint="headless-cms comes with a ready mapping."
          values={WEBHOOK_SOURCES}
          value={values.source}
          onChange={set('source')}
        />
        <SelectField label="Environment" name="environment" error={error} errorField={placed.field} values={ENVIRONMENTS} value={values.environment} onChange={set('environment')} />
        <SelectField label="Default category" name="defaultCategory" error={error} errorField={placed.field} values={CATEGORIES} value={values.defaultCategory} onChange={set('defaultCategory')} />
        <Field label="Description (optional)" name="description" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" maxLength={200} value={values.description} onInput={set('description')} />}
        </Field>
      </div>
      <Field label="Mapping (JSON, optional for headless-cms)" name="mapping" error={error} errorField={placed.field} hint='Target field → source path, e.g. {"gtin": "data.gtin", "name": "data.title"}.'>
        {(a) => <textarea {...a} class="mono" rows={6} spellcheck={false} value={values.mapping} onInput={set('mapping')} />}
      </Field>
      <FormActions submitLabel="Create endpoint" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

const ENDPOINT_COLUMNS: readonly ListColumn<WebhookEndpoint>[] = [
  {
    header: 'Endpoint',
    rowHeader: true,
    cell: (endpoint) => (
      <a class="mono" href={href('webhooks', endpoint.id)}>
        {endpoint.id}
      </a>
    ),
  },
  { header: 'Source', cell: (endpoint) => endpoint.source },
  { header: 'Environment', cell: (endpoint) => <span class={`badge badge-${endpoint.environment}`}>{endpoint.environment}</span> },
  { header: 'Default category', cell: (endpoint) => endpoint.defaultCategory },
  { header: 'Description', cell: (endpoint) => endpoint.description ?? '—' },
  { header: 'Updated', class: 'nowrap', cell: (endpoint) => formatDateTime(endpoint.updatedAt) },
];

export function WebhooksPage(props: { environment: Environment }) {
  const endpoints = useLoad(() => api<{ data: WebhookEndpoint[] }>('GET', '/v1/webhooks/endpoints'), []);
  const flow = useCreateFlow<Created>(endpoints.reload);
  const { created } = flow;

  return (
    <>
      <PageHeader title="Webhooks" lead="Your product-information system tells the service about product changes by signed webhook; each change becomes a new passport version.">
        {flow.idle ? (
          <button type="button" class="button" onClick={flow.start}>
            New endpoint
          </button>
        ) : null}
      </PageHeader>
      {created ? (
        <SecretOnce
          title="Endpoint created"
          label="Signing secret"
          value={created.secret}
          risk="anyone who has it can send deliveries this endpoint accepts."
          onDone={flow.dismiss}
        >
          <p class="hint">
            In your PIM, set the webhook URL to <code class="url">{ingestUrl(created.id)}</code> and this secret; each delivery is
            signed with <span class="mono">X-Webhook-Signature: sha256=…</span>.
          </p>
        </SecretOnce>
      ) : null}
      {flow.creating ? (
        <CreateEndpointForm environment={props.environment} onCancel={flow.cancel} onCreated={flow.done} />
      ) : null}
      <ListTable
        items={endpoints.data?.data}
        loading={endpoints.loading}
        error={endpoints.error}
        columns={ENDPOINT_COLUMNS}
        rowKey={(endpoint) => endpoint.id}
        caption="Webhook endpoints"
        empty="No webhook endpoints yet."
        testId="endpoints-table"
      />
    </>
  );
}

function EditEndpointForm(props: { endpoint: WebhookEndpoint; onSaved: (endpoint: WebhookEndpoint) => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({
    defaultCategory: props.endpoint.defaultCategory,
    description: props.endpoint.description ?? '',
    mapping: JSON.stringify(props.endpoint.mapping, null, 2),
  });
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, FIELDS);
  const set = (field: keyof typeof values) => (event: Event) => setValues((v) => ({ ...v, [field]: (event.currentTarget as HTMLInputElement).value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    const mapping = parseMapping(values.mapping);
    if (!mapping.ok || mapping.value === undefined) {
      setError(mapping.ok ? new ApiError(0, { type: 'validation_error', message: 'The mapping is required.', param: 'mapping' }) : mapping.error);
      focusField(form.current, 'mapping');
      return;
    }
    setBusy(true);
    try {
      const body: Record<string, unknown> = { defaultCategory: values.defaultCategory, mapping: mapping.value };
      if (values.description.trim()) body.description = values.description;
      const updated = await api<WebhookEndpoint>('PATCH', `/v1/webhooks/endpoints/${encodeURIComponent(props.endpoint.id)}`, { body });
      setValues((v) => ({ ...v, mapping: JSON.stringify(updated.mapping, null, 2) }));
      setSaved(true);
      props.onSaved(updated);
    } catch (failure) {
      const shown = mappingParam(failure);
      setError(shown);
      focusField(form.current, placeError(shown, FIELDS).field);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="mapping-title" noValidate data-testid="mapping-form">
      <h2 id="mapping-title">Mapping</h2>
      {saved ? <Notice kind="success">Saved. The next delivery uses this mapping.</Notice> : null}
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <div class="form-grid">
        <SelectField label="Default category" name="defaultCategory" error={error} errorField={placed.field} values={CATEGORIES} value={values.defaultCategory} onChange={set('defaultCategory')} />
        <Field label="Description" name="description" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" maxLength={200} value={values.description} onInput={set('description')} />}
        </Field>
      </div>
      <Field
        label="Mapping (JSON)"
        name="mapping"
        error={error}
        errorField={placed.field}
        hint={
          <>
            Target field → source path (<span class="mono">"name": "data.title"</span>) or{' '}
            <span class="mono">{'{"path": "…", "convert": "number"}'}</span>. <span class="mono">gtin</span> is required.
          </>
        }
      >
        {(a) => <textarea {...a} class="mono" rows={14} spellcheck={false} value={values.mapping} onInput={set('mapping')} />}
      </Field>
      <div class="actions">
        <button type="submit" class="button" disabled={busy}>
          Save mapping
        </button>
      </div>
    </form>
  );
}

export function WebhookPage(props: { endpointId: string }) {
  const loaded = useLoad(() => api<WebhookEndpoint>('GET', `/v1/webhooks/endpoints/${encodeURIComponent(props.endpointId)}`), [props.endpointId]);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretValidUntil: string | null }>();
  const endpoint = loaded.data;

  if (loaded.error) {
    return (
      <>
        <PageHeader title="Webhook endpoint" />
        <ErrorNotice error={loaded.error} />
        <p>
          <a href="#/webhooks">Back to webhooks</a>
        </p>
      </>
    );
  }
  if (!endpoint) return <Loading />;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/webhooks">Webhooks</a> <span aria-hidden="true">/</span>
      </p>
      <PageHeader title={endpoint.description || endpoint.id} lead={<span class="mono">{endpoint.id}</span>}>
        <ConfirmButton
          label="Rotate secret"
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          class="button button-secondary"
          onConfirm={async () => {
            setRotated(await api<{ secret: string; previousSecretValidUntil: string | null }>('POST', `/v1/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/rotate-secret`));
            loaded.reload();
          }}
        >
          <p>A new secret is issued now. The current one keeps verifying deliveries for 24 hours, so you can update your PIM without losing any.</p>
        </ConfirmButton>
        <ConfirmButton
          label="Delete"
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          danger
          class="button button-danger"
          onConfirm={async () => {
            await api('DELETE', `/v1/webhooks/endpoints/${encodeURIComponent(endpoint.id)}`);
            navigate('#/webhooks');
          }}
        >
          <p>Deliveries to this endpoint will be refused (401). Products and passports it created stay.</p>
        </ConfirmButton>
      </PageHeader>
      {rotated ? (
        <SecretOnce
          title="New signing secret"
          label="New signing secret"
          value={rotated.secret}
          risk="anyone who has it can send deliveries this endpoint accepts."
          onDone={() => setRotated(undefined)}
        >
          {rotated.previousSecretValidUntil ? <p class="hint">The previous secret keeps working until {formatDateTime(rotated.previousSecretValidUntil)}.</p> : null}
        </SecretOnce>
      ) : null}
      <div class="grid-2 grid-wide-left">
        <EditEndpointForm endpoint={endpoint} onSaved={() => undefined} />
        <section class="card" aria-labelledby="endpoint-details-title">
          <h2 id="endpoint-details-title">Delivery</h2>
          <dl class="details details-stacked">
            <dt>Webhook URL</dt>
            <dd>
              <code class="url">{ingestUrl(endpoint.id)}</code>
            </dd>
            <dt>Source</dt>
            <dd>{endpoint.source}</dd>
            <dt>Environment</dt>
            <dd>
              <span class={`badge badge-${endpoint.environment}`}>{endpoint.environment}</span>
            </dd>
            <dt>Previous secret valid until</dt>
            <dd>{endpoint.secretPreviousValidUntil ? formatDateTime(endpoint.secretPreviousValidUntil) : 'No rotation in progress'}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(endpoint.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(endpoint.updatedAt)}</dd>
          </dl>
        </section>
      </div>
    </>
  );
}
