import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DayRollup } from '../domain/analytics.ts';
import { utcDay } from '../domain/analytics.ts';
import type { ScanEvent } from '../domain/scan.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isTransactionConflict } from './errors.ts';
import { dayOfSk, daySk, scanMessageKey, statsPk } from './keys.ts';
import { queryItems } from './query.ts';

/**
 * Scan rollups and the exactly-once ledger.
 * - `STATS#{orgId}#{env}#{productId}` / `DAY#{yyyy-mm-dd}`: one product's counts for one UTC day:
 *   `scans`, `bots`, `mobile`, `tablet`, `desktop`, `c_{country}`, `r_{referrer}`. A partition per
 *   product keeps a popular tenant from concentrating writes on one partition.
 * - `SCANMSG#{messageId}` / `SCANMSG`: marks an SQS message as counted (TTL 14 days, SQS's
 *   longest retention), written in the same transaction as the counts it adds.
 */
const LEDGER_TTL_SECONDS = 14 * 86_400;
/**
 * A day rollup's size for the write-unit model: keys, six counters, about twenty countries and
 * twenty referrer domains. Under 1 KB, so one rollup update costs 2 transactional units.
 */
const ROLLUP_ITEM_BYTES = 900;
/** DynamoDB's limit on the actions of one transaction. */
export const MAX_TRANSACTION_ACTIONS = 100;

export interface CountedMessage {
  messageId: string;
  event: ScanEvent;
}

export interface WriteStats {
  /**
   * Write capacity units the transactions cost, modelled as DynamoDB bills them: 2 units per item
   * per started KB (DynamoDB Local does not report transactional capacity).
   */
  writeUnits: number;
  transactions: number;
  /** Rollup items updated (what plain at-least-once counting would write, 1 unit each). */
  rollupUpdates: number;
}

/** DynamoDB's item size: attribute names plus values (strings as UTF-8, numbers about 1 byte per 2 digits + 1). */
function itemBytes(attributes: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(attributes)) {
    bytes += Buffer.byteLength(name);
    bytes += typeof value === 'number' ? Math.ceil(String(value).length / 2) + 1 : Buffer.byteLength(String(value));
  }
  return bytes;
}

/** Transactional write units of one item of `bytes`. */
const transactionalUnits = (bytes: number): number => 2 * Math.max(1, Math.ceil(bytes / 1024));

const rollupKey = (e: ScanEvent): string => `${statsPk(e, e.productId)}|${utcDay(e.at)}`;

/** Counter increments of one rollup item for a set of events. */
function increments(events: readonly ScanEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const e of events) {
    if (e.device === 'bot') {
      bump('bots');
      continue;
    }
    bump('scans');
    bump(e.device);
    bump(`c_${e.country}`);
    bump(`r_${e.referrer}`);
  }
  return counts;
}

/**
 * Splits messages into units that each fit one transaction: one ledger put per message plus one
 * update per distinct rollup item, at most 100 actions.
 */
export function packTransactions(messages: readonly CountedMessage[]): CountedMessage[][] {
  const sorted = [...messages].sort((a, b) => rollupKey(a.event).localeCompare(rollupKey(b.event)));
  const units: CountedMessage[][] = [];
  let unit: CountedMessage[] = [];
  let rollups = new Set<string>();
  for (const message of sorted) {
    const key = rollupKey(message.event);
    const actions = unit.length + 1 + rollups.size + (rollups.has(key) ? 0 : 1);
    if (actions > MAX_TRANSACTION_ACTIONS) {
      units.push(unit);
      unit = [];
      rollups = new Set();
    }
    unit.push(message);
    rollups.add(key);
  }
  if (unit.length) units.push(unit);
  return units;
}

function transactionItems(unit: readonly CountedMessage[], nowSeconds: number) {
  const groups = new Map<string, ScanEvent[]>();
  for (const { event } of unit) groups.set(rollupKey(event), [...(groups.get(rollupKey(event)) ?? []), event]);
  const ledger = unit.map(({ messageId }) => ({
    Put: {
      TableName: tableName(),
      Item: { ...scanMessageKey(messageId), type: 'scanMessage', expiresAt: nowSeconds + LEDGER_TTL_SECONDS },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));
  const updates = [...groups.values()].map((events) => {
    const first = events[0] as ScanEvent;
    const counts = [...increments(events)];
    return {
      Update: {
        TableName: tableName(),
        Key: { PK: statsPk(first, first.productId), SK: daySk(utcDay(first.at)) },
        UpdateExpression: `SET #type = :type ADD ${counts.map((_, i) => `#n${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(counts.map(([name], i) => [`#n${i}`, name])) },
        ExpressionAttributeValues: { ':type': 'rollup', ...Object.fromEntries(counts.map(([, n], i) => [`:v${i}`, n])) },
      },
    };
  });
  return [...ledger, ...updates];
}

/**
 * Counts one unit of messages exactly once: the ledger puts and the rollup increments commit
 * together or not at all. Messages the ledger already holds (redeliveries) are dropped and the
 * rest retried; concurrent writers to the same rollup are retried with backoff.
 */
export async function countUnit(unit: readonly CountedMessage[], stats: WriteStats): Promise<{ counted: number; duplicates: number }> {
  let pending = [...unit];
  let duplicates = 0;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const items = transactionItems(pending, Math.floor(Date.now() / 1000));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      stats.transactions++;
      stats.rollupUpdates += items.length - pending.length;
      stats.writeUnits += items.reduce((sum, item) => sum + transactionalUnits('Put' in item ? itemBytes(item.Put.Item) : ROLLUP_ITEM_BYTES), 0);
      return { counted: pending.length, duplicates };
    } catch (error) {
      const reasons = cancellationReasons(error);
      const seen = new Set(
        pending.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed').map((m) => m.messageId),
      );
      if (seen.size > 0) {
        duplicates += seen.size;
        pending = pending.filter((m) => !seen.has(m.messageId));
        continue;
      }
      if (isTransactionConflict(error) && attempt < 10) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        continue;
      }
      throw error;
    }
  }
  return { counted: 0, duplicates };
}

function fromItem(item: Record<string, unknown>): DayRollup {
  const num = (name: string) => (typeof item[name] === 'number' ? (item[name] as number) : 0);
  const prefixed = (prefix: string) =>
    Object.fromEntries(
      Object.entries(item)
        .filter(([k, v]) => k.startsWith(prefix) && typeof v === 'number')
        .map(([k, v]) => [k.slice(prefix.length), v as number]),
    );
  return {
    day: dayOfSk(String(item.SK)),
    scans: num('scans'),
    bots: num('bots'),
    devices: { mobile: num('mobile'), tablet: num('tablet'), desktop: num('desktop') },
    countries: prefixed('c_'),
    referrers: prefixed('r_'),
  };
}

/** Every day rollup of a product between two days (inclusive), in one query (paged past 1 MB). */
export async function queryRollups(tenant: Tenant, productId: string, startDay: string, endDay: string): Promise<DayRollup[]> {
  const { items } = await queryItems({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': statsPk(tenant, productId), ':from': daySk(startDay), ':to': daySk(endDay) },
  });
  return items.map(fromItem);
}
