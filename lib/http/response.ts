import type { HttpResult } from './types.ts';

/** A JSON response. */
export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** The media types of an export page's two formats. */
const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' } as const;

/**
 * One page of an export (docs/import-export.md#export) as a download: its format's media type, the
 * file name, no caching, and `Link: rel="next"` when another page follows.
 */
export function exportPage(format: keyof typeof EXPORT_TYPES, fileName: string, body: string, next: string | undefined) {
  return {
    statusCode: 200,
    headers: {
      'Content-Type': EXPORT_TYPES[format],
      'Content-Disposition': `attachment; filename="${fileName}.${format}"`,
      'Cache-Control': 'no-store',
      ...(next ? { Link: `<${next}>; rel="next"` } : {}),
    },
    body,
  };
}
