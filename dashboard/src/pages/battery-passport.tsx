import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { PASSPORT_MANDATORY_FROM } from '../../../lib/domain/battery/categories.ts';
import type { AccessTier } from '../../../lib/domain/battery/access-tiers.ts';
import { api, ApiError, type CompletenessElement, type CompletenessReport, type Draft, type Passport, type Product } from '../api.ts';
import {
  aspectOf,
  dataOf,
  formAspects,
  isEmpty,
  newEntry,
  placeParams,
  shownParams,
  valuesOf,
  type Control,
  type FormAspect,
  type FormField,
  type FormValue,
  type FormValues,
  type SchemaSet,
  type TextRow,
} from '../battery-form.ts';
import { ConfirmButton, ErrorNotice, Field, focusField, inFieldWords, ListTable, Loading, messageOf, Notice, useLoad, type ListColumn } from '../components.tsx';
import { formatDateTime, plural } from '../format.ts';
import { languageName } from '../labelling.ts';
import { PassportHistory } from './passport.tsx';

/**
 * A battery product's passport (docs/dashboard.md#the-battery-passport-form,
 * docs/battery.md#the-api): a form by aspect, one field per element of the element map, each
 * element's controls derived from the API's schema of the passport data (battery-form.ts): contacts
 * as fieldsets, lists as rows with Add and Remove, numbers with their unit; saved as the product's
 * draft (`PUT …/draft`) and published (`POST …/draft/publish?asOf=`); the API's 422 beside the
 * control its `param` names (or each of `params` for missing mandatory elements); the completeness
 * report by element (`GET …/passport/completeness`); the history of versions.
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

let schemaSet: Promise<SchemaSet> | undefined;

/** Beside the app's own files (infra/local/dashboard.ts, the dashboard bucket). */
const BATTERY_SCHEMAS_URL = '/dashboard/battery-schemas.json';

/**
 * The battery schemas of the API's OpenAPI document (generated from the zod schemas the API
 * validates with), written beside the app at build time (`battery-schemas.json`, dashboard/build.ts)
 * and read once per page load: the battery form and a battery's item data are derived from them. A
 * failed read is tried again next time.
 */
export function batterySchemas(): Promise<SchemaSet> {
  schemaSet ??= fetch(BATTERY_SCHEMAS_URL).then(async (response) => {
    if (!response.ok) throw new Error(`The battery form's schemas could not be read (${response.status}).`);
    return (await response.json()) as SchemaSet;
  });
  schemaSet.catch(() => {
    schemaSet = undefined;
  });
  return schemaSet;
}

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

/** Errors placed by the form: by the `data.…` param of the control they are shown at, by aspect, and what belongs at the top. */
interface Placed {
  fields: Record<string, Error>;
  aspects: Record<string, unknown>;
  top?: unknown;
}
const NONE: Placed = { fields: {}, aspects: {} };
type Errors = Readonly<Record<string, Error>>;

/** Today (UTC), YYYY-MM-DD: the day an early publication is judged on. */
const today = (): string => new Date().toISOString().slice(0, 10);
/** A day as people write it, as the API's report words it: 18 Feb 2027. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayInWords = (day: string): string => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1] ?? ''} ${day.slice(0, 4)}`;
const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/**
 * The API's refusal placed at its controls: an element the form left empty is named as missing
 * (a publication's `params`), any other in the API's words beside the control the param names (a
 * member of a contact, an entry of a list); what no control shows goes to its aspect's section or
 * the top.
 */
function placeRefusal(error: unknown, fields: readonly FormField[], values: FormValues, asOf: string): Placed {
  if (!(error instanceof ApiError) || error.status !== 422 || error.params.length === 0) return { ...NONE, top: error };
  const placed = placeParams(error.params, fields, values);
  const byParam = new Map(fields.map((field) => [field.param, field]));
  const out: Placed = { fields: {}, aspects: {} };
  let missing = false;
  for (const param of placed.fields) {
    const field = byParam.get(param);
    const empty = field !== undefined && isEmpty(field, values[field.path]);
    missing ||= empty;
    out.fields[param] = empty && field ? new Error(`${field.element.name} is missing: mandatory for this battery on ${asOf || 'the day judged'}.`) : new Error(error.message);
  }
  for (const aspect of placed.aspects) out.aspects[aspect] = error;
  // The API's own words too when it names several controls or missing elements: they say which day and category it judged.
  if (placed.top || placed.fields.length > 1 || missing) out.top = error;
  return out;
}

/** A number's bounds in words, with its unit: "0 to 100 %". */
const rangeOf = (control: Extract<Control, { kind: 'number' }>): string =>
  control.minimum !== undefined && control.maximum !== undefined
    ? `${control.minimum.toLocaleString()} to ${control.maximum.toLocaleString()}${control.unit ? ` ${control.unit}` : ''}${control.integer ? ', whole numbers' : ''}.`
    : '';

/** A member's hint: what the schema says of it, a number's bounds. */
function memberHint(control: Control): string | undefined {
  const what = control.description ? `${control.description.replace(/\.$/, '')}.` : '';
  const hint = [what, control.kind === 'number' ? rangeOf(control) : ''].filter(Boolean).join(' ');
  return hint || undefined;
}

/** An element's hint: what it is, its bounds, where the regulation asks for it, who may read it, and what the report says of it. */
function elementHint(field: FormField, judged: CompletenessElement | undefined): string {
  const { element, control } = field;
  const status = judged ? (judged.mandatory ? (judged.status === 'missing' ? ' · mandatory, missing' : ' · mandatory') : '') : '';
  const what = memberHint(control);
  return `${what ? `${what} ` : ''}${element.reference} · read by: ${TIER_WORDS[element.tier]}${status}`;
}

interface ControlProps {
  control: Control;
  /** The API's name of the value (a 422's `param`): `data.labeling.labels[0].labelingSymbol`. */
  param: string;
  value: FormValue | undefined;
  onChange: (value: FormValue | undefined) => void;
  errors: Errors;
  /** Shown instead of the control's label: an entry's ("Agent 2"). */
  label?: string;
  /** An element's hint; a member's is its description. */
  hint?: string;
  /** What the control ends with: an entry's Remove button. */
  actions?: ComponentChildren;
}

/** An error placed at a fieldset (a contact, a list, an entry). */
function GroupError(props: { param: string; label: string; errors: Errors }) {
  const error = props.errors[props.param];
  return error ? (
    <p class="field-error" data-param={props.param}>
      {inFieldWords(messageOf(error), props.param, props.label)}
    </p>
  ) : null;
}

const isRecord = (value: unknown): value is Readonly<Record<string, FormValue | undefined>> => typeof value === 'object' && value !== null && !Array.isArray(value);
const rowsOf = (value: FormValue | undefined): readonly FormValue[] => (Array.isArray(value) ? (value as readonly FormValue[]) : []);

/** Text, a link, an e-mail address, a date and time, a number with its unit, or one of a list. */
function ScalarControl(props: ControlProps) {
  const { control, param, errors } = props;
  const label = props.label ?? control.label;
  const text = typeof props.value === 'string' ? props.value : '';
  const set = (event: Event) => props.onChange((event.currentTarget as HTMLInputElement).value);
  const error = errors[param];
  return (
    <Field
      label={label}
      name={param}
      error={error}
      errorField={error ? param : undefined}
      hint={props.hint ?? memberHint(control)}
      class={control.kind === 'textarea' ? 'field-wide' : control.kind === 'url' ? 'field-url' : undefined}
    >
      {(a) => {
        switch (control.kind) {
          case 'choice':
            return (
              <select {...a} data-kind="choice" value={text} onChange={set}>
                <option value="">Not stated</option>
                {text && !control.choices.includes(text) ? <option value={text}>{text}</option> : null}
                {control.choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {control.key === 'batteryCategory' && CATEGORY_WORDS[choice] ? `${CATEGORY_WORDS[choice]} (${choice})` : choice}
                  </option>
                ))}
              </select>
            );
          case 'number': {
            const unitId = `${a.id}-unit`;
            return (
              <span class="input-unit">
                <input
                  {...a}
                  aria-describedby={[a['aria-describedby'], unitId].filter(Boolean).join(' ')}
                  data-kind="number"
                  type="text"
                  inputMode={control.integer ? 'numeric' : 'decimal'}
                  autocomplete="off"
                  value={text}
                  onInput={set}
                />
                <span class={`unit${control.unit ? '' : ' unit-none'}`} id={unitId} data-unit>
                  {control.unit ?? 'no unit'}
                </span>
              </span>
            );
          }
          case 'url':
            return <input {...a} data-kind="url" type="url" inputMode="url" autocomplete="off" placeholder="https://" value={text} onInput={set} />;
          case 'email':
            return <input {...a} data-kind="email" type="email" autocomplete="off" value={text} onInput={set} />;
          case 'datetime':
            return <input {...a} data-kind="datetime" type="text" autocomplete="off" placeholder="2027-03-04T08:15:00Z" value={text} onInput={set} />;
          case 'textarea':
            return <textarea {...a} data-kind="textarea" rows={3} value={text} onInput={set} />;
          default:
            return <input {...a} data-kind="text" type="text" autocomplete="off" value={text} onInput={set} />;
        }
      }}
    </Field>
  );
}

function BooleanControl(props: ControlProps) {
  const { param, errors } = props;
  const label = props.label ?? props.control.label;
  const id = `f-${useId()}`;
  return (
    <div class={`field field-check${errors[param] ? ' field-invalid' : ''}`} data-field={param}>
      <label class="checkbox" for={id}>
        <input id={id} name={param} type="checkbox" data-kind="boolean" checked={props.value === true} onChange={(event) => props.onChange(event.currentTarget.checked)} />
        <span>{label}</span>
      </label>
      <GroupError param={param} label={label} errors={errors} />
    </div>
  );
}

/** An object: a fieldset of its members (a contact, a postal address, an entry of a list). */
function GroupControl(props: ControlProps) {
  const { control, param, errors } = props;
  if (control.kind !== 'group') return null;
  const label = props.label ?? control.label;
  const value = isRecord(props.value) ? props.value : {};
  const hint = props.hint ?? memberHint(control);
  return (
    <fieldset class={`subform field-wide${errors[param] ? ' subform-invalid' : ''}`} data-field={param} data-kind="group">
      <legend>{label}</legend>
      {hint ? <p class="hint">{hint}</p> : null}
      <GroupError param={param} label={label} errors={errors} />
      <div class="form-grid">
        {control.members.map((member) => (
          <ControlView
            key={member.key}
            control={member}
            param={`${param}.${member.key}`}
            value={value[member.key]}
            errors={errors}
            onChange={(next) => {
              const { [member.key]: _old, ...rest } = value;
              props.onChange(next === undefined ? rest : { ...rest, [member.key]: next });
            }}
          />
        ))}
      </div>
      {props.actions}
    </fieldset>
  );
}

/** A list: one row per entry with Remove, and Add while the schema's maximum is not reached. */
function ListControl(props: ControlProps) {
  const { control, param, errors } = props;
  if (control.kind !== 'list') return null;
  const label = props.label ?? control.label;
  const rows = rowsOf(props.value);
  const noun = control.noun.toLowerCase();
  const full = control.maxItems !== undefined && rows.length >= control.maxItems;
  const hint = props.hint ?? memberHint(control);
  return (
    <fieldset class={`subform field-wide${errors[param] ? ' subform-invalid' : ''}`} data-field={param} data-kind="list">
      <legend>{label}</legend>
      {hint ? <p class="hint">{hint}</p> : null}
      <GroupError param={param} label={label} errors={errors} />
      {rows.length === 0 ? <p class="muted">{props.value === undefined ? 'Not stated.' : 'None.'}</p> : null}
      {rows.map((row, index) => {
        const entryParam = `${param}[${index}]`;
        const remove = (
          <div class="actions actions-start">
            <button type="button" class="button button-ghost button-small" onClick={() => props.onChange(rows.filter((_row, i) => i !== index))}>
              Remove {noun} {index + 1}
            </button>
          </div>
        );
        const entry = (
          <ControlView
            control={control.entry}
            param={entryParam}
            label={`${control.noun} ${index + 1}`}
            hint=""
            value={row}
            errors={errors}
            onChange={(next) => props.onChange(rows.map((old, i) => (i === index ? (next ?? newEntry(control.entry)) : old)))}
            actions={control.entry.kind === 'group' ? remove : undefined}
          />
        );
        return control.entry.kind === 'group' ? (
          <div key={index}>{entry}</div>
        ) : (
          <div key={index} class="entry-inline">
            {entry}
            {remove}
          </div>
        );
      })}
      <div class="actions actions-start">
        <button type="button" class="button button-secondary button-small" disabled={full} onClick={() => props.onChange([...rows, newEntry(control.entry)])}>
          Add {noun}
        </button>
        {full ? <span class="hint">At most {control.maxItems}.</span> : null}
      </div>
    </fieldset>
  );
}

function TextRowControl(props: { param: string; row: TextRow; index: number; languages: readonly string[]; taken: readonly string[]; errors: Errors; onChange: (row: TextRow) => void; onRemove: () => void }) {
  const { row, param, errors } = props;
  const id = `f-${useId()}`;
  const textParam = `${param}.${row.language}`;
  const language = languageName(row.language);
  return (
    <div class="entry-text">
      <div class="field">
        <label for={id}>Language</label>
        <select id={id} value={row.language} onChange={(event) => props.onChange({ ...row, language: event.currentTarget.value })}>
          {props.languages
            .filter((code) => code === row.language || !props.taken.includes(code))
            .map((code) => (
              <option key={code} value={code}>
                {languageName(code)} ({code})
              </option>
            ))}
        </select>
      </div>
      <Field label={`Text in ${language}`} name={textParam} error={errors[textParam]} errorField={errors[textParam] ? textParam : undefined}>
        {(a) => <textarea {...a} data-kind="textarea" rows={2} value={row.text} onInput={(event) => props.onChange({ ...row, text: event.currentTarget.value })} />}
      </Field>
      <div class="actions actions-start">
        <button type="button" class="button button-ghost button-small" onClick={props.onRemove}>
          Remove {language}
        </button>
      </div>
    </div>
  );
}

/** A text by language: one row per language (a language and its text), Add a language. */
function TextsControl(props: ControlProps) {
  const { control, param, errors } = props;
  if (control.kind !== 'texts') return null;
  const label = props.label ?? control.label;
  const rows = rowsOf(props.value).filter((row): row is TextRow => isRecord(row) && typeof row.language === 'string' && typeof row.text === 'string');
  const taken = rows.map((row) => row.language);
  const next = control.languages.find((code) => !taken.includes(code));
  const hint = props.hint ?? memberHint(control);
  return (
    <fieldset class={`subform field-wide${errors[param] ? ' subform-invalid' : ''}`} data-field={param} data-kind="texts">
      <legend>{label}</legend>
      {hint ? <p class="hint">{hint}</p> : null}
      <GroupError param={param} label={label} errors={errors} />
      {rows.map((row, index) => (
        <TextRowControl
          key={index}
          param={param}
          row={row}
          index={index}
          languages={control.languages}
          taken={taken}
          errors={errors}
          onChange={(changed) => props.onChange(rows.map((old, i) => (i === index ? changed : old)))}
          onRemove={() => props.onChange(rows.filter((_row, i) => i !== index))}
        />
      ))}
      <div class="actions actions-start">
        <button
          type="button"
          class="button button-secondary button-small"
          disabled={next === undefined}
          onClick={() => next && props.onChange([...rows, { language: next, text: '' }])}
        >
          Add a language
        </button>
      </div>
    </fieldset>
  );
}

/** The control a value takes, as battery-form.ts derived it from the schema. */
function ControlView(props: ControlProps) {
  switch (props.control.kind) {
    case 'group':
      return <GroupControl {...props} />;
    case 'list':
      return <ListControl {...props} />;
    case 'texts':
      return <TextsControl {...props} />;
    case 'boolean':
      return <BooleanControl {...props} />;
    case 'kept':
      return (
        <div class="field field-wide" data-field={props.param} data-kind="kept">
          <span class="field-label">{props.label ?? props.control.label}</span>
          <p class="hint">Kept as it is: the API's schema gives this form no control for it.</p>
        </div>
      );
    default:
      return <ScalarControl {...props} />;
  }
}

function AspectSection(props: {
  aspect: FormAspect;
  values: FormValues;
  open: boolean;
  onToggle: (open: boolean) => void;
  onChange: (path: string, value: FormValue | undefined) => void;
  placed: Placed;
  report: CompletenessReport | undefined;
}) {
  const { aspect, values, placed } = props;
  const judged = new Map((props.report?.elements ?? []).map((element) => [element.path, element]));
  const filled = aspect.fields.filter((field) => !isEmpty(field, values[field.path])).length;
  const missing = aspect.fields.filter((field) => {
    const j = judged.get(field.param);
    return j?.mandatory && j.status === 'missing';
  }).length;
  const invalid = Object.keys(placed.fields).some((param) => aspectOf(param) === aspect.aspect) || placed.aspects[aspect.aspect] !== undefined;
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
          <ControlView
            key={field.path}
            control={field.control}
            param={field.param}
            value={values[field.path]}
            errors={placed.fields}
            hint={elementHint(field, judged.get(field.param))}
            onChange={(value) => props.onChange(field.path, value)}
          />
        ))}
      </div>
    </details>
  );
}

function BatteryForm(props: {
  product: Product;
  start: Start;
  schemas: SchemaSet;
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
  const aspects = formAspects(level, props.schemas);
  const fields = aspects.flatMap((aspect) => aspect.fields);
  const base = start.draft?.data ?? start.current?.data ?? {};
  const [values, setValues] = useState<FormValues>(() => valuesOf(base, fields));
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set([aspects[0]?.aspect ?? '']));
  const [placed, setPlaced] = useState<Placed>(NONE);
  const [busy, setBusy] = useState<'save' | 'publish'>();
  const [saved, setSaved] = useState<string>();
  /** A publication waiting for the person's confirmation: the draft's report on the day publishing judges it, and the day it would be published on instead. */
  const [pending, setPending] = useState<{ report: CompletenessReport; on: string }>();
  const confirmDialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (pending && !confirmDialog.current?.open) confirmDialog.current?.showModal();
  }, [pending]);

  /** Shows what was placed: opens the aspects it names and moves the focus to the first control it marks. */
  const show = (next: Placed) => {
    setPlaced(next);
    const named = [...Object.keys(next.fields).map(aspectOf), ...Object.keys(next.aspects)];
    if (named.length) setOpen((current) => new Set([...current, ...named]));
    const first = [...shownParams(fields, values)].find((param) => next.fields[param]);
    requestAnimationFrame(() => focusField(form.current, first));
  };

  /** Saves the form as the draft: true when the API took it. */
  const save = async (): Promise<boolean> => {
    try {
      await api<Draft>('PUT', productPath(product, 'draft'), { body: { data: dataOf(values, fields, base) } });
      return true;
    } catch (failure) {
      show(placeRefusal(failure, fields, values, props.asOf));
      return false;
    }
  };

  /** Publishes the saved draft, judged on `asOf` (undefined: the day the API judges on by default); a refusal is placed at its fields. */
  const publish = async (asOf: string | undefined) => {
    try {
      const published = await api<{ version: number }>('POST', productPath(product, 'draft/publish'), { query: { asOf } });
      props.onPublished(published.version);
    } catch (failure) {
      props.onSaved();
      show(placeRefusal(failure, fields, values, asOf ?? ''));
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
      // The draft as publishing judges it by default (docs/battery.md#the-day-judged): an incomplete passport published on an earlier day is confirmed first.
      let report: CompletenessReport;
      try {
        report = await api<CompletenessReport>('GET', productPath(product, 'passport/completeness'), { query: { draft: 'true' } });
      } catch (failure) {
        props.onSaved();
        show({ ...NONE, top: failure });
        return;
      }
      const on = props.asOf || today();
      if (!report.complete && report.judgedOn.reason !== 'today' && on < report.asOf) {
        props.onSaved();
        setPending({ report, on });
        return;
      }
      await publish(props.asOf || undefined);
    } finally {
      setBusy(undefined);
    }
  };

  /** The person confirmed: the draft is published judged as on the earlier day, when what it lacks is not due yet. */
  const confirmEarly = async () => {
    const waiting = pending;
    confirmDialog.current?.close();
    setPending(undefined);
    if (!waiting) return;
    setBusy('publish');
    try {
      await publish(waiting.on);
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
          A contact or an address is a group of fields, a list has a row per entry (Add, Remove), every number shows its unit.
        </p>
        <Field
          label="Judge on (optional)"
          name="asOf"
          hint={`The day the batteries are placed on the market, YYYY-MM-DD. Empty: the later of today and ${dayInWords(PASSPORT_MANDATORY_FROM)}, when the passport becomes mandatory (or the day the passport says the battery was placed on the market, when later).`}
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
      <dialog ref={confirmDialog} class="dialog" aria-labelledby="publish-incomplete-title" data-testid="publish-incomplete" onClose={() => setPending(undefined)}>
        <h2 id="publish-incomplete-title">Publish an incomplete passport?</h2>
        {pending ? (
          <div class="dialog-body">
            <p>
              This passport lacks {plural(pending.report.missingMandatory.length, 'element')} mandatory for{' '}
              {pending.report.batteryCategory ? (CATEGORY_WORDS[pending.report.batteryCategory] ?? pending.report.batteryCategory) : 'every battery category'}, {pending.report.judgedOn.words}.
            </p>
            <p>
              Publishing it now judges it as on {dayInWords(pending.on)}, before they are due: its public page shows an incomplete battery passport until a complete version is published.
            </p>
          </div>
        ) : null}
        <div class="actions">
          <button type="button" class="button button-secondary" onClick={() => confirmDialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class="button button-danger" onClick={() => void confirmEarly()}>
            Publish incomplete passport
          </button>
        </div>
      </dialog>
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
          <p class="hint" data-testid="completeness-day" data-reason={report.judgedOn.reason}>
            {capitalized(report.judgedOn.words)}.
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
  const schemas = useLoad(batterySchemas, []);
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
  if (schemas.error) return <ErrorNotice error={schemas.error} title="The form could not be built: the API's schema of the passport data could not be read" />;
  if (!start.data || !schemas.data) return <Loading />;
  return (
    <>
      {published ? <Notice kind="success">Version {published} is published. Its public page shows the public elements.</Notice> : null}
      <BatteryForm
        key={`${start.data.reset}`}
        product={product}
        start={start.data}
        schemas={schemas.data}
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
