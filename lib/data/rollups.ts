import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_REFERRER_HOSTS, planReferrers, utcDay, type DayRollup, type KnownReferrers } from '../domain/analytics.ts';
import { DIRECT, OTHER_REFERRER } from '../domain/referrer.ts';
import type { ScanEvent } from '../domain/scan.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { cancellationReasons, isTransactionConflict, type CancellationReason } from './errors.ts';
import { dayOfSk, daySk, scanMessageKey, statsPk } from './keys.ts';
import { queryItems } from './query.ts';

/**
 * Scan rollups and the exactly-once ledger.
 * - `STATS#{orgId}#{env}#{productId}` / `DAY#{yyyy-mm-dd}`: one product's counts for one UTC day:
 *   `scans`, `bots`, `mobile`, `tablet`, `desktop`, `c_{country}`, `r_{referrer}`, and
 *   `referrerHosts`, the number of `r_{host}` counters (at most MAX_REFERRER_HOSTS; `r_direct` and
 *   `r_other` are not hosts). A partition per product keeps a popular tenant from concentrating
 *   writes on one partition.
 * - `SCANMSG#{messageId}` / `SCANMSG`: marks an SQS message as counted (TTL 14 days, SQS's
 *   longest retention), written in the same transaction as the counts it adds.
 */
const LEDGER_TTL_SECONDS = 14 * 86_400;
/**
 * A day rollup's size for the write-unit model without its referrer hosts: keys, six counters,
 * about twenty countries, `direct` and `other`; each known host adds its name (at most 50 of them,
 * so at most about 14 KB).
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
  /** Transactions cancelled and retried: redeliveries found in the ledger, referrer hosts learned. */
  cancelled?: number;
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
const tenantKey = (e: ScanEvent): string => `${e.orgId}#${e.environment}`;

/** The counter of host attributes on a day rollup (`r_{host}` besides `r_direct` and `r_other`). */
const HOST_COUNTER = 'referrerHosts';
const referrerAttribute = (referrer: string): string => `r_${referrer}`;

/**
 * What this process last learned of each day rollup's referrer hosts (from the item, returned by a
 * cancelled write). Hosts are never removed from an item, so a known host stays right; a stale
 * count only makes a write's condition fail, and the item is learned again. Bounded: cleared when full.
 */
const knownReferrers = new Map<string, KnownReferrers>();
const KNOWN_ROLLUPS_CACHED = 10_000;

function learnReferrers(key: string, item: Record<string, unknown> | undefined): void {
  const number = (value: unknown): number => {
    const raw = typeof value === 'object' && value !== null && 'N' in value ? (value as { N: unknown }).N : value;
    return Number.isFinite(Number(raw)) ? Number(raw) : 0;
  };
  const hosts = new Set<string>();
  for (const name of Object.keys(item ?? {})) {
    const referrer = name.slice(2);
    if (name.startsWith('r_') && referrer !== DIRECT && referrer !== OTHER_REFERRER) hosts.add(referrer);
  }
  if (knownReferrers.size >= KNOWN_ROLLUPS_CACHED) knownReferrers.clear();
  knownReferrers.set(key, { hosts, count: Math.max(hosts.size, number(item?.[HOST_COUNTER])) });
}

/** After a committed write: the hosts it added are on the item now (what else is there stays unknown). */
function rememberAdded(key: string, added: readonly string[]): void {
  if (added.length === 0) return;
  const known = knownReferrers.get(key);
  if (!known && knownReferrers.size >= KNOWN_ROLLUPS_CACHED) knownReferrers.clear();
  knownReferrers.set(key, { hosts: new Set([...(known?.hosts ?? []), ...added]), count: (known?.count ?? 0) + added.length });
}

/** Forgets what this process learned of rollup items (tests start from a cold process this way). */
export const forgetReferrers = (): void => knownReferrers.clear();

/** Counter increments of one rollup item for a set of events, besides the referrer hosts. */
function increments(events: readonly ScanEvent[]): { counts: Map<string, number>; referrers: Map<string, number> } {
  const counts = new Map<string, number>();
  const referrers = new Map<string, number>();
  const bump = (into: Map<string, number>, name: string) => into.set(name, (into.get(name) ?? 0) + 1);
  for (const e of events) {
    if (e.device === 'bot') {
      bump(counts, 'bots');
      continue;
    }
    bump(counts, 'scans');
    bump(counts, e.device);
    bump(counts, `c_${e.country}`);
    bump(referrers, e.referrer);
  }
  return { counts, referrers };
}

/**
 * Splits messages into units that each fit one transaction: one ledger put per message plus one
 * update per distinct rollup item, at most 100 actions, and never two tenants in one unit, so that
 * one tenant's failing write cannot fail another tenant's scans.
 */
export function packTransactions(messages: readonly CountedMessage[]): CountedMessage[][] {
  const sorted = [...messages].sort((a, b) => rollupKey(a.event).localeCompare(rollupKey(b.event)));
  const units: CountedMessage[][] = [];
  let unit: CountedMessage[] = [];
  let rollups = new Set<string>();
  for (const message of sorted) {
    const key = rollupKey(message.event);
    const actions = unit.length + 1 + rollups.size + (rollups.has(key) ? 0 : 1);
    const otherTenant = unit.length > 0 && tenantKey((unit[0] as CountedMessage).event) !== tenantKey(message.event);
    if (actions > MAX_TRANSACTION_ACTIONS || otherTenant) {
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

/** A unit split into one unit per day rollup (to count what can be counted when the unit fails). */
export function splitByRollup(unit: readonly CountedMessage[]): CountedMessage[][] {
  const groups = new Map<string, CountedMessage[]>();
  for (const message of unit) groups.set(rollupKey(message.event), [...(groups.get(rollupKey(message.event)) ?? []), message]);
  return [...groups.values()];
}

/** Estimated size of a rollup item with its known hosts, for the write-unit model. */
const rollupBytes = (key: string): number =>
  ROLLUP_ITEM_BYTES + [...(knownReferrers.get(key)?.hosts ?? [])].reduce((sum, host) => sum + host.length + 5, 0);

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
  const rollupKeys = [...groups.keys()];
  const addedHosts: string[][] = [];
  const updates = [...groups].map(([key, events]) => {
    const first = events[0] as ScanEvent;
    const { counts, referrers } = increments(events);
    const plan = planReferrers(referrers, knownReferrers.get(key));
    addedHosts.push(plan.added.map(([host]) => host));
    const adds = [...counts];
    if (plan.direct) adds.push([referrerAttribute(DIRECT), plan.direct]);
    if (plan.other) adds.push([referrerAttribute(OTHER_REFERRER), plan.other]);
    const conditions: string[] = [];
    for (const [host, n] of plan.existing) {
      conditions.push(`attribute_exists(#n${adds.length})`);
      adds.push([referrerAttribute(host), n]);
    }
    for (const [host, n] of plan.added) {
      conditions.push(`attribute_not_exists(#n${adds.length})`);
      adds.push([referrerAttribute(host), n]);
    }
    if (plan.added.length) {
      // Room for the new hosts: at most MAX_REFERRER_HOSTS counters on the item, ever.
      conditions.push(`(attribute_not_exists(#n${adds.length}) OR #n${adds.length} <= :room)`);
      adds.push([HOST_COUNTER, plan.added.length]);
    }
    return {
      Update: {
        TableName: tableName(),
        Key: { PK: statsPk(first, first.productId), SK: daySk(utcDay(first.at)) },
        UpdateExpression: `SET #type = :type ADD ${adds.map((_, i) => `#n${i} :v${i}`).join(', ')}`,
        ...(conditions.length ? { ConditionExpression: conditions.join(' AND '), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
        ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(adds.map(([name], i) => [`#n${i}`, name])) },
        ExpressionAttributeValues: {
          ':type': 'rollup',
          ...(plan.added.length ? { ':room': MAX_REFERRER_HOSTS - plan.added.length } : {}),
          ...Object.fromEntries(adds.map(([, n], i) => [`:v${i}`, n])),
        },
      },
    };
  });
  return { items: [...ledger, ...updates], rollupKeys, addedHosts };
}

/** Most transactions one unit may take: redeliveries, changed referrer hosts and conflicts retried. */
const MAX_ATTEMPTS = 12;

/**
 * Counts one unit of messages exactly once: the ledger puts and the rollup increments commit
 * together or not at all. Messages the ledger already holds (redeliveries) are dropped and the
 * rest retried; a rollup whose referrer hosts were not what this process knew is learned from the
 * cancelled write (its old item) and planned again; concurrent writers to the same rollup are
 * retried with backoff.
 */
export async function countUnit(unit: readonly CountedMessage[], stats: WriteStats): Promise<{ counted: number; duplicates: number }> {
  let pending = [...unit];
  let duplicates = 0;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const { items, rollupKeys, addedHosts } = transactionItems(pending, Math.floor(Date.now() / 1000));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      rollupKeys.forEach((key, i) => rememberAdded(key, addedHosts[i] ?? []));
      stats.transactions++;
      stats.rollupUpdates += items.length - pending.length;
      stats.writeUnits +=
        items.reduce((sum, item) => sum + ('Put' in item ? transactionalUnits(itemBytes(item.Put.Item)) : 0), 0) +
        rollupKeys.reduce((sum, key) => sum + transactionalUnits(rollupBytes(key)), 0);
      return { counted: pending.length, duplicates };
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS) throw error;
      const reasons = cancellationReasons(error) as Array<CancellationReason & { Item?: Record<string, unknown> }>;
      const seen = new Set(pending.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed').map((m) => m.messageId));
      let learned = 0;
      rollupKeys.forEach((key, i) => {
        const reason = reasons[pending.length + i];
        if (reason?.Code !== 'ConditionalCheckFailed') return;
        learnReferrers(key, reason.Item);
        learned++;
      });
      if (seen.size > 0 || learned > 0) {
        stats.cancelled = (stats.cancelled ?? 0) + 1;
        duplicates += seen.size;
        pending = pending.filter((m) => !seen.has(m.messageId));
        continue;
      }
      if (isTransactionConflict(error)) {
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
