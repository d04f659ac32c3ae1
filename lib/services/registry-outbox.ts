import { config } from '../config.ts';
import { inParallel } from '../domain/in-parallel.ts';
import { eventPut } from '../data/events.ts';
import { PROOF_DUE_SHARDS } from '../data/keys.ts';
import { getRegistration, registrationsDueOn } from '../data/registrations.ts';
import { delayOutboxMessage, sendOutboxMessages } from '../data/registry-outbox.ts';
import { registryClientFor, type RegistryClient } from '../data/registry-client.ts';
import type { Signer } from '../data/signers.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { batchUpiOf, modelUpiOf } from '../domain/registry/build.ts';
import type { RegistryAnswer } from '../domain/registry/entry.ts';
import { afterAnswer, afterLifecycleAnswer, afterRenewal, renewalDue, type RenewalSweepMessage, backoffSeconds, claimed, claimIsFresh, MAX_OUTBOX_DELAY_SECONDS, MAX_WAIT_ATTEMPTS, OUTBOX_STATUSES, released, retryVisibilitySeconds, secondsUntilSend, waitsForTime, type OutboxMessage } from '../domain/registry/outbox.ts';
import { MOCK_UPI_MAX_LENGTH } from '../domain/registry/precheck.ts';
import type { RegistrationRecord } from '../domain/registry/registration.ts';
import { toRegistrationView } from '../domain/registry/settings.ts';
import type { Tenant } from '../domain/tenant.ts';
import { logger } from '../http/logger.ts';
import { currentSigner } from './credentials.ts';
import { cachedRegistrySettings, noteOperatorVerified } from './registrations.ts';
import { afterCheck, changeRegistration, CHECKED_STATUSES, precheckRecords, reasonOf, storeSource, type CheckSource } from './registry-checks.ts';

/**
 * The outbox towards the EU registry's API (docs/registry.md#the-outbox). The table's stream feeds it
 * (feedOutbox: one message per registration written in a state that needs work); the worker
 * (runOutbox) reads each record again, runs the pre-checks on those `pending_checks` or `ready`,
 * sends those that pass (models, then batches, then items: the links go first), asks the registry
 * for the outcome of those `submitted`, and writes each change with its event in one transaction,
 * on the condition that the record is still the one it read. Nothing is lost: a registry that is
 * down fails the message (SQS gives it again after the registry's Retry-After, or a backoff), and a
 * record that waits for its links or its backup copy is looked at again after a delay.
 */

const origin: Origin = { actor: { type: 'system', id: 'registry-outbox' }, requestId: null };

/** A registration the stream says was written, with its tenant. */
export interface WrittenRegistration {
  tenant: Tenant;
  record: RegistrationRecord;
}

/**
 * What the stream's feed puts on the queue: a message for a record that needs work (a new or
 * fixed `pending_checks` one without reasons yet, a `ready` one, after the wait a registry asked
 * for; a `submitted` one whose registry id is on the record, asked again after
 * REGISTRY_STATUS_POLL_SECONDS). A record held back with reasons is the worker's to look at again
 * (it sends itself a delayed message); a claimed one is a worker's (its status reads carry the
 * registry's id in their messages); one submitted in an upload file waits for the result file.
 */
export function outboxMessagesOf(written: readonly WrittenRegistration[], now: Date = new Date()): { message: OutboxMessage; delaySeconds?: number }[] {
  return written.flatMap(({ tenant, record }) => {
    // A (de)activation asked for by its item's life (docs/registry.md#lifecycle) is sent too.
    if (!OUTBOX_STATUSES.includes(record.status) && record.deactivation === undefined) return [];
    if (record.claimedAt !== undefined) return [];
    if (record.status === 'pending_checks' && record.reasons.length > 0) return [];
    if (record.status === 'submitted' && record.registryId === undefined) return [];
    const message: OutboxMessage = { orgId: tenant.orgId, environment: tenant.environment, registrationId: record.registrationId, attempt: 0 };
    const wait = record.status === 'submitted' ? config().registryStatusPollSeconds : secondsUntilSend(record, now);
    return [wait > 0 ? { message, delaySeconds: Math.min(MAX_OUTBOX_DELAY_SECONDS, wait) } : { message }];
  });
}

export async function feedOutbox(written: readonly WrittenRegistration[]): Promise<number> {
  const messages = outboxMessagesOf(written);
  await sendOutboxMessages(messages);
  return messages.length;
}

/** One received message. */
export interface OutboxWork {
  id: string;
  receiptHandle: string;
  /** SQS's ApproximateReceiveCount. */
  receiveCount: number;
  message: OutboxMessage;
}

/** Sends and status reads to the registry at once, per level. */
const SENDS_IN_FLIGHT = 8;


/** The outbox's view of what is available as a link: only what the registry took already (submitted or registered), so that the links go first. */
function outboxSource(tenant: Tenant, records: readonly RegistrationRecord[]): CheckSource {
  const base = storeSource(tenant, records);
  return {
    ...base,
    statusOf: async (upi) => {
      const status = await base.statusOf(upi);
      return status === 'submitted' || status === 'registered' ? status : undefined;
    },
  };
}

interface TenantRun {
  tenant: Tenant;
  client: RegistryClient;
  works: OutboxWork[];
  failed: Set<string>;
  /** Messages to send when the run is done: records that wait, and status reads of those pending at the registry (with the claimed record, whose id is written if the message cannot be sent). */
  later: { message: OutboxMessage; delaySeconds?: number; claimed?: RegistrationRecord }[];
  now: Date;
}

/** Fails the works of `registrationId`, invisible for the backoff of their receive count or what the registry asked. */
async function retryLater(run: TenantRun, registrationId: string, retryAfterSeconds?: number): Promise<void> {
  for (const work of run.works.filter((w) => w.message.registrationId === registrationId)) {
    run.failed.add(work.id);
    try {
      await delayOutboxMessage(work.receiptHandle, retryVisibilitySeconds(work.receiveCount, retryAfterSeconds));
    } catch (error) {
      // The queue's own visibility timeout applies instead.
      logger().warn('Could not delay a registry outbox message', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}

const attemptOf = (run: TenantRun, registrationId: string): number => Math.max(0, ...run.works.filter((w) => w.message.registrationId === registrationId).map((w) => w.message.attempt));

const messageOf = (run: TenantRun, registrationId: string, attempt: number, ids: { registryId?: string; registryUri?: string } = {}): OutboxMessage => ({
  orgId: run.tenant.orgId,
  environment: run.tenant.environment,
  registrationId,
  attempt,
  ...ids,
});

const eventOf = (after: RegistrationRecord): 'registry.registration.registered' | 'registry.registration.rejected' | 'registry.registration.deactivated' =>
  after.reasons.length > 0 || after.status === 'rejected' ? 'registry.registration.rejected' : after.status === 'deactivated' ? 'registry.registration.deactivated' : 'registry.registration.registered';

/**
 * Claims a record before its send (docs/registry.md#the-outbox): one conditional write, with the
 * `submitted` event on its first hand-over. Answers the claimed record, or undefined when another
 * delivery changed it first (then that one sends).
 */
async function claim(run: TenantRun, record: RegistrationRecord, applies: (current: RegistrationRecord) => boolean, adjust: (current: RegistrationRecord) => RegistrationRecord = (c) => c): Promise<RegistrationRecord | undefined> {
  const stamp = run.now.toISOString();
  const written = await changeRegistration(
    run.tenant,
    record,
    (current) => (applies(current) ? claimed(adjust(current), stamp) : 'skip'),
    (after) => (after.status === 'submitted' && after.submittedAt === stamp ? [eventPut(run.tenant, newEvent('registry.registration.submitted', toRegistrationView(after), origin, stamp))] : []),
  );
  return written.outcome === 'written' ? written.record : undefined;
}

/** Lets a claim go after a "try again" (docs/registry.md#the-outbox): the stream's feed brings the record back after the wait. */
async function release(run: TenantRun, record: RegistrationRecord, reason: string, retryAfterSeconds?: number): Promise<void> {
  const stamp = run.now.toISOString();
  logger().info('The registry asked to try again', { registrationId: record.registrationId, reason });
  const written = await changeRegistration(run.tenant, record, (current) => (current.claimedAt === record.claimedAt ? released(current, stamp, retryAfterSeconds) : 'skip'));
  // Not written (the table failed us): the claim runs out and the message comes again.
  if (written.outcome !== 'written') await retryLater(run, record.registrationId, retryAfterSeconds);
}

/** Writes what the registry's answer makes of a claimed (or submitted) record, with its event, while it is still the one answered. */
async function settle(run: TenantRun, record: RegistrationRecord, answer: RegistryAnswer, outcomeOf: typeof afterAnswer, applies: (current: RegistrationRecord) => boolean): Promise<void> {
  const stamp = run.now.toISOString();
  const written = await changeRegistration(
    run.tenant,
    record,
    (current) => {
      if (!applies(current)) return 'skip';
      const outcome = outcomeOf(current, answer, stamp);
      return outcome.kind === 'write' ? outcome.record : 'unchanged';
    },
    (after) => [eventPut(run.tenant, newEvent(eventOf(after), toRegistrationView(after), origin, stamp))],
  );
  // The registry took an entry naming its operator: verified there (docs/registry.md#settings).
  if (written.outcome === 'written' && written.record.status === 'registered') await noteOperatorVerified(run.tenant, written.record.entry.reoId, stamp);
}

/**
 * Sends a claimed record's entry and acts on the answer: taken and pending → a status read later,
 * the registry's id in its message (nothing written); registered or rejected → written; "try again"
 * → the claim let go.
 */
async function sendClaimed(run: TenantRun, record: RegistrationRecord, seal: () => Promise<Signer>): Promise<RegistryAnswer> {
  let answer: RegistryAnswer;
  try {
    answer = await run.client.register(record.entry, await seal());
  } catch (error) {
    answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
  }
  if (answer.outcome === 'retry') {
    await release(run, record, answer.reason, answer.retryAfterSeconds);
  } else if (answer.outcome === 'accepted' && answer.status === 'pending') {
    const ids = { registryId: answer.registryId, ...(answer.registryUri === undefined ? {} : { registryUri: answer.registryUri }) };
    run.later.push({ message: messageOf(run, record.registrationId, 1, ids), delaySeconds: config().registryStatusPollSeconds, claimed: record });
  } else {
    await settle(run, record, answer, afterAnswer, (current) => current.status === 'submitted' && current.claimedAt === record.claimedAt);
  }
  return answer;
}

/** Checks and sends the records `pending_checks` or `ready`, models first. */
async function checkAndSend(run: TenantRun, records: readonly RegistrationRecord[], seal: () => Promise<Signer>): Promise<void> {
  if (records.length === 0) return;
  const checked = await precheckRecords(records, outboxSource(run.tenant, records), { upiMaxLength: MOCK_UPI_MAX_LENGTH });
  const stamp = run.now.toISOString();
  const passing = checked.filter((one) => one.result.ok);
  // Held back: written with every reason (when they changed), and looked at again later when they only wait.
  await inParallel(
    checked.filter((one) => !one.result.ok),
    SENDS_IN_FLIGHT,
    async (one) => {
      const written = await changeRegistration(run.tenant, one.record, (current) => {
        if (!CHECKED_STATUSES.includes(current.status) || JSON.stringify(current.entry) !== JSON.stringify(one.record.entry)) return 'skip';
        return afterCheck(current, one, stamp) ?? 'unchanged';
      });
      const attempt = attemptOf(run, one.record.registrationId) + 1;
      if (written.outcome !== 'skipped' && written.record && waitsForTime(written.record.reasons) && attempt <= MAX_WAIT_ATTEMPTS) {
        run.later.push({ message: messageOf(run, one.record.registrationId, attempt), delaySeconds: backoffSeconds(attempt) });
      }
    },
  );
  // Sent a level at a time: an item goes only once its model and batch in this run were taken.
  const taken = new Set<string>();
  const inRun = new Set(passing.map((one) => one.entry.upi));
  for (const level of ['MODEL', 'BATCH', 'ITEM'] as const) {
    await inParallel(
      passing.filter((one) => one.record.granularity === level),
      SENDS_IN_FLIGHT,
      async (one) => {
        const model = modelUpiOf(one.entry.upi);
        const links = level === 'MODEL' ? [] : [model, ...(level === 'ITEM' && one.record.lot !== undefined ? [batchUpiOf(model, one.record.lot)] : [])];
        if (links.some((link) => inRun.has(link) && !taken.has(link))) {
          await retryLater(run, one.record.registrationId);
          return;
        }
        // Claimed as checked: the entry sent is the one the checks passed (its backupURL moved to the current version's), with its warnings.
        const mine = await claim(
          run,
          one.record,
          (current) => CHECKED_STATUSES.includes(current.status) && JSON.stringify(current.entry) === JSON.stringify(one.record.entry) && secondsUntilSend(current, run.now) === 0,
          (current) => ({ ...current, entry: one.entry, warnings: one.result.warnings.map(reasonOf) }),
        );
        if (!mine) return;
        const answer = await sendClaimed(run, mine, seal);
        // A link the registry rejected is no link: its items wait (and their next check holds them for it).
        if (answer.outcome === 'accepted' && answer.status !== 'rejected') taken.add(one.entry.upi);
      },
    );
  }
}

/** Asks the registry what became of the entries it took as pending (the registry's id from the record, or from the message of a claimed one). */
async function poll(run: TenantRun, asks: readonly { record: RegistrationRecord; registryId: string; registryUri?: string }[]): Promise<void> {
  await inParallel(asks, SENDS_IN_FLIGHT, async ({ record, registryId, registryUri }) => {
    let answer: RegistryAnswer;
    try {
      answer = await run.client.status(registryId);
    } catch (error) {
      answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    // The registry's answer to a status read names the entry; the message's id stands in where it does not.
    if (answer.outcome === 'accepted' && registryUri !== undefined && answer.registryUri === undefined) answer = { ...answer, registryUri };
    if (answer.outcome === 'retry') {
      await retryLater(run, record.registrationId, answer.retryAfterSeconds);
      return;
    }
    if (answer.outcome === 'accepted' && answer.status === 'pending') {
      const attempt = attemptOf(run, record.registrationId) + 1;
      const ids = record.registryId === undefined ? { registryId, ...(registryUri === undefined ? {} : { registryUri }) } : {};
      run.later.push({ message: messageOf(run, record.registrationId, attempt, ids), delaySeconds: Math.max(config().registryStatusPollSeconds, backoffSeconds(attempt)) });
      return;
    }
    await settle(run, record, answer, afterAnswer, (current) => current.status === 'submitted' && current.entry.upi === record.entry.upi);
  });
}

/** Sends the (de)activations its items' lives asked for (docs/registry.md#lifecycle): `deactivated` true or false, the entry otherwise as registered; claimed first, as a registration is. */
async function sendLifecycle(run: TenantRun, records: readonly RegistrationRecord[], seal: () => Promise<Signer>): Promise<void> {
  await inParallel(records, SENDS_IN_FLIGHT, async (record) => {
    const mine = await claim(run, record, (current) => current.status === record.status && current.deactivation === record.deactivation && !claimIsFresh(current, run.now) && secondsUntilSend(current, run.now) === 0);
    if (!mine) return;
    let answer: RegistryAnswer;
    try {
      answer = await run.client.setDeactivated(mine.entry, mine.deactivation === 'requested', await seal());
    } catch (error) {
      answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    if (answer.outcome === 'retry') {
      await release(run, mine, answer.reason, answer.retryAfterSeconds);
      return;
    }
    await settle(run, mine, answer, afterLifecycleAnswer, (current) => current.claimedAt === mine.claimedAt && current.deactivation === mine.deactivation);
  });
}

async function runTenant(run: TenantRun): Promise<void> {
  const ids = [...new Set(run.works.map((w) => w.message.registrationId))];
  const records: RegistrationRecord[] = [];
  await inParallel(ids, 16, async (id) => {
    const record = await getRegistration(run.tenant, id);
    if (record) records.push(record);
  });
  let signer: Promise<Signer> | undefined;
  const seal = () => (signer ??= currentSigner(run.tenant.orgId));
  // A message that came before the registry's wait is over waits the rest of it.
  const early = records.filter((r) => secondsUntilSend(r, run.now) > 0 && (CHECKED_STATUSES.includes(r.status) || r.deactivation !== undefined));
  for (const record of early) await retryLater(run, record.registrationId, secondsUntilSend(record, run.now));
  const due = records.filter((r) => !early.includes(r));
  await checkAndSend(run, due.filter((r) => CHECKED_STATUSES.includes(r.status)), seal);
  // Status reads: the registry's id on the record (an upload file's pending result) or in the message of a claimed one.
  const asks = due.flatMap((record) => {
    if (record.status !== 'submitted') return [];
    if (record.registryId !== undefined) return [{ record, registryId: record.registryId }];
    const carried = run.works.find((w) => w.message.registrationId === record.registrationId && w.message.registryId !== undefined)?.message;
    return carried?.registryId ? [{ record, registryId: carried.registryId, ...(carried.registryUri === undefined ? {} : { registryUri: carried.registryUri }) }] : [];
  });
  await poll(run, asks);
  // A claim whose worker is gone (its invocation ended before it wrote the outcome): sent again, the registry being idempotent by upi.
  const orphans = due.filter((r) => r.status === 'submitted' && r.registryId === undefined && r.claimedAt !== undefined && !claimIsFresh(r, run.now) && !asks.some((a) => a.record === r));
  await inParallel(orphans, SENDS_IN_FLIGHT, async (record) => {
    const mine = await claim(run, record, (current) => current.status === 'submitted' && current.claimedAt === record.claimedAt && current.registryId === undefined);
    if (mine) await sendClaimed(run, mine, seal);
  });
  await sendLifecycle(run, due.filter((r) => r.deactivation !== undefined && (r.status === 'registered' || r.status === 'deactivated')), seal);
  await renew(run, due.filter((r) => renewalDue(r, run.now)));
}

/**
 * Renews the proofs of registration due (docs/registry.md#proof-of-registration): asks the registry
 * for each entry's status; still registered, the record gets a fresh proof, valid 90 days, with the
 * `registry.registration.proof_renewed` event; no longer registered, it is `rejected` with the
 * registry's reasons. A status read changes nothing at the registry, so two renewals at once are
 * harmless: the second write finds the record changed and leaves it.
 */
async function renew(run: TenantRun, records: readonly RegistrationRecord[]): Promise<void> {
  const stamp = run.now.toISOString();
  await inParallel(records, SENDS_IN_FLIGHT, async (record) => {
    let answer: RegistryAnswer;
    try {
      answer = await run.client.status(record.registryId as string);
    } catch (error) {
      answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    const first = afterRenewal(record, answer, stamp);
    if (first.kind === 'retry') {
      await retryLater(run, record.registrationId, first.retryAfterSeconds);
      return;
    }
    if (first.kind === 'pending') {
      const attempt = attemptOf(run, record.registrationId) + 1;
      run.later.push({ message: messageOf(run, record.registrationId, attempt), delaySeconds: Math.max(config().registryStatusPollSeconds, backoffSeconds(attempt)) });
      return;
    }
    await changeRegistration(
      run.tenant,
      record,
      (current) => {
        if (!renewalDue(current, run.now) || current.proofExpiresAt !== record.proofExpiresAt) return 'skip';
        const outcome = afterRenewal(current, answer, stamp);
        return outcome.kind === 'write' ? outcome.record : 'unchanged';
      },
      (after) => [eventPut(run.tenant, newEvent(after.status === 'registered' ? 'registry.registration.proof_renewed' : 'registry.registration.rejected', toRegistrationView(after), origin, stamp))],
    );
  });
}

/** How many days back the sweep looks for proofs due: a sweep that did not run for a while catches up. */
export const SWEEP_DAYS_BACK = 30;
/** Registrations one sweep invocation queues before it hands the rest to a message of its own (its time budget within the worker's 60 s). */
export const SWEEP_BUDGET = 5_000;

/**
 * The daily sweep for proofs of registration due for renewal (docs/registry.md#proof-of-registration):
 * reads the sparse index's day partitions from SWEEP_DAYS_BACK days ago to today, eight shards each,
 * and puts one outbox message per registration found on the queue; the worker renews each. After
 * SWEEP_BUDGET registrations it queues a sweep message that goes on from where it stopped. Answers
 * the messages it queued.
 */
export async function sweepRenewals(from: RenewalSweepMessage['from'], now: Date = new Date(), budget: number = SWEEP_BUDGET): Promise<OutboxMessage[]> {
  const today = now.toISOString().slice(0, 10);
  const days = Array.from({ length: SWEEP_DAYS_BACK + 1 }, (_, i) => new Date(now.getTime() - (SWEEP_DAYS_BACK - i) * 86_400_000).toISOString().slice(0, 10));
  const queued: OutboxMessage[] = [];
  for (const day of days) {
    if (from && day < from.day) continue;
    for (let shard = from && day === from.day ? from.shard : 0; shard < PROOF_DUE_SHARDS; shard++) {
      let cursor = from && day === from.day && shard === from.shard ? from.cursor : undefined;
      do {
        if (queued.length >= budget) {
          await sendOutboxMessages([{ message: { kind: 'proof-renewals', from: { day, shard, ...(cursor === undefined ? {} : { cursor }) } } }]);
          return queued;
        }
        const page = await registrationsDueOn(day, shard, { limit: Math.min(100, budget - queued.length), ...(cursor === undefined ? {} : { cursor }) });
        const messages = page.data.map(({ tenant, registrationId }): OutboxMessage => ({ orgId: tenant.orgId, environment: tenant.environment, registrationId, attempt: 0 }));
        await sendOutboxMessages(messages.map((message) => ({ message })));
        queued.push(...messages);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
  }
  if (today < (from?.day ?? today)) logger().warn('A proof renewal sweep from the future', { from });
  return queued;
}

/**
 * Works a batch of outbox messages, a tenant at a time, and answers the ids of the messages that
 * failed (SQS gives them again). A tenant whose registration is off or goes out in files, or whose
 * environment has no registry configured, has its messages dropped: its records stay as they are.
 */
export async function runOutbox(works: readonly OutboxWork[], now: Date = new Date()): Promise<string[]> {
  const groups = new Map<string, OutboxWork[]>();
  for (const work of works) {
    const key = `${work.message.orgId}#${work.message.environment}`;
    groups.set(key, [...(groups.get(key) ?? []), work]);
  }
  const failed = new Set<string>();
  const later: TenantRun['later'] = [];
  for (const group of groups.values()) {
    const first = group[0] as OutboxWork;
    const tenant: Tenant = { orgId: first.message.orgId, environment: first.message.environment };
    try {
      const settings = await cachedRegistrySettings(tenant);
      const client = registryClientFor(tenant.environment);
      if (!settings?.enabled || settings.submission !== 'api' || !client) {
        if (settings?.enabled && settings.submission === 'api') logger().warn('No registry is configured for this environment; the outbox leaves its registrations as they are', { environment: tenant.environment });
        continue;
      }
      const run: TenantRun = { tenant, client, works: group, failed, later: [], now };
      await runTenant(run);
      later.push(...run.later);
    } catch (error) {
      logger().error('Registry outbox: a tenant\'s messages failed; SQS gives them again', { error: error instanceof Error ? error.message : String(error), messages: group.length });
      for (const work of group) failed.add(work.id);
    }
  }
  try {
    await sendOutboxMessages(later.map(({ message, delaySeconds }) => (delaySeconds === undefined ? { message } : { message, delaySeconds })));
  } catch (error) {
    logger().error('Registry outbox: could not queue the waits', { error: error instanceof Error ? error.message : String(error) });
    // A record that waits stays pending_checks: its message is given again, so it is looked at again. A claimed
    // record pending at the registry gets the registry's id written instead, and the stream's feed asks for its status.
    await inParallel(later.filter((l) => l.claimed !== undefined), 8, async ({ message, claimed: record }) => {
      const held = record as RegistrationRecord;
      const tenant: Tenant = { orgId: message.orgId, environment: message.environment };
      const stamp = now.toISOString();
      const written = await changeRegistration(tenant, held, (current) => {
        if (current.status !== 'submitted' || current.claimedAt !== held.claimedAt || message.registryId === undefined) return 'skip';
        const { claimedAt: _claim, ...rest } = current;
        return { ...rest, registryId: message.registryId, ...(message.registryUri === undefined ? {} : { registryUri: message.registryUri }), updatedAt: stamp, version: current.version + 1 };
      }).catch(() => ({ outcome: 'skipped' as const }));
      if (written.outcome !== 'written') logger().error('Registry outbox: a registration pending at the registry keeps its claim until it runs out', { registrationId: held.registrationId });
    });
    const waiting = new Set(later.filter((l) => l.claimed === undefined).map((l) => l.message.registrationId));
    for (const work of works) if (waiting.has(work.message.registrationId)) failed.add(work.id);
  }
  return [...failed];
}
