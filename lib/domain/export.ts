import * as z from 'zod';

/** The formats of the product export (docs/import-export.md#export). */
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The most rows one page of the export holds. */
export const MAX_EXPORT_ROWS = 1_000;

/** `GET /v1/exports/products`: the format, the page size and the cursor (a productId). */
export const exportQuerySchema = z.strictObject({
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of: ${EXPORT_FORMATS.join(', ')}.` })
    .default('csv')
    .describe('csv (the import template\'s columns, header row first) or ndjson (one JSON object a line, keyed by the same column headers); default csv'),
  limit: z.coerce
    .number({ error: 'limit must be an integer.' })
    .int({ error: 'limit must be an integer.' })
    .min(1, { error: 'limit must be at least 1.' })
    .max(MAX_EXPORT_ROWS, { error: `limit must be at most ${MAX_EXPORT_ROWS}.` })
    .default(MAX_EXPORT_ROWS)
    .describe(`Rows a page, 1 to ${MAX_EXPORT_ROWS}; default ${MAX_EXPORT_ROWS}`),
  starting_after: z
    .uuid({ error: 'starting_after must be the productId (a UUID) of the last row of the previous page.' })
    .optional()
    .describe('Cursor: the productId of the last row of the previous page (the Link header gives the next page\'s URL)'),
});
