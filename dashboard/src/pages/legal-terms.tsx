import { useState } from 'preact/hooks';
import { LANGUAGES } from '../../../lib/domain/labelling/languages.ts';
import type { LabelTerm } from '../../../lib/domain/labelling-term.ts';
import { api, ApiError, type Environment } from '../api.ts';
import { ErrorNotice, Loading, Notice, PageHeader, useLoad } from '../components.tsx';
import { formatDateTime } from '../format.ts';
import { browserLanguage, languageName } from '../labelling.ts';

/**
 * The legal terms of the e-label (docs/labelling.md#correcting-a-term): `GET /v1/labelling/terms`
 * for one language, the unconfirmed ones first shown, each with the platform's wording, its status
 * and source, and an inline form that sets (`PUT`) or clears (`DELETE`) the organization's wording.
 * A correction shows on the pages of versions published after it.
 */

const termPath = (term: Pick<LabelTerm, 'lang' | 'termKey'>) => `/v1/labelling/terms/${term.lang}/${term.termKey}`;

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
  const { data, error, loading, reload } = useLoad(
    () => api<{ data: LabelTerm[] }>('GET', '/v1/labelling/terms', { query: { lang, status: unconfirmedOnly ? 'unconfirmed' : undefined } }),
    [lang, unconfirmedOnly],
  );
  const terms = data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Legal terms"
        lead={`The legal wording of your e-labels (${props.environment} environment). Where a term is unconfirmed, or your authority asks for other wording, set your own: versions you publish afterwards show it; versions already published keep theirs.`}
      />
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
                <th scope="col">Status and source</th>
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
