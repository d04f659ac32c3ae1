import { useRef, useState } from 'preact/hooks';
import { api, type ApiKey, type CreatedApiKey, type Environment } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, FormActions, ListTable, Notice, PageHeader, placeError, SecretOnce, SelectField, useCreateFlow, useLoad, type ListColumn } from '../components.tsx';
import { API_KEY_SCOPES, ENVIRONMENTS } from '../constants.ts';
import { formatDateTime } from '../format.ts';

const masked = (key: ApiKey): string => `${key.prefix}${'•'.repeat(8)}${key.last4}`;

function CreateKeyForm(props: { environment: Environment; onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>(props.environment);
  const [scopes, setScopes] = useState<string[]>(['products:read', 'passports:read']);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, ['name', 'scopes', 'environment']);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onCreated(await api<CreatedApiKey>('POST', '/v1/auth/api-keys', { body: { name, scopes, environment } }));
    } catch (failure) {
      setError(failure);
      focusField(form.current, placeError(failure, ['name', 'scopes', 'environment']).field);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (scope: string, on: boolean) => setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="create-key-title" noValidate>
      <h2 id="create-key-title">Create an API key</h2>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <div class="form-grid">
        <Field label="Name" name="name" error={error} errorField={placed.field} hint="Where the key is used, e.g. “ERP sync”.">
          {(a) => <input {...a} type="text" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <SelectField
          label="Environment"
          name="environment"
          error={error}
          errorField={placed.field}
          values={ENVIRONMENTS}
          labelOf={(env) => `${env === 'live' ? 'Live' : 'Test'} (sk_${env}_…)`}
          value={environment}
          onChange={(e) => setEnvironment(e.currentTarget.value as Environment)}
        />
      </div>
      <fieldset class={`field checkbox-group${placed.field === 'scopes' ? ' field-invalid' : ''}`} data-field="scopes" aria-describedby={placed.field === 'scopes' ? 'scopes-error' : undefined}>
        <legend>Scopes</legend>
        <div class="checkbox-grid">
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} class="checkbox">
              <input type="checkbox" name="scopes" value={scope} checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.currentTarget.checked)} />
              <span class="mono">{scope}</span>
            </label>
          ))}
        </div>
        {placed.field === 'scopes' ? (
          <p class="field-error" id="scopes-error" data-param="scopes">
            {(error as Error).message}
          </p>
        ) : null}
      </fieldset>
      <FormActions submitLabel="Create key" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

export function KeysPage(props: { environment: Environment }) {
  const keys = useLoad(() => api<{ data: ApiKey[] }>('GET', '/v1/auth/api-keys'), []);
  const flow = useCreateFlow<CreatedApiKey>(keys.reload);
  const { created } = flow;
  const [revoked, setRevoked] = useState<string>();
  const columns: ListColumn<ApiKey>[] = [
    { header: 'Name', rowHeader: true, cell: (key) => key.name },
    { header: 'Key', class: 'mono nowrap', cell: masked },
    { header: 'Environment', cell: (key) => <span class={`badge badge-${key.environment}`}>{key.environment}</span> },
    {
      header: 'Scopes',
      cell: (key) => (
        <ul class="chips">
          {key.scopes.map((scope) => (
            <li key={scope} class="chip mono">
              {scope}
            </li>
          ))}
        </ul>
      ),
    },
    { header: 'Created', class: 'nowrap', cell: (key) => formatDateTime(key.createdAt) },
    { header: 'Last used', class: 'nowrap', cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never') },
    {
      header: <span class="visually-hidden">Actions</span>,
      class: 'nowrap',
      cell: (key) => (
        <ConfirmButton
          label="Revoke"
          accessibleLabel={`Revoke ${key.name}`}
          title={`Revoke “${key.name}”?`}
          confirmLabel="Revoke key"
          danger
          onConfirm={async () => {
            await api('DELETE', `/v1/auth/api-keys/${encodeURIComponent(key.id)}`);
            setRevoked(key.name);
            keys.reload();
          }}
        >
          <p>
            Every system using <span class="mono">{masked(key)}</span> will be refused within 5 seconds. This cannot be undone.
          </p>
        </ConfirmButton>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="API keys" lead="Keys let your systems call the API. Each belongs to one environment and carries only the scopes you give it.">
        {flow.idle ? (
          <button type="button" class="button" onClick={flow.start}>
            Create key
          </button>
        ) : null}
      </PageHeader>
      {created ? (
        <SecretOnce
          title={`Key “${created.name}” created`}
          label={`Your new ${created.environment} API key`}
          value={created.key}
          risk="anyone who has it can call the API as your organization, with this key's scopes."
          onDone={flow.dismiss}
        />
      ) : null}
      {flow.creating ? (
        <CreateKeyForm environment={props.environment} onCancel={flow.cancel} onCreated={flow.done} />
      ) : null}
      {revoked ? <Notice kind="success">Key {revoked} was revoked. It stops working everywhere within 5 seconds.</Notice> : null}
      <ListTable
        items={keys.data?.data}
        loading={keys.loading}
        error={keys.error}
        columns={columns}
        rowKey={(key) => key.id}
        caption="Active API keys"
        empty="No active API keys. Create one to connect your systems."
        testId="keys-table"
      />
    </>
  );
}
