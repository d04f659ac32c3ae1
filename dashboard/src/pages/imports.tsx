import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type ApiErrorBody, type Environment, type ImportJob, type ImportStatus } from '../api.ts';
import { ITEM_IMPORT_MODES, type ItemImportMode } from '../../../lib/domain/item-import-modes.ts';
import { ErrorNotice, ListTable, Loading, Notice, PageHeader, useLoad, type ListColumn } from '../components.tsx';
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

/** The counts of a validation, which wrote nothing: what importing the file would do. */
const DRY_RUN_LABELS: Readonly<Record<keyof ImportJob['counts'], string>> = {
  rows: 'Rows',
  created: 'Would create',
  updated: 'Would update',
  unchanged: 'Unchanged',
  failed: 'Failed',
};

/**
 * A job's outcome in words: a finished import whose rows partly failed "completed with errors"
 * (the API's `succeeded` with counts.failed above 0), not a green "succeeded".
 */
type Outcome = ImportStatus | 'completed-with-errors';
const outcomeOf = (job: Pick<ImportJob, 'status' | 'counts'>): Outcome => (job.status === 'succeeded' && job.counts.failed > 0 ? 'completed-with-errors' : job.status);
const OUTCOME_LABEL: Readonly<Record<Outcome, string>> = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  'completed-with-errors': 'completed with errors',
  failed: 'failed',
};
const OUTCOME_BADGE: Readonly<Record<Outcome, string>> = {
  queued: 'badge',
  running: 'badge badge-accent',
  succeeded: 'badge badge-success',
  'completed-with-errors': 'badge badge-test',
  failed: 'badge badge-danger',
};

function StatusBadge(props: { job: Pick<ImportJob, 'status' | 'counts' | 'dryRun'> }) {
  const outcome = outcomeOf(props.job);
  const label = props.job.dryRun && !isActive(props.job.status) ? (props.job.counts.failed > 0 ? 'validated with errors' : 'valid') : OUTCOME_LABEL[outcome];
  return (
    <span class={OUTCOME_BADGE[outcome]} data-testid="import-status">
      {label}
    </span>
  );
}

/** How a job is named for people: its file's name, else when it started. */
const jobName = (job: Pick<ImportJob, 'fileName' | 'createdAt'>): string => job.fileName ?? `Upload of ${formatDateTime(job.createdAt)}`;

/** POST /v1/imports answers a queued job (202), or a dry run's finished report (it stores nothing, so it cannot be polled). */
type UploadAnswer = { id: string; status: 'queued' } | ImportJob;
const isReport = (answer: UploadAnswer): answer is ImportJob => 'counts' in answer && !isActive(answer.status);

/** What an upload imports when it is not products: a product's items (`?type=items&productId=…`), with its own title and words. */
export interface UploadTarget {
  title: string;
  intro: string;
  fileLabel: string;
  fileHint: string;
  query: Readonly<Record<string, string>>;
  /** The file updates known records: offer merge (the default) or replace (`?mode=`, docs/imports.md#merge-or-replace). */
  modes?: boolean;
}

/** How a known serial is updated, in people's words. */
const MODE_WORDS: Readonly<Record<ItemImportMode, { label: string; hint: string }>> = {
  merge: { label: 'Update', hint: 'Only the columns in the file change; everything else the item holds stays (an empty cell keeps its value, null removes it).' },
  replace: { label: 'Replace', hint: 'Each row becomes the whole item: what the row leaves out (identifiers, dates, other values) is removed.' },
};

/** The upload (with "Validate only"), shared by this page and a product's items (docs/dashboard.md#batches-and-items). */
export function UploadForm(props: { onStarted: (id: string) => void; onReport: (job: ImportJob) => void; target?: UploadTarget }) {
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setFile] = useState<File>();
  const [dryRun, setDryRun] = useState(false);
  const [mode, setMode] = useState<ItemImportMode>('merge');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    // The form's own values: a submit right after a choice may run before the state of that choice is rendered.
    const form = event.currentTarget instanceof HTMLFormElement ? event.currentTarget : undefined;
    const file = input.current?.files?.[0] ?? chosen;
    const validateOnly = (form?.elements.namedItem('dryRun') as HTMLInputElement | null)?.checked ?? dryRun;
    const checkedMode = (form?.querySelector('input[name="mode"]:checked') as HTMLInputElement | null)?.value as ItemImportMode | undefined;
    const howApplied = checkedMode ?? mode;
    const contentType = file ? contentTypeOf(file.name) : undefined;
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
      const answer = await api<UploadAnswer>('POST', '/v1/imports', {
        upload: { body: file, contentType },
        query: { ...props.target?.query, mode: props.target?.modes ? howApplied : undefined, dryRun: validateOnly ? 'true' : undefined, fileName: file.name.slice(0, 200) || undefined },
      });
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
      <h2 id="upload-title">{props.target?.title ?? 'Import products'}</h2>
      <p>
        {props.target?.intro ??
          "One row per product, matched by GTIN: a new GTIN creates the product, a known one updates it, and a new passport version is published only when the passport's data changed. Up to 10,000 rows; 5 MB for CSV and NDJSON, 4 MB for Excel."}
      </p>
      {error ? <ErrorNotice error={error} title="Not imported" /> : null}
      <div class="field">
        <label for="import-file">{props.target?.fileLabel ?? 'File (CSV, Excel or NDJSON)'}</label>
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
          {props.target?.fileHint ?? 'Use the columns of the template below; the header row names them.'}
        </p>
      </div>
      {props.target?.modes ? (
        <fieldset class="field" data-testid="import-mode">
          <legend>A serial already registered</legend>
          <p class="hint">A known serial is updated: only the columns in the file change; choose Replace to replace everything.</p>
          {ITEM_IMPORT_MODES.map((value) => (
            <label key={value} class="checkbox">
              <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
              <span>
                <strong>{MODE_WORDS[value].label}</strong>: {MODE_WORDS[value].hint}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
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
export function ImportProgress(props: { importId: string; onSettled: () => void }) {
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
export function JobView(props: { job: ImportJob }) {
  const { job } = props;
  const { counts } = job;
  const done = rowsDone(job);
  const finished = !isActive(job.status);
  const max = Math.max(counts.rows, 1);
  const value = counts.rows ? Math.min(done, counts.rows) : finished ? 1 : 0;
  const percent = Math.round((value / max) * 100);
  const { errors } = job;
  const valid = counts.rows - counts.failed;
  const labels = job.dryRun ? DRY_RUN_LABELS : Object.fromEntries(COUNT_LABELS);
  const summary = isActive(job.status)
    ? job.status === 'queued'
      ? 'Waiting to start.'
      : 'Importing…'
    : job.dryRun
      ? `Validation finished: ${plural(valid, 'row')} valid (would create ${counts.created.toLocaleString()}, would update ${counts.updated.toLocaleString()}, ${counts.unchanged.toLocaleString()} unchanged), ${plural(counts.failed, 'row')} with errors. Nothing was written.`
      : job.status === 'failed'
        ? `The import failed: no row was imported, ${plural(counts.failed, 'row')} with errors.`
        : counts.failed > 0
          ? `Import completed with errors: ${plural(valid, 'row')} imported, ${plural(counts.failed, 'row')} with errors (not imported: see below).`
          : `Import finished: ${plural(valid, 'row')} imported.`;

  return (
    <section
      class="card"
      aria-labelledby="job-title"
      data-testid="import-job"
      data-status={job.status}
      data-outcome={job.dryRun && finished ? (counts.failed > 0 ? 'validated-with-errors' : 'validated') : outcomeOf(job)}
    >
      <div class="card-header">
        <h2 id="job-title">
          {job.dryRun ? 'Validation of ' : 'Import of '}
          <span class="file-name">{jobName(job)}</span>
        </h2>
        <StatusBadge job={job} />
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
        {COUNT_LABELS.map(([key]) => (
          <div key={key}>
            <dt>{labels[key]}</dt>
            <dd>{counts[key].toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {job.rowChanges && job.rowChanges.length > 0 ? (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="What each row would change">
          <table class="table table-compact" data-testid="import-row-changes">
            <caption>
              What each row would change{job.rowChangesTruncated ? ` (the first ${job.rowChanges.length.toLocaleString()})` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  Row
                </th>
                <th scope="col">Serial</th>
                <th scope="col">Would</th>
                <th scope="col">Fields</th>
              </tr>
            </thead>
            <tbody>
              {job.rowChanges.map((change) => (
                <tr key={change.row}>
                  <td class="num">{change.row}</td>
                  <td class="mono">{change.serial}</td>
                  <td>{change.outcome === 'create' ? 'create' : 'update'}</td>
                  <td class="mono">{change.changes.length ? change.changes.join(', ') : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
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
                <th scope="col">Product</th>
                <th scope="col">Column</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e, i) => (
                <tr key={`${e.row}-${e.column}-${i}`}>
                  <td class="num">{e.row}</td>
                  <td>
                    {e.name ?? (e.gtin ? '' : '—')}
                    {e.gtin ? <div class="mono hint">GTIN {e.gtin}</div> : null}
                  </td>
                  <td>
                    {e.label || (e.column ? e.column : 'the whole row')}
                    {e.column && e.label !== e.column ? <div class="mono hint">{e.column}</div> : null}
                  </td>
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

type ImportSummary = Omit<ImportJob, 'errors'>;

function RecentImports(props: { current?: string | undefined; round: number }) {
  const jobs = useLoad(() => api<{ data: ImportSummary[] }>('GET', '/v1/imports'), [props.round]);
  const columns: ListColumn<ImportSummary>[] = [
    {
      header: 'File',
      rowHeader: true,
      cell: (job) => (
        <>
          <a href={href('imports', job.id)} aria-current={job.id === props.current ? 'true' : undefined} title={job.id}>
            {jobName(job)}
          </a>
          {job.dryRun ? <span class="muted"> (validation)</span> : null}
        </>
      ),
    },
    { header: 'Started', class: 'nowrap', cell: (job) => formatDateTime(job.createdAt) },
    { header: 'Status', cell: (job) => <StatusBadge job={job} /> },
    ...COUNT_LABELS.map(([key, label]): ListColumn<ImportSummary> => ({ header: label, class: 'num', cell: (job) => job.counts[key].toLocaleString() })),
  ];
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title">Recent imports</h2>
      <ListTable
        items={jobs.data?.data}
        loading={jobs.loading}
        error={jobs.error}
        columns={columns}
        rowKey={(job) => job.id}
        caption="Recent imports, newest first"
        empty="No imports yet."
        testId="imports-table"
      />
    </section>
  );
}

/** Every page of an export (at most 1,000 rows a page, `Link` rel="next"; the products', or `first`'s), as the files to save (exportFiles). */
export async function fetchExport(format: 'csv' | 'ndjson', onPage: (pages: number) => void, first = `/v1/exports/products?format=${format}`): Promise<Blob[]> {
  const pages: string[] = [];
  let next: string | undefined = first;
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

export function saveAs(blob: Blob, fileName: string): void {
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
