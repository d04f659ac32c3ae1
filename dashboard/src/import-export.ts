/**
 * The Import & export page's pure helpers (docs/import-export.md): an upload's media type by its
 * file name, the next page of a paged answer, and how the export's pages become files.
 */

/** The media types of the upload, by the file name's extension: browsers give `.ndjson` no MIME type. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ndjson: 'application/x-ndjson',
  jsonl: 'application/x-ndjson',
};

/** What the file input offers: the extensions and media types of the three formats. */
export const ACCEPT = [...Object.keys(CONTENT_TYPES).map((extension) => `.${extension}`), ...new Set(Object.values(CONTENT_TYPES))].join(',');

export const contentTypeOf = (fileName: string): string | undefined => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : CONTENT_TYPES[fileName.slice(dot + 1).toLowerCase()];
};

/**
 * The path and query of a `Link: <…>; rel="next"` header's target, resolved against `base` and
 * kept on the dashboard's own origin (its host is dropped).
 */
export function nextLink(link: string | null, base: string): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /^<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (match?.[1] && /(?:^|;)\s*rel="?next"?\s*(?:;|$)/i.test(match[2] ?? '')) {
      const url = new URL(match[1], base);
      return `${url.pathname}${url.search}`;
    }
  }
  return undefined;
}

/** The first line of a CSV page: its header row (no column header holds a line break). */
const headerRow = (csv: string): string => csv.slice(0, csv.indexOf('\n') + 1);

/**
 * The export's pages as the files to save, each file as its parts: one file when the pages can
 * simply be joined (NDJSON always; CSV when every page has the same header row, kept once), else
 * one complete CSV file a page. A CSV page's header has a column for each producer its rows name,
 * so a page with a fourth producer has more columns than the others; each page imports on its own.
 */
export function exportFiles(pages: readonly string[], format: 'csv' | 'ndjson'): string[][] {
  const ended = pages.map((page) => (page && !page.endsWith('\n') ? `${page}${format === 'csv' ? '\r\n' : '\n'}` : page));
  if (format === 'ndjson') return [ended];
  const header = headerRow(ended[0] ?? '');
  if (ended.every((page) => headerRow(page) === header)) return [ended.map((page, i) => (i === 0 ? page : page.slice(header.length)))];
  return ended.map((page) => [page]);
}
