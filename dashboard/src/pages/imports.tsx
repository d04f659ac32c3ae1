import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type ApiErrorBody, type Environment, type ImportJob, type ImportStatus } from '../api.ts';
import { ErrorNotice, Loading, Notice, PageHeader, useLoad } from '../components.tsx';
import { formatDateTime, plural } from '../format.ts';
import { ACCEPT, contentTypeOf, exportFiles, nextLink } from '../import-export.ts';
import { href, navigate } from '../router.ts';

/**
 * Bulk import and export (docs/import-export.md): upload a CSV, XLSX or NDJSON file as an import
 * job, watch it (polled every second while queued or running), read its row errors; the recent
 * jobs; the template and the export as downloads.
 */

const POLL_MS = 1000;
/** The job's counts in the order the page shows them. */
const COUNT_LABELS: ReadonlyArray<readonly [keyof ImportJob['counts'], string]> = [
  ['rows', 'Rows'],
  ['created', 'Created'],
  ['updated', 'Updated'],
  ['unchanged', 'Unchanged'],
  ['failed', 'Failed'],
];
const isActive = (status: ImportStatus): boolean => status === 'queued' || status === 'running';
const rowsDone = (job: ImportJob): number => job.counts.created + job.counts.updated + job.counts.unchanged + job.counts.failed;

const STATUS_LABEL: Readonly<Record<ImportStatus, string>> = { queued: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed' };
const STATUS_BADGE: Readonly<Record<ImportStatus, string>> = { queued: 'badge', running: 'badge badge-accent', succeeded: 'badge badge-success', failed: 'badge badge-danger' };

function StatusBadge(props: { status: ImportStatus }) {
  return <span class={STATUS_BADGE[props.status]}>{STATUS_LABEL[props.status]}</span>;
}

/** POST /v1/imports answers a queued job (202), or a dry run's finished report (it stores nothing, so it cannot be polled). */
type UploadAnswer = { id: string; status: 'queued' } | ImportJob;
const isReport = (answer: UploadAnswer): answer is ImportJob => 'counts' in answer && !isActive(answer.status);

function UploadForm(props: { onStarted: (id: string) => void; onReport: (job: ImportJob) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [dryRun, setDryRun] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const contentType = file ? contentTypeOf(file.name) : undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) {
      setError(new Error('Choose a CSV, XLSX or NDJSON file to upload.'));
      input.current?.focus();
      return;
    }
    if (!contentType) {
      setError(new Error(`${file.name} is not a .csv, .xlsx or .ndjson file.`));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api<UploadAnswer>('POST', '/v1/imports', { upload: { body: file, contentType }, query: { dryRun: dryRun ? 'true' : undefined } });
      if (isReport(answer)) props.onReport(answer);
      else props.onStarted(answer.id);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={submit} aria-labelledby="upload-title" noValidate data-testid="upload-form">
      <h2 id="upload-title">Import products</h2>
      <p>
        One row per product, matched by GTIN: a new GTIN creates the product, a known one updates it, and a new passport version is published only when the passport's data
        changed. Up to 10,000 rows; 5 MB for CSV and NDJSON, 4 MB for Excel.
      </p>
      {error ? <ErrorNotice error={error} title="Not imported" /> : null}
      <div class="field">
        <label for="import-file">File (CSV, Excel or NDJSON)</label>
        <input
          ref={input}
          id="import-file"
          name="file"
          type="file"
          accept={ACCEPT}
          aria-describedby="import-file-hint"
          onChange={(e) => setFile(e.currentTarget.files?.[0])}
        />
        <p class="hint" id="import-file-hint">
          Use the columns of the template below; the header row names them.
        </p>
      </div>
      <label class="checkbox">
        <input type="checkbox" name="dryRun" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
        <span>Validate only: check every row and report errors, write nothing</span>
      </label>
      <div class="actions actions-start">
        <button type="submit" class="button" disabled={busy}>
          {busy ? 'Uploading…' : dryRun ? 'Validate file' : 'Import file'}
        </button>
      </div>
    </form>
  );
}

/** One job: its progress, counts and row errors, polled every second while it is queued or running. */
function ImportProgress(props: { importId: string; onSettled: () => void }) {
  const [job, setJob] = useState<ImportJob>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await api<ImportJob>('GET', `/v1/imports/${encodeURIComponent(props.importId)}`);
        if (!live) return;
        setJob(next);
        setError(undefined);
        if (isActive(next.status)) timer = setTimeout(() => void poll(), POLL_MS);
        else props.onSettled();
      } catch (failure) {
        if (!live) return;
        setError(failure);
        // A lost connection, a 429 or a 5xx passes: keep asking. A 4xx answer (no such job, signed out) stays.
        const lasting = failure instanceof ApiError && failure.status < 500 && failure.status !== 429;
        if (!lasting) timer = setTimeout(() => void poll(), POLL_MS * 3);
      }
    };
    void poll();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [props.importId]);

  if (!job) return error ? <ErrorNotice error={error} title="Could not read the import" /> : <Loading label="Loading the import…" />;
  return (
    <>
      {error ? <ErrorNotice error={error} title="Could not refresh the import; trying again" /> : null}
      <JobView job={job} />
    </>
  );
}

/** A job's status, progress bar, counts and row errors. */
function JobView(props: { job: ImportJob }) {
  const { job } = props;
  const { counts } = job;
  const done = rowsDone(job);
  const finished = !isActive(job.status);
  const max = Math.max(counts.rows, 1);
  const value = counts.rows ? Math.min(done, counts.rows) : finished ? 1 : 0;
  const percent = Math.round((value / max) * 100);
  const { errors } = job;
  const valid = counts.rows - counts.failed;
  const summary = isActive(job.status)
    ? job.status === 'queued'
      ? 'Waiting to start.'
      : 'Importing…'
    : job.dryRun
      ? `Validation finished: ${plural(valid, 'row')} valid, ${plural(counts.failed, 'row')} with errors. Nothing was written.`
      : job.status === 'failed'
        ? `The import failed: no row was imported, ${plural(counts.failed, 'row')} with errors.`
        : `Import finished: ${plural(valid, 'row')} imported, ${plural(counts.failed, 'row')} with errors.`;

  return (
    <section class="card" aria-labelledby="job-title" data-testid="import-job" data-status={job.status}>
      <div class="card-header">
        <h2 id="job-title">
          {job.dryRun ? 'Validation' : 'Import'} <span class="mono">{job.id}</span>
        </h2>
        <StatusBadge status={job.status} />
      </div>
      <p role="status" data-testid="import-summary">
        {summary}
      </p>
      <div class="field">
        <label for="import-progress">
          Rows processed: {done.toLocaleString()} of {counts.rows.toLocaleString()} ({percent} %)
        </label>
        <progress id="import-progress" class="progress" max={max} value={value} data-testid="import-progress">
          {percent} %
        </progress>
      </div>
      <dl class="counts" data-testid="import-counts">
        {COUNT_LABELS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{counts[key].toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {errors.length > 0 ? (
        <div class="table-wrap">
          <table class="table table-compact" data-testid="import-errors">
            <caption>
              Row errors{job.errorsTruncated ? ` (the first ${errors.length.toLocaleString()})` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  Row
                </th>
                <th scope="col">Column</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e, i) => (
                <tr key={`${e.row}-${e.column}-${i}`}>
                  <td class="num">{e.row}</td>
                  <td class="mono">{e.column}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function RecentImports(props: { current?: string | undefined; round: number }) {
  const jobs = useLoad(() => api<{ data: ImportJob[] }>('GET', '/v1/imports'), [props.round]);
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title">Recent imports</h2>
      {jobs.error ? <ErrorNotice error={jobs.error} /> : null}
      {jobs.loading && !jobs.data ? <Loading /> : null}
      {jobs.data ? (
        jobs.data.data.length === 0 ? (
          <div class="empty card">
            <p>No imports yet.</p>
          </div>
        ) : (
          <div class="table-wrap card">
            <table class="table" data-testid="imports-table">
              <caption class="visually-hidden">Recent imports, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Import</th>
                  <th scope="col">Started</th>
                  <th scope="col">Status</th>
                  {COUNT_LABELS.map(([key, label]) => (
                    <th key={key} scope="col" class="num">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {jobs.data.data.map((job) => (
                  <tr key={job.id}>
                    <th scope="row">
                      <a class="mono" href={href('imports', job.id)} aria-current={job.id === props.current ? 'true' : undefined}>
                        {job.id}
                      </a>
                      {job.dryRun ? <span class="muted"> (validation)</span> : null}
                    </th>
                    <td class="nowrap">{formatDateTime(job.createdAt)}</td>
                    <td>
                      <StatusBadge status={job.status} />
                    </td>
                    {COUNT_LABELS.map(([key]) => (
                      <td key={key} class="num">
                        {job.counts[key].toLocaleString()}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </section>
  );
}

/** Every page of the export (at most 1,000 rows a page, `Link` rel="next"), as the files to save (exportFiles). */
async function fetchExport(format: 'csv' | 'ndjson', onPage: (pages: number) => void): Promise<Blob[]> {
  const pages: string[] = [];
  let next: string | undefined = `/v1/exports/products?format=${format}`;
  while (next) {
    const response = await fetch(next, { credentials: 'same-origin', headers: { accept: format === 'csv' ? 'text/csv' : 'application/x-ndjson' } });
    if (!response.ok) {
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      throw new ApiError(response.status, (body as { error?: ApiErrorBody } | undefined)?.error);
    }
    pages.push(await response.text());
    onPage(pages.length);
    next = nextLink(response.headers.get('link'), window.location.href);
  }
  const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
  return exportFiles(pages, format).map((parts) => new Blob(parts, { type }));
}

function saveAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Downloads(props: { environment: Environment }) {
  const [busy, setBusy] = useState<'csv' | 'ndjson'>();
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<unknown>();
  const download = async (format: 'csv' | 'ndjson') => {
    setBusy(format);
    setError(undefined);
    setStatus('Preparing the export…');
    try {
      const files = await fetchExport(format, (pages) => setStatus(`Preparing the export… ${plural(pages, 'page')} read.`));
      const name = `products-${props.environment}-${new Date().toISOString().slice(0, 10)}`;
      files.forEach((file, i) => saveAs(file, files.length === 1 ? `${name}.${format}` : `${name}-part${i + 1}.${format}`));
      setStatus(
        files.length === 1
          ? 'The export was downloaded.'
          : `The export was downloaded as ${files.length} files, one per page of 1,000 products: their columns differ (some products have more producers), so each imports on its own.`,
      );
    } catch (failure) {
      setStatus(undefined);
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section class="card" aria-labelledby="downloads-title">
      <h2 id="downloads-title">Template and export</h2>
      <p>
        The template has every column, in order, with a row of example values. The export has your products with their current passports in the same columns: edit it and
        import it again.
      </p>
      <div class="actions actions-start">
        <a class="button button-secondary" href="/v1/imports/template.csv" download>
          Template (CSV)
        </a>
        <a class="button button-secondary" href="/v1/imports/template.xlsx" download>
          Template (Excel)
        </a>
        <button type="button" class="button" disabled={busy !== undefined} onClick={() => void download('csv')}>
          Export products (CSV)
        </button>
        <button type="button" class="button" disabled={busy !== undefined} onClick={() => void download('ndjson')}>
          Export products (NDJSON)
        </button>
      </div>
      <p role="status" class="hint" data-testid="export-status">
        {status ?? ''}
      </p>
      {error ? <ErrorNotice error={error} title="Export failed" /> : null}
    </section>
  );
}

export function ImportsPage(props: { environment: Environment; importId?: string | undefined }) {
  const [round, setRound] = useState(0);
  const [report, setReport] = useState<ImportJob>();
  return (
    <>
      <PageHeader
        title="Import & export"
        lead="Create and update products and their passports from a spreadsheet, and download them all in the same columns."
      />
      {props.environment === 'test' ? <Notice kind="info">You are importing into the test environment.</Notice> : null}
      <UploadForm
        onStarted={(id) => {
          setReport(undefined);
          setRound((n) => n + 1);
          navigate(href('imports', id));
        }}
        onReport={(job) => {
          setReport(job);
          if (props.importId) navigate(href('imports'));
        }}
      />
      {report && !props.importId ? <JobView job={report} /> : null}
      {props.importId ? <ImportProgress key={props.importId} importId={props.importId} onSettled={() => setRound((n) => n + 1)} /> : null}
      <Downloads environment={props.environment} />
      <RecentImports current={props.importId} round={round} />
    </>
  );
}
