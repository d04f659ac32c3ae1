import { createHash, randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { scanLedgerKey, scanLedgerPk } from './keys.ts';

/**
 * The scan ledger: which SQS scan messages are counted in the day rollups, a batch at a time
 * (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan).
 * - `SCANLOG#{bucket}` / `{token}`: one item per batch and bucket, `h` holding the 8-byte hashes
 *   of the message ids it counted, concatenated (100 hashes: 800 bytes, one write unit).
 * The bucket is the 10-second window of the scan's own time (`at`, in the message body), which
 * every copy of a message carries unchanged, so a redelivered or duplicated copy finds the
 * partition its first counting was written to, and reads it with one strongly consistent query.
 */
export const LEDGER_BUCKET_SECONDS = 10;
/** Bytes of SHA-256 kept per message id: the collision bound is in docs/decisions.md. */
export const HASH_BYTES = 8;
/** Hashes per ledger item: 800 bytes of hashes, with its keys under 1 KB (one write unit). */
export const HASHES_PER_ITEM = 100;
/** SQS keeps a message at most 14 days: no copy can arrive after its ledger entry expired. */
const LEDGER_TTL_SECONDS = 14 * 86_400;

/** Read and write units spent, as DynamoDB reports them (or modelled where it does not). */
export interface Capacity {
  readUnits: number;
  writeUnits: number;
}

/** The hash of a message id, as stored in the ledger (hex in memory). */
export const messageHash = (messageId: string): string =>
  createHash('sha256').update(messageId).digest().subarray(0, HASH_BYTES).toString('hex');

/** The ledger bucket of a scan time: the start of its 10-second window, `yyyy-mm-ddThh:mm:s0`. */
export function ledgerBucket(at: string): string {
  const ms = Date.parse(at);
  return new Date(ms - (ms % (LEDGER_BUCKET_SECONDS * 1000))).toISOString().slice(0, 19);
}

const consumed = (output: { ConsumedCapacity?: { CapacityUnits?: number } }, modelled: number): number =>
  output.ConsumedCapacity?.CapacityUnits ?? modelled;

/** Every message hash the ledger holds for these buckets (strongly consistent: a write acknowledged before is seen). */
export async function countedHashes(buckets: Iterable<string>, capacity: Capacity): Promise<Set<string>> {
  const found = new Set<string>();
  for (const bucket of new Set(buckets)) {
    let start: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': scanLedgerPk(bucket) },
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      let bytes = 0;
      for (const item of page.Items ?? []) {
        const hashes = Buffer.from((item.h as Uint8Array | undefined) ?? new Uint8Array());
        bytes += hashes.length + 60;
        for (let i = 0; i + HASH_BYTES <= hashes.length; i += HASH_BYTES) found.add(hashes.subarray(i, i + HASH_BYTES).toString('hex'));
      }
      capacity.readUnits += consumed(page, Math.max(1, Math.ceil(bytes / 4096)));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return found;
}

/** Records hashes as counted: one item per bucket and 100 hashes. */
export async function recordCounted(bucket: string, hashes: readonly string[], capacity: Capacity): Promise<void> {
  const token = randomUUID();
  for (let i = 0; i < hashes.length; i += HASHES_PER_ITEM) {
    const h = Buffer.concat(hashes.slice(i, i + HASHES_PER_ITEM).map((hex) => Buffer.from(hex, 'hex')));
    const item = { ...scanLedgerKey(bucket, `${token}#${i / HASHES_PER_ITEM}`), type: 'scanLedger', h, expiresAt: Math.floor(Date.now() / 1000) + LEDGER_TTL_SECONDS };
    const output = await db().send(new PutCommand({ TableName: tableName(), Item: item, ReturnConsumedCapacity: 'TOTAL' }));
    capacity.writeUnits += consumed(output, Math.max(1, Math.ceil((h.length + 90) / 1024)));
  }
}
