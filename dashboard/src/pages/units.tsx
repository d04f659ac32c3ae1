import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { UnitKind } from '../../../lib/domain/unit.ts';
import { passportKindOf } from '../../../lib/domain/passport-kinds.ts';
import { api, ApiError, type Batch, type ImportJob, type Item, type Product } from '../api.ts';
import { ConfirmButton, CopyButton, ErrorNotice, ListTable, Loading, Notice, useLoad, type ListColumn } from '../components.tsx';
import { formatDateTime, plural, printedGtin } from '../format.ts';
import { href } from '../router.ts';
import { batteryDataEntries, batteryStatusOf, dataEntries, stateOfHealthOf, UNIT_STATUSES, UNIT_WORDS, unitPath } from '../units.ts';
import { batterySchemas } from './battery-passport.tsx';
import { fetchExport, ImportProgress, JobView, saveAs, UploadForm } from './imports.tsx';

/**
 * A product's batches and items (docs/dashboard.md#batches-and-items): the list with a search by
 * serial or lot and a status filter (`GET …/items?prefix=&status=&lot=`, "Load more" by
 * `starting_after`), an items file's import with the imports page's upload flow, the items export;
 * and one record: its data, status (withdraw, reinstate), version, Digital Link and QR code.
 */

type Unit = Batch | Item;
const PAGE_SIZE = 25;
const MERGE_PATCH = 'application/merge-patch+json';

const valueOf = (unit: Unit): string => (unit.object === 'item' ? unit.serial : unit.lot);

function StatusBadge(props: { status: string }) {
  return (
    <span class={`badge ${props.status === 'withdrawn' ? 'badge-danger' : 'badge-success'}`} data-unit-status={props.status}>
      {props.status}
    </span>
  );
}

/** The list's columns: a battery's items add its life status and state of health (docs/battery.md#model-and-item). */
function columnsOf(product: Product, kind: UnitKind): ListColumn<Unit>[] {
  const words = UNIT_WORDS[kind];
  const battery = kind === 'item' && passportKindOf(product.category) === 'battery';
  return [
    {
      header: words.valueLabel,
      rowHeader: true,
      class: 'mono',
      cell: (unit) => <a href={href('products', product.productId, words.collection, valueOf(unit))}>{valueOf(unit)}</a>,
    },
    ...(kind === 'item' ? [{ header: 'Lot', class: 'mono', cell: (unit: Unit) => unit.lot ?? '—' }] : []),
    { header: 'Status', cell: (unit) => <StatusBadge status={unit.status} /> },
    ...(battery
      ? [
          { header: 'Battery status', cell: (unit: Unit) => batteryStatusOf(unit.data) ?? '—' },
          {
            header: 'State of health',
            class: 'num',
            cell: (unit: Unit) => {
              const health = stateOfHealthOf(unit.data);
              return health ? <span title={health.lastUpdate ? `Updated ${formatDateTime(health.lastUpdate)}` : undefined}>{health.percent.toLocaleString()} %</span> : '—';
            },
          },
        ]
      : []),
    { header: 'Version', class: 'num', cell: (unit) => `v${unit.version}` },
    { header: 'Updated', class: 'nowrap hide-sm', cell: (unit) => formatDateTime(unit.updatedAt) },
  ];
}

interface Filter {
  /** What the search box searches: the serial's (or lot's) start, or (items) the lot they name. */
  field: 'prefix' | 'lot';
  text: string;
  status: string;
}

function ItemsImport(props: { product: Product; onImported: () => void }) {
  const [report, setReport] = useState<ImportJob>();
  const [importId, setImportId] = useState<string>();
  const [exporting, setExporting] = useState(false);
  const [exported, setExported] = useState<string>();
  const [exportError, setExportError] = useState<unknown>();
  const { product } = props;
  const download = async (format: 'csv' | 'ndjson') => {
    setExporting(true);
    setExportError(undefined);
    setExported('Preparing the export…');
    try {
      const first = `/v1/exports/items?${new URLSearchParams({ productId: product.productId, format })}`;
      const files = await fetchExport(format, (pages) => setExported(`Preparing the export… ${plural(pages, 'page')} read.`), first);
      const name = `items-${printedGtin(product.gtin)}`;
      files.forEach((file, i) => saveAs(file, files.length === 1 ? `${name}.${format}` : `${name}-part${i + 1}.${format}`));
      setExported(files.length === 1 ? 'The export was downloaded.' : `The export was downloaded as ${files.length} files, one per page of 1,000 items.`);
    } catch (failure) {
      setExported(undefined);
      setExportError(failure);
    } finally {
      setExporting(false);
    }
  };
  return (
    <section aria-label="Import and export items">
      <UploadForm
        target={{
          title: 'Import items from a file',
          intro: `One row per item of ${product.name}: its serial, optionally its lot and status, and data.* columns with its data. A new serial is registered; an unchanged one is left alone. CSV or NDJSON, up to 100,000 rows in 5 MB.`,
          fileLabel: 'Items file (CSV or NDJSON)',
          fileHint: 'A header row names the columns: serial, lot, status, data.… (the export below writes them).',
          query: { type: 'items', productId: product.productId },
          modes: true,
        }}
        onStarted={(id) => {
          setReport(undefined);
          setImportId(id);
        }}
        onReport={(job) => {
          setImportId(undefined);
          setReport(job);
        }}
      />
      {report ? <JobView job={report} /> : null}
      {importId ? <ImportProgress key={importId} importId={importId} onSettled={props.onImported} /> : null}
      <section class="card" aria-labelledby="items-export-title">
        <h2 id="items-export-title">Export items</h2>
        <p>Every item with its Digital Link, in the columns of an items file, for a label printer.</p>
        <div class="actions actions-start">
          <button type="button" class="button button-secondary" disabled={exporting} onClick={() => void download('csv')}>
            Export items (CSV)
          </button>
          <button type="button" class="button button-secondary" disabled={exporting} onClick={() => void download('ndjson')}>
            Export items (NDJSON)
          </button>
        </div>
        <p role="status" class="hint" data-testid="items-export-status">
          {exported ?? ''}
        </p>
        {exportError ? <ErrorNotice error={exportError} title="Export failed" /> : null}
      </section>
    </section>
  );
}

/** A product's items or batches, searched and filtered, with "Load more". */
export function UnitsTab(props: { product: Product; kind: UnitKind }) {
  const { product, kind } = props;
  const words = UNIT_WORDS[kind];
  const [typed, setTyped] = useState<Filter>({ field: 'prefix', text: '', status: '' });
  const [filter, setFilter] = useState<Filter>(typed);
  const [units, setUnits] = useState<Unit[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  const text = filter.text.trim();

  const load = async (startingAfter: string | undefined, append: boolean) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await api<{ data: Unit[]; hasMore: boolean }>('GET', unitPath(product.productId, kind), {
        query: { limit: PAGE_SIZE, starting_after: startingAfter, status: filter.status || undefined, [filter.field]: text || undefined },
      });
      setUnits((current) => (append ? [...current, ...page.data] : page.data));
      setHasMore(page.hasMore);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(undefined, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filter, round]);

  const filtered = text !== '' || filter.status !== '';
  const searchLabel = kind === 'item' && typed.field === 'lot' ? 'Items of the lot' : `${words.valueLabel} starts with`;
  const described = [
    text ? (filter.field === 'lot' ? `of lot “${text}”` : `whose ${words.param} starts with “${text}”`) : '',
    filter.status ? `with status ${filter.status}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <form
        class="toolbar unit-toolbar"
        role="search"
        aria-label={`Search ${words.nouns}`}
        onSubmit={(event) => {
          event.preventDefault();
          setFilter({ ...typed });
        }}
      >
        {kind === 'item' ? (
          <>
            <label for="unit-search-field" class="visually-hidden">
              Search by
            </label>
            <select id="unit-search-field" value={typed.field} onChange={(e) => setTyped({ ...typed, field: e.currentTarget.value === 'lot' ? 'lot' : 'prefix' })}>
              <option value="prefix">Serial starts with</option>
              <option value="lot">Lot is</option>
            </select>
          </>
        ) : null}
        <label for="unit-search" class="visually-hidden">
          {searchLabel}
        </label>
        <input
          id="unit-search"
          type="search"
          maxLength={20}
          placeholder={kind === 'item' ? (typed.field === 'lot' ? 'Lot' : 'Serial') : 'Lot'}
          value={typed.text}
          onInput={(e) => setTyped({ ...typed, text: e.currentTarget.value })}
        />
        <label for="unit-status">Status</label>
        <select
          id="unit-status"
          value={typed.status}
          onChange={(e) => {
            const next = { ...typed, status: e.currentTarget.value };
            setTyped(next);
            setFilter(next);
          }}
        >
          <option value="">Any</option>
          {UNIT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
        <button type="submit" class="button button-secondary">
          Search
        </button>
        {filtered ? (
          <button
            type="button"
            class="button button-ghost"
            onClick={() => {
              const cleared: Filter = { field: typed.field, text: '', status: '' };
              setTyped(cleared);
              setFilter(cleared);
            }}
          >
            Clear
          </button>
        ) : null}
      </form>
      <ListTable
        items={(loading || error) && units.length === 0 ? undefined : units}
        loading={loading}
        error={error}
        columns={columnsOf(product, kind)}
        rowKey={valueOf}
        rowAttributes={(unit) => ({ 'data-value': valueOf(unit) })}
        caption={`${words.nouns.charAt(0).toUpperCase()}${words.nouns.slice(1)} of ${product.name}${described ? ` ${described}` : ''}, in ${words.param} order`}
        empty={
          filtered
            ? `No ${words.noun} ${described}.`
            : kind === 'item'
              ? 'No items yet. Import a file of serials below, or register them with PUT /v1/products/{productId}/items/{serial}.'
              : 'No batches yet. Register them with PUT /v1/products/{productId}/batches/{lot}.'
        }
        testId="units-table"
      />
      {hasMore ? (
        <nav class="pagination" aria-label={`More ${words.nouns}`}>
          <div class="actions">
            <button type="button" class="button button-secondary" disabled={loading} onClick={() => void load(units.at(-1) && valueOf(units.at(-1) as Unit), true)}>
              Load more
            </button>
          </div>
        </nav>
      ) : null}
      {kind === 'item' ? <ItemsImport product={product} onImported={() => setRound((n) => n + 1)} /> : null}
    </>
  );
}

function UnitQr(props: { product: Product; kind: UnitKind; unit: Unit }) {
  const { unit } = props;
  const value = valueOf(unit);
  const svg = useLoad(() => api<string>('GET', `${unitPath(props.product.productId, props.kind, value)}/qr`, { text: true, query: { size: 512 } }), [value]);
  const dataUrl = svg.data ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.data)}` : undefined;
  return (
    <section class="card qr-card" aria-labelledby="unit-qr-title">
      <h2 id="unit-qr-title">QR code</h2>
      {svg.error ? <ErrorNotice error={svg.error} /> : null}
      {dataUrl ? (
        <img class="qr" src={dataUrl} width={200} height={200} alt={`QR code linking to ${unit.digitalLink}`} data-testid="unit-qr" />
      ) : (
        <div class="qr qr-placeholder" role="status">
          Drawing the QR code…
        </div>
      )}
      <div class="actions actions-start">
        {dataUrl ? (
          <a class="button" href={dataUrl} download={`${printedGtin(props.product.gtin)}-${UNIT_WORDS[props.kind].param}-${value.replace(/[^0-9A-Za-z_-]/g, '_')}.svg`}>
            Download SVG
          </a>
        ) : null}
      </div>
      <p class="hint">It encodes the {UNIT_WORDS[props.kind].noun}'s Digital Link:</p>
      <div class="secret-row">
        <code class="url" data-testid="unit-digital-link">
          {unit.digitalLink}
        </code>
        <CopyButton value={unit.digitalLink} label="Copy link" />
      </div>
    </section>
  );
}

/** One batch or item: its details and data, its status with Withdraw or Reinstate, its QR code. */
export function UnitDetail(props: { product: Product; kind: UnitKind; value: string }) {
  const { product, kind, value } = props;
  const words = UNIT_WORDS[kind];
  const loaded = useLoad(() => api<Unit>('GET', unitPath(product.productId, kind, value)), [value]);
  const isBattery = passportKindOf(product.category) === 'battery';
  // A battery's data in the words of its passport form, with units: derived from the API's schema (docs/dashboard.md#the-battery-passport-form).
  const schemas = useLoad(async () => (isBattery ? batterySchemas() : undefined), [isBattery]);
  const [changed, setChanged] = useState<Unit>();
  const [notice, setNotice] = useState<string>();
  const unit = changed ?? loaded.data;
  const back = (
    <p class="breadcrumb">
      <a href={href('products', product.productId, words.collection)}>All {words.nouns}</a> <span aria-hidden="true">/</span>
    </p>
  );
  if (loaded.error) {
    const missing = loaded.error instanceof ApiError && loaded.error.status === 404;
    return (
      <>
        {back}
        {missing ? <Notice kind="info">{`${product.name} has no ${words.noun} “${value}”.`}</Notice> : <ErrorNotice error={loaded.error} />}
      </>
    );
  }
  if (!unit || (isBattery && schemas.loading)) return <Loading />;
  const withdrawn = unit.status === 'withdrawn';
  const setStatus = async (status: string) => {
    const updated = await api<Unit>('PATCH', unitPath(product.productId, kind, value), { body: { status }, contentType: MERGE_PATCH });
    setChanged(updated);
    setNotice(status === 'withdrawn' ? `Withdrawn: its Digital Link answers 410 Gone. Version ${updated.version}.` : `Reinstated: its Digital Link resolves again. Version ${updated.version}.`);
  };
  const entries = !isBattery
    ? dataEntries(unit.data)
    : schemas.data
      ? batteryDataEntries(unit.data, schemas.data)
      : dataEntries(unit.data).map((entry) => ({ ...entry, label: entry.path }));
  const battery = isBattery ? stateOfHealthOf(unit.data) : undefined;
  return (
    <>
      {back}
      <h2 class="unit-title">
        {words.valueLabel} <span class="mono">{value}</span>
      </h2>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <div class="grid-2">
        <section class="card" aria-labelledby="unit-details-title" data-testid="unit-details">
          <div class="card-header">
            <h2 id="unit-details-title">Details</h2>
            {withdrawn ? (
              <ConfirmButton label="Reinstate" title={`Reinstate ${words.noun} ${value}?`} confirmLabel="Reinstate" onConfirm={() => setStatus('active')}>
                <p>Its status becomes active and its Digital Link resolves again. This is recorded as a new version.</p>
              </ConfirmButton>
            ) : (
              <ConfirmButton label="Withdraw" danger title={`Withdraw ${words.noun} ${value}?`} confirmLabel="Withdraw" onConfirm={() => setStatus('withdrawn')}>
                <p>Its Digital Link will answer 410 Gone, as a withdrawn product's does; nothing is deleted and it can be reinstated. This is recorded as a new version.</p>
              </ConfirmButton>
            )}
          </div>
          <dl class="details">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={unit.status} />
            </dd>
            {unit.object === 'item' ? (
              <>
                <dt>Lot</dt>
                <dd class="mono">{unit.lot ? <a href={href('products', product.productId, 'batches', unit.lot)}>{unit.lot}</a> : '—'}</dd>
              </>
            ) : null}
            {battery ? (
              <>
                <dt>State of health</dt>
                <dd>
                  {battery.percent.toLocaleString()} % state of certified energy{battery.lastUpdate ? ` (${formatDateTime(battery.lastUpdate)})` : ''}
                </dd>
              </>
            ) : null}
            <dt>Version</dt>
            <dd data-testid="unit-version">v{unit.version}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(unit.updatedAt)}</dd>
            <dt>Registered</dt>
            <dd>{formatDateTime(unit.createdAt)}</dd>
            <dt>Digest</dt>
            <dd class="mono small">{unit.digest}</dd>
            <dt>Digital Link</dt>
            <dd class="mono small">
              <a href={unit.digitalLink} target="_blank" rel="noopener">
                {unit.digitalLink}
                <span class="visually-hidden"> (opens in a new tab)</span>
              </a>
            </dd>
          </dl>
          <h3>Data</h3>
          {schemas.error ? <ErrorNotice error={schemas.error} title="The API's schema of the battery data could not be read: the data is shown at its paths, without units" /> : null}
          {entries.length ? (
            <dl class={isBattery ? 'details details-data' : 'details'} data-testid="unit-data">
              {entries.map((entry) => (
                <Fragment key={entry.path}>
                  <dt title={entry.path}>{entry.label}</dt>
                  <dd>
                    {entry.value}
                    {entry.unit ? <span class="unit"> {entry.unit}</span> : null}
                  </dd>
                </Fragment>
              ))}
            </dl>
          ) : (
            <p class="muted">No data.</p>
          )}
        </section>
        <UnitQr product={product} kind={kind} unit={unit} />
      </div>
    </>
  );
}
