import type { ComponentChildren, JSX, TargetedEvent } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, type Product } from './api.ts';

/**
 * A listing page's create flow: idle, the form open, or what was created shown once (its secret).
 * The listing reloads when something is created and again when the secret is dismissed.
 */
export function useCreateFlow<T>(reload: () => void) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<T>();
  return {
    creating,
    created,
    idle: !creating && created === undefined,
    start: () => setCreating(true),
    cancel: () => setCreating(false),
    done: (value: T) => {
      setCreating(false);
      setCreated(value);
      reload();
    },
    dismiss: () => {
      setCreated(undefined);
      reload();
    },
  };
}

/** Loads data for a page; `reload` runs the loader again. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : 'Something went wrong.';

/** An error or success message; errors are announced at once (role=alert), others politely. */
export function Notice(props: { kind: 'error' | 'success' | 'info' | 'warning'; title?: string; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.title ? <strong class="notice-title">{props.title}</strong> : null}
      <div>{props.children}</div>
    </div>
  );
}

export function ErrorNotice(props: { error: unknown; title?: string }) {
  const suggestion = props.error instanceof ApiError ? props.error.suggestion : undefined;
  return (
    <Notice kind="error" title={props.title ?? 'The request failed'}>
      {messageOf(props.error)}
      {suggestion ? <> {suggestion}</> : null}
    </Notice>
  );
}

export const Loading = (props: { label?: string }) => (
  <p class="loading" role="status">
    {props.label ?? 'Loading…'}
  </p>
);

/**
 * Where an API 422 goes: next to the field its `param` names, or, for a param no field of the
 * form shows, at the top of the form.
 */
export function placeError(error: unknown, fields: readonly string[]): { field?: string; top?: unknown } {
  if (error instanceof ApiError && error.param && fields.includes(error.param)) return { field: error.param };
  return error === undefined ? {} : { top: error };
}

interface FieldProps {
  label: string;
  /** The API's name of the field (its 422 `param`). */
  name: string;
  error?: unknown;
  errorField?: string | undefined;
  hint?: ComponentChildren;
  children: (attributes: {
    id: string;
    name: string;
    'aria-invalid'?: 'true';
    'aria-describedby'?: string;
  }) => JSX.Element;
  class?: string;
}

/** A labelled control with its hint and, when the API named this field, the API's message. */
/** A form's closing row: Cancel, then the submit button (disabled while the form is busy). */
export function FormActions(props: { submitLabel: string; busy: boolean; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="button" class="button button-secondary" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" class="button" disabled={props.busy}>
        {props.submitLabel}
      </button>
    </div>
  );
}

/** A select's options, one per value, each labelled by the value itself. */
export function Options(props: { values: readonly string[]; labelOf?: ((value: string) => string) | undefined }) {
  return (
    <>
      {props.values.map((value) => (
        <option key={value} value={value}>
          {props.labelOf ? props.labelOf(value) : value}
        </option>
      ))}
    </>
  );
}

/** A Field whose control is a select of `values` (each shown as itself, or as `labelOf` says). */
export function SelectField(
  props: Omit<FieldProps, 'children'> & {
    values: readonly string[];
    labelOf?: (value: string) => string;
    value: string;
    onChange: (event: TargetedEvent<HTMLSelectElement>) => void;
  },
) {
  const { values, labelOf, value, onChange, ...field } = props;
  return (
    <Field {...field}>
      {(a) => (
        <select {...a} value={value} onChange={onChange}>
          <Options values={values} labelOf={labelOf} />
        </select>
      )}
    </Field>
  );
}

export function Field(props: FieldProps) {
  const id = `f-${useId()}`;
  const invalid = props.errorField === props.name && props.error !== undefined;
  const describedBy = [props.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${invalid ? ' field-invalid' : ''}${props.class ? ` ${props.class}` : ''}`} data-field={props.name}>
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        name: props.name,
        ...(invalid ? { 'aria-invalid': 'true' as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {invalid ? (
        <p class="field-error" id={`${id}-error`} data-param={props.name}>
          {inFieldWords(messageOf(props.error), props.name, props.label)}
        </p>
      ) : null}
    </div>
  );
}

/**
 * An API message in the words of the form it is shown in: a message that starts with the field's
 * API name (`economicOperatorId must be…`, or its last part, `country must be…`) starts with the
 * field's label instead (`Economic operator id must be…`), without the label's "(optional)".
 */
export function inFieldWords(message: string, name: string, label: string): string {
  const shown = label.replace(/\s*\([^)]*\)\s*$/, '');
  for (const api of [name, name.split('.').at(-1) ?? name]) {
    if (api && message.startsWith(`${api} `)) return `${shown}${message.slice(api.length)}`;
  }
  return message;
}

/** Moves focus to the field the API named, so keyboard and screen reader users land on it. */
export function focusField(form: HTMLFormElement | null, param: string | undefined): void {
  if (!form || !param) return;
  const control = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(param)}"] input, [data-field="${CSS.escape(param)}"] select, [data-field="${CSS.escape(param)}"] textarea`);
  control?.focus();
}

export function CopyButton(props: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" class="button button-secondary" onClick={copy}>
      {copied ? 'Copied' : (props.label ?? 'Copy')}
      <span class="visually-hidden" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
}

/** A secret the API shows only once: read-only, selectable, with a copy button and a warning. */
export function SecretOnce(props: { title: string; label: string; value: string; risk: string; onDone: () => void; children?: ComponentChildren }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const id = `s-${useId()}`;
  return (
    <section class="secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p class="warning-text">
        <strong>Copy it now: it will not be shown again.</strong> Store it in your secrets manager: {props.risk}
      </p>
      <label for={id}>{props.label}</label>
      <div class="secret-row">
        <input id={id} ref={input} class="mono" type="text" readOnly value={props.value} data-secret />
        <CopyButton value={props.value} />
      </div>
      {props.children}
      <button type="button" class="button secret-done" onClick={props.onDone}>
        I have stored it
      </button>
    </section>
  );
}

/** A button that asks for confirmation in a modal dialog before it acts. */
export function ConfirmButton(props: {
  label: string;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  class?: string;
  accessibleLabel?: string;
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const id = `d-${useId()}`;
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      dialog.current?.close();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        class={props.class ?? `button ${props.danger ? 'button-danger' : 'button-secondary'} button-small`}
        aria-label={props.accessibleLabel}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} class="dialog">
        <h2 id={`${id}-title`}>{props.title}</h2>
        <div class="dialog-body">{props.children}</div>
        {error ? <ErrorNotice error={error} /> : null}
        <div class="actions">
          <button type="button" class="button button-secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class={`button ${props.danger ? 'button-danger' : ''}`} disabled={busy} onClick={confirm}>
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

export function PageHeader(props: { title: string; children?: ComponentChildren; lead?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Product Passport`;
  }, [props.title]);
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1}>{props.title}</h1>
        {props.lead ? <p class="lead">{props.lead}</p> : null}
      </div>
      {props.children ? <div class="page-actions">{props.children}</div> : null}
    </div>
  );
}

/** One column of a ListTable: its header, the cell of each item, and whether the cell names the row (a row header). */
export interface ListColumn<T> {
  header: ComponentChildren;
  cell: (item: T) => ComponentChildren;
  /** The cell that names the row: a `th scope="row"` (one column a table). */
  rowHeader?: boolean;
  class?: string;
}

/**
 * The one list of the dashboard's list pages: the load's error, "Loading…" the first time, an
 * empty state, or a table with a caption (for screen readers unless `showCaption`), one row an item.
 */
export function ListTable<T>(props: {
  items: readonly T[] | undefined;
  columns: readonly ListColumn<T>[];
  rowKey: (item: T) => string;
  caption: string;
  empty: ComponentChildren;
  loading?: boolean;
  error?: unknown;
  showCaption?: boolean;
  testId?: string;
  compact?: boolean;
  /** Attributes of an item's row (data-… for tests and styles). */
  rowAttributes?: (item: T) => Record<string, string>;
}) {
  const { items } = props;
  return (
    <>
      {props.error ? <ErrorNotice error={props.error} /> : null}
      {props.loading && !items ? <Loading /> : null}
      {items ? (
        items.length === 0 ? (
          <div class="empty card">{typeof props.empty === 'string' ? <p>{props.empty}</p> : props.empty}</div>
        ) : (
          <div class="table-wrap card">
            <table class={`table${props.compact ? ' table-compact' : ''}`} data-testid={props.testId} aria-busy={props.loading ? 'true' : 'false'}>
              <caption class={props.showCaption ? undefined : 'visually-hidden'}>{props.caption}</caption>
              <thead>
                <tr>
                  {props.columns.map((column, i) => (
                    <th key={i} scope="col" class={column.class}>
                      {column.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={props.rowKey(item)} {...(props.rowAttributes?.(item) ?? {})}>
                    {props.columns.map((column, i) =>
                      column.rowHeader ? (
                        <th key={i} scope="row" class={column.class}>
                          {column.cell(item)}
                        </th>
                      ) : (
                        <td key={i} class={column.class}>
                          {column.cell(item)}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </>
  );
}

/** Where a product's passport stands (docs/dashboard.md#passport-status), in words and colour. */
export function passportStatusText(passport: Product['passport']): string {
  switch (passport.status) {
    case 'published':
      return `Published v${passport.version ?? ''}${passport.draft ? ' · draft waiting' : ''}`;
    case 'draft':
      return 'Draft';
    case 'withdrawn':
      return 'Withdrawn';
    default:
      return 'No passport';
  }
}

export function PassportStatusBadge(props: { passport: Product['passport'] }) {
  const kind = { published: 'badge-success', draft: 'badge-test', withdrawn: 'badge-danger', none: '' }[props.passport.status];
  return (
    <span class={`badge ${kind}`} data-passport-status={props.passport.status}>
      {passportStatusText(props.passport)}
    </span>
  );
}
