import { useRef, useState } from 'preact/hooks';
import { dnsZoneOf, normalizeHostname, recordHostIn } from '../../../lib/domain/hostname.ts';
import { api, type Domain, type Environment } from '../api.ts';
import { ConfirmButton, CopyButton, ErrorNotice, Field, focusField, FormActions, Loading, Notice, PageHeader, placeError, useLoad } from '../components.tsx';
import { formatDateTime } from '../format.ts';

/**
 * Brand domains (docs/brand-domains.md): add a hostname, publish the TXT record it names, verify
 * it over DNS, make it the live default. The API's 422 appears beside the field (hostname) or, for
 * verification, above the list with what DNS answered.
 */
function AddDomainForm(props: { onAdded: (domain: Domain) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [hostname, setHostname] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, ['hostname']);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    // A pasted address (https://www.brand.example/) is read as its host, as the API reads it.
    const host = normalizeHostname(hostname);
    if (host && host !== hostname) setHostname(host);
    try {
      props.onAdded(await api<Domain>('POST', '/v1/domains', { body: { hostname: host || hostname } }));
    } catch (failure) {
      setError(failure);
      focusField(form.current, placeError(failure, ['hostname']).field);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="add-domain-title" noValidate>
      <h2 id="add-domain-title">Add a domain</h2>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <Field label="Hostname" name="hostname" error={error} errorField={placed.field} hint="The host to print on your packaging, such as id.brand.example (a pasted web address is fine: its scheme and path are dropped). A subdomain is best.">
        {(a) => <input {...a} type="text" required maxLength={253} autoComplete="off" spellcheck={false} value={hostname} onInput={(e) => setHostname(e.currentTarget.value)} />}
      </Field>
      <FormActions submitLabel="Add domain" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

/**
 * A DNS record's name as providers' forms ask for it: the part before the domain they manage
 * (`_passport-challenge.www` in `example.it`), with the full name beside it for those that want it.
 */
function RecordName(props: { fullName: string; hostname: string; what: string }) {
  const zone = dnsZoneOf(props.hostname);
  const host = recordHostIn(props.fullName, zone);
  return (
    <dd>
      <span class="mono" data-testid="record-host">
        {host}
      </span>{' '}
      <CopyButton value={host} label="Copy name" />
      <p class="hint">
        In the records of <span class="mono">{zone}</span>. Providers that ask for the full name: <span class="mono">{props.fullName}</span>{' '}
        <CopyButton value={props.fullName} label={`Copy full ${props.what} name`} />
      </p>
    </dd>
  );
}

/** The TXT record a pending domain needs, each part copyable. */
function TxtRecord(props: { domain: Domain }) {
  const { name, value } = props.domain.verification;
  return (
    <dl class="txt-record" data-testid="txt-record">
      <div>
        <dt>Type</dt>
        <dd class="mono">TXT</dd>
      </div>
      <div>
        <dt>Name</dt>
        <RecordName fullName={name} hostname={props.domain.hostname} what="TXT" />
      </div>
      <div>
        <dt>Value</dt>
        <dd>
          <span class="mono">{value}</span> <CopyButton value={value} label="Copy value" />
        </dd>
      </div>
    </dl>
  );
}

/** The CNAME record a verified domain needs to serve scans (docs/brand-domains.md#the-flow). */
function CnameRecord(props: { domain: Domain }) {
  const target = props.domain.cname?.target ?? null;
  return (
    <dl class="txt-record" data-testid="cname-record">
      <div>
        <dt>Type</dt>
        <dd class="mono">CNAME</dd>
      </div>
      <div>
        <dt>Name</dt>
        <RecordName fullName={props.domain.hostname} hostname={props.domain.hostname} what="CNAME" />
      </div>
      <div>
        <dt>Target</dt>
        <dd>
          {target ? (
            <>
              <span class="mono" data-testid="cname-target">
                {target}
              </span>{' '}
              <CopyButton value={target} label="Copy target" />
            </>
          ) : (
            <span data-testid="cname-target">The platform's operator gives you the target (the brand endpoint of its CloudFront distribution).</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

function StatusBadge(props: { domain: Domain }) {
  return props.domain.status === 'verified' ? <span class="badge badge-success">verified</span> : <span class="badge badge-test">pending</span>;
}

export function DomainsPage(props: { environment: Environment }) {
  const domains = useLoad(() => api<{ data: Domain[] }>('GET', '/v1/domains'), []);
  const [adding, setAdding] = useState(false);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();

  const act = async (domain: Domain, label: string, action: () => Promise<Domain>, success: (d: Domain) => string) => {
    setBusy(`${label} ${domain.id}`);
    setError(undefined);
    setMessage(undefined);
    try {
      setMessage(success(await action()));
      domains.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };
  const verify = (domain: Domain) =>
    act(domain, 'verify', () => api<Domain>('POST', `/v1/domains/${encodeURIComponent(domain.id)}/verify`), (d) => `${d.hostname} is verified. Make it the default to print it on new live products.`);
  const makeDefault = (domain: Domain) =>
    act(domain, 'default', () => api<Domain>('PATCH', `/v1/domains/${encodeURIComponent(domain.id)}`, { body: { default: true } }), (d) => `New live products will get QR codes on ${d.hostname}. Existing products keep theirs.`);

  return (
    <>
      <PageHeader
        title="Domains"
        lead="Print your own domain on packaging: new live products get QR codes on your verified default domain, such as id.brand.example/01/…. Codes already printed never change."
      >
        {!adding ? (
          <button type="button" class="button" onClick={() => setAdding(true)}>
            Add domain
          </button>
        ) : null}
      </PageHeader>
      {props.environment === 'test' ? <Notice kind="info">Domains belong to the organization and apply to live products only: test products stay on the platform's address.</Notice> : null}
      {adding ? (
        <AddDomainForm
          onCancel={() => setAdding(false)}
          onAdded={(domain) => {
            setAdding(false);
            setError(undefined);
            setMessage(`${domain.hostname} was added. Create the TXT record below at your DNS provider, then verify.`);
            domains.reload();
          }}
        />
      ) : null}
      {message ? <Notice kind="success">{message}</Notice> : null}
      {error ? <ErrorNotice error={error} title="Not done" /> : null}
      {domains.error ? <ErrorNotice error={domains.error} /> : null}
      {domains.loading && !domains.data ? <Loading /> : null}
      {domains.data ? (
        domains.data.data.length === 0 ? (
          <div class="empty card">
            <p>No domains yet. Add the hostname you want on your packaging.</p>
          </div>
        ) : (
          <ul class="domain-list" data-testid="domains">
            {domains.data.data.map((domain) => (
              <li key={domain.id} class="card domain" data-domain={domain.hostname}>
                <div class="domain-head">
                  <h2 class="mono">{domain.hostname}</h2>
                  <StatusBadge domain={domain} />
                  {domain.default ? <span class="badge badge-accent">default</span> : null}
                </div>
                {domain.status === 'pending' ? (
                  <>
                    <p>Create this DNS record at your DNS provider, wait for it to be published, then verify:</p>
                    <TxtRecord domain={domain} />
                  </>
                ) : (
                  <>
                    <p>
                      Verified {domain.verifiedAt ? formatDateTime(domain.verifiedAt) : ''}. Now point it at the resolver: create this DNS record at your DNS provider, and keep
                      the TXT record too.
                    </p>
                    <CnameRecord domain={domain} />
                  </>
                )}
                <div class="actions actions-start">
                  {domain.status === 'pending' ? (
                    <button type="button" class="button" disabled={busy !== undefined} onClick={() => void verify(domain)}>
                      {busy === `verify ${domain.id}` ? 'Verifying…' : 'Verify'}
                      <span class="visually-hidden"> {domain.hostname}</span>
                    </button>
                  ) : null}
                  {domain.status === 'verified' && !domain.default ? (
                    <button type="button" class="button button-secondary" disabled={busy !== undefined} onClick={() => void makeDefault(domain)}>
                      Make default<span class="visually-hidden"> {domain.hostname}</span>
                    </button>
                  ) : null}
                  <ConfirmButton
                    label="Delete"
                    accessibleLabel={`Delete ${domain.hostname}`}
                    title={`Delete ${domain.hostname}?`}
                    confirmLabel="Delete domain"
                    danger
                    onConfirm={async () => {
                      await api('DELETE', `/v1/domains/${encodeURIComponent(domain.id)}`);
                      setMessage(`${domain.hostname} was deleted.`);
                      domains.reload();
                    }}
                  >
                    <p>QR codes printed with {domain.hostname} stop resolving. Products keep their QR code URL. Delete only a domain you never printed.</p>
                  </ConfirmButton>
                </div>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </>
  );
}
