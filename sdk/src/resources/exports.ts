import { linkPages, nextLink, queryOf, type LinkPage } from '../pagination.ts';
import { init, ok, okText, type Api, type RequestOptions } from '../request.ts';
import type { Query } from '../types.ts';

export type ProductExportQuery = Omit<Query<'/v1/exports/products', 'get'>, 'starting_after'>;
export type ItemExportQuery = Omit<Query<'/v1/exports/items', 'get'>, 'starting_after' | 'productId'>;
/** One exported row: column header → cell (docs/import-export.md#export). */
export type ExportRow = Record<string, string>;

const pageOf = ({ text, headers }: { text: string; headers: Headers }): LinkPage => {
  const next = nextLink(headers.get('link'));
  return { text, contentType: headers.get('content-type') ?? '', next: next ? queryOf(next) : undefined };
};

async function* rowsOf(pages: AsyncIterable<LinkPage>): AsyncGenerator<ExportRow, void, undefined> {
  for await (const page of pages) {
    for (const line of page.text.split('\n')) if (line.trim()) yield JSON.parse(line) as ExportRow;
  }
}

/**
 * CSV pages as one file: every page repeats the header row, which is kept once (a header cell
 * holds no line break, so the header is the first line).
 */
export async function* csvFile(pages: AsyncIterable<LinkPage>): AsyncGenerator<string, void, undefined> {
  let first = true;
  for await (const page of pages) {
    yield first ? page.text : page.text.slice(page.text.indexOf('\n') + 1);
    first = false;
  }
}

/** The exports (docs/import-export.md): pages of CSV or JSON Lines, each linking the next (`Link: rel="next"`). */
export const exportFiles = (api: Api) => {
  // The next page's query comes from the server's Link header, as text: it is the same operation's.
  const productPages = (query: ProductExportQuery = {}, options?: RequestOptions) =>
    linkPages(query, async (page) => pageOf(await okText(api.GET('/v1/exports/products', { params: { query: page as ProductExportQuery }, parseAs: 'text', ...init(options) }))));
  const itemPages = (productId: string, query: ItemExportQuery = {}, options?: RequestOptions) =>
    linkPages(query, async (page) =>
      pageOf(await okText(api.GET('/v1/exports/items', { params: { query: { ...(page as ItemExportQuery), productId } }, parseAs: 'text', ...init(options) }))),
    );
  return {
    /** The products with their current passports, page after page (CSV by default). */
    productPages,
    /** The same as rows (JSON Lines). */
    products: (query: Omit<ProductExportQuery, 'format'> = {}, options?: RequestOptions) => rowsOf(productPages({ ...query, format: 'ndjson' }, options)),
    /** A product's items with their Digital Links, page after page (CSV by default). */
    itemPages,
    items: (productId: string, query: Omit<ItemExportQuery, 'format'> = {}, options?: RequestOptions) => rowsOf(itemPages(productId, { ...query, format: 'ndjson' }, options)),
    /**
     * The organization's whole archive (docs/import-export.md#leaving-the-archive): `POST
     * /v1/exports/archive` builds it (signing the versions never signed) and answers a presigned URL
     * to the ZIP, valid 15 minutes. A POST without an Idempotency-Key: not sent again after a lost answer.
     */
    archive: (options?: RequestOptions) => ok(api.POST('/v1/exports/archive', init(options))),
  };
};
