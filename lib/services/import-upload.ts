import { sendImportChunks } from '../data/import-queue.ts';
import { eventPut } from '../data/events.ts';
import { abandonImportJob, insertImportJob, planChunks, type StoredRow } from '../data/imports.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import { restoreCells } from '../domain/import-columns.ts';
import { finalStatus, IMPORT_CHUNK_MAX_BYTES, IMPORT_CHUNK_ROWS, MAX_IMPORT_ERRORS, toImportView, zeroCounts, type ImportCounts, type ImportRecord } from '../domain/imports.ts';
import type { Tenant } from '../domain/tenant.ts';
import { ValidationError } from '../http/errors.ts';
import { parseImportFile } from './import-files.ts';
import { checkRows, countPlans, planRows } from './imports.ts';

/**
 * The upload of a bulk import (docs/imports.md), apart from the worker's code in imports.ts so
 * that the import worker's bundle does not carry the file parsers (exceljs).
 */
export interface UploadOptions {
  dryRun: boolean;
  now?: string;
  /**
   * Who uploads: the job's `import.created` event joins its put, and the rows' events carry the
   * upload's request id (docs/lifecycle.md#event-log). A dry run writes nothing.
   */
  origin: Origin;
  /** The uploaded file's name, as the upload gave it (`?fileName=`), kept on the job for people to recognise it. */
  fileName?: string;
  /** Items of a live battery model on the platform's host are registered all the same (`?force=true`, docs/brand-domains.md#battery-items). */
  force?: boolean;
}

/**
 * Takes an upload: parses and checks it, then either answers the report of a dry run (every row
 * decided against the tenant's data, nothing written) or stores the job and its chunks and queues
 * one message per chunk.
 */
export async function startImport(tenant: Tenant, bytes: Buffer, contentType: string | undefined, options: UploadOptions): Promise<ImportRecord> {
  const now = options.now ?? new Date().toISOString();
  const file = await parseImportFile(bytes, contentType);
  // A spreadsheet's cells come back as the export wrote them: one neutralising quote removed (docs/import-export.md#export).
  const rows = file.format === 'ndjson' ? file.rows : file.rows.map((row) => ({ ...row, cells: restoreCells(row.cells) }));
  const checked = checkRows(rows);
  const counts: ImportCounts = { ...zeroCounts(rows.length), failed: checked.failed };
  const importId = newSortableId('imp');
  // Chunks by rows and by bytes, in the dry run too, so that both refuse the same files.
  const plan = planChunks({ ...tenant, importId, createdAt: now }, checked.valid, options.origin.requestId, IMPORT_CHUNK_ROWS, IMPORT_CHUNK_MAX_BYTES);
  if (!plan.ok) {
    throw new ValidationError(
      `Row ${plan.row} is too large to import: stored, it would take ${plan.bytes} bytes, and a row may take at most ${IMPORT_CHUNK_MAX_BYTES} (docs/import-export.md#limits).`,
      `row ${plan.row}`,
      'Shorten the row (fewer or shorter ingredients and translations, no padding in its cells), or publish its passport through POST /v1/passports.',
    );
  }
  const chunks: StoredRow[][] = plan.chunks;
  const job: ImportRecord = {
    importId,
    ...tenant,
    status: 'queued',
    format: file.format,
    ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
    chunks: chunks.length,
    chunksDone: 0,
    counts,
    errors: checked.errors.slice(0, MAX_IMPORT_ERRORS),
    errorsTruncated: checked.errors.length > MAX_IMPORT_ERRORS,
    createdAt: now,
    updatedAt: now,
  };
  if (options.dryRun) {
    const errors = [...checked.errors];
    for (const chunk of chunks) {
      const counted = countPlans(await planRows(tenant, chunk, now));
      counts.created += counted.created;
      counts.updated += counted.updated;
      counts.unchanged += counted.unchanged;
      counts.failed += counted.failed;
      errors.push(...counted.errors);
    }
    return { ...job, status: finalStatus(counts), counts, errors: errors.slice(0, MAX_IMPORT_ERRORS), errorsTruncated: errors.length > MAX_IMPORT_ERRORS, finishedAt: now };
  }
  // Nothing to import (every row failed its checks): the job is finished as it is stored.
  const stored = chunks.length ? job : { ...job, status: finalStatus(counts), finishedAt: now };
  await insertImportJob(stored, chunks, {
    requestId: options.origin.requestId,
    events: [eventPut(tenant, newEvent('import.created', toImportView(stored), options.origin, now))],
  });
  if (chunks.length) {
    try {
      await sendImportChunks(chunks.map((_, chunk) => ({ orgId: tenant.orgId, environment: tenant.environment, importId: job.importId, chunk })));
    } catch (error) {
      // The job is stored but its chunks may not all be queued: fail it rather than leave it waiting forever.
      await abandonImportJob(tenant, job.importId, chunks.length, new Date().toISOString()).catch(() => undefined);
      throw error;
    }
  }
  return stored;
}

