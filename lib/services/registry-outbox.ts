import { config } from '../config.ts';
import { eventPut } from '../data/events.ts';
import { getRegistration } from '../data/registrations.ts';
import { delayOutboxMessage, sendOutboxMessages } from '../data/registry-outbox.ts';
import { registryClientFor, type RegistryClient } from '../data/registry-client.ts';
import type { Signer } from '../data/signers.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { batchUpiOf, modelUpiOf } from '../domain/registry/build.ts';
import type { RegistryAnswer } from '../domain/registry/entry.ts';
import { afterAnswer, afterLifecycleAnswer, backoffSeconds, MAX_WAIT_ATTEMPTS, waitsForTime, OUTBOX_STATUSES, retryVisibilitySeconds, type OutboxMessage } from '../domain/registry/outbox.ts';
import { MOCK_UPI_MAX_LENGTH } from '../domain/registry/precheck.ts';
import type { RegistrationRecord } from '../domain/registry/registration.ts';
import { toRegistrationView } from '../domain/registry/settings.ts';
import type { Tenant } from '../domain/tenant.ts';
import { logger } from '../http/logger.ts';
import { currentSigner } from './credentials.ts';
import { cachedRegistrySettings } from './registrations.ts';
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
 * fixed `pending_checks` one without reasons yet, a `ready` one, a `submitted` one the registry
 * took through its API, asked again after REGISTRY_STATUS_POLL_SECONDS). A record held back with
 * reasons is the worker's to look at again (it sends itself a delayed message), and one submitted
 * in an upload file (no registry id) waits for the result file.
 */
export function outboxMessagesOf(written: readonly WrittenRegistration[]): { message: OutboxMessage; delaySeconds?: number }[] {
  return written.flatMap(({ tenant, record }) => {
    // A (de)activation asked for by its item's life (docs/registry.md#lifecycle) is sent too.
    if (!OUTBOX_STATUSES.includes(record.status) && record.deactivation === undefined) return [];
    if (record.status === 'pending_checks' && record.reasons.length > 0) return [];
    if (record.status === 'submitted' && record.registryId === undefined) return [];
    const message: OutboxMessage = { orgId: tenant.orgId, environment: tenant.environment, registrationId: record.registrationId, attempt: 0 };
    return [record.status === 'submitted' ? { message, delaySeconds: config().registryStatusPollSeconds } : { message }];
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

async function inParallel<T>(values: readonly T[], inFlight: number, task: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < values.length) await task(values[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, values.length) }, worker));
}

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
  /** Messages to send when the run is done: records that wait, and submitted ones still pending. */
  later: { message: OutboxMessage; delaySeconds?: number }[];
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

/** Writes the record the answer makes of it, with its event; `retry` fails its message. */
async function applyAnswer(
  run: TenantRun,
  record: RegistrationRecord,
  answer: RegistryAnswer,
  expected: readonly string[],
  adjust: (current: RegistrationRecord) => RegistrationRecord = (current) => current,
): Promise<'written' | 'pending' | 'retry' | 'skipped'> {
  const stamp = run.now.toISOString();
  const first = afterAnswer(adjust(record), answer, stamp);
  if (first.kind === 'retry') {
    await retryLater(run, record.registrationId, first.retryAfterSeconds);
    return 'retry';
  }
  if (first.kind === 'pending') return 'pending';
  const written = await changeRegistration(
    run.tenant,
    record,
    (current) => {
      if (!expected.includes(current.status) || current.entry.upi !== record.entry.upi) return 'skip';
      const outcome = afterAnswer(adjust(current), answer, stamp);
      return outcome.kind === 'write' ? outcome.record : 'unchanged';
    },
    (after) => {
      const event = after.status === 'submitted' ? 'registry.registration.submitted' : after.status === 'registered' ? 'registry.registration.registered' : 'registry.registration.rejected';
      return [eventPut(run.tenant, newEvent(event, toRegistrationView(after), origin, stamp))];
    },
  );
  return written.outcome === 'written' ? 'written' : 'skipped';
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
        run.later.push({ message: { orgId: run.tenant.orgId, environment: run.tenant.environment, registrationId: one.record.registrationId, attempt }, delaySeconds: backoffSeconds(attempt) });
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
        // The record as checked: the entry sent is the one the checks passed (its backupURL moved to the current version's), with its warnings.
        const adjust = (current: RegistrationRecord): RegistrationRecord => ({ ...current, entry: one.entry, warnings: one.result.warnings.map(reasonOf) });
        let answer: RegistryAnswer;
        try {
          answer = await run.client.register(one.entry, await seal());
        } catch (error) {
          answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
        }
        const outcome = await applyAnswer(run, one.record, answer, CHECKED_STATUSES, adjust);
        // A link the registry rejected is no link: its items wait (and their next check holds them for it).
        if (answer.outcome === 'accepted' && answer.status !== 'rejected') taken.add(one.entry.upi);
        if (outcome === 'retry') logger().info('The registry asked to try again', { registrationId: one.record.registrationId, reason: answer.outcome === 'retry' ? answer.reason : '' });
      },
    );
  }
}

/** Asks the registry what became of the entries it took as pending. */
async function poll(run: TenantRun, records: readonly RegistrationRecord[]): Promise<void> {
  await inParallel(records, SENDS_IN_FLIGHT, async (record) => {
    let answer: RegistryAnswer;
    try {
      answer = await run.client.status(record.registryId as string);
    } catch (error) {
      answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    const outcome = await applyAnswer(run, record, answer, ['submitted']);
    if (outcome === 'pending') {
      const attempt = attemptOf(run, record.registrationId) + 1;
      run.later.push({ message: { orgId: run.tenant.orgId, environment: run.tenant.environment, registrationId: record.registrationId, attempt }, delaySeconds: Math.max(config().registryStatusPollSeconds, backoffSeconds(attempt)) });
    }
  });
}

/** Sends the (de)activations its items' lives asked for (docs/registry.md#lifecycle): `deactivated` true or false, the entry otherwise as registered. */
async function sendLifecycle(run: TenantRun, records: readonly RegistrationRecord[], seal: () => Promise<Signer>): Promise<void> {
  const stamp = run.now.toISOString();
  await inParallel(records, SENDS_IN_FLIGHT, async (record) => {
    let answer: RegistryAnswer;
    try {
      answer = await run.client.setDeactivated(record.entry, record.deactivation === 'requested', await seal());
    } catch (error) {
      answer = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    const first = afterLifecycleAnswer(record, answer, stamp);
    if (first.kind === 'retry') {
      await retryLater(run, record.registrationId, first.retryAfterSeconds);
      return;
    }
    await changeRegistration(
      run.tenant,
      record,
      (current) => {
        if (current.status !== record.status || current.deactivation !== record.deactivation) return 'skip';
        const outcome = afterLifecycleAnswer(current, answer, stamp);
        return outcome.kind === 'write' ? outcome.record : 'unchanged';
      },
      (after) => {
        const event = after.reasons.length > 0 ? 'registry.registration.rejected' : after.status === 'deactivated' ? 'registry.registration.deactivated' : 'registry.registration.registered';
        return [eventPut(run.tenant, newEvent(event, toRegistrationView(after), origin, stamp))];
      },
    );
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
  await checkAndSend(run, records.filter((r) => CHECKED_STATUSES.includes(r.status)), seal);
  await poll(run, records.filter((r) => r.status === 'submitted' && r.registryId !== undefined));
  await sendLifecycle(run, records.filter((r) => r.deactivation !== undefined && (r.status === 'registered' || r.status === 'deactivated')), seal);
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
    await sendOutboxMessages(later);
  } catch (error) {
    // The records that wait stay pending_checks; their messages are given again, so they are looked at again.
    logger().error('Registry outbox: could not queue the waits', { error: error instanceof Error ? error.message : String(error) });
    const waiting = new Set(later.map((l) => l.message.registrationId));
    for (const work of works) if (waiting.has(work.message.registrationId)) failed.add(work.id);
  }
  return [...failed];
}
