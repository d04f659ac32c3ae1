import { defineApiHandler, pathParam, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { importQuerySchema, importListQuerySchema, queuedImportSchema, toImportSummary, toImportView } from '../../lib/domain/imports.ts';
import { json } from '../../lib/http/response.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { startImport } from '../../lib/services/import-upload.ts';
import { startItemImport } from '../../lib/services/imports-items-upload.ts';
import { ValidationError } from '../../lib/http/errors.ts';
import { listImports, requireImport } from '../../lib/services/imports.ts';
import { CSV_TYPE, templateCsv, templateXlsx, XLSX_TYPE } from '../../lib/services/templates.ts';

/**
 * Bulk import jobs (docs/imports.md). The upload's body is the file itself (CSV, XLSX or JSON
 * Lines, by its Content-Type), read raw: the route table gives it `rawBody` and a 5 MB limit.
 */
async function postImport(request: ApiRequest) {
  const { dryRun, fileName, type, productId, force, mode } = parseQuery(importQuerySchema, request.event.queryStringParameters, ['dryRun', 'fileName', 'type', 'productId', 'force', 'mode']);
  // An items file names its product (docs/import-export.md#items); a products file names none.
  if (type === 'items' && productId === undefined) throw new ValidationError('productId is required with type=items: it names the product whose items the file registers.', 'productId');
  if (type !== 'items' && productId !== undefined) throw new ValidationError('productId goes with type=items only: a products file names its products by GTIN.', 'productId');
  // How a known serial is updated (docs/imports.md#merge-or-replace): a products file has no such choice.
  if (type !== 'items' && mode !== undefined) throw new ValidationError('mode goes with type=items only: it says how a known serial is updated (merge or replace).', 'mode');
  const bytes = request.body as Buffer;
  const options = { dryRun: dryRun === 'true', force: force === 'true', origin: originOf(request), ...(fileName === undefined ? {} : { fileName }) };
  const contentType = request.event.headers?.['content-type'];
  const job =
    type === 'items' && productId !== undefined
      ? await startItemImport(request.principal.tenant, productId, bytes, contentType, { ...options, ...(mode === undefined ? {} : { mode }) })
      : await startImport(request.principal.tenant, bytes, contentType, options);
  if (dryRun === 'true') return json(200, toImportView(job, true));
  return json(202, queuedImportSchema.parse({ id: job.importId, status: 'queued' }), { Location: `/v1/imports/${job.importId}` });
}

async function getImports(request: ApiRequest) {
  const { limit, starting_after } = parseQuery(importListQuerySchema, request.event.queryStringParameters, ['limit', 'starting_after']);
  const page = await listImports(request.principal.tenant, limit, starting_after);
  return json(200, { data: page.jobs.map(toImportSummary), hasMore: page.hasMore });
}

async function getOneImport(request: ApiRequest) {
  const job = await requireImport(request.principal.tenant, pathParam(request, 'importId'));
  return json(200, toImportView(job));
}

/** The import template as CSV: the header row and a row of examples (docs/import-export.md#the-template). */
async function getTemplateCsv() {
  return {
    statusCode: 200,
    headers: { 'Content-Type': CSV_TYPE, 'Content-Disposition': 'attachment; filename="import-template.csv"' },
    body: templateCsv(),
  };
}

/** The same as an Excel workbook; binary, so base64-encoded for API Gateway. */
async function getTemplateXlsx() {
  return {
    statusCode: 200,
    headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': 'attachment; filename="import-template.xlsx"' },
    body: (await templateXlsx()).toString('base64'),
    isBase64Encoded: true,
  };
}

export const handler = defineApiHandler('imports', {
  'POST /v1/imports': postImport,
  'GET /v1/imports': getImports,
  'GET /v1/imports/{importId}': getOneImport,
  'GET /v1/imports/template.csv': getTemplateCsv,
  'GET /v1/imports/template.xlsx': getTemplateXlsx,
});
