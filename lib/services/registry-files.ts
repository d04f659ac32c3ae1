import * as z from 'zod';
import { eventPut } from '../data/events.ts';
import { getRegistration, listRegistrations } from '../data/registrations.ts';
import { noteOperatorVerified } from './registrations.ts';
import { getRegistrySettings } from '../data/registry-settings.ts';
import { newEvent, type EventType, type Origin } from '../domain/events.ts';
import type { RegistrationStatus } from '../domain/registry/entry.ts';
import { registryFiles, REGISTRY_FILE_FORMATS, type CheckedEntry } from '../domain/registry/files.ts';
import { registrationIdOf, type RegistrationReason, type RegistrationRecord } from '../domain/registry/registration.ts';
import { registrationReasonSchema, toRegistrationView } from '../domain/registry/settings.ts';
import { parseResultFile, type RegistryResult } from '../domain/registry/results.ts';
import { newSortableId } from '../domain/ids.ts';
import { inParallel } from '../domain/in-parallel.ts';
import type { Tenant } from '../domain/tenant.ts';
import { ApiError, ConflictError, InvalidRequestError, UnsupportedMediaTypeError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { afterCheck, changeRegistration, CHECKED_STATUSES, precheckRecords, storeSource } from './registry-checks.ts';

/**
 * The registry's web upload (docs/registry.md#files-out, #results-in): `POST /v1/registry/files`
 * checks the registrations waiting, puts those that pass in upload files of at most 100 entries and
 * marks them `submitted` under one correlation id; `POST /v1/registry/results` reads the registry's
 * result file back and marks each entry `registered` or `rejected`. Each change of a record is one
 * conditional write with its event in the same transaction.
 */

/** Records one call checks and submits at most; the rest wait for the next call (`more`). */
export const MAX_RECORDS_PER_CALL = 1000;
/** Records read from the waiting lists at most to pick the call's records by level (models first). */
const MAX_RECORDS_READ = 10_000;
/** How long a proof of registration is valid (Art. 9 of Implementing Regulation (EU) 2026/1778; issue 39 only: docs/registry.md). */
export const PROOF_VALIDITY_DAYS = 90;
/** Rows of a result file read or written at once. */
const ROWS_IN_FLIGHT = 8;

export const filesRequestSchema = z
  .strictObject({
    format: z.enum(REGISTRY_FILE_FORMATS).describe('json: an array of entries as the CIRPASS-2 mock takes them; xml: our document (docs/registry.md#the-xml-file)'),
  })
  .meta({ id: 'RegistryFilesRequest' });

export const registryFilesSchema = z
  .object({
    object: z.literal('registry_files'),
    correlationId: z.string().nullable().describe('The file set\'s id (rfs_…), on every record it holds (correlationId); null when no entry was ready'),
    files: z.array(
      z.object({
        name: z.string().describe('registry-001-of-003.json: upload them in this order (models, then batches, then items)'),
        format: z.enum(REGISTRY_FILE_FORMATS),
        mediaType: z.string(),
        entries: z.int().min(1).max(100).describe('Entries in the file: at most 100'),
        sha256: z.string().describe('SHA-256 of content (UTF-8), hex'),
        content: z.string().describe('The file as it is uploaded'),
      }),
    ),
    submitted: z.int().min(0).describe('Registrations marked submitted by this call: the entries of the files'),
    pendingChecks: z
      .array(z.object({ registrationId: z.string(), upi: z.string(), reasons: z.array(registrationReasonSchema) }))
      .describe('The registrations this call checked that stay pending_checks, each with every reason; they are in no file'),
    more: z.boolean().describe(`More registrations wait than one call takes (${MAX_RECORDS_PER_CALL}): call again`),
  })
  .meta({ id: 'RegistryFiles' });
export type RegistryFilesAnswer = z.infer<typeof registryFilesSchema>;

export const registryResultsSchema = z
  .object({
    object: z.literal('registry_results'),
    rows: z.int().min(0).describe('Rows read from the file'),
    registered: z.int().min(0).describe('Registrations marked registered'),
    rejected: z.int().min(0).describe('Registrations marked rejected, with the registry\'s reasons'),
    pending: z.int().min(0).describe('Rows saying the registry has not decided yet: nothing changes'),
    unchanged: z.int().min(0).describe('Rows the records say already (the same file sent again)'),
    unmatched: z
      .array(z.object({ row: z.int(), upi: z.string(), reason: z.string() }))
      .describe('Rows that changed nothing: no registration of the identifier, not submitted, or submitted under another correlationId'),
  })
  .meta({ id: 'RegistryResults' });
export type RegistryResultsAnswer = z.infer<typeof registryResultsSchema>;

const LEVEL = { MODEL: 0, BATCH: 1, ITEM: 2 } as const;


/** The tenant's records waiting for checks or a file, models first, at most MAX_RECORDS_PER_CALL; `more` when others wait. */
async function waiting(tenant: Tenant): Promise<{ records: RegistrationRecord[]; more: boolean }> {
  const found: RegistrationRecord[] = [];
  let more = false;
  for (const status of CHECKED_STATUSES) {
    let cursor: string | undefined;
    do {
      const page = await listRegistrations(tenant, { status }, { limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
      found.push(...page.data);
      cursor = page.nextCursor;
      if (found.length >= MAX_RECORDS_READ) {
        more = more || cursor !== undefined;
        break;
      }
    } while (cursor !== undefined);
  }
  found.sort((a, b) => LEVEL[a.granularity] - LEVEL[b.granularity]);
  return { records: found.slice(0, MAX_RECORDS_PER_CALL), more: more || found.length > MAX_RECORDS_PER_CALL };
}

const reasonView = (reason: RegistrationReason) => ({ source: reason.source, code: reason.code, field: reason.field ?? null, message: reason.message });

/**
 * `POST /v1/registry/files {format}`: checks the tenant's registrations `pending_checks` and `ready`
 * (at most MAX_RECORDS_PER_CALL a call, models first), builds the upload files of those that pass,
 * and marks each `submitted` under one new correlation id (one write each, with its
 * registry.registration.submitted event). The files hold exactly the records marked: one that
 * changed meanwhile is left out. Those that fail stay (or become) `pending_checks` with every
 * reason. 409 naming `enabled` when registration is not on, `submission` when it goes out by the API.
 */
export async function buildRegistryFiles(tenant: Tenant, body: unknown, origin: Origin, now: Date = new Date()): Promise<RegistryFilesAnswer> {
  const { format } = parseBody(filesRequestSchema, body);
  const settings = await getRegistrySettings(tenant);
  if (!settings?.enabled) {
    throw new ConflictError('Registration in the EU registry is not enabled for this environment.', { param: 'enabled', suggestion: 'Turn it on with PUT /v1/registry/settings {enabled: true, …} (docs/registry.md#settings).' });
  }
  // One way out at a time: with submission 'api' the outbox sends the entries, and a file must not send them again (docs/registry.md#the-outbox).
  if (settings.submission === 'api') {
    throw new ConflictError('This environment sends its entries to the registry through its API (submission: api): upload files would send them twice.', {
      param: 'submission',
      suggestion: 'Set submission to files with PUT /v1/registry/settings to upload files instead (docs/registry.md#settings).',
    });
  }
  const stamp = now.toISOString();
  const { records, more } = await waiting(tenant);
  const source = storeSource(tenant, records, stamp.slice(0, 10));
  const checked = await precheckRecords(records, source);
  // Built before anything is written: nothing is marked if the files cannot be made.
  const passing = checked.filter((one) => one.result.ok);
  registryFiles(
    passing.map((one): CheckedEntry => ({ entry: one.entry, result: one.result })),
    format,
  );
  const correlationId = passing.length > 0 ? newSortableId('rfs') : null;

  const pendingChecks: RegistryFilesAnswer['pendingChecks'] = [];
  const marked = new Set<string>();
  await inParallel(checked, ROWS_IN_FLIGHT, async (one) => {
    const sameRecord = (current: RegistrationRecord) => CHECKED_STATUSES.includes(current.status) && JSON.stringify(current.entry) === JSON.stringify(one.record.entry);
    if (!one.result.ok) {
      const written = await changeRegistration(tenant, one.record, (current) => (sameRecord(current) ? (afterCheck(current, one, stamp) ?? 'unchanged') : 'skip'));
      if (written.outcome !== 'skipped') pendingChecks.push({ registrationId: one.record.registrationId, upi: one.entry.upi, reasons: written.record.reasons.map(reasonView) });
      return;
    }
    const written = await changeRegistration(
      tenant,
      one.record,
      (current): RegistrationRecord | 'skip' => {
        if (!sameRecord(current)) return 'skip';
        return {
          ...current,
          entry: one.entry,
          status: 'submitted',
          reasons: [],
          warnings: one.result.warnings.map((w) => ({ source: 'precheck', code: w.code, field: w.field, message: w.message })),
          correlationId: correlationId as string,
          submittedAt: stamp,
          updatedAt: stamp,
          version: current.version + 1,
        };
      },
      (after) => [eventPut(tenant, newEvent('registry.registration.submitted', toRegistrationView(after), origin, stamp))],
    );
    if (written.outcome === 'written') marked.add(one.record.registrationId);
  });

  const built = registryFiles(
    passing.filter((one) => marked.has(one.record.registrationId)).map((one): CheckedEntry => ({ entry: one.entry, result: one.result })),
    format,
  );
  pendingChecks.sort((a, b) => a.upi.localeCompare(b.upi));
  return {
    object: 'registry_files',
    correlationId: marked.size > 0 ? correlationId : null,
    files: built.files.map((file) => ({ name: file.name, format: file.format, mediaType: file.mediaType, entries: file.upis.length, sha256: file.sha256, content: file.body })),
    submitted: marked.size,
    pendingChecks,
    more,
  };
}

/** The result file's media type. */
export const RESULT_FILE_MEDIA_TYPE = 'text/csv';

const addDays = (instant: Date, days: number): string => new Date(instant.getTime() + days * 86_400_000).toISOString();

const registryReasons = (reasons: readonly string[]): RegistrationReason[] => reasons.map((message) => ({ source: 'registry', code: 'registry_rejected', message }));

/** What a result row makes of a record: the record to write, `unchanged` (it says so already), or why the row applies to none. */
export function afterResult(record: RegistrationRecord, row: RegistryResult, now: Date): RegistrationRecord | 'unchanged' | { unmatched: string } {
  if (row.correlationId !== null && record.correlationId !== row.correlationId) {
    return { unmatched: record.correlationId ? `it was submitted under ${record.correlationId}, not ${row.correlationId}` : `it was never submitted in a file (status ${record.status})` };
  }
  const stamp = now.toISOString();
  if (row.outcome === 'registered') {
    if (record.status === 'registered' && (row.registryId === null || record.registryId === row.registryId) && (row.registryUri === null || record.registryUri === row.registryUri)) return 'unchanged';
    if (record.status !== 'submitted') return { unmatched: `its registration is ${record.status}, not submitted` };
    return {
      ...record,
      status: 'registered',
      reasons: [],
      ...(row.registryId === null ? {} : { registryId: row.registryId }),
      ...(row.registryUri === null ? {} : { registryUri: row.registryUri }),
      registeredAt: stamp,
      proofExpiresAt: addDays(now, PROOF_VALIDITY_DAYS),
      updatedAt: stamp,
      version: record.version + 1,
    };
  }
  if (row.outcome === 'rejected') {
    const reasons = registryReasons(row.reasons);
    if (record.status === 'rejected' && JSON.stringify(record.reasons) === JSON.stringify(reasons)) return 'unchanged';
    if (record.status !== 'submitted') return { unmatched: `its registration is ${record.status}, not submitted` };
    return { ...record, status: 'rejected', reasons, ...(row.registryId === null ? {} : { registryId: row.registryId }), updatedAt: stamp, version: record.version + 1 };
  }
  return 'unchanged';
}

const EVENT_OF: Partial<Record<RegistrationStatus, EventType>> = { registered: 'registry.registration.registered', rejected: 'registry.registration.rejected' };

/**
 * `POST /v1/registry/results`: the registry's result file (CSV, docs/registry.md#the-result-file)
 * applied to the tenant's submitted registrations, matched by identifier (and correlation id when
 * the row gives one): `registered` with the registry's id and URI and the proof's expiry, or
 * `rejected` with the registry's reasons, each with its event in the same transaction. A file that
 * cannot be read is refused whole (413, 400, 422 naming the column); a row that matches nothing is
 * reported and changes nothing.
 */
export async function applyRegistryResults(tenant: Tenant, bytes: Buffer, contentType: string | undefined, origin: Origin, now: Date = new Date()): Promise<RegistryResultsAnswer> {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== RESULT_FILE_MEDIA_TYPE) {
    throw new UnsupportedMediaTypeError(mediaType ? `A result file of type ${mediaType} cannot be read: it is CSV.` : 'The result file has no Content-Type.', [RESULT_FILE_MEDIA_TYPE]);
  }
  const parsed = parseResultFile(bytes);
  if (!parsed.ok) {
    const { status, message, param, suggestion } = parsed.problem;
    const options = { ...(param === undefined ? {} : { param }), ...(suggestion === undefined ? {} : { suggestion }) };
    if (status === 413) throw new ApiError(413, 'invalid_request_error', message, options);
    if (status === 400) throw new InvalidRequestError(message, options);
    throw new ValidationError(message, param ?? 'upi', suggestion);
  }
  const stamp = now.toISOString();
  const answer: RegistryResultsAnswer = { object: 'registry_results', rows: parsed.results.length, registered: 0, rejected: 0, pending: 0, unchanged: 0, unmatched: [] };
  await inParallel(parsed.results, ROWS_IN_FLIGHT, async (row) => {
    const unmatched = (reason: string) => answer.unmatched.push({ row: row.row, upi: row.upi, reason });
    if (row.outcome === 'pending') {
      answer.pending++;
      return;
    }
    const record = await getRegistration(tenant, registrationIdOf(tenant.orgId, tenant.environment, row.upi));
    if (!record) return unmatched('No registration of this identifier in this environment.');
    let why = '';
    const written = await changeRegistration(
      tenant,
      record,
      (current) => {
        const after = afterResult(current, row, now);
        if (typeof after === 'object' && 'unmatched' in after) {
          why = after.unmatched;
          return 'skip';
        }
        return after;
      },
      (after) => {
        const type = EVENT_OF[after.status];
        return type ? [eventPut(tenant, newEvent(type, toRegistrationView(after), origin, stamp))] : [];
      },
    );
    if (written.outcome === 'unchanged') answer.unchanged++;
    else if (written.outcome === 'written') answer[written.record.status === 'registered' ? 'registered' : 'rejected']++;
    else unmatched(why ? `Not applied: ${why}.` : 'Not applied: the registration changed meanwhile; send the file again.');
    // The registry took an entry naming its operator: verified there (docs/registry.md#settings).
    if (written.outcome === 'written' && written.record.status === 'registered') await noteOperatorVerified(tenant, written.record.entry.reoId, stamp);
  });
  answer.unmatched.sort((a, b) => a.row - b.row);
  return answer;
}
