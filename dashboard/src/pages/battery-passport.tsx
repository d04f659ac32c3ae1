import { useRef, useState } from 'preact/hooks';
import { PASSPORT_MANDATORY_FROM } from '../../../lib/domain/battery/categories.ts';
import type { AccessTier } from '../../../lib/domain/battery/access-tiers.ts';
import { api, ApiError, type CompletenessElement, type CompletenessReport, type Draft, type Passport, type Product } from '../api.ts';
import { dataOf, formAspects, placeParams, valuesOf, type FormAspect, type FormField, type FormValues } from '../battery-form.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, ListTable, Loading, Notice, useLoad, type ListColumn } from '../components.tsx';
import { formatDateTime, plural } from '../format.ts';
import { PassportHistory } from './passport.tsx';

/**
 * A battery product's passport (docs/dashboard.md#the-battery-passport-form,
 * docs/battery.md#the-api): a form by aspect, one field per element of the element map, saved as
 * the product's draft (`PUT …/draft`) and published (`POST …/draft/publish?asOf=`); the API's 422
 * at the element it names (`param`, or each of `params` for missing mandatory elements); the
 * completeness report by element (`GET …/passport/completeness`); the history of versions.
 */

const TIER_WORDS: Readonly<Record<AccessTier, string>> = {
  public: 'public',
  legitimate_interest: 'legitimate interest',
  authority: 'authorities',
};

const CATEGORY_WORDS: Readonly<Record<string, string>> = {
  lmt: 'LMT battery (light means of transport)',
  ev: 'Electric vehicle battery',
  industrial: 'Industrial battery above 2 kWh',
  stationary: 'Stationary energy storage above 2 kWh',
};

const productPath = (product: Product, rest: string) => `/v1/products/${encodeURIComponent(product.productId)}/${rest}`;

/** The answer, or null for a 404 (no draft, no version yet). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** What the tab starts from: the product's draft and its current version, either possibly absent; `reset` counts the form's fresh starts. */
interface Start {
  draft: Draft | null;
  current: Passport | null;
  reset: number;
}

/** Errors placed by the form: by element path, by aspect, and what belongs at the top. */
interface Placed {
  fields: Record<string, Error>;
  aspects: Record<string, unknown>;
  top?: unknown;
}
const NONE: Placed = { fields: {}, aspects: {} };

const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/**
 * The API's refusal placed at its elements: an element the form left empty is named as missing
 * (a publication's `params`), any other in the API's words; what no field shows goes to its
 * aspect's section or the top.
 */
function placeRefusal(error: unknown, fields: readonly FormField[], values: FormValues, asOf: string): Placed {
  if (!(error instanceof ApiError) || error.status !== 422 || error.params.length === 0) return { ...NONE, top: error };
  const placed = placeParams(error.params, fields);
  const byPath = new Map(fields.map((field) => [field.path, field]));
  const out: Placed = { fields: {}, aspects: {} };
  let missing = false;
  for (const path of placed.fields) {
    const field = byPath.get(path);
    const empty = (values[path] ?? '').trim() === '';
    missing ||= empty;
    out.fields[path] = empty && field ? new Error(`${field.element.name} is missing: mandatory for this battery on ${asOf || 'the day judged'}.`) : new Error(error.message);
  }
  for (const aspect of placed.aspects) out.aspects[aspect] = error;
  // The API's own words too when it names several fields or missing ones: they say which day and category it judged.
  if (placed.top || placed.fields.length > 1 || missing) out.top = error;
  return out;
}

function FieldControl(props: { field: FormField; value: string; onChange: (value: string) => void; attributes: Record<string, string> }) {
  const { field, value, attributes } = props;
  const set = (event: Event) => props.onChange((event.currentTarget as HTMLInputElement).value);
  switch (field.kind) {
    case 'choice':
      return (
        <select {...attributes} value={value} onChange={set}>
          <option value="">Not stated</option>
          {value && !field.choices.includes(value) ? <option value={value}>{value}</option> : null}
          {field.choices.map((choice) => (
            <option key={choice} value={choice}>
              {CATEGORY_WORDS[choice] ? `${CATEGORY_WORDS[choice]} (${choice})` : choice}
            </option>
          ))}
        </select>
      );
    case 'json':
      return <textarea {...attributes} class="mono" rows={Math.min(14, Math.max(4, value.split('\n').length + 1))} spellcheck={false} value={value} onInput={set} placeholder={field.list ? '[ { … } ]' : '{ … }'} />;
    case 'number':
      return <input {...attributes} type="text" inputMode="decimal" autocomplete="off" value={value} onInput={set} />;
    case 'url':
      return <input {...attributes} type="url" inputMode="url" autocomplete="off" placeholder="https://" value={value} onInput={set} />;
    case 'datetime':
      return <input {...attributes} type="text" autocomplete="off" placeholder="2027-03-04T08:15:00Z" value={value} onInput={set} />;
    default:
      return <input {...attributes} type="text" autocomplete="off" value={value} onInput={set} />;
  }
}

/** An element's hint: where the regulation asks for it, who may read it, and what the report says of it. */
function hintOf(field: FormField, judged: CompletenessElement | undefined): string {
  const { element } = field;
  const kind = field.kind === 'json' ? (field.list ? 'A JSON list. ' : 'A JSON object. ') : field.kind === 'datetime' ? 'A date and time with its offset. ' : '';
  const status = judged ? (judged.mandatory ? (judged.status === 'missing' ? ' · mandatory, missing' : ' · mandatory') : '') : '';
  return `${kind}${element.reference} · read by: ${TIER_WORDS[element.tier]}${status}`;
}

function AspectSection(props: {
  aspect: FormAspect;
  values: FormValues;
  open: boolean;
  onToggle: (open: boolean) => void;
  onChange: (path: string, value: string) => void;
  placed: Placed;
  report: CompletenessReport | undefined;
}) {
  const { aspect, values, placed } = props;
  const judged = new Map((props.report?.elements ?? []).map((element) => [element.path, element]));
  const filled = aspect.fields.filter((field) => (values[field.path] ?? '').trim() !== '').length;
  const missing = aspect.fields.filter((field) => {
    const j = judged.get(field.param);
    return j?.mandatory && j.status === 'missing';
  }).length;
  const invalid = aspect.fields.some((field) => placed.fields[field.path]) || placed.aspects[aspect.aspect] !== undefined;
  return (
    <details
      class={`card aspect${invalid ? ' aspect-invalid' : ''}`}
      open={props.open}
      onToggle={(e) => props.onToggle((e.currentTarget as HTMLDetailsElement).open)}
      data-aspect={aspect.aspect}
    >
      <summary>
        <span class="aspect-title">{aspect.title}</span>{' '}
        <span class="muted">
          {filled} of {plural(aspect.fields.length, 'element')} filled
        </span>
        {missing ? <span class="badge badge-danger"> {missing} mandatory missing</span> : null}
        {invalid ? <span class="badge badge-danger"> check</span> : null}
      </summary>
      {placed.aspects[aspect.aspect] !== undefined ? <ErrorNotice error={placed.aspects[aspect.aspect]} title="The API refused this aspect" /> : null}
      <div class="form-grid">
        {aspect.fields.map((field) => (
          <Field
            key={field.path}
            class={field.kind === 'json' ? 'field-wide' : undefined}
            label={field.element.name}
            name={field.param}
            error={placed.fields[field.path]}
            errorField={placed.fields[field.path] ? field.param : undefined}
            hint={hintOf(field, judged.get(field.param))}
          >
            {(attributes) => <FieldControl field={field} value={values[field.path] ?? ''} onChange={(value) => props.onChange(field.path, value)} attributes={attributes as Record<string, string>} />}
          </Field>
        ))}
      </div>
    </details>
  );
}

function BatteryForm(props: {
  product: Product;
  start: Start;
  asOf: string;
  onAsOf: (day: string) => void;
  report: CompletenessReport | undefined;
  onSaved: () => void;
  onPublished: (version: number) => void;
  onDiscarded: () => void;
}) {
  const { product, start } = props;
  const form = useRef<HTMLFormElement>(null);
  const level = product.granularity === 'item' ? 'all' : 'model';
  const aspects = formAspects(level);
  const fields = aspects.flatMap((aspect) => aspect.fields);
  const base = start.draft?.data ?? start.current?.data ?? {};
  const [values, setValues] = useState<FormValues>(() => valuesOf(base, fields));
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set([aspects[0]?.aspect ?? '']));
  const [placed, setPlaced] = useState<Placed>(NONE);
  const [busy, setBusy] = useState<'save' | 'publish'>();
  const [saved, setSaved] = useState<string>();

  /** Shows what was placed: opens the aspects it names and moves the focus to the first field. */
  const show = (next: Placed) => {
    setPlaced(next);
    const named = [...Object.keys(next.fields).map((path) => path.split('.')[0] ?? ''), ...Object.keys(next.aspects)];
    if (named.length) setOpen((current) => new Set([...current, ...named]));
    const first = fields.find((field) => next.fields[field.path]);
    requestAnimationFrame(() => focusField(form.current, first?.param));
  };

  /** Saves the form as the draft: true when the API took it. */
  const save = async (): Promise<boolean> => {
    const { data, jsonErrors } = dataOf(values, fields, base);
    if (Object.keys(jsonErrors).length) {
      show({ fields: Object.fromEntries(Object.entries(jsonErrors).map(([path, message]) => [path, new Error(message)])), aspects: {} });
      return false;
    }
    try {
      await api<Draft>('PUT', productPath(product, 'draft'), { body: { data } });
      return true;
    } catch (failure) {
      show(placeRefusal(failure, fields, values, props.asOf));
      return false;
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const publishing = (event as SubmitEvent).submitter?.getAttribute('value') === 'publish';
    setBusy(publishing ? 'publish' : 'save');
    setPlaced(NONE);
    setSaved(undefined);
    try {
      if (!(await save())) return;
      if (!publishing) {
        setSaved(`Draft saved ${formatDateTime(new Date().toISOString())}. It is not public; publish it to make it the next version.`);
        props.onSaved();
        return;
      }
      try {
        const published = await api<{ version: number }>('POST', productPath(product, 'draft/publish'), { query: { asOf: props.asOf || undefined } });
        props.onPublished(published.version);
      } catch (failure) {
        props.onSaved();
        show(placeRefusal(failure, fields, values, props.asOf));
      }
    } finally {
      setBusy(undefined);
    }
  };

  const errorCount = Object.keys(placed.fields).length;
  return (
    <form ref={form} class="form battery-form" onSubmit={submit} aria-labelledby="battery-form-title" noValidate data-testid="battery-form">
      <div class="card">
        <div class="card-header">
          <h2 id="battery-form-title">Battery passport</h2>
          <span class="muted">{start.draft ? `Draft saved ${formatDateTime(start.draft.updatedAt)}` : start.current ? `From version ${start.current.version}` : 'New passport'}</span>
        </div>
        <p class="hint">
          One section per aspect of the Battery Pass data model; each field is an element of Annex XIII of Regulation (EU) 2023/1542 with who may read it.{' '}
          {level === 'model'
            ? 'What each battery holds itself (its identifiers, dates, status and condition) is set on its item, not here.'
            : 'This product is passported by item: its passport holds every element.'}{' '}
          Objects and lists are edited as JSON, in the data model's member names.
        </p>
        <Field
          label="Judge on (optional)"
          name="asOf"
          hint={`The day the batteries are placed on the market, YYYY-MM-DD; empty is today. The passport becomes mandatory on ${PASSPORT_MANDATORY_FROM}.`}
        >
          {(a) => <input {...a} type="text" inputMode="numeric" placeholder={PASSPORT_MANDATORY_FROM} value={props.asOf} onInput={(e) => props.onAsOf(e.currentTarget.value.trim())} />}
        </Field>
      </div>
      {placed.top !== undefined ? <ErrorNotice error={placed.top} title="The API refused this passport" /> : null}
      {placed.top === undefined && errorCount ? (
        <Notice kind="error" title="The API refused this passport">
          Check the highlighted field.
        </Notice>
      ) : null}
      {saved ? <Notice kind="success">{saved}</Notice> : null}
      {aspects.map((aspect) => (
        <AspectSection
          key={aspect.aspect}
          aspect={aspect}
          values={values}
          open={open.has(aspect.aspect)}
          onToggle={(isOpen) =>
            setOpen((current) => {
              if (current.has(aspect.aspect) === isOpen) return current;
              const next = new Set(current);
              if (isOpen) next.add(aspect.aspect);
              else next.delete(aspect.aspect);
              return next;
            })
          }
          onChange={(path, value) => setValues((current) => ({ ...current, [path]: value }))}
          placed={placed}
          report={props.report}
        />
      ))}
      <div class="actions actions-start">
        <button type="submit" class="button button-secondary" name="action" value="save" disabled={busy !== undefined}>
          {busy === 'save' ? 'Saving…' : 'Save draft'}
        </button>
        <button type="submit" class="button" name="action" value="publish" disabled={busy !== undefined}>
          {busy === 'publish' ? 'Publishing…' : 'Publish'}
        </button>
        {start.draft ? (
          <ConfirmButton
            label="Discard draft"
            title="Discard the draft?"
            confirmLabel="Discard"
            danger
            onConfirm={async () => {
              await api('DELETE', productPath(product, 'draft'));
              props.onDiscarded();
            }}
          >
            <p>The draft's changes are lost{start.current ? `; the form starts again from version ${start.current.version}` : ''}. Published versions do not change.</p>
          </ConfirmButton>
        ) : null}
      </div>
    </form>
  );
}

const COMPLETENESS_COLUMNS: readonly ListColumn<CompletenessElement>[] = [
  {
    header: 'Element',
    rowHeader: true,
    cell: (element) => (
      <>
        {element.name}
        <div class="mono hint path-hint">{element.path.replace(/^data\./, '')}</div>
      </>
    ),
  },
  { header: 'Annex XIII', class: 'nowrap', cell: (element) => element.annexXIII ?? '—' },
  { header: 'Read by', class: 'hide-sm', cell: (element) => TIER_WORDS[element.tier] },
  { header: 'Mandatory', cell: (element) => (element.mandatory ? 'mandatory' : 'not mandatory') },
  {
    header: 'Status',
    cell: (element) => (
      <span class={`badge ${element.status === 'present' ? 'badge-success' : element.mandatory ? 'badge-danger' : ''}`}>{element.status}</span>
    ),
  },
];

/** The completeness report by element: present or missing, mandatory or not, on the day judged. */
function CompletenessPanel(props: { report: CompletenessReport | null | undefined; loading: boolean; error: unknown }) {
  const { report } = props;
  const [onlyMissing, setOnlyMissing] = useState(false);
  const elements = report?.elements.filter((element) => !onlyMissing || element.status === 'missing');
  return (
    <section class="card" aria-labelledby="completeness-title" data-testid="completeness">
      <div class="card-header">
        <h2 id="completeness-title">Completeness</h2>
        {report ? <span class="muted">{report.source === 'draft' ? 'The draft' : `Version ${report.version ?? ''}`}, judged on {report.asOf}</span> : null}
      </div>
      {report === null ? <p class="muted">Nothing to judge yet: save a draft or publish a version.</p> : null}
      {report ? (
        <>
          <p role="status" data-testid="completeness-summary" data-complete={String(report.complete)}>
            {report.complete
              ? `Complete: nothing mandatory is missing for ${report.batteryCategory ? CATEGORY_WORDS[report.batteryCategory] ?? report.batteryCategory : 'every battery category'} on ${report.asOf}.`
              : `${plural(report.missingMandatory.length, 'mandatory element')} missing for ${report.batteryCategory ? CATEGORY_WORDS[report.batteryCategory] ?? report.batteryCategory : 'every battery category (the category is not stated)'} on ${report.asOf}: publishing is refused until ${report.missingMandatory.length === 1 ? 'it is' : 'they are'} given.`}
          </p>
          <label class="checkbox">
            <input type="checkbox" checked={onlyMissing} onChange={(e) => setOnlyMissing(e.currentTarget.checked)} />
            <span>Only missing elements</span>
          </label>
        </>
      ) : null}
      <ListTable
        items={report === null ? undefined : elements}
        loading={props.loading}
        error={props.error}
        columns={COMPLETENESS_COLUMNS}
        rowKey={(element) => element.path}
        rowAttributes={(element) => ({ 'data-path': element.path, 'data-status': element.status, 'data-mandatory': String(element.mandatory) })}
        caption="Elements of the battery passport: present or missing, mandatory or not"
        empty="Every element is present."
        testId="completeness-table"
        compact
      />
    </section>
  );
}

/** A battery product's Passport tab. */
export function BatteryPassportTab(props: { product: Product }) {
  const { product } = props;
  // A fresh start of the form (after a discarded draft) comes with the data read for it; saving or publishing keeps the form as typed.
  const [reset, setReset] = useState(0);
  const [historyRound, setHistoryRound] = useState(0);
  const [asOf, setAsOf] = useState('');
  const [published, setPublished] = useState<number>();
  const start = useLoad(
    async (): Promise<Start> => ({
      draft: await orNull(api<Draft>('GET', productPath(product, 'draft'))),
      current: await orNull(api<Passport>('GET', productPath(product, 'passport'))),
      reset,
    }),
    [product.productId, reset],
  );
  const judgedOn = isDay(asOf) ? asOf : undefined;
  const hasDraft = start.data?.draft != null;
  const report = useLoad(
    async () =>
      start.data && (start.data.draft || start.data.current)
        ? api<CompletenessReport>('GET', productPath(product, 'passport/completeness'), { query: { draft: hasDraft ? 'true' : undefined, asOf: judgedOn } })
        : null,
    [start.data, judgedOn],
  );
  if (start.error) return <ErrorNotice error={start.error} />;
  if (!start.data) return <Loading />;
  return (
    <>
      {published ? <Notice kind="success">Version {published} is published. Its public page shows the public elements.</Notice> : null}
      <BatteryForm
        key={`${start.data.reset}`}
        product={product}
        start={start.data}
        asOf={asOf}
        onAsOf={setAsOf}
        report={report.data ?? undefined}
        onSaved={() => start.reload()}
        onPublished={(version) => {
          setPublished(version);
          setHistoryRound((n) => n + 1);
          start.reload();
        }}
        onDiscarded={() => {
          setPublished(undefined);
          setReset((n) => n + 1);
        }}
      />
      <CompletenessPanel report={report.data} loading={report.loading} error={report.error} />
      <PassportHistory productId={product.productId} round={historyRound} />
    </>
  );
}
