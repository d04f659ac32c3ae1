import { useRef, useState } from 'preact/hooks';
import { api, ApiError, type PassportData, type PassportVersion, type Passport, type Product } from '../api.ts';
import { ErrorNotice, Field, focusField, FormActions, ListTable, Loading, Notice, Options, placeError, SelectField, useLoad, type ListColumn } from '../components.tsx';
import { ALLERGEN_FIELDS, CATEGORIES, NUTRITION_FIELDS, PROTECTIVE_ATMOSPHERES, SUPPLIER_ROLES, WINE_COLOURS } from '../constants.ts';
import { formatDateTime, labelOf } from '../format.ts';
import { IngredientsEditor, useVocabulary } from '../ingredients.tsx';
import { browserLanguage, COUNTRIES_BY_NAME, countryName, ingredientLabel, languageName, previewUrl } from '../labelling.ts';
import { requiredAllergens } from '../../../lib/domain/labelling/allergen-consistency.ts';
import { LANGUAGES, type Lang } from '../../../lib/domain/labelling/languages.ts';
import { computableEnergy, energyMismatch, energyMismatchMessage, NEGLIGIBLE_NUTRIENTS, roundEnergy, type NutritionInput } from '../../../lib/domain/nutrition.ts';
import type { Ingredient } from '../../../lib/domain/passport.ts';

/** The form's state: text as typed; the API validates it (and names the field when it refuses). */
interface ProducerRow {
  name: string;
  role: string;
  country: string;
}
interface FormValues {
  productType: string;
  colour: string;
  vintage: string;
  labelLanguage: string;
  ingredients: Ingredient[];
  nutrition: Record<string, string>;
  /** Nutrients declared present in negligible amounts (Art. 34(5)): their rows become one sentence. */
  negligible: string[];
  alcoholByVolume: string;
  protectiveAtmosphere: string;
  allergens: Record<string, boolean>;
  origin: { country: string; region: string; designation: string };
  producers: ProducerRow[];
  /**
   * The version the form starts from had its energy calculated by the service (`energyCalculated`):
   * its figures are not put in the energy fields, so that publishing calculates them again from the
   * nutrients (docs/labelling.md#energy-and-rounding) unless a value is typed.
   */
  energyWasCalculated: boolean;
}

const emptyProducer = (): ProducerRow => ({ name: '', role: 'producer', country: '' });

const ENERGY_FIELDS: readonly string[] = ['energyKj', 'energyKcal'];

/**
 * The form's values with every allergen box ticked that a vocabulary ingredient requires
 * (docs/labelling.md#allergens-follow-the-ingredients): the API refuses the data otherwise, and
 * such a tick cannot be removed while its ingredient is listed.
 */
function withRequiredTicks(values: FormValues): FormValues {
  const required = requiredAllergens({ productType: values.productType || undefined, ingredients: values.ingredients });
  if (required.every((r) => values.allergens[r.flag] === true)) return values;
  return { ...values, allergens: { ...values.allergens, ...Object.fromEntries(required.map((r) => [r.flag, true])) } };
}

function valuesOf(data: PassportData | undefined, category: string): FormValues {
  const calculated = data?.nutrition?.energyCalculated === true;
  return withRequiredTicks({
    productType: data?.productType ?? category,
    colour: data?.colour ?? '',
    vintage: data?.vintage !== undefined ? String(data.vintage) : '',
    labelLanguage: data?.labelLanguage ?? '',
    ingredients: [...(data?.ingredients ?? [])],
    // A calculated energy is left out: it stays calculated (computed again on publishing) unless a value is typed.
    nutrition: Object.fromEntries(
      NUTRITION_FIELDS.map((f) => [f, data?.nutrition?.[f] !== undefined && !(calculated && ENERGY_FIELDS.includes(f)) ? String(data.nutrition[f]) : '']),
    ),
    negligible: [...(data?.nutrition?.negligible ?? [])],
    alcoholByVolume: data?.alcoholByVolume !== undefined ? String(data.alcoholByVolume) : '',
    protectiveAtmosphere: data?.protectiveAtmosphere ?? '',
    allergens: Object.fromEntries(ALLERGEN_FIELDS.map((f) => [f, data?.allergens?.[f] === true])),
    origin: { country: data?.origin?.country ?? '', region: data?.origin?.region ?? '', designation: data?.origin?.designation ?? '' },
    producers: data?.producers?.length
      ? data.producers.map((p) => ({ name: p.name, role: p.role ?? 'producer', country: p.country ?? '' }))
      : [emptyProducer()],
    energyWasCalculated: calculated,
  });
}

/** A number as typed ("12,5" too); what is not a number goes as typed, for the API to name. */
const numberOrText = (text: string): number | string => {
  const n = Number(text.trim().replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
};

/** The passport `data` the form describes: empty fields are left out. */
export function dataOf(values: FormValues): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (values.productType) data.productType = values.productType;
  if (values.colour) data.colour = values.colour;
  if (values.vintage.trim()) data.vintage = numberOrText(values.vintage);
  if (values.labelLanguage) data.labelLanguage = values.labelLanguage;
  if (values.ingredients.length) data.ingredients = values.ingredients;
  const nutrition: Record<string, unknown> = Object.fromEntries(Object.entries(values.nutrition).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, numberOrText(v)]));
  if (values.negligible.length) nutrition.negligible = values.negligible;
  if (Object.keys(nutrition).length) data.nutrition = nutrition;
  if (values.alcoholByVolume.trim()) data.alcoholByVolume = numberOrText(values.alcoholByVolume);
  if (values.protectiveAtmosphere) data.protectiveAtmosphere = values.protectiveAtmosphere;
  data.allergens = { ...values.allergens };
  const origin = Object.fromEntries(Object.entries(values.origin).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()]));
  if (Object.keys(origin).length) data.origin = origin;
  const producers = values.producers
    .filter((p) => p.name.trim() || p.country.trim())
    .map((p) => ({ name: p.name, role: p.role, ...(p.country.trim() ? { country: p.country.trim() } : {}) }));
  if (producers.length) data.producers = producers;
  return data;
}

/** The fields of the form, by the API's 422 `param` (ingredients[i]… points at the one ingredient list). */
function fieldNames(values: FormValues): string[] {
  return [
    'data.productType',
    'data.colour',
    'data.vintage',
    'data.labelLanguage',
    'data.ingredients',
    'data.alcoholByVolume',
    'data.protectiveAtmosphere',
    ...NUTRITION_FIELDS.map((f) => `data.nutrition.${f}`),
    'data.nutrition.negligible',
    ...ALLERGEN_FIELDS.map((f) => `data.allergens.${f}`),
    'data.origin.country',
    'data.origin.region',
    'data.origin.designation',
    ...values.producers.flatMap((_, i) => ['name', 'role', 'country'].map((f) => `data.producers[${i}].${f}`)),
  ];
}

const normalizeParam = (error: unknown): unknown => {
  if (!(error instanceof ApiError) || !error.param) return error;
  const param = error.param.replace(/^data\.ingredients\[\d+\](?:\..+)?$/, 'data.ingredients');
  if (param === error.param) return error;
  return new ApiError(error.status, { type: error.type, code: error.type, message: error.message, param, suggestion: error.suggestion });
};

function PublishForm(props: { product: Product; current?: PassportData; onPublished: (version: number) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => valuesOf(props.current, props.product.category));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, fieldNames(values));
  const fieldProps = { error, errorField: placed.field };
  const update = (change: (draft: FormValues) => FormValues) => setValues((current) => withRequiredTicks(change(current)));
  /** Why each allergen box is ticked and locked: the vocabulary ingredients that require it. */
  const requiredBy = new Map<string, string[]>();
  for (const r of requiredAllergens({ productType: values.productType || undefined, ingredients: values.ingredients })) {
    const names = requiredBy.get(r.flag) ?? [];
    if (!names.includes(r.name)) requiredBy.set(r.flag, [...names, r.name]);
  }
  const text = (event: Event) => (event.currentTarget as HTMLInputElement).value;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const published = await api<{ version: number }>('POST', '/v1/passports', { body: { productId: props.product.productId, data: dataOf(values) } });
      props.onPublished(published.version);
    } catch (failure) {
      const normalized = normalizeParam(failure);
      setError(normalized);
      // Focus after the error is rendered next to its field.
      requestAnimationFrame(() => focusField(form.current, placeError(normalized, fieldNames(values)).field));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="publish-title" noValidate data-testid="publish-form">
      <h2 id="publish-title">Publish a new version</h2>
      <p class="hint">
        The e-label page shows the new version as soon as it is published; earlier versions stay in the history.
      </p>
      {placed.top ? <ErrorNotice error={placed.top} title="The API refused this passport" /> : null}
      {placed.field ? (
        <Notice kind="error" title="The API refused this passport">
          Check the highlighted field.
        </Notice>
      ) : null}

      <fieldset class="form-section">
        <legend>Product</legend>
        <div class="form-grid">
          <Field label="Product type" name="data.productType" {...fieldProps}>
            {(a) => (
              <select {...a} value={values.productType} onChange={(e) => update((v) => ({ ...v, productType: text(e) }))}>
                <option value="">Not stated</option>
                <Options values={CATEGORIES} />
              </select>
            )}
          </Field>
          <Field label="Colour (wine)" name="data.colour" {...fieldProps}>
            {(a) => (
              <select {...a} value={values.colour} onChange={(e) => update((v) => ({ ...v, colour: text(e) }))}>
                <option value="">Not stated</option>
                {WINE_COLOURS.map((c) => (
                  <option key={c} value={c}>
                    {c === 'rose' ? 'rosé' : c}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Vintage" name="data.vintage" {...fieldProps}>
            {(a) => <input {...a} type="text" inputMode="numeric" value={values.vintage} onInput={(e) => update((v) => ({ ...v, vintage: text(e) }))} />}
          </Field>
          <Field label="Alcohol (% vol)" name="data.alcoholByVolume" {...fieldProps} hint="The actual alcoholic strength, e.g. 12.5; shown beside the declaration, never in it.">
            {(a) => <input {...a} type="text" inputMode="decimal" value={values.alcoholByVolume} onInput={(e) => update((v) => ({ ...v, alcoholByVolume: text(e) }))} />}
          </Field>
          <Field label="Protective atmosphere" name="data.protectiveAtmosphere" {...fieldProps} hint="Replaces the packaging gases in the list of ingredients.">
            {(a) => (
              <select {...a} value={values.protectiveAtmosphere} onChange={(e) => update((v) => ({ ...v, protectiveAtmosphere: text(e) }))}>
                <option value="">Not stated</option>
                {PROTECTIVE_ATMOSPHERES.map((p) => (
                  <option key={p} value={p}>
                    {p === 'bottled' ? 'Bottled in a protective atmosphere' : 'Bottling may happen in a protective atmosphere'}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label="Label language" name="data.labelLanguage" {...fieldProps} hint="The e-label's language when the phone's languages are none of the 24.">
          {(a) => (
            <select {...a} value={values.labelLanguage} onChange={(e) => update((v) => ({ ...v, labelLanguage: text(e) }))}>
              <option value="">Not stated (English)</option>
              <Options values={LANGUAGES} labelOf={languageName} />
            </select>
          )}
        </Field>
        <Field
          label="Ingredients"
          name="data.ingredients"
          {...fieldProps}
          hint="In descending order of weight. Pick vocabulary entries to have them named in all 24 languages, under their category; allergens are shown in bold on the e-label."
        >
          {(a) => <IngredientsEditor value={values.ingredients} onChange={(ingredients) => update((v) => ({ ...v, ingredients }))} control={a as Record<string, string>} />}
        </Field>
      </fieldset>

      <fieldset class="form-section">
        <legend>Nutrition per 100 ml or 100 g</legend>
        <EnergyPreview values={values} />
        <div class="form-grid form-grid-compact">
          {NUTRITION_FIELDS.map((f) => (
            <Field key={f} label={labelOf(f)} name={`data.nutrition.${f}`} {...fieldProps}>
              {(a) => (
                <input
                  {...a}
                  type="text"
                  inputMode="decimal"
                  value={values.nutrition[f] ?? ''}
                  onInput={(e) => update((v) => ({ ...v, nutrition: { ...v.nutrition, [f]: text(e) } }))}
                />
              )}
            </Field>
          ))}
        </div>
        <fieldset class="checkbox-grid" data-field="data.nutrition.negligible">
          <legend>Present in negligible amounts (“Contains negligible amounts of …” replaces their rows)</legend>
          {NEGLIGIBLE_NUTRIENTS.map((n) => (
            <label key={n} class="checkbox">
              <input
                type="checkbox"
                checked={values.negligible.includes(n)}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  update((v) => ({ ...v, negligible: checked ? NEGLIGIBLE_NUTRIENTS.filter((x) => x === n || v.negligible.includes(x)) : v.negligible.filter((x) => x !== n) }));
                }}
              />
              <span>{n}</span>
            </label>
          ))}
        </fieldset>
      </fieldset>

      <fieldset class="form-section">
        <legend>Allergens</legend>
        <p class="hint">Choosing an ingredient from the vocabulary that carries an allergen ticks its box: the e-label shows that ingredient in bold.</p>
        <div class="checkbox-grid">
          {ALLERGEN_FIELDS.map((f) => {
            const because = requiredBy.get(f);
            const param = `data.allergens.${f}`;
            const invalid = placed.field === param;
            const reasonId = `allergen-${f}-reason`;
            const errorId = `allergen-${f}-error`;
            const describedBy = [because ? reasonId : '', invalid ? errorId : ''].filter(Boolean).join(' ');
            return (
              <div key={f} data-field={param} class={invalid ? 'field-invalid' : undefined}>
                <label class="checkbox">
                  <input
                    type="checkbox"
                    checked={values.allergens[f] ?? false}
                    {...(because ? { 'aria-disabled': 'true' as const } : {})}
                    {...(invalid ? { 'aria-invalid': 'true' as const } : {})}
                    {...(describedBy ? { 'aria-describedby': describedBy } : {})}
                    // A tick an ingredient requires stays while the ingredient is listed.
                    onClick={(e) => {
                      if (because) e.preventDefault();
                    }}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      update((v) => ({ ...v, allergens: { ...v.allergens, [f]: checked } }));
                    }}
                  />
                  <span>{labelOf(f)}</span>
                </label>
                {because ? (
                  <span class="allergen-reason" id={reasonId} data-testid={`${f}-reason`}>
                    Ticked because of {because.join(', ')}; remove {because.length > 1 ? 'them' : 'it'} from the ingredients to untick.
                  </span>
                ) : null}
                {invalid ? (
                  <p class="field-error" id={errorId} data-param={param}>
                    {error instanceof ApiError ? error.message : ''}
                  </p>
                ) : null}
              </div>
            );
          })}
        </div>
      </fieldset>

      <fieldset class="form-section">
        <legend>Origin</legend>
        <div class="form-grid">
          <Field label="Country" name="data.origin.country" {...fieldProps}>
            {(a) => <CountrySelect attributes={a} value={values.origin.country} onChange={(country) => update((v) => ({ ...v, origin: { ...v.origin, country } }))} />}
          </Field>
          <Field label="Region" name="data.origin.region" {...fieldProps}>
            {(a) => <input {...a} type="text" value={values.origin.region} onInput={(e) => update((v) => ({ ...v, origin: { ...v.origin, region: text(e) } }))} />}
          </Field>
          <Field label="Designation" name="data.origin.designation" {...fieldProps}>
            {(a) => (
              <input {...a} type="text" value={values.origin.designation} onInput={(e) => update((v) => ({ ...v, origin: { ...v.origin, designation: text(e) } }))} />
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset class="form-section">
        <legend>Producers</legend>
        {values.producers.map((producer, i) => {
          const set = (field: keyof ProducerRow) => (e: Event) =>
            update((v) => ({ ...v, producers: v.producers.map((p, j) => (j === i ? { ...p, [field]: text(e) } : p)) }));
          return (
            <div class="form-grid producer-row" key={i}>
              <Field label={`Producer ${i + 1} name`} name={`data.producers[${i}].name`} {...fieldProps}>
                {(a) => <input {...a} type="text" value={producer.name} onInput={set('name')} />}
              </Field>
              <SelectField label="Role" name={`data.producers[${i}].role`} {...fieldProps} values={SUPPLIER_ROLES} value={producer.role} onChange={set('role')} />
              <Field label="Country" name={`data.producers[${i}].country`} {...fieldProps}>
                {(a) => (
                  <CountrySelect
                    attributes={a}
                    value={producer.country}
                    onChange={(country) => update((v) => ({ ...v, producers: v.producers.map((p, j) => (j === i ? { ...p, country } : p)) }))}
                  />
                )}
              </Field>
              {values.producers.length > 1 ? (
                <button
                  type="button"
                  class="button button-ghost button-small align-end"
                  aria-label={`Remove producer ${i + 1}`}
                  onClick={() => update((v) => ({ ...v, producers: v.producers.filter((_, j) => j !== i) }))}
                >
                  Remove
                </button>
              ) : null}
            </div>
          );
        })}
        <button type="button" class="button button-secondary button-small" onClick={() => update((v) => ({ ...v, producers: [...v.producers, emptyProducer()] }))}>
          Add producer
        </button>
      </fieldset>

      <FormActions submitLabel="Publish version" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

/** A country chosen by its English name; the API receives its ISO 3166-1 alpha-2 code (lib/domain/countries.ts). */
function CountrySelect(props: { attributes: Record<string, string>; value: string; onChange: (code: string) => void }) {
  const known = props.value === '' || COUNTRIES_BY_NAME.includes(props.value);
  return (
    <select {...props.attributes} value={props.value} onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}>
      <option value="">Not stated</option>
      {known ? null : <option value={props.value}>{props.value}</option>}
      {COUNTRIES_BY_NAME.map((code) => (
        <option key={code} value={code}>
          {countryName(code)}
        </option>
      ))}
    </select>
  );
}

/** The form's nutrition as numbers (what is not a number yet is left out). */
function nutritionNumbers(values: FormValues): NutritionInput {
  const out: Record<string, number> = {};
  for (const [field, raw] of Object.entries(values.nutrition)) {
    const value = numberOrText(raw);
    if (typeof value === 'number') out[field] = value;
  }
  return out;
}

/**
 * The energy the typed nutrients give, as publishing will compute it (lib/domain/nutrition.ts,
 * the same functions the API runs), and a warning when a declared figure disagrees clearly.
 */
export function EnergyPreview(props: { values: FormValues }) {
  const nutrition = nutritionNumbers(props.values);
  const productType = props.values.productType || undefined;
  const computed = computableEnergy(nutrition, productType);
  const mismatch = energyMismatch(nutrition, productType);
  const declared = nutrition.energyKj !== undefined || nutrition.energyKcal !== undefined;
  return (
    <div class="energy-preview" aria-live="polite" data-testid="energy-preview">
      {mismatch ? (
        <Notice kind="warning" title="Energy does not match the nutrients">
          {energyMismatchMessage(mismatch).message}
        </Notice>
      ) : computed ? (
        <p class="hint">
          {declared ? 'From the nutrients' : 'Calculated from the nutrients'} (Regulation (EU) No 1169/2011 Annex XIV):{' '}
          <strong>
            {roundEnergy(computed.kj).value} kJ / {roundEnergy(computed.kcal).value} kcal
          </strong>
          {declared
            ? '. The declared value is kept.'
            : '. Published as the energy, marked “calculated” on the e-label, and calculated again whenever the nutrients change. Type a value to declare one instead.'}
        </p>
      ) : (
        <p class="hint">
          Energy is computed on publishing when fat, carbohydrate and protein are given (and alcohol, for wine).
          {props.values.energyWasCalculated && !declared ? ' The current version’s energy was calculated: it is not copied, so that it cannot go stale.' : ''}
        </p>
      )}
    </div>
  );
}

function ElabelPreview(props: { passport: Passport }) {
  const [lang, setLang] = useState<Lang>(() => props.passport.data.labelLanguage ?? browserLanguage());
  const url = previewUrl(props.passport.qrCodeUrl, props.passport.version, lang);
  return (
    <div class="actions actions-start elabel-preview">
      <label>
        <span class="muted">E-label in </span>
        <select value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as Lang)} aria-label="E-label language">
          <Options values={LANGUAGES} labelOf={languageName} />
        </select>
      </label>
      {url ? (
        <a class="button button-secondary button-small" href={url} target="_blank" rel="noopener" hreflang={lang} data-testid="elabel-preview">
          Open version {props.passport.version}’s e-label
        </a>
      ) : (
        <a class="button button-secondary button-small" href={props.passport.qrCodeUrl} target="_blank" rel="noopener">
          Open the QR link (the page follows your browser’s language)
        </a>
      )}
    </div>
  );
}

function PassportSummary(props: { passport: Passport }) {
  const { data } = props.passport;
  // Ingredients by their names, not their codes (the vocabulary's English names, as the dashboard's language).
  const vocabulary = useVocabulary().data?.data;
  const nutrition = NUTRITION_FIELDS.filter((f) => data.nutrition?.[f] !== undefined).map((f) => [f, data.nutrition?.[f]] as const);
  const allergens = Object.entries(data.allergens ?? {}).filter(([, v]) => v);
  return (
    <section class="card" aria-labelledby="current-title" data-testid="current-passport">
      <div class="card-header">
        <h2 id="current-title">
          Current version <span class="badge badge-accent">v{props.passport.version}</span>
        </h2>
        <span class="muted">Published {formatDateTime(props.passport.lastUpdated)}</span>
      </div>
      <dl class="details">
        <dt>Product type</dt>
        <dd>
          {data.productType ?? '—'}
          {data.colour ? `, ${data.colour === 'rose' ? 'rosé' : data.colour}` : ''}
          {data.vintage ? `, ${data.vintage}` : ''}
        </dd>
        <dt>Ingredients</dt>
        <dd data-testid="summary-ingredients">{data.ingredients?.length ? data.ingredients.map((ingredient) => ingredientLabel(ingredient, 'en', vocabulary)).join(', ') : '—'}</dd>
        <dt>Allergens</dt>
        <dd data-testid="summary-allergens">{allergens.length ? allergens.map(([f]) => labelOf(f).replace(/^Contains /, '')).join(', ') : 'None declared'}</dd>
        <dt>Origin</dt>
        <dd>{[data.origin?.designation, data.origin?.region, data.origin?.country ? countryName(data.origin.country) : undefined].filter(Boolean).join(', ') || '—'}</dd>
        <dt>Producers</dt>
        <dd>{data.producers?.length ? data.producers.map((p) => `${p.name} (${p.role ?? 'producer'}${p.country ? `, ${countryName(p.country)}` : ''})`).join('; ') : '—'}</dd>
      </dl>
      <ElabelPreview passport={props.passport} />
      {nutrition.length ? (
        <table class="table table-compact nutrition">
          <caption>Nutrition per 100 ml / 100 g</caption>
          <tbody>
            {nutrition.map(([field, value]) => (
              <tr key={field}>
                <th scope="row">{labelOf(field)}</th>
                <td class="num">
                  {value}
                  {data.nutrition?.energyCalculated && ENERGY_FIELDS.includes(field) ? ' (calculated)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

const HISTORY_COLUMNS: readonly ListColumn<PassportVersion>[] = [
  { header: 'Version', rowHeader: true, cell: (version) => `v${version.version}` },
  { header: 'Passport id', class: 'mono small', cell: (version) => version.passportId },
  { header: 'Status', cell: (version) => <span class="badge badge-success">{version.status}</span> },
  { header: 'Published', class: 'nowrap', cell: (version) => formatDateTime(version.createdAt) },
  {
    header: 'Data',
    cell: (version) => (
      <details>
        <summary>JSON</summary>
        <pre class="json">{JSON.stringify(version.data, null, 2)}</pre>
      </details>
    ),
  },
];

/** A product's published versions, newest first (the last 50); read again when `round` changes. */
export function PassportHistory(props: { productId: string; round: number }) {
  const id = encodeURIComponent(props.productId);
  const history = useLoad(() => api<{ data: PassportVersion[]; hasMore: boolean }>('GET', `/v1/products/${id}/passports`, { query: { limit: 50 } }), [id, props.round]);
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ListTable
        items={history.data?.data}
        loading={history.loading}
        error={history.error}
        columns={HISTORY_COLUMNS}
        rowKey={(version) => version.passportId}
        caption="Published versions, newest first"
        empty="No versions yet."
        testId="passport-history"
      />
    </section>
  );
}

/** `onPublished`: after a version is published (the product page may read the product again: its passport status changed). */
export function PassportTab(props: { product: Product; onPublished?: (version: number) => void }) {
  const id = encodeURIComponent(props.product.productId);
  const current = useLoad(async () => {
    try {
      return await api<Passport>('GET', `/v1/products/${id}/passport`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, [id]);
  const [historyRound, setHistoryRound] = useState(0);
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState<number>();

  return (
    <>
      {published ? <Notice kind="success">Version {published} is published. The QR code now opens it.</Notice> : null}
      {current.error ? <ErrorNotice error={current.error} /> : null}
      {current.loading && current.data === undefined ? <Loading /> : null}
      {publishing ? (
        <PublishForm
          product={props.product}
          {...(current.data ? { current: current.data.data } : {})}
          onCancel={() => setPublishing(false)}
          onPublished={(version) => {
            setPublishing(false);
            setPublished(version);
            current.reload();
            setHistoryRound((n) => n + 1);
            props.onPublished?.(version);
          }}
        />
      ) : current.data !== undefined ? (
        <div class="actions actions-start">
          <button
            type="button"
            class="button"
            onClick={() => {
              setPublished(undefined);
              setPublishing(true);
            }}
          >
            {current.data ? 'Publish a new version' : 'Publish the first passport'}
          </button>
        </div>
      ) : null}
      {current.data === null && !publishing ? (
        <div class="empty card">
          <p>No passport yet: the QR code answers “not found” until the first version is published.</p>
        </div>
      ) : null}
      {current.data && !publishing ? <PassportSummary passport={current.data} /> : null}
      <PassportHistory productId={props.product.productId} round={historyRound} />
    </>
  );
}
