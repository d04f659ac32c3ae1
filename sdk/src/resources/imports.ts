import { List } from '../pagination.ts';
import { init, ok, okText, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import { sleep } from '../retry.ts';
import type { ImportJob, ImportJobSummary, Query } from '../types.ts';

/** What an import file is: CSV, an Excel workbook or JSON Lines (docs/imports.md). */
export type ImportFormat = 'csv' | 'xlsx' | 'ndjson';

export const IMPORT_MEDIA_TYPES: Readonly<Record<ImportFormat, string>> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ndjson: 'application/x-ndjson',
};

export type ImportFile = string | Blob | Uint8Array | ArrayBuffer;

export interface CreateImportOptions extends CreateOptions, Omit<Query<'/v1/imports', 'post'>, 'dryRun'> {
  format: ImportFormat;
  /** Check every row and answer the report; nothing is written. */
  dryRun?: boolean;
}

export interface WaitOptions extends RequestOptions {
  /** Time between two reads of the job. Default 1 s. */
  intervalMs?: number;
  /** Called with the job after each read, for a progress bar. */
  onProgress?: (job: ImportJob) => void;
}

/** Rows of the job done so far (created, updated, unchanged or failed). */
export const rowsDone = (job: Pick<ImportJob, 'counts'>): number => job.counts.created + job.counts.updated + job.counts.unchanged + job.counts.failed;
export const isFinished = (job: Pick<ImportJob, 'status'>): boolean => job.status === 'succeeded' || job.status === 'failed';

/** Bulk import jobs (docs/imports.md). */
export const imports = (api: Api) => {
  const get = (importId: string, options?: RequestOptions) => ok(api.GET('/v1/imports/{importId}', { params: { path: { importId } }, ...init(options) }));
  return {
    /**
     * Uploads a file: answers the queued job (`{id, status}`), or with `dryRun` the finished
     * report. `type: 'items'` with `productId` registers that product's items.
     */
    create: (file: ImportFile, { format, dryRun, signal, idempotencyKey, ...query }: CreateImportOptions) =>
      ok(
        api.POST('/v1/imports', {
          params: { query: { ...query, ...(dryRun === undefined ? {} : { dryRun: dryRun ? 'true' : 'false' }) } },
          // The file goes as it is: the serializer hands fetch the bytes instead of JSON.
          body: '',
          bodySerializer: () => file,
          ...init({ ...(signal ? { signal } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) }, { 'Content-Type': IMPORT_MEDIA_TYPES[format] }),
        }),
      ),
    /** Import jobs, newest first, without their row errors. */
    list: (query: Omit<Query<'/v1/imports', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
      new List<ImportJobSummary>(
        (after) => ok(api.GET('/v1/imports', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
        (job) => job.id,
      ),
    get,
    /** Reads the job until it has succeeded or failed, and answers it then. */
    wait: async (importId: string, { intervalMs = 1000, onProgress, ...options }: WaitOptions = {}): Promise<ImportJob> => {
      for (;;) {
        const job = await get(importId, options);
        onProgress?.(job);
        if (isFinished(job)) return job;
        await sleep(intervalMs, options.signal);
      }
    },
    /** The import template, a header row and an example row, as CSV text. */
    templateCsv: async (options?: RequestOptions) => (await okText(api.GET('/v1/imports/template.csv', { parseAs: 'text', ...init(options) }))).text,
    /** The import template as an Excel workbook's bytes. */
    templateXlsx: async (options?: RequestOptions) => new Uint8Array(await ok(api.GET('/v1/imports/template.xlsx', { parseAs: 'arrayBuffer', ...init(options) }))),
  };
};
