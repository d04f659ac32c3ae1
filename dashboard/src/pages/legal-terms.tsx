import { useState } from 'preact/hooks';
import { LANGUAGES } from '../../../lib/domain/labelling/languages.ts';
import type { LabelTerm } from '../../../lib/domain/labelling-term.ts';
import type { ChangedTerm, LabellingSettings, LanguageSignOff, SignOffStatus, TermState } from '../../../lib/domain/labelling/sign-off.ts';
import { api, ApiError, type Environment } from '../api.ts';
import { ErrorNotice, Loading, Notice, PageHeader, useLoad } from '../components.tsx';
import { formatDateTime } from '../format.ts';
import { browserLanguage, languageName } from '../labelling.ts';

/**
 * The legal terms of the e-label (docs/labelling.md#correcting-a-term, docs/labelling.md#sign-off):
 * - which languages the e-labels offer (`/v1/labelling/settings`: all 24, or only those signed off)
 *   and each language's sign-off status (`GET /v1/labelling/sign-offs`);
 * - for one language, every term a sign-off signs (legal texts and vocabulary names, with their
 *   evidence level and source), who signed it off and when, the terms that changed since, and a
 *   "Sign off" button (`POST /v1/labelling/sign-offs` with the digest of what is shown);
 * - the language's legal terms, the unconfirmed ones first shown, each with an inline form that
 *   sets (`PUT`) or clears (`DELETE`) the organization's wording. A correction shows on the pages
 *   of versions published after it, and re-opens the language's sign-off.
 */

const termPath = (term: Pick<LabelTerm, 'lang' | 'termKey'>) => `/v1/labelling/terms/${term.lang}/${term.termKey}`;

const STATUS_TEXT: Record<SignOffStatus['status'], string> = { signed: 'signed off', reopened: 're-opened', none: 'not signed off' };
const STATUS_BADGE: Record<SignOffStatus['status'], string> = { signed: 'badge-success', reopened: 'badge-warning', none: 'badge-test' };

const signerOf = (signOff: NonNullable<SignOffStatus['signOff']>): string =>
  `${signOff.signedBy.name ?? signOff.signedBy.id}${signOff.signedBy.type === 'api_key' ? ` (API key ${signOff.signedBy.id})` : ''}`;

function StatusBadge(props: { status: SignOffStatus['status'] }) {
  return <span class={`badge ${STATUS_BADGE[props.status]}`}>{STATUS_TEXT[props.status]}</span>;
}

/** The setting and the 24 languages' statuses; a language's name selects it below. */
function LanguagesCard(props: { statuses: SignOffStatus[]; settings: LabellingSettings | undefined; onSelect: (lang: string) => void; onSaved: () => void }) {
  const [choice, setChoice] = useState<LabellingSettings['labelLanguages'] | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const current = choice ?? props.settings?.labelLanguages ?? 'all';
  const save = async () => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await api<LabellingSettings>('PUT', '/v1/labelling/settings', { body: { labelLanguages: current } });
      setSaved(true);
      props.onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="languages-title">
      <h2 id="languages-title">Languages on your e-labels</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset class="segmented">
          <legend class="visually-hidden">Languages your e-labels offer</legend>
          {(['all', 'signed-off'] as const).map((value) => (
            <label key={value} class={current === value ? 'is-current' : ''}>
              <input type="radio" name="label-languages" value={value} checked={current === value} onChange={() => setChoice(value)} />
              <span>{value === 'all' ? 'All 24 languages' : 'Only the languages signed off'}</span>
            </label>
          ))}
        </fieldset>{' '}
        <button type="submit" class="button button-small" disabled={busy || current === props.settings?.labelLanguages}>
          Save
        </button>
      </form>
      <p class="hint">
        Versions published from now on follow this choice; published versions keep their languages. With “only the languages signed off”, a page asked for in
        another language goes to the product’s label language, else English, else the first signed off; with none signed off, the label language alone.
      </p>
      {saved ? <Notice kind="success">Saved: {current === 'all' ? 'all 24 languages' : 'only the languages signed off'}.</Notice> : null}
      {error ? <ErrorNotice error={error} /> : null}
      <ul class="sign-off-list" aria-label="Sign-off of each language">
        {props.statuses.map((entry) => (
          <li key={entry.lang} data-testid={`sign-off-status-${entry.lang}`}>
            <button type="button" class="link-button" onClick={() => props.onSelect(entry.lang)}>
              {languageName(entry.lang)}
            </button>{' '}
            <StatusBadge status={entry.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

const stateText = (state: TermState | null): string => (state ? `“${state.text}” (${state.evidence.level}, ${state.evidence.source})` : 'none');

function ChangedTerms(props: { changes: ChangedTerm[] }) {
  return (
    <ul data-testid="changed-terms">
      {props.changes.map((change) => (
        <li key={change.key}>
          <span class="mono">{change.key}</span>: {stateText(change.before)} → {stateText(change.after)}
          {change.before && change.after && change.before.text === change.after.text && change.before.platformText !== change.after.platformText
            ? ` (the platform's wording behind your correction: “${change.before.platformText}” → “${change.after.platformText}”)`
            : ''}
        </li>
      ))}
    </ul>
  );
}

/** One language's sign-off: its status, who signed and when, what changed since, the button, and every term it signs with its evidence. */
function SignOffCard(props: { lang: string; data: LanguageSignOff | undefined; error: unknown; loading: boolean; onSigned: () => void }) {
  const { data } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const name = languageName(props.lang);
  const sign = async () => {
    if (!data) return;
    setBusy(true);
    setError(undefined);
    try {
      // The digest of the terms shown: terms changed meanwhile are a 409, and nothing unseen is signed.
      await api<SignOffStatus>('POST', '/v1/labelling/sign-offs', { body: { lang: data.lang, digest: data.digest } });
      props.onSigned();
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiError && failure.status === 409) props.onSigned();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="sign-off-title" data-testid="sign-off" aria-busy={props.loading ? 'true' : 'false'}>
      <div class="card-header">
        <h2 id="sign-off-title">
          Sign-off: {name} {data ? <StatusBadge status={data.status} /> : null}
        </h2>
        {data && data.status !== 'signed' ? (
          <button type="button" class="button" disabled={busy || props.loading} onClick={() => void sign()}>
            Sign off {name}
          </button>
        ) : null}
      </div>
      {props.error ? <ErrorNotice error={props.error} /> : null}
      {error ? <ErrorNotice error={error} title="Not signed off" /> : null}
      {!data && props.loading ? <Loading /> : null}
      {data?.signOff ? (
        <p data-testid="signed-by">
          Signed off by {signerOf(data.signOff)} on {formatDateTime(data.signOff.signedAt)} ({data.signOff.termCount} terms).
        </p>
      ) : data ? (
        <p>Nobody has signed off the wording in {name} yet. Read the terms below, with the evidence behind each, then sign them off.</p>
      ) : null}
      {data?.status === 'reopened' ? (
        <Notice kind="warning" title={`Re-opened: ${data.changedTerms.length === 1 ? 'a term' : `${data.changedTerms.length} terms`} changed since the sign-off`}>
          <ChangedTerms changes={data.changedTerms} />
        </Notice>
      ) : null}
      {data ? (
        <details>
          <summary>
            The {data.terms.length} terms a sign-off of {name} signs, with their evidence
          </summary>
          <div class="table-wrap">
            <table class="table" data-testid="terms-in-use">
              <caption class="visually-hidden">Legal texts and vocabulary names in {name}, with their evidence</caption>
              <thead>
                <tr>
                  <th scope="col">Term</th>
                  <th scope="col">Wording on your pages</th>
                  <th scope="col">Evidence</th>
                </tr>
              </thead>
              <tbody>
                {data.terms.map((term) => (
                  <tr key={term.key} data-testid={`in-use-${term.key}`}>
                    <th scope="row">
                      <span class="mono">{term.key}</span>
                    </th>
                    <td lang={props.lang}>
                      {term.text}
                      {term.overridden ? <div class="hint">Your wording (the platform’s: “{term.platformText}”)</div> : null}
                    </td>
                    <td>
                      <span class={`badge ${term.evidence.level === 'official' || term.evidence.level === 'official-copy' ? 'badge-success' : 'badge-test'}`}>{term.evidence.level}</span>
                      <div class="hint">{term.evidence.citation}</div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </section>
  );
}

function TermRow(props: { term: LabelTerm; onChange: (term: LabelTerm) => void }) {
  const { term } = props;
  const [text, setText] = useState(term.override?.text ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const id = `term-${term.lang}-${term.termKey}`;

  const run = async (method: 'PUT' | 'DELETE') => {
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api<LabelTerm>(method, termPath(term), method === 'PUT' ? { body: { text } } : {});
      setText(updated.override?.text ?? '');
      props.onChange(updated);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = error instanceof ApiError && error.param === 'text' ? error.message : undefined;

  return (
    <tr data-testid={id}>
      <th scope="row">
        <span class="mono">{term.termKey}</span>
      </th>
      <td lang={term.lang}>{term.platformText}</td>
      <td>
        <span class={`badge ${term.status === 'unconfirmed' ? 'badge-test' : 'badge-success'}`}>{term.status}</span>
        <div class="hint">
          {term.evidence.level}: {term.evidence.citation}
        </div>
        <div class="hint mono">{term.source}</div>
      </td>
      <td>
        <form
          class="actions actions-start"
          onSubmit={(e) => {
            e.preventDefault();
            void run('PUT');
          }}
        >
          <label class="visually-hidden" for={id}>
            Your wording of {term.termKey} in {languageName(term.lang)}
          </label>
          <input
            id={id}
            lang={term.lang}
            value={text}
            maxLength={200}
            placeholder={term.platformText}
            aria-invalid={fieldError ? 'true' : undefined}
            aria-describedby={fieldError ? `${id}-error` : undefined}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button type="submit" class="button" disabled={busy || text.trim() === ''}>
            Save
          </button>
          {term.override ? (
            <button type="button" class="button button-secondary" disabled={busy} onClick={() => void run('DELETE')}>
              Clear
            </button>
          ) : null}
        </form>
        {fieldError ? (
          <p class="field-error" id={`${id}-error`}>
            {fieldError}
          </p>
        ) : error ? (
          <ErrorNotice error={error} />
        ) : null}
        {term.override ? <p class="hint">Yours since {formatDateTime(term.override.updatedAt)}</p> : null}
      </td>
    </tr>
  );
}

export function LegalTermsPage(props: { environment: Environment }) {
  const [lang, setLang] = useState<string>(browserLanguage());
  const [unconfirmedOnly, setUnconfirmedOnly] = useState(true);
  const [saved, setSaved] = useState<string>();
  // Moves on every change that may change a sign-off's status (a correction, a sign-off, the setting).
  const [round, setRound] = useState(0);
  const changed = () => setRound((n) => n + 1);
  const { data, error, loading, reload } = useLoad(
    () => api<{ data: LabelTerm[] }>('GET', '/v1/labelling/terms', { query: { lang, status: unconfirmedOnly ? 'unconfirmed' : undefined } }),
    [lang, unconfirmedOnly],
  );
  const signOff = useLoad(() => api<LanguageSignOff>('GET', `/v1/labelling/sign-offs/${lang}`), [lang, round]);
  const statuses = useLoad(() => api<{ data: SignOffStatus[] }>('GET', '/v1/labelling/sign-offs'), [round]);
  const settings = useLoad(() => api<LabellingSettings>('GET', '/v1/labelling/settings'), [round]);
  const terms = data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Legal terms"
        lead={`The legal wording of your e-labels (${props.environment} environment), with the evidence behind each term. Your compliance officer signs off each language; any later change of a term, ours or yours, re-opens its sign-off. Where a term is unconfirmed, or your authority asks for other wording, set your own: versions you publish afterwards show it; versions already published keep theirs.`}
      />
      {statuses.error ? <ErrorNotice error={statuses.error} /> : null}
      {statuses.data ? <LanguagesCard statuses={statuses.data.data} settings={settings.data} onSelect={setLang} onSaved={changed} /> : null}
      <div class="toolbar">
        <label for="legal-terms-lang">Language</label>
        <select id="legal-terms-lang" value={lang} onChange={(e) => setLang(e.currentTarget.value)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {languageName(code)} ({code})
            </option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={unconfirmedOnly} onChange={(e) => setUnconfirmedOnly(e.currentTarget.checked)} /> Unconfirmed only
        </label>
      </div>
      <SignOffCard lang={lang} data={signOff.data?.lang === lang ? signOff.data : undefined} error={signOff.error} loading={signOff.loading} onSigned={changed} />
      {saved ? <Notice kind="success">{saved}</Notice> : null}
      {error ? <ErrorNotice error={error} /> : null}
      {loading && !data ? <Loading /> : null}
      {!loading && !error && terms.length === 0 ? (
        <div class="empty card">
          <p>{unconfirmedOnly ? `Every legal term in ${languageName(lang)} is confirmed by its source.` : 'No legal terms.'}</p>
        </div>
      ) : null}
      {terms.length ? (
        <div class="table-wrap card">
          <table class="table" data-testid="legal-terms-table" aria-busy={loading ? 'true' : 'false'}>
            <caption class="visually-hidden">Legal terms in {languageName(lang)}</caption>
            <thead>
              <tr>
                <th scope="col">Term</th>
                <th scope="col">Platform wording</th>
                <th scope="col">Status, evidence and source</th>
                <th scope="col">Your wording</th>
              </tr>
            </thead>
            <tbody>
              {terms.map((term) => (
                <TermRow
                  key={`${term.lang}/${term.termKey}/${term.override?.updatedAt ?? ''}`}
                  term={term}
                  onChange={(updated) => {
                    setSaved(updated.override ? `Saved your wording of ${updated.termKey}.` : `Cleared your wording of ${updated.termKey}.`);
                    reload();
                    changed();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
