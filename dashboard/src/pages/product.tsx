import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Product } from '../api.ts';
import { CopyButton, ErrorNotice, Field, focusField, FormActions, Loading, Notice, PageHeader, PassportStatusBadge, placeError, SelectField, useLoad } from '../components.tsx';
import { CATEGORIES, PRODUCT_GRANULARITIES } from '../constants.ts';
import { formatDateTime, printedGtin } from '../format.ts';
import { passportKindOf } from '../../../lib/domain/passport-kinds.ts';
import { href } from '../router.ts';
import type { ProductTab as Tab } from '../routes.ts';
import { AnalyticsTab } from './analytics.tsx';
import { BatteryPassportTab } from './battery-passport.tsx';
import { PassportTab } from './passport.tsx';
import { UnitDetail, UnitsTab } from './units.tsx';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'overview', label: 'Overview' },
  { tab: 'passport', label: 'Passport' },
  { tab: 'items', label: 'Items' },
  { tab: 'batches', label: 'Batches' },
  { tab: 'analytics', label: 'Scans' },
];
const EDIT_FIELDS = ['name', 'category', 'brand', 'sku', 'economicOperatorId', 'facilityId', 'commodityCode', 'granularity'];
const IDENTIFIERS = ['economicOperatorId', 'facilityId', 'commodityCode'] as const;

/** The ESPR identifiers (docs/api.md#espr-identifiers), shared by the create and edit forms. */
export function IdentifierFields(props: {
  values: Record<(typeof IDENTIFIERS)[number] | 'granularity', string>;
  set: (field: (typeof IDENTIFIERS)[number] | 'granularity') => (event: Event) => void;
  error: unknown;
  errorField: string | undefined;
  removable?: boolean;
}) {
  const { values, set, error, errorField } = props;
  const empty = props.removable ? ' Leave empty to remove it.' : '';
  return (
    <>
      <Field label="Economic operator id (optional)" name="economicOperatorId" error={error} errorField={errorField} hint={`An EORI number, such as DE123456789012345.${empty}`}>
        {(a) => <input {...a} type="text" autocomplete="off" value={values.economicOperatorId} onInput={set('economicOperatorId')} />}
      </Field>
      <Field label="Facility GLN (optional)" name="facilityId" error={error} errorField={errorField} hint={`13 digits with the check digit.${empty}`}>
        {(a) => <input {...a} type="text" inputMode="numeric" autocomplete="off" value={values.facilityId} onInput={set('facilityId')} />}
      </Field>
      <Field label="Commodity code (optional)" name="commodityCode" error={error} errorField={errorField} hint={`CN or HS code, 6 to 10 digits.${empty}`}>
        {(a) => <input {...a} type="text" inputMode="numeric" autocomplete="off" value={values.commodityCode} onInput={set('commodityCode')} />}
      </Field>
      <SelectField label="Passport granularity" name="granularity" error={error} errorField={errorField} values={PRODUCT_GRANULARITIES} value={values.granularity} onChange={set('granularity')} />
    </>
  );
}

function EditProductForm(props: { product: Product; onSaved: (product: Product) => void; onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({
    name: props.product.name,
    category: props.product.category,
    brand: props.product.brand ?? '',
    sku: props.product.sku ?? '',
    economicOperatorId: props.product.economicOperatorId ?? '',
    facilityId: props.product.facilityId ?? '',
    commodityCode: props.product.commodityCode ?? '',
    granularity: props.product.granularity,
  });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, EDIT_FIELDS);
  const set = (field: keyof typeof values) => (event: Event) =>
    setValues((current) => ({ ...current, [field]: (event.currentTarget as HTMLInputElement).value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const changes: Record<string, string | null> = {};
    if (values.name !== props.product.name) changes.name = values.name;
    if (values.category !== props.product.category) changes.category = values.category;
    if (values.brand.trim() && values.brand !== (props.product.brand ?? '')) changes.brand = values.brand;
    if (values.sku !== (props.product.sku ?? '')) changes.sku = values.sku.trim() ? values.sku : null;
    for (const field of IDENTIFIERS) {
      if (values[field] !== (props.product[field] ?? '')) changes[field] = values[field].trim() ? values[field].trim() : null;
    }
    if (values.granularity !== props.product.granularity) changes.granularity = values.granularity;
    try {
      const { product } = await api<{ product: Product }>('PATCH', `/v1/products/${encodeURIComponent(props.product.productId)}`, { body: changes });
      props.onSaved(product);
    } catch (failure) {
      setError(failure);
      focusField(form.current, placeError(failure, EDIT_FIELDS).field);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} class="form" onSubmit={submit} aria-label="Edit product" noValidate>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <div class="form-grid">
        <Field label="Name" name="name" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" value={values.name} onInput={set('name')} />}
        </Field>
        <SelectField label="Category" name="category" error={error} errorField={placed.field} values={CATEGORIES} value={values.category} onChange={set('category')} />
        <Field label="Brand" name="brand" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" value={values.brand} onInput={set('brand')} />}
        </Field>
        <Field label="SKU" name="sku" error={error} errorField={placed.field} hint="Leave empty to remove it.">
          {(a) => <input {...a} type="text" value={values.sku} onInput={set('sku')} />}
        </Field>
        <IdentifierFields values={values} set={set} error={error} errorField={placed.field} removable />
      </div>
      <p class="hint">
        The GTIN cannot change: it is printed in the QR code. Create a new product for a new GTIN.
      </p>
      <FormActions submitLabel="Save changes" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

function QrCard(props: { product: Product }) {
  const { product } = props;
  const svg = useLoad(() => api<string>('GET', `/v1/products/${encodeURIComponent(product.productId)}/qr`, { text: true, query: { size: 512 } }), [product.productId]);
  const dataUrl = svg.data ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.data)}` : undefined;
  return (
    <section class="card qr-card" aria-labelledby="qr-title">
      <h2 id="qr-title">QR code</h2>
      {svg.error ? <ErrorNotice error={svg.error} /> : null}
      {dataUrl ? (
        <img class="qr" src={dataUrl} width={200} height={200} alt={`QR code linking to ${product.qrCodeUrl}`} data-testid="qr-image" />
      ) : (
        <div class="qr qr-placeholder" role="status">
          Drawing the QR code…
        </div>
      )}
      <div class="actions actions-start">
        {dataUrl ? (
          <a class="button" href={dataUrl} download={`${printedGtin(product.gtin)}.svg`}>
            Download SVG
          </a>
        ) : null}
        <a class="button button-secondary" href={product.qrCodeUrl} target="_blank" rel="noopener" data-testid="elabel-link">
          Open e-label page<span class="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
      <p class="hint">Print it at least 2 cm wide with its white margin. It encodes:</p>
      <div class="secret-row">
        <code class="url" data-testid="qr-url">{product.qrCodeUrl}</code>
        <CopyButton value={product.qrCodeUrl} label="Copy link" />
      </div>
    </section>
  );
}

/**
 * What saving the details changed for the consumer: published versions keep the name they were
 * published with (their pages never change), so a new name reaches the e-label with a new version.
 */
function SavedNotice(props: { product: Product; renamed: boolean }) {
  const { product, renamed } = props;
  if (!renamed || product.passport.version === null) return <Notice kind="success">Saved.</Notice>;
  return (
    <Notice kind="success" title="Saved">
      <p>
        The e-label does not change yet: passport version {product.passport.version} keeps the name it was published with (a published version never changes). Publish a new
        version to show “{product.name}” on the e-label.
      </p>
      <p>
        <a class="button button-small" href={href('products', product.productId, 'passport')} data-testid="publish-new-version">
          Publish a new version
        </a>
      </p>
    </Notice>
  );
}

/** Where the QR code goes until the product has a published passport: its scans would find no passport. */
function FirstPassportCard(props: { product: Product }) {
  const { product } = props;
  return (
    <section class="card qr-card" aria-labelledby="first-passport-title" data-testid="first-passport">
      <h2 id="first-passport-title">No published passport yet</h2>
      <p>
        {product.passport.status === 'draft' ? 'Its passport is a draft.' : 'This product has no passport yet.'} A scan of its QR code would say the information is not available,
        so the QR code and the e-label come once the first passport is published.
      </p>
      <p>
        <a class="button" href={href('products', product.productId, 'passport')}>
          {product.passport.status === 'draft' ? 'Finish and publish the first passport' : 'Publish the first passport'}
        </a>
      </p>
    </section>
  );
}

function Overview(props: { product: Product; onChanged: (product: Product) => void }) {
  const { product } = props;
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [renamed, setRenamed] = useState(false);
  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="details-title">
        <div class="card-header">
          <h2 id="details-title">Details</h2>
          {!editing ? (
            <button
              type="button"
              class="button button-secondary button-small"
              onClick={() => {
                setSaved(false);
                setEditing(true);
              }}
            >
              Edit
            </button>
          ) : null}
        </div>
        {saved ? <SavedNotice product={product} renamed={renamed} /> : null}
        {editing ? (
          <EditProductForm
            product={product}
            onCancel={() => setEditing(false)}
            onSaved={(updated) => {
              setEditing(false);
              setSaved(true);
              setRenamed(updated.name !== product.name);
              props.onChanged(updated);
            }}
          />
        ) : (
          <dl class="details">
            <dt>GTIN</dt>
            <dd class="mono">{printedGtin(product.gtin)}</dd>
            <dt>GTIN-14</dt>
            <dd class="mono">{product.gtin}</dd>
            <dt>Category</dt>
            <dd>{product.category}</dd>
            <dt>Brand</dt>
            <dd>{product.brand ?? '—'}</dd>
            <dt>SKU</dt>
            <dd>{product.sku ?? '—'}</dd>
            <dt>Economic operator id</dt>
            <dd class="mono">{product.economicOperatorId ?? '—'}</dd>
            <dt>Facility GLN</dt>
            <dd class="mono">{product.facilityId ?? '—'}</dd>
            <dt>Commodity code</dt>
            <dd class="mono">{product.commodityCode ?? '—'}</dd>
            <dt>Passport</dt>
            <dd>
              <PassportStatusBadge passport={product.passport} />
            </dd>
            <dt>Passport granularity</dt>
            <dd>{product.granularity}</dd>
            <dt>Product id</dt>
            <dd class="mono small">{product.productId}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(product.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(product.updatedAt)}</dd>
          </dl>
        )}
      </section>
      {product.passport.version === null ? <FirstPassportCard product={product} /> : <QrCard product={product} />}
    </div>
  );
}

export function ProductPage(props: { productId: string; tab: Tab; unit?: string | undefined }) {
  // Read again on each tab: publishing on the Passport tab changes what the overview offers (its passport status).
  const loaded = useLoad(() => api<Product>('GET', `/v1/products/${encodeURIComponent(props.productId)}`), [props.productId, props.tab]);
  const [changed, setChanged] = useState<Product>();
  useEffect(() => setChanged(undefined), [props.tab]);
  const product = changed ?? loaded.data;

  if (loaded.error) {
    const missing = loaded.error instanceof ApiError && loaded.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Product not found' : 'Product'} />
        {missing ? (
          <p>
            This product does not exist in this organization and environment. <a href="#/products">Back to products</a>
          </p>
        ) : (
          <ErrorNotice error={loaded.error} />
        )}
      </>
    );
  }
  if (!product) return <Loading />;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/products">Products</a> <span aria-hidden="true">/</span>
      </p>
      <PageHeader title={product.name} lead={<span class="mono">GTIN {printedGtin(product.gtin)}</span>} />
      <nav class="subtabs" aria-label="Product sections">
        <ul>
          {TABS.map(({ tab, label }) => (
            <li key={tab}>
              <a href={href('products', product.productId, ...(tab === 'overview' ? [] : [tab]))} aria-current={props.tab === tab ? (props.unit === undefined ? 'page' : 'true') : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.tab === 'overview' ? <Overview product={product} onChanged={setChanged} /> : null}
      {props.tab === 'passport' ? passportKindOf(product.category) === 'battery' ? <BatteryPassportTab product={product} /> : <PassportTab product={product} /> : null}
      {props.tab === 'items' || props.tab === 'batches' ? (
        props.unit === undefined ? (
          <UnitsTab key={props.tab} product={product} kind={props.tab === 'items' ? 'item' : 'batch'} />
        ) : (
          <UnitDetail key={`${props.tab}/${props.unit}`} product={product} kind={props.tab === 'items' ? 'item' : 'batch'} value={props.unit} />
        )
      ) : null}
      {props.tab === 'analytics' ? <AnalyticsTab product={product} /> : null}
    </>
  );
}
