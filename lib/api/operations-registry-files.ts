import * as z from 'zod';
import { MAX_ENTRIES_PER_FILE } from '../domain/registry/files.ts';
import { MAX_RESULT_FILE_BYTES, MAX_RESULT_ROWS, RESULT_FILE_COLUMNS } from '../domain/registry/results.ts';
import { filesRequestSchema, MAX_RECORDS_PER_CALL, PROOF_VALIDITY_DAYS, registryFilesSchema, registryResultsSchema } from '../services/registry-files.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of the EU registry's web upload: the upload files out, the result file in (docs/registry.md#files-out). */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function registryFileOperations(): Record<string, OperationDoc> {
  return {
    'POST /v1/registry/files': {
      summary: "Build the EU registry's upload files",
      description: [
        `Runs the pre-checks (docs/registry.md#pre-checks) on the registrations pending_checks and ready, at most ${MAX_RECORDS_PER_CALL} a call (models, then batches, then items; more: true when others wait), and builds JSON or XML files of at most ${MAX_ENTRIES_PER_FILE} entries of those that pass, models first: upload them in their order.`,
        'Each registration in a file is marked submitted with the call\'s correlationId (one registry.registration.submitted event each); those that fail stay pending_checks with every reason and are in no file. A POST, not a GET: it changes the registrations (docs/decisions.md).',
        '409 conflict naming enabled when registration is not enabled in this environment; 422 naming format.',
      ].join(' '),
      tag: 'Registry',
      body: filesRequestSchema,
      responses: { 200: { description: 'The files (none when nothing passed), and what stays pending_checks', schema: registryFilesSchema } },
      errors: [400, ...API_KEY_ERRORS, 409, 413, 422],
    },
    'POST /v1/registry/results': {
      summary: "Read the EU registry's result file back",
      description: [
        `The body is the registry's result file: CSV (text/csv), UTF-8, one header row, the columns ${RESULT_FILE_COLUMNS.join(', ')} in any order (upi and status required), at most ${MAX_RESULT_FILE_BYTES} bytes and ${MAX_RESULT_ROWS} rows (docs/registry.md#the-result-file).`,
        `Each row is matched by upi (and correlationId when given) to a submitted registration: registered sets registryId, registryUri, registeredAt and proofExpiresAt (${PROOF_VALIDITY_DAYS} days on) with a registry.registration.registered event; rejected keeps the registry's reasons with a registry.registration.rejected event; pending changes nothing.`,
        'A row that matches nothing is listed in unmatched and changes nothing. A file that cannot be read is refused whole: 413 past the budget, 400 for bytes that are not UTF-8 CSV, 422 naming the column at fault; 415 for another Content-Type.',
      ].join(' '),
      tag: 'Registry',
      bodyContent: { 'text/csv': z.string().meta({ description: 'The result file: CSV, UTF-8, the header row first' }) },
      responses: { 200: { description: 'What the file changed', schema: registryResultsSchema } },
      errors: [400, ...API_KEY_ERRORS, 413, 415, 422],
    },
  };
}
