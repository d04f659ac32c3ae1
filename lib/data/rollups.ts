import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_REFERRER_HOSTS, planReferrers, utcDay, type DayRollup, type KnownReferrers } from '../domain/analytics.ts';
import { DIRECT, OTHER_REFERRER } from '../domain/referrer.ts';
import type { ScanEvent } from '../domain/scan.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { batchStatsPk, dayOfSk, daySk, statsPk } from './keys.ts';
import { queryItems } from './query.ts';
import { countedHashes, HASHES_PER_ITEM, ledgerBucket, messageHash, recordCounted, type Capacity } from './scan-ledger.ts';
import { itemBytes } from './item-size.ts';

/**
 * Scan rollups, counted exactly once (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan).
 * - `STATS#{orgId}#{env}#{productId}` / `DAY#{yyyy-mm-dd}`: one product's counts for one UTC day:
 *   `scans`, `bots`, `mobile`, `tablet`, `desktop`, `c_{country}`, `r_{referrer}` (a wine's scans
 *   add to `scans` alone: docs/privacy.md), and
 *   `referrerHosts`, the number of `r_{host}` counters (at most MAX_REFERRER_HOSTS; `r_direct` and
 *   `r_other` are not hosts). A partition per product keeps a popular tenant from concentrating
 *   writes on one partition.
 * - On the same item, for a while, a mark `m_{hash}` per message whose counts it holds, written by
 *   the same UpdateItem as the counts; and `marksGen`, raised by every write that removes marks.
 *   A mark is removed only after its message is in the scan ledger (lib/data/scan-ledger.ts).
 */
/**
 * A day rollup's size for the write-unit model without its referrer hosts: keys, six counters,
 * about twenty countries, `direct` and `other`; each known host adds its name (at most 50 of them,
 * so at most about 14 KB).
 */
const ROLLUP_ITEM_BYTES = 900;
/** Messages marked by one rollup write: keeps the condition expression well under DynamoDB's 4 KB. */
export const MARKS_PER_WRITE = 40;
/** Marks one write removes at most; a process that holds this many for an item removes them whatever the item's size. */
const CLEANS_PER_WRITE = 60;
/** A mark's size: `m_` and 11 base64url characters, and the number 1. */
const MARK_BYTES = 15;
/** The attribute counting the writes that removed marks from a rollup item. */
const GENERATION = 'marksGen';

export interface CountedMessage {
  messageId: string;
  event: ScanEvent;
}

export interface WriteStats {
  /**
   * Write units spent on rollup updates (refused conditional ones included) and ledger puts, as
   * DynamoDB reports them (ReturnConsumedCapacity), or modelled as it bills them where it does not.
   */
  writeUnits: number;
  /** Read units of the ledger lookups (strongly consistent queries). */
  readUnits: number;
  /** Rollup items updated (what plain at-least-once counting would write, 1 unit each). */
  rollupUpdates: number;
  /** Ledger items put. */
  ledgerPuts: number;
  /** Rollup writes refused by their condition and planned again (marks found, a cleaned item, referrer hosts learned). */
  refused: number;
}

export const emptyWriteStats = (): WriteStats => ({ writeUnits: 0, readUnits: 0, rollupUpdates: 0, ledgerPuts: 0, refused: 0 });


/** Write units of one plain (non-transactional) write of an item of `bytes`. */
const writeUnitsOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

/**
 * The day rollups a scan counts in: its product's, and its registered batch's when it names one
 * (`STATS#…#{productId}#10#{lot}`, docs/resolver.md#batches-and-items). A key is `{PK}|{day}`: neither
 * a partition key nor a lot (GS1 character set 82) holds a `|`.
 */
const rollupKeys = (e: ScanEvent): string[] => [
  `${statsPk(e, e.productId)}|${utcDay(e.at)}`,
  ...(e.lot === undefined ? [] : [`${batchStatsPk(e, e.productId, e.lot)}|${utcDay(e.at)}`]),
];
/** The partition key of a rollup key. */
const pkOfKey = (key: string): string => key.slice(0, key.lastIndexOf('|'));

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

/** A number attribute of an item returned with a refused write (raw `{N}` or unmarshalled). */
function number(value: unknown): number {
  const raw = typeof value === 'object' && value !== null && 'N' in value ? (value as { N: unknown }).N : value;
  return Number.isFinite(Number(raw)) ? Number(raw) : 0;
}

function learnReferrers(key: string, item: Record<string, unknown> | undefined): void {
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
export const forgetReferrers = (): void => {
  knownReferrers.clear();
  rollupStates.clear();
};

/** Counter increments of one rollup item for a set of events, besides the referrer hosts. */
function increments(events: readonly ScanEvent[]): { counts: Map<string, number>; referrers: Map<string, number> } {
  const counts = new Map<string, number>();
  const referrers = new Map<string, number>();
  const bump = (into: Map<string, number>, name: string) => into.set(name, (into.get(name) ?? 0) + 1);
  for (const e of events) {
    // A scan of a wine's e-label is a count and nothing more (docs/privacy.md): no device, country or referrer.
    if (e.countOnly) {
      bump(counts, 'scans');
      continue;
    }
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

/** The mark of a message on its rollup item: `m_` and its ledger hash in base64url (13 bytes). */
const markOf = (hash: string): string => `m_${Buffer.from(hash, 'hex').toString('base64url')}`;

/**
 * What this process knows of each rollup item's marks: `generation`, the item's `marksGen` as last
 * seen (0: none yet); `clean`, marks of messages this process has put in the ledger, which a later
 * write to the item removes; `bytes` and `marks`, the item's size and number of marks after this
 * process's last write (0: unknown). Bounded: cleared when full (forgotten marks only stay on their
 * item, and a forgotten generation is learned again from a refused write).
 */
interface RollupState {
  generation: number;
  clean: string[];
  bytes: number;
  marks: number;
}
const rollupStates = new Map<string, RollupState>();

function stateOf(key: string): RollupState {
  let state = rollupStates.get(key);
  if (!state) {
    if (rollupStates.size >= KNOWN_ROLLUPS_CACHED) rollupStates.clear();
    state = { generation: 0, clean: [], bytes: 0, marks: 0 };
    rollupStates.set(key, state);
  }
  return state;
}

/**
 * Whether the next write to an item should remove this process's ledgered marks: when the marks it
 * adds would take the item past the write unit it needs without any marks, or when many wait.
 */
function needsCleaning(state: RollupState, adding: number): boolean {
  if (state.clean.length === 0) return false;
  if (state.clean.length >= CLEANS_PER_WRITE) return true;
  if (state.bytes === 0) return false;
  const unmarked = Math.max(1, Math.ceil((state.bytes - state.marks * MARK_BYTES) / 1024)) * 1024;
  return state.bytes + adding * MARK_BYTES > unmarked;
}

/** Estimated size of a rollup item with its known hosts and marks, for the write-unit model. */
const rollupBytes = (key: string, marks: number): number =>
  ROLLUP_ITEM_BYTES + marks * 15 + [...(knownReferrers.get(key)?.hosts ?? [])].reduce((sum, host) => sum + host.length + 5, 0);

/** The UpdateItem of one write to a rollup item: counts, marks, cleaning, and its conditions. */
function rollupUpdate(key: string, events: readonly ScanEvent[], marks: readonly string[], clean: readonly string[], generation: number) {
  const first = events[0] as ScanEvent;
  const { counts, referrers } = increments(events);
  const plan = planReferrers(referrers, knownReferrers.get(key));
  const adds = [...counts];
  if (plan.direct) adds.push([referrerAttribute(DIRECT), plan.direct]);
  if (plan.other) adds.push([referrerAttribute(OTHER_REFERRER), plan.other]);
  const conditions: string[] = [generation === 0 ? 'attribute_not_exists(#gen)' : '#gen = :gen'];
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
  // Each message's counts go in only with its mark, and only if the mark is not there yet.
  marks.forEach((_, i) => conditions.push(`attribute_not_exists(#m${i})`));
  const sets = ['#type = :type', ...marks.map((_, i) => `#m${i} = :one`), ...(clean.length ? ['#gen = :next'] : [])];
  return {
    added: plan.added.map(([host]) => host),
    input: {
      TableName: tableName(),
      Key: { PK: pkOfKey(key), SK: daySk(utcDay(first.at)) },
      UpdateExpression:
        `SET ${sets.join(', ')} ADD ${adds.map((_, i) => `#n${i} :v${i}`).join(', ')}` +
        (clean.length ? ` REMOVE ${clean.map((_, i) => `#x${i}`).join(', ')}` : ''),
      ConditionExpression: conditions.join(' AND '),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      // The item as written, to know its size and marks (returned values cost no capacity).
      ReturnValues: 'ALL_NEW' as const,
      ReturnConsumedCapacity: 'TOTAL' as const,
      ExpressionAttributeNames: {
        '#type': 'type',
        '#gen': GENERATION,
        ...Object.fromEntries(adds.map(([name], i) => [`#n${i}`, name])),
        ...Object.fromEntries(marks.map((mark, i) => [`#m${i}`, mark])),
        ...Object.fromEntries(clean.map((mark, i) => [`#x${i}`, mark])),
      },
      ExpressionAttributeValues: {
        ':type': 'rollup',
        ...(marks.length ? { ':one': 1 } : {}),
        ...(generation === 0 ? {} : { ':gen': generation }),
        ...(clean.length ? { ':next': generation + 1 } : {}),
        ...(plan.added.length ? { ':room': MAX_REFERRER_HOSTS - plan.added.length } : {}),
        ...Object.fromEntries(adds.map(([, n], i) => [`:v${i}`, n])),
      },
    },
  };
}

/** Most writes one rollup item's share of a batch may take: marks found, cleaned items and hosts learned. */
const MAX_ATTEMPTS = 12;

interface RollupOutcome {
  /** Messages whose counts this invocation added. */
  applied: CountedMessage[];
  /** Messages whose mark was already on the item: counted before, by a copy whose ledger entry may be missing. */
  adopted: CountedMessage[];
  /** Messages found in the ledger on a second look: counted before. */
  counted: CountedMessage[];
}

/**
 * Adds one rollup item's messages, each exactly once. Every write is conditional on the item's
 * `marksGen` being the one this invocation knew before it read the ledger, and on each message's
 * mark being absent: a mark present means the message is counted (it is adopted: recorded in the
 * ledger again, harmlessly); a changed generation means marks were removed since, which happens
 * only after their messages reached the ledger, so the ledger is read again for the messages left.
 */
async function addToRollup(
  key: string,
  messages: readonly CountedMessage[],
  known: number,
  stats: WriteStats,
  capacity: Capacity,
  hashOf: (m: CountedMessage) => string,
): Promise<RollupOutcome> {
  const outcome: RollupOutcome = { applied: [], adopted: [], counted: [] };
  const state = stateOf(key);
  let generation = known;
  let pending = [...messages];
  const adding = new Set(messages.map((m) => markOf(hashOf(m))));
  for (let attempt = 1; pending.length > 0; attempt++) {
    const chunk = pending.slice(0, MARKS_PER_WRITE);
    const marks = chunk.map((m) => markOf(hashOf(m)));
    // Each mark once, and never one of the messages this call is adding (DynamoDB refuses
    // overlapping paths, and a mark must stay until its own write has been tried). Marks are only
    // removed when they would otherwise take the item into another write unit (or too many are
    // waiting): every removal raises `marksGen`, which refuses other processes' next writes.
    const clean = needsCleaning(state, chunk.length)
      ? [...new Set(state.clean.splice(0, CLEANS_PER_WRITE))].filter((mark) => !adding.has(mark))
      : [];
    const { input, added } = rollupUpdate(key, chunk.map((m) => m.event), marks, clean, generation);
    try {
      const output = await db().send(new UpdateCommand(input));
      capacity.writeUnits += output.ConsumedCapacity?.CapacityUnits ?? writeUnitsOf(rollupBytes(key, marks.length + clean.length));
      stats.rollupUpdates++;
      if (clean.length) generation++;
      state.generation = generation;
      const item = output.Attributes ?? {};
      state.bytes = itemBytes(item);
      state.marks = Object.keys(item).filter((name) => name.startsWith('m_')).length;
      rememberAdded(key, added);
      outcome.applied.push(...chunk);
      pending = pending.slice(chunk.length);
    } catch (error) {
      state.clean.unshift(...clean);
      if (!isConditionFailure(error) || attempt >= MAX_ATTEMPTS) throw error;
      const old = (error as { Item?: Record<string, unknown> }).Item ?? {};
      // A refused write is billed too, on the size of the item as it is.
      capacity.writeUnits += writeUnitsOf(rollupBytes(key, Object.keys(old).filter((name) => name.startsWith('m_')).length));
      stats.refused++;
      learnReferrers(key, old);
      const marked = new Set(chunk.filter((m, i) => (marks[i] as string) in old));
      outcome.adopted.push(...marked);
      pending = pending.filter((m) => !marked.has(m));
      const seen = number(old[GENERATION]);
      if (seen !== generation) {
        generation = seen;
        state.generation = seen;
        const inLedger = await countedHashes(pending.map((m) => ledgerBucket(m.event.at)), capacity);
        const counted = new Set(pending.filter((m) => inLedger.has(hashOf(m))));
        outcome.counted.push(...counted);
        pending = pending.filter((m) => !counted.has(m));
      }
    }
  }
  return outcome;
}

export interface BatchOutcome {
  /** Messages not counted (their rollup item or their ledger entry could not be written): to be delivered again. */
  failed: Array<{ message: CountedMessage; error: unknown }>;
  /** Messages that were already counted: redeliveries and duplicate copies. */
  duplicates: number;
}

/**
 * Counts a batch of scan messages exactly once (docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan):
 * 1. reads the ledger buckets of the batch's scan times, and drops the messages already there;
 * 2. adds the rest to their rollup items, one plain UpdateItem per item (never a transaction), each
 *    message with its mark; a failing item fails only its own messages;
 * 3. puts the counted messages in the ledger, one item per 10-second bucket;
 * 4. leaves their marks to be removed by this process's next write to the same item.
 */
export async function countBatch(messages: readonly CountedMessage[], stats: WriteStats): Promise<BatchOutcome> {
  const capacity: Capacity = { readUnits: 0, writeUnits: 0 };
  const hashes = new Map(messages.map((m) => [m, messageHash(m.messageId)]));
  const hashOf = (m: CountedMessage): string => hashes.get(m) as string;
  const byRollup = new Map<string, CountedMessage[]>();
  for (const m of messages) for (const key of rollupKeys(m.event)) byRollup.set(key, [...(byRollup.get(key) ?? []), m]);
  // The generations this invocation knows, taken before it reads the ledger (see addToRollup).
  const generations = new Map([...byRollup.keys()].map((key) => [key, stateOf(key).generation]));
  const inLedger = await countedHashes(messages.map((m) => ledgerBucket(m.event.at)), capacity);

  const failures: BatchOutcome['failed'] = [];
  const applied: CountedMessage[] = [];
  // A message counted before, found in the ledger or (its mark) on a rollup item: once, whichever of its rollups found it.
  const duplicated = new Set<CountedMessage>(messages.filter((m) => inLedger.has(hashOf(m))));
  await Promise.all(
    [...byRollup].map(async ([key, group]) => {
      const counted = group.filter((m) => inLedger.has(hashOf(m)));
      // A counted message's mark may still be on the item (its first counting stopped before cleaning): remove it too.
      stateOf(key).clean.push(...counted.map((m) => markOf(hashOf(m))));
      const fresh = group.filter((m) => !inLedger.has(hashOf(m)));
      if (fresh.length === 0) return;
      try {
        const outcome = await addToRollup(key, fresh, generations.get(key) ?? 0, stats, capacity, hashOf);
        for (const m of [...outcome.adopted, ...outcome.counted]) duplicated.add(m);
        stateOf(key).clean.push(...outcome.counted.map((m) => markOf(hashOf(m))));
        applied.push(...outcome.applied, ...outcome.adopted);
      } catch (error) {
        // What was applied before the failure carries its marks: a redelivery adopts it.
        failures.push(...fresh.map((message) => ({ message, error })));
      }
    }),
  );
  // A message goes to the ledger only once every rollup it counts in (its product's, its batch's) has it:
  // one that failed anywhere is delivered again, and the rollups that have it adopt it by its mark.
  const failedMessages = new Set(failures.map((f) => f.message));
  const failed: BatchOutcome['failed'] = failures.filter((f, i) => failures.findIndex((g) => g.message === f.message) === i);
  const toRecord = [...new Set(applied)].filter((m) => !failedMessages.has(m));
  const duplicates = duplicated.size;

  const byBucket = new Map<string, CountedMessage[]>();
  for (const m of toRecord) byBucket.set(ledgerBucket(m.event.at), [...(byBucket.get(ledgerBucket(m.event.at)) ?? []), m]);
  for (const [bucket, group] of byBucket) {
    try {
      await recordCounted(bucket, group.map(hashOf), capacity);
      stats.ledgerPuts += Math.ceil(group.length / HASHES_PER_ITEM);
      for (const m of group) for (const key of rollupKeys(m.event)) stateOf(key).clean.push(markOf(hashOf(m)));
    } catch (error) {
      // Counted and marked but not in the ledger: failed, so that a redelivery adopts them.
      failed.push(...group.map((message) => ({ message, error })));
    }
  }
  stats.readUnits += capacity.readUnits;
  stats.writeUnits += capacity.writeUnits;
  return { failed, duplicates };
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

/**
 * Every day rollup of a product (or, with `lot`, of its batch: docs/resolver.md#batches-and-items)
 * between two days (inclusive), in one query (paged past 1 MB).
 */
export async function queryRollups(tenant: Tenant, productId: string, startDay: string, endDay: string, lot?: string): Promise<DayRollup[]> {
  const { items } = await queryItems({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': lot === undefined ? statsPk(tenant, productId) : batchStatsPk(tenant, productId, lot), ':from': daySk(startDay), ':to': daySk(endDay) },
  });
  return items.map(fromItem);
}
