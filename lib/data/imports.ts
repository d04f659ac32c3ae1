import { BatchGetCommand, BatchWriteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ImportCounts, ImportRecord, ImportRowError, ImportStatus } from '../domain/imports.ts';
import { finalStatus, MAX_IMPORT_ERRORS } from '../domain/imports.ts';
import { DATA_UNITS, toCurrentUnits } from '../domain/battery/units-migration.ts';
import type { PassportVersion } from '../domain/passport.ts';
import { PASSPORT_JSON_COLUMN } from '../domain/passport-kinds.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Environment, Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { itemBytes, valueBytes } from './item-size.ts';
import { cancellationReasons, isConditionFailure, retryOnConflict } from './errors.ts';
import { gtinSk, IMPORT_PREFIX, importChunkSk, importSk, productSk, tenantPk } from './keys.ts';
import type { LabelTermSetRef } from '../domain/labelling-term.ts';
import { storedPassport, versionItems } from './passports.ts';
import { passportFromItem } from './public-reads.ts';
import { fromItem as productFromItem, toItem as productToItem } from './products.ts';
import { beginsWith, queryItems } from './query.ts';
import { putNew, type TransactItem } from './writes.ts';

/**
 * Bulk import jobs, in the tenant's partition (docs/imports.md):
 * - `IMPORT#{importId}`: the job: status, counts (ADDed once per chunk), the row errors (at most
 *   MAX_IMPORT_ERRORS listed), chunks queued and done. Ids sort by time: a reversed query lists
 *   newest first.
 * - `IMPORTCHUNK#{importId}#{n}`: the rows of one SQS message (a message holds at most 256 KiB,
 *   a 5 MB file does not fit, so the message only names its chunk): at most IMPORT_CHUNK_ROWS rows
 *   and IMPORT_CHUNK_MAX_BYTES bytes (planChunks), the outcome of each row whose writes are done
 *   (written in the row's own transaction) and the chunk's `done` marker (written in the transaction
 *   that adds its counts to the job). Chunks expire after 14 days.
 */
type Item = Record<string, unknown>;
type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** One data row as read from the file: its row number and its cells by header as written. */
export interface StoredRow {
  row: number;
  cells: Record<string, string>;
}

export type RowOutcome = 'created' | 'updated';

export interface ImportChunk {
  importId: string;
  chunk: number;
  rows: StoredRow[];
  /** Rows whose writes are done, by row number: a redelivered chunk skips them and counts them as recorded. */
  outcomes: Record<string, RowOutcome>;
  done: boolean;
  /** The Request-Id of the upload, which the events of the chunk's rows carry (docs/lifecycle.md#event-log). */
  requestId: string | null;
  /**
   * Whether the rows came in the units of DIN DKE SPEC 99100 (docs/battery.md#units): false for a chunk
   * uploaded before, whose battery passports getImportChunk converts and whose item rows (in the
   * chunk's message) the worker converts.
   */
  currentUnits: boolean;
}

/** Which row a write belongs to: its outcome is recorded on the chunk in the write's own transaction. */
export interface RowMark {
  importId: string;
  chunk: number;
  row: number;
}

const CHUNK_TTL_SECONDS = 14 * 24 * 60 * 60;
const COUNT_FIELDS = ['rows', 'created', 'updated', 'unchanged', 'failed'] as const;

function jobFromItem(item: Item): ImportRecord {
  const counts = Object.fromEntries(COUNT_FIELDS.map((field) => [field, Number(item[`${field}Count`] ?? 0)])) as unknown as ImportCounts;
  return {
    importId: String(item.importId),
    orgId: String(item.orgId),
    environment: item.environment as Environment,
    status: item.status as ImportStatus,
    format: item.format as ImportRecord['format'],
    ...(typeof item.fileName === 'string' ? { fileName: item.fileName } : {}),
    ...(item.importType === 'items' || item.importType === 'products' ? { type: item.importType } : {}),
    ...(typeof item.productId === 'string' ? { productId: item.productId } : {}),
    ...(item.mode === 'merge' || item.mode === 'replace' ? { mode: item.mode } : {}),
    chunks: Number(item.chunks ?? 0),
    chunksDone: Number(item.chunksDone ?? 0),
    counts,
    errors: Array.isArray(item.errors) ? (item.errors as ImportRowError[]) : [],
    errorsTruncated: item.errorsTruncated === true,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.finishedAt === 'string' ? { finishedAt: item.finishedAt } : {}),
  };
}

function jobToItem(job: ImportRecord): Item {
  // The job's own type (products or items) is `importType`: `type` names the kind of table item.
  const { counts, type: importType, ...rest } = job;
  return {
    PK: tenantPk(job),
    SK: importSk(job.importId),
    type: 'import',
    ...(importType === undefined ? {} : { importType }),
    ...rest,
    ...Object.fromEntries(COUNT_FIELDS.map((field) => [`${field}Count`, counts[field]])),
  };
}

/** A chunk item as insertImportJob writes it. */
function chunkItem(job: Pick<ImportRecord, 'orgId' | 'environment' | 'importId' | 'createdAt'>, n: number, rows: readonly StoredRow[], requestId: string | null): Item {
  const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + CHUNK_TTL_SECONDS;
  // dataUnits: the rows came in the units of DIN DKE SPEC 99100; a chunk stored before without it is read converted (docs/battery.md#units).
  return { PK: tenantPk(job), SK: importChunkSk(job.importId, n), type: 'importChunk', importId: job.importId, chunk: n, rows, outcomes: {}, expiresAt, requestId, dataUnits: DATA_UNITS };
}

/** What a chunk item grows by when the worker is done with it: the `done` marker (it also empties `rows`). */
const DONE_BYTES = itemBytes({ done: true });

/**
 * What one row adds to its chunk item: its list element, and the room of its outcome
 * (`outcomes.{row}`: created or updated), which the worker writes later on the same item.
 */
const rowBytes = (row: StoredRow): number => 1 + valueBytes(row) + 1 + Buffer.byteLength(String(row.row)) + valueBytes('created');

/** Rows split into chunks, or the first row that alone makes a chunk item larger than the budget. */
export type ChunkPlan = { ok: true; chunks: StoredRow[][] } | { ok: false; row: number; bytes: number };

/**
 * Splits rows, in order, into chunks of at most `maxRows` rows whose item (lib/data/item-size.ts),
 * once the worker has recorded every row's outcome and the done marker, takes at most `maxBytes`.
 * A row that does not fit even alone is answered instead (`bytes`: its chunk item's size).
 */
export function planChunks(
  job: Pick<ImportRecord, 'orgId' | 'environment' | 'importId' | 'createdAt'>,
  rows: readonly StoredRow[],
  requestId: string | null,
  maxRows: number,
  maxBytes: number,
): ChunkPlan {
  const chunks: StoredRow[][] = [];
  let current: StoredRow[] = [];
  let bytes = 0;
  const base = (n: number) => itemBytes(chunkItem(job, n, [], requestId)) + DONE_BYTES;
  for (const row of rows) {
    const size = rowBytes(row);
    if (current.length > 0 && (current.length >= maxRows || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
    }
    if (current.length === 0) {
      bytes = base(chunks.length);
      if (bytes + size > maxBytes) return { ok: false, row: row.row, bytes: bytes + size };
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return { ok: true, chunks };
}

/**
 * Stores a job's chunks (BatchWriteItem, 25 a call), then the job. The chunks come first: until
 * the job exists nothing reads them, and chunks of a job that was never written expire. Each chunk
 * keeps the upload's `requestId` for its rows' events; `events` join the job's put (its
 * `import.created`, docs/lifecycle.md#event-log).
 */
export async function insertImportJob(
  job: ImportRecord,
  chunks: readonly StoredRow[][],
  upload: { requestId?: string | null; events?: TransactItem[] } = {},
): Promise<void> {
  const puts = chunks.map((rows, n) => ({ PutRequest: { Item: chunkItem(job, n, rows, upload.requestId ?? null) } }));
  for (let i = 0; i < puts.length; i += 25) {
    let requests: typeof puts = puts.slice(i, i + 25);
    for (let attempt = 1; requests.length; attempt++) {
      const { UnprocessedItems } = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (UnprocessedItems?.[tableName()] ?? []) as typeof puts;
      if (requests.length && attempt >= 8) throw new Error(`Could not store ${requests.length} import chunks`);
      if (requests.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
  await db().send(new TransactWriteCommand({ TransactItems: [putNew(jobToItem(job)), ...(upload.events ?? [])] }));
}

export async function getImportJob(tenant: Tenant, importId: string, consistent = false): Promise<ImportRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: importSk(importId) }, ConsistentRead: consistent }));
  return Item ? jobFromItem(Item) : undefined;
}

/** Newest first: `limit` jobs older than `startingAfter` (or from the newest). */
export async function listImportJobs(tenant: Tenant, limit: number, startingAfter?: string): Promise<{ jobs: ImportRecord[]; hasMore: boolean }> {
  const pk = tenantPk(tenant);
  const page = await queryItems(
    { ...beginsWith(pk, IMPORT_PREFIX), ScanIndexForward: false },
    { limit, ...(startingAfter ? { startKey: { PK: pk, SK: importSk(startingAfter) } } : {}) },
  );
  return { jobs: page.items.map(jobFromItem), hasMore: page.hasMore };
}

export async function getImportChunk(tenant: Tenant, importId: string, chunk: number): Promise<ImportChunk | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: importChunkSk(importId, chunk) }, ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const currentUnits = Item.dataUnits === DATA_UNITS;
  const rows = (Item.rows ?? []) as StoredRow[];
  return {
    importId,
    chunk,
    rows: currentUnits ? rows : rows.map(rowInCurrentUnits),
    outcomes: (Item.outcomes ?? {}) as Record<string, RowOutcome>,
    done: Item.done === true,
    requestId: typeof Item.requestId === 'string' ? Item.requestId : null,
    currentUnits,
  };
}

/** A product row uploaded before the units changed: its battery passport (the `passport` column's JSON) converted; any other row as it is. */
function rowInCurrentUnits(row: StoredRow): StoredRow {
  const cell = row.cells[PASSPORT_JSON_COLUMN];
  if (cell === undefined) return row;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    return row; // the worker refuses it with its message, as it would have
  }
  const { data, conversions } = toCurrentUnits(parsed);
  return conversions.length === 0 ? row : { ...row, cells: { ...row.cells, [PASSPORT_JSON_COLUMN]: JSON.stringify(data) } };
}

/** A GTIN item as a bulk import compares against it. */
export interface GtinView {
  productId: string;
  passport?: PassportVersion;
}

/** BatchGetItem of up to 100 keys, again for the keys DynamoDB left unprocessed. */
async function batchGet(keys: readonly { PK: string; SK: string }[]): Promise<Item[]> {
  const items: Item[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + 100);
    for (let attempt = 1; pending.length; attempt++) {
      const { Responses, UnprocessedKeys } = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(Responses?.[tableName()] ?? []));
      pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
      if (pending.length && attempt >= 8) throw new Error(`Could not read ${pending.length} items`);
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
  return items;
}

/** The GTIN items of `gtins` (GTIN-14) the tenant has, with their current passports: one call per 100. */
export async function readGtinViews(tenant: Tenant, gtins: readonly string[]): Promise<Map<string, GtinView>> {
  const pk = tenantPk(tenant);
  const items = await batchGet([...new Set(gtins)].map((gtin) => ({ PK: pk, SK: gtinSk(gtin) })));
  return new Map(
    items.map((item) => [
      String(item.gtin),
      { productId: String(item.productId), ...(item.passport ? { passport: passportFromItem(item.passport as Record<string, unknown>) } : {}) },
    ]),
  );
}

/** The tenant's products of `productIds`: one call per 100. */
export async function readProducts(tenant: Tenant, productIds: readonly string[]): Promise<Map<string, ProductRecord>> {
  const pk = tenantPk(tenant);
  const items = await batchGet([...new Set(productIds)].map((id) => ({ PK: pk, SK: productSk(id) })));
  return new Map(items.map((item) => [String(item.productId), productFromItem(item)]));
}

/** The chunk's record of a row's outcome, on the condition that the chunk is not done (the transaction's last item). */
function outcomeItem(tenant: Tenant, mark: RowMark, outcome: RowOutcome): TransactItems[number] {
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: tenantPk(tenant), SK: importChunkSk(mark.importId, mark.chunk) },
      UpdateExpression: 'SET outcomes.#row = :outcome',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#done)',
      ExpressionAttributeNames: { '#row': String(mark.row), '#done': 'done' },
      ExpressionAttributeValues: { ':outcome': outcome },
    },
  };
}

/** The public fields the GTIN item repeats from its product (as lib/data/products.ts writes them). */
const publicFields = (product: ProductRecord) => ({
  productId: product.productId,
  name: product.name,
  category: product.category,
  gtin: product.gtin,
  qrCodeUrl: product.qrCodeUrl,
  granularity: product.granularity ?? 'model',
});

/**
 * Creates a product with its GTIN claim and, when the row has one, its first passport version, and
 * records the row's outcome on its chunk: one transaction, which also holds the row's `events`.
 * 'exists' when the tenant already has the GTIN (a concurrent writer): nothing was written.
 */
export async function createImportedProduct(
  tenant: Tenant,
  product: ProductRecord,
  passport: PassportVersion | undefined,
  mark: RowMark,
  events: readonly TransactItem[] = [],
  /** The digest of the organization's corrected legal terms, read once per chunk, for the version's pages (docs/labelling.md#correcting-a-term). */
  labelTerms?: LabelTermSetRef,
): Promise<'created' | 'exists' | 'chunk-done'> {
  const stored: ProductRecord = { ...product, passportVersion: passport ? passport.version : 0, ...(passport ? { passportDigest: passport.digest } : {}) };
  try {
    await retryOnConflict(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            putNew({ PK: tenantPk(tenant), SK: gtinSk(product.gtin), type: 'gtin', ...publicFields(stored), ...(passport ? { passport: storedPassport(passport) } : {}) }),
            putNew(productToItem(stored)),
            ...(passport ? versionItems(tenant, stored, passport, labelTerms) : []),
            ...events,
            // Last: its reason tells a finished chunk apart.
            outcomeItem(tenant, mark, 'created'),
          ],
        }),
      ),
    );
    return 'created';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.at(-1)?.Code === 'ConditionalCheckFailed') return 'chunk-done';
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'exists';
    throw error;
  }
}

/** The product fields the GTIN item repeats (lib/data/products.ts, updateProduct). */
const PUBLIC_FIELDS = new Set(['name', 'category', 'granularity']);

/**
 * Applies a row to an existing product in one transaction: the changed product fields, the next
 * passport version when the row's passport data differs from the current one, and the row's
 * outcome on its chunk. It holds only while the product's passportVersion is still the one the
 * row was compared with: 'conflict' otherwise (nothing written). The row's `events` join the transaction.
 */
export async function updateImportedProduct(
  tenant: Tenant,
  product: ProductRecord,
  changes: Readonly<Record<string, unknown>>,
  passport: PassportVersion | undefined,
  now: string,
  mark: RowMark,
  events: readonly TransactItem[] = [],
  labelTerms?: LabelTermSetRef,
): Promise<'updated' | 'conflict' | 'chunk-done'> {
  const pk = tenantPk(tenant);
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now, ':expected': product.passportVersion };
  const sets = ['#updatedAt = :updatedAt'];
  for (const [field, value] of fields) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  if (passport) {
    values[':version'] = passport.version;
    values[':digest'] = passport.digest;
    sets.push('passportVersion = :version', 'passportDigest = :digest');
  }
  const publicSets = fields.filter(([field]) => PUBLIC_FIELDS.has(field));
  const gtinUpdate = [...publicSets.map(([field]) => `#${field} = :${field}`), ...(passport ? ['passport = :passport'] : [])];
  const updated: ProductRecord = { ...product, ...(Object.fromEntries(fields) as Partial<ProductRecord>) };
  try {
    await retryOnConflict(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: { PK: pk, SK: productSk(product.productId) },
                UpdateExpression: `SET ${sets.join(', ')}`,
                ConditionExpression:
                  product.passportVersion === 0
                    ? 'attribute_exists(PK) AND (attribute_not_exists(passportVersion) OR passportVersion = :expected)'
                    : 'passportVersion = :expected',
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
              },
            },
            ...(gtinUpdate.length
              ? [
                  {
                    Update: {
                      TableName: tableName(),
                      Key: { PK: pk, SK: gtinSk(product.gtin) },
                      UpdateExpression: `SET ${gtinUpdate.join(', ')}`,
                      ConditionExpression: 'attribute_exists(PK)',
                      ...(publicSets.length ? { ExpressionAttributeNames: Object.fromEntries(publicSets.map(([f]) => [`#${f}`, f])) } : {}),
                      ExpressionAttributeValues: {
                        ...Object.fromEntries(publicSets.map(([f, v]) => [`:${f}`, v])),
                        ...(passport ? { ':passport': storedPassport(passport) } : {}),
                      },
                    },
                  },
                ]
              : []),
            ...(passport ? versionItems(tenant, updated, passport, labelTerms) : []),
            ...events,
            outcomeItem(tenant, mark, 'updated'),
          ],
        }),
      ),
    );
    return 'updated';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons.at(-1)?.Code === 'ConditionalCheckFailed') return 'chunk-done';
    if (reasons.some((r) => r.Code === 'ConditionalCheckFailed')) return 'conflict';
    throw error;
  }
}

/**
 * Marks a chunk done and adds its counts and row errors to the job, in one transaction: a chunk
 * SQS delivers again after this is skipped ('already'), so each chunk counts exactly once. It
 * holds only while the chunk records exactly `outcomes` row outcomes, the ones these counts
 * include: when a second copy of the message wrote rows meanwhile, 'stale' asks to count again. The
 * errors are appended while the job lists fewer than MAX_IMPORT_ERRORS; past that the job only
 * notes that its list is truncated.
 */
export async function finishChunk(
  tenant: Tenant,
  importId: string,
  chunk: number,
  counts: Omit<ImportCounts, 'rows'>,
  errors: readonly ImportRowError[],
  outcomes: number,
  now: string,
  /** More items of the same transaction: a bulk registration's summary event (docs/api.md#bulk-registration). */
  also: readonly TransactItem[] = [],
): Promise<'done' | 'already' | 'stale'> {
  const pk = tenantPk(tenant);
  const attempt = async (withErrors: boolean) =>
    db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: { PK: pk, SK: importChunkSk(importId, chunk) },
              UpdateExpression: 'SET #done = :true, #rows = :none',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#done) AND size(outcomes) = :outcomes',
              ExpressionAttributeNames: { '#done': 'done', '#rows': 'rows' },
              ExpressionAttributeValues: { ':true': true, ':none': [], ':outcomes': outcomes },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: { PK: pk, SK: importSk(importId) },
              UpdateExpression: [
                'ADD chunksDone :one, createdCount :created, updatedCount :updated, unchangedCount :unchanged, failedCount :failed',
                `SET updatedAt = :now, #status = :running${withErrors ? ', #errors = list_append(#errors, :errors)' : errors.length ? ', errorsTruncated = :true' : ''}`,
              ].join(' '),
              ConditionExpression: `attribute_exists(PK)${withErrors ? ' AND size(#errors) < :cap' : ''}`,
              ExpressionAttributeNames: { '#status': 'status', ...(withErrors ? { '#errors': 'errors' } : {}) },
              ExpressionAttributeValues: {
                ':one': 1,
                ':created': counts.created,
                ':updated': counts.updated,
                ':unchanged': counts.unchanged,
                ':failed': counts.failed,
                ':now': now,
                ':running': 'running',
                ...(withErrors ? { ':errors': errors, ':cap': MAX_IMPORT_ERRORS } : errors.length ? { ':true': true } : {}),
              },
            },
          },
          ...also,
        ],
      }),
    );
  for (const withErrors of errors.length ? [true, false] : [false]) {
    try {
      await retryOnConflict(() => attempt(withErrors));
      return 'done';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return (await getImportChunk(tenant, importId, chunk))?.done === false ? 'stale' : 'already';
      if (!(withErrors && reasons[1]?.Code === 'ConditionalCheckFailed')) throw error;
    }
  }
  throw new Error('unreachable');
}

/**
 * After an upload stored its job but could not queue its chunks: marks every chunk done (a
 * message that did get out then writes nothing, since each row's write holds only while its chunk
 * is not done) and the job `failed`, so that no job waits for chunks that never come. A chunk the
 * worker already finished keeps its counts. One UpdateItem per chunk, then one for the job.
 */
export async function abandonImportJob(tenant: Tenant, importId: string, chunks: number, now: string): Promise<void> {
  const pk = tenantPk(tenant);
  for (let n = 0; n < chunks; n++) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: pk, SK: importChunkSk(importId, n) },
          UpdateExpression: 'SET #done = :true, #rows = :none',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#done)',
          ExpressionAttributeNames: { '#done': 'done', '#rows': 'rows' },
          ExpressionAttributeValues: { ':true': true, ':none': [] },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: pk, SK: importSk(importId) },
        UpdateExpression: 'SET #status = :failed, finishedAt = :now, updatedAt = :now',
        ConditionExpression: '#status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':now': now, ':queued': 'queued', ':running': 'running' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Once every chunk is done, moves the job to its final status (succeeded, or failed when no row
 * was imported). Returns the job as it stands.
 */
export async function settleImportJob(tenant: Tenant, importId: string, now: string): Promise<ImportRecord | undefined> {
  const job = await getImportJob(tenant, importId, true);
  if (!job || job.chunksDone < job.chunks || job.status === 'succeeded' || job.status === 'failed') return job;
  const status = finalStatus(job.counts);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: tenantPk(tenant), SK: importSk(importId) },
        UpdateExpression: 'SET #status = :status, finishedAt = :now, updatedAt = :now',
        ConditionExpression: '#status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':now': now, ':queued': 'queued', ':running': 'running' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return { ...job, status, finishedAt: job.finishedAt ?? now };
}
