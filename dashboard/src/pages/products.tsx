import { useRef, useState } from 'preact/hooks';
import { api, type Environment, type Product, type ProductList as Page } from '../api.ts';
import { ErrorNotice, Field, focusField, FormActions, ListTable, PageHeader, PassportStatusBadge, placeError, SelectField, useLoad, type ListColumn } from '../components.tsx';
import { CATEGORIES } from '../constants.ts';
import { IdentifierFields } from './product.tsx';
import { formatDateTime, printedGtin } from '../format.ts';
import { href, navigate } from '../router.ts';

const PAGE_SIZE = 20;
const PRODUCT_FIELDS = ['name', 'gtin', 'category', 'brand', 'sku', 'economicOperatorId', 'facilityId', 'commodityCode', 'granularity'];

function CreateProductForm(props: { onCancel: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ name: '', gtin: '', category: 'wine', brand: '', sku: '', economicOperatorId: '', facilityId: '', commodityCode: '', granularity: 'model' });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const placed = placeError(error, PRODUCT_FIELDS);
  const set = (field: keyof typeof values) => (event: Event) =>
    setValues((current) => ({ ...current, [field]: (event.currentTarget as HTMLInputElement).value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const body: Record<string, string> = { name: values.name, gtin: values.gtin.trim(), category: values.category };
    if (values.brand.trim()) body.brand = values.brand;
    if (values.sku.trim()) body.sku = values.sku;
    for (const field of ['economicOperatorId', 'facilityId', 'commodityCode'] as const) if (values[field].trim()) body[field] = values[field].trim();
    body.granularity = values.granularity;
    try {
      const created = await api<{ productId: string }>('POST', '/v1/products', { body });
      navigate(href('products', created.productId));
    } catch (failure) {
      setError(failure);
      setBusy(false);
      focusField(form.current, placeError(failure, PRODUCT_FIELDS).field);
    }
  };

  return (
    <form ref={form} class="card form" onSubmit={submit} aria-labelledby="create-product-title" noValidate>
      <h2 id="create-product-title">New product</h2>
      {placed.top ? <ErrorNotice error={placed.top} /> : null}
      <div class="form-grid">
        <Field label="Name" name="name" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" required value={values.name} onInput={set('name')} />}
        </Field>
        <Field label="GTIN" name="gtin" error={error} errorField={placed.field} hint="The 8, 12, 13 or 14 digits under the barcode.">
          {(a) => <input {...a} type="text" inputMode="numeric" autoComplete="off" required value={values.gtin} onInput={set('gtin')} />}
        </Field>
        <SelectField label="Category" name="category" error={error} errorField={placed.field} values={CATEGORIES} value={values.category} onChange={set('category')} />
        <Field label="Brand (optional)" name="brand" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" value={values.brand} onInput={set('brand')} />}
        </Field>
        <Field label="SKU (optional)" name="sku" error={error} errorField={placed.field}>
          {(a) => <input {...a} type="text" value={values.sku} onInput={set('sku')} />}
        </Field>
        <IdentifierFields values={values} set={set} error={error} errorField={placed.field} />
      </div>
      <p class="hint">The QR code printed on the package encodes the product's GTIN and never changes.</p>
      <FormActions submitLabel="Create product" busy={busy} onCancel={props.onCancel} />
    </form>
  );
}

const COLUMNS: readonly ListColumn<Product>[] = [
  { header: 'Name', rowHeader: true, cell: (product) => <a href={href('products', product.productId)}>{product.name}</a> },
  { header: 'GTIN', class: 'mono', cell: (product) => printedGtin(product.gtin) },
  { header: 'Passport', cell: (product) => <PassportStatusBadge passport={product.passport} /> },
  { header: 'Category', class: 'hide-sm', cell: (product) => <span class="badge">{product.category}</span> },
  { header: 'Brand', class: 'hide-sm', cell: (product) => product.brand ?? '—' },
  { header: 'Updated', class: 'nowrap hide-sm', cell: (product) => formatDateTime(product.updatedAt) },
];

/**
 * The first visit: the live environment starts empty while the organization's sample products are
 * in the test environment (lib/services/sandbox.ts). Points to them, or to a first product.
 */
function FirstVisit(props: { environment: Environment; onSwitchEnvironment: ((environment: Environment) => Promise<void>) | undefined; onCreate: () => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const toTest = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onSwitchEnvironment?.('test');
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <section class="empty card first-visit" aria-labelledby="first-visit-title" data-testid="first-visit">
      <h2 id="first-visit-title">{props.environment === 'live' ? 'No live products yet' : 'No products yet'}</h2>
      {props.environment === 'live' && props.onSwitchEnvironment ? (
        <>
          <p>
            Your sample products (a red wine with two passport versions, a food and a textile product) are in the <strong>Test</strong> environment. Try everything
            there first: nothing in Test reaches your customers.
          </p>
          {error ? <ErrorNotice error={error} title="Could not switch" /> : null}
          <p class="actions actions-center">
            <button type="button" class="button" disabled={busy} onClick={() => void toTest()}>
              See the samples in Test
            </button>
            <button type="button" class="button button-secondary" onClick={props.onCreate}>
              Create your first live product
            </button>
          </p>
        </>
      ) : (
        <p class="actions actions-center">
          <button type="button" class="button" onClick={props.onCreate}>
            Create your first product
          </button>
        </p>
      )}
      <ol class="first-steps">
        <li>Create the product: its name and the GTIN under its barcode.</li>
        <li>Fill in its passport and publish it.</li>
        <li>Download its QR code and print it on the label.</li>
      </ol>
    </section>
  );
}

export function ProductsPage(props: { environment: Environment; onSwitchEnvironment?: (environment: Environment) => Promise<void> }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const page = useLoad(
    () => api<Page>('GET', '/v1/products', { query: { limit: PAGE_SIZE, offset, q: query || undefined } }),
    [offset, query],
  );

  const submitSearch = (event: Event) => {
    event.preventDefault();
    setOffset(0);
    setQuery(search.trim());
  };
  const data = page.data;
  const total = data?.pagination?.total ?? 0;
  const first = total === 0 ? 0 : offset + 1;
  const last = offset + (data?.data.length ?? 0);

  return (
    <>
      <PageHeader
        title="Products"
        lead={`Every product has a GS1 Digital Link QR code and a versioned digital product passport (${props.environment} environment).`}
      >
        {!creating ? (
          <button type="button" class="button" onClick={() => setCreating(true)}>
            New product
          </button>
        ) : null}
      </PageHeader>
      {creating ? <CreateProductForm onCancel={() => setCreating(false)} /> : null}
      <form class="toolbar" role="search" onSubmit={submitSearch}>
        <label for="product-search" class="visually-hidden">
          Search products by name or GTIN
        </label>
        <input
          id="product-search"
          type="search"
          placeholder="Search by name or GTIN"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <button type="submit" class="button button-secondary">
          Search
        </button>
        {query ? (
          <button
            type="button"
            class="button button-ghost"
            onClick={() => {
              setSearch('');
              setQuery('');
              setOffset(0);
            }}
          >
            Clear
          </button>
        ) : null}
      </form>
      {data && data.data.length === 0 && !query && offset === 0 && !creating ? (
        <FirstVisit environment={props.environment} onSwitchEnvironment={props.onSwitchEnvironment} onCreate={() => setCreating(true)} />
      ) : (
        <ListTable
          items={data?.data}
          loading={page.loading}
          error={page.error}
          columns={COLUMNS}
          rowKey={(product) => product.productId}
          caption={`Products${query ? ` matching “${query}”` : ''}`}
          empty={query ? `No product matches “${query}”.` : 'No products yet. Create your first product to get its QR code.'}
          testId="products-table"
        />
      )}
      {data && total > 0 ? (
        <nav class="pagination" aria-label="Pages of products">
          <p role="status">
            Showing {first}–{last} of {total}
          </p>
          <div class="actions">
            <button type="button" class="button button-secondary" disabled={offset === 0 || page.loading} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </button>
            <button type="button" class="button button-secondary" disabled={!data.hasMore || page.loading} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </button>
          </div>
        </nav>
      ) : null}
    </>
  );
}
