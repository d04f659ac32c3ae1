import { requireBrandHost } from './battery-items.ts';
import { eventPut } from '../data/events.ts';
import { sendImportChunks } from '../data/import-queue.ts';
import { abandonImportJob, insertImportJob } from '../data/imports.ts';
import { newEvent } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import { restoreCells } from '../domain/import-columns.ts';
import { finalStatus, ITEM_CHUNK_MAX_BYTES, MAX_IMPORT_ERRORS, MAX_ROW_CHANGES, sortRowErrors, toImportView, zeroCounts, type ImportCounts, type ImportRecord, type ItemImportMode } from '../domain/imports.ts';
import type { Tenant } from '../domain/tenant.ts';
import { checkItemHeaders, NULL_CELL, NULL_LINE_CELL } from '../domain/unit-columns.ts';
import { unitSpecOf } from '../domain/unit-data.ts';
import { ValidationError } from '../http/errors.ts';
import { parseItemsFile } from './import-files.ts';
import type { UploadOptions } from './import-upload.ts';
import { checkItemRows, countItemPlans, planItemChunks, planItemRows, rowChangesOf } from './imports-items.ts';
import { requireProduct } from './products.ts';

/**
 * The upload of an items file (`POST /v1/imports?type=items&productId=…`, docs/import-export.md#items),
 * apart from the worker's code so that the worker's bundle carries no file parser: the file is
 * parsed within its budgets (unchanged by the modes: docs/security.md#parser-budgets), every row
 * checked against the product's category and read as the mode says (merge, the default, or
 * replace: docs/imports.md#merge-or-replace), then either the
 * dry run's report is answered (every row decided against the stored items, nothing written) or the
 * job is stored with one small marker item per chunk and each chunk queued with its rows.
 */
export async function startItemImport(tenant: Tenant, productId: string, bytes: Buffer, contentType: string | undefined, options: UploadOptions & { mode?: ItemImportMode }): Promise<ImportRecord> {
  const now = options.now ?? new Date().toISOString();
  const file = parseItemsFile(bytes, contentType, NULL_LINE_CELL);
  const product = await requireProduct(tenant, productId, 'productId');
  // A live battery's items need the organization's brand domain, checked before the file is read further (docs/brand-domains.md#battery-items).
  if (product.category === 'battery') await requireBrandHost(tenant, product, options.force === true);
  const [headerError] = checkItemHeaders(file.headers, unitSpecOf(product.category).columnDepth);
  if (headerError) throw new ValidationError(headerError.message, headerError.column, 'Use the columns of an items file: serial, lot, status and data.{member} (docs/import-export.md#items).');
  // A CSV's cells come back as the export wrote them: one neutralising quote removed (docs/import-export.md#export).
  const rows = file.format === 'ndjson' ? file.rows : file.rows.map((row) => ({ ...row, cells: restoreCells(row.cells) }));
  // A known serial keeps what its row does not name unless the upload asks to replace (docs/imports.md#merge-or-replace).
  const mode = options.mode ?? 'merge';
  const checked = checkItemRows(product, rows, mode, file.format === 'ndjson' ? NULL_LINE_CELL : NULL_CELL);
  const plan = planItemChunks(checked.valid);
  if (!plan.ok) {
    throw new ValidationError(
      `Row ${plan.row} is too large to import: its item takes ${plan.bytes} bytes, and a row may take at most ${ITEM_CHUNK_MAX_BYTES} (docs/import-export.md#items).`,
      `row ${plan.row}`,
      'Shorten the row\'s data, or register the item with PUT /v1/products/{productId}/items/{serial}.',
    );
  }
  const counts: ImportCounts = { ...zeroCounts(rows.length), failed: checked.failed };
  const job: ImportRecord = {
    importId: newSortableId('imp'),
    ...tenant,
    status: 'queued',
    format: file.format,
    type: 'items',
    productId: product.productId,
    mode,
    ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
    chunks: plan.chunks.length,
    chunksDone: 0,
    counts,
    errors: checked.errors.slice(0, MAX_IMPORT_ERRORS),
    errorsTruncated: checked.errors.length > MAX_IMPORT_ERRORS,
    createdAt: now,
    updatedAt: now,
  };
  if (options.dryRun) {
    const plans = await planItemRows(tenant, product, checked.valid, now, mode);
    const counted = countItemPlans(plans);
    const errors = sortRowErrors([...checked.errors, ...counted.errors]);
    const all = { ...counts, created: counted.created, updated: counted.updated, unchanged: counted.unchanged, failed: counts.failed + counted.failed };
    // Per row, what it would change (one past the listed ones tells that more would).
    const rowChanges = rowChangesOf(plans, MAX_ROW_CHANGES + 1);
    return { ...job, status: finalStatus(all), counts: all, errors: errors.slice(0, MAX_IMPORT_ERRORS), errorsTruncated: errors.length > MAX_IMPORT_ERRORS, rowChanges, finishedAt: now };
  }
  const stored = plan.chunks.length ? job : { ...job, status: finalStatus(counts), finishedAt: now };
  // Each chunk's item is a marker without rows: its rows travel in its message.
  await insertImportJob(stored, plan.chunks.map(() => []), {
    requestId: options.origin.requestId,
    events: [eventPut(tenant, newEvent('import.created', toImportView(stored), options.origin, now))],
  });
  if (plan.chunks.length) {
    try {
      await sendImportChunks(plan.chunks.map((rows, chunk) => ({ ...tenant, importId: job.importId, chunk, items: { productId: product.productId, rows, mode } })));
    } catch (error) {
      await abandonImportJob(tenant, job.importId, plan.chunks.length, new Date().toISOString()).catch(() => undefined);
      throw error;
    }
  }
  return stored;
}
