/**
 * The API's two list forms as async iterators (docs/sdk.md#lists):
 *
 * - the cursor form, `{data, hasMore}`, the next page asked for with `starting_after` set to the
 *   last item's id (every JSON list; a product list's first page is its offset form, which carries
 *   `data` and `hasMore` as well);
 * - the Link form of the exports: each page's `Link: <…>; rel="next"` gives the next page's URL.
 */
export interface CursorPage<T> {
  data: T[];
  hasMore: boolean;
}

/** A list of `T`: `for await (const item of list)` reads page after page; `pages()` gives the pages. */
export class List<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<CursorPage<T>>,
    private readonly idOf: (item: T) => string,
    private readonly startingAfter?: string,
  ) {}

  async *pages(): AsyncGenerator<CursorPage<T>, void, undefined> {
    let after = this.startingAfter;
    for (;;) {
      const page = await this.fetchPage(after);
      yield page;
      const last = page.data.at(-1);
      if (!page.hasMore || last === undefined) return;
      after = this.idOf(last);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The items, at most `max` of them (reads only the pages it needs). */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/** The URL of `rel="next"` in a Link header (RFC 8288), if there is one. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match?.[2] ?? '');
    if (match && (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).includes('next')) return match[1];
  }
  return undefined;
}

/** The query of a Link-form page: the caller's first, then that of each `rel="next"` URL. */
export type LinkQuery = Record<string, string | number>;

/** One page of a Link-form list: its body as text and the next page's query, if any. */
export interface LinkPage {
  text: string;
  contentType: string;
  next: LinkQuery | undefined;
}

/** The pages of a Link-form list: `fetchPage` gets each page's query (the next URL stays on the same path). */
export async function* linkPages(first: LinkQuery, fetchPage: (query: LinkQuery) => Promise<LinkPage>): AsyncGenerator<LinkPage, void, undefined> {
  let query: LinkQuery | undefined = first;
  while (query) {
    const page: LinkPage = await fetchPage(query);
    yield page;
    query = page.next;
  }
}

/** The query parameters of a (relative) next-page URL. */
export const queryOf = (url: string): LinkQuery => Object.fromEntries(new URL(url, 'http://next.invalid').searchParams);
