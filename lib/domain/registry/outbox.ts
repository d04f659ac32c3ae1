import type { RegistrationStatus, RegistryAnswer } from './entry.ts';
import type { RegistrationReason, RegistrationRecord } from './registration.ts';

/**
 * The outbox towards the EU registry's API (docs/registry.md#the-outbox), its pure part: the message
 * the table's stream puts on the `registry-outbox` queue for a registration that needs work, when
 * it is sent, and what a registry's answer makes of a record. No I/O here.
 */

/** One registration to work on. `attempt` counts the waits of a record held back for something that comes by itself (a link, a backup copy) or pending at the registry. */
export interface OutboxMessage {
  orgId: string;
  environment: 'live' | 'test';
  registrationId: string;
  attempt: number;
  /**
   * A status read's message: the registry's id of the entry it took as pending. The outbox carries it
   * in the message instead of writing it, so that a registration costs two writes (claimed, then
   * registered; docs/registry.md#the-outbox).
   */
  registryId?: string;
  registryUri?: string;
}

/**
 * How long a claim holds (docs/registry.md#the-outbox): the outbox worker's timeout (infra/functions.ts,
 * `registry-outbox`, checked by a unit test), so that a claim older than this belongs to an
 * invocation that has ended. The queue's visibility timeout is six times as long.
 */
export const CLAIM_LEASE_SECONDS = 60;

/** Whether a record is claimed by a worker that may still be at work (or whose status reads are on their way). */
export const claimIsFresh = (record: RegistrationRecord, now: Date): boolean =>
  record.claimedAt !== undefined && Date.parse(record.claimedAt) + CLAIM_LEASE_SECONDS * 1000 > now.getTime();

/** Whether a record waits for a time the registry asked for, and how many seconds are left. */
export const secondsUntilSend = (record: RegistrationRecord, now: Date): number =>
  record.notBefore === undefined ? 0 : Math.max(0, Math.ceil((Date.parse(record.notBefore) - now.getTime()) / 1000));

/** The record without the outbox's claim and wait. */
const unclaimed = (record: RegistrationRecord): RegistrationRecord => {
  const { claimedAt: _claim, notBefore: _wait, sendRetries: _retries, ...rest } = record;
  return rest;
};

/**
 * The claim before a send, one version on: a checked record (`pending_checks` or `ready`) becomes
 * `submitted` (its first hand-over sets `submittedAt`), a (de)activation keeps its status; both
 * carry `claimedAt`. The retries so far are kept for the backoff.
 */
export function claimed(current: RegistrationRecord, now: string): RegistrationRecord {
  const { notBefore: _wait, ...rest } = current;
  const base = { ...rest, claimedAt: now, updatedAt: now, version: current.version + 1 };
  if (current.deactivation !== undefined && (current.status === 'registered' || current.status === 'deactivated')) return base;
  return { ...base, status: 'submitted', reasons: [], submittedAt: current.submittedAt ?? now };
}

/**
 * A claimed record whose send the registry answered "try again" (or that could not be sent), one
 * version on: the claim let go, the entry back to `ready` (a (de)activation stays as asked), not to
 * be sent before `retryAfterSeconds` or the backoff of its retries. The stream's feed puts its message
 * on the queue with that delay.
 */
export function released(current: RegistrationRecord, now: string, retryAfterSeconds?: number): RegistrationRecord {
  const retries = (current.sendRetries ?? 0) + 1;
  const wait = retryVisibilitySeconds(retries, retryAfterSeconds);
  const { claimedAt: _claim, ...rest } = current;
  const base = { ...rest, sendRetries: retries, notBefore: new Date(Date.parse(now) + wait * 1000).toISOString(), updatedAt: now, version: current.version + 1 };
  return current.deactivation !== undefined && (current.status === 'registered' || current.status === 'deactivated') ? base : { ...base, status: 'ready' };
}

/** The statuses the outbox works on: a new or held record is checked (and sent), a `ready` one sent, a `submitted` one asked for its outcome. */
export const OUTBOX_STATUSES: readonly RegistrationStatus[] = ['pending_checks', 'ready', 'submitted'];

/** A proof of registration is valid 90 days (Art. 9 of Implementing Regulation (EU) 2026/1778: issue 39 only, unconfirmed; docs/registry.md#what-the-law-says). */
export const PROOF_VALIDITY_DAYS = 90;

/**
 * How long before a proof of registration runs out the outbox asks the registry for a fresh one
 * (docs/registry.md#proof-of-registration): 14 days, our choice (the regulation sets the 90 days, not
 * when to renew), so that a registry down for days still leaves time.
 */
export const RENEW_BEFORE_DAYS = 14;

/** The day (YYYY-MM-DD, UTC) a registered record's proof is due for renewal, or undefined when it has none to renew. */
export function renewalDayOf(record: RegistrationRecord): string | undefined {
  if (record.status !== 'registered' || record.proofExpiresAt === undefined || record.registryId === undefined || record.deactivation !== undefined) return undefined;
  const due = Date.parse(record.proofExpiresAt) - RENEW_BEFORE_DAYS * 86_400_000;
  return Number.isFinite(due) ? new Date(due).toISOString().slice(0, 10) : undefined;
}

/** Whether a record's proof of registration is due for renewal at `now`. */
export const renewalDue = (record: RegistrationRecord, now: Date): boolean => {
  const day = renewalDayOf(record);
  return day !== undefined && day <= now.toISOString().slice(0, 10);
};

/**
 * What the registry's answer to a renewal's status read makes of a registered record, one version
 * on: still registered → a fresh proof, valid 90 days from now (`proofRenewedAt`); rejected or
 * refused → `rejected` with the registry's reasons; pending → ask again later; `retry` writes nothing.
 */
export function afterRenewal(current: RegistrationRecord, answer: RegistryAnswer, now: string): AnswerOutcome {
  if (answer.outcome === 'retry') return { kind: 'retry', reason: answer.reason, ...(answer.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: answer.retryAfterSeconds }) };
  if (answer.outcome === 'accepted' && answer.status === 'pending') return { kind: 'pending' };
  const base = { ...current, updatedAt: now, version: current.version + 1 };
  if (answer.outcome === 'accepted' && answer.status === 'registered') {
    return { kind: 'write', event: 'registry.registration.proof_renewed', record: { ...base, proofExpiresAt: addDays(now, PROOF_VALIDITY_DAYS), proofRenewedAt: now } };
  }
  return { kind: 'write', event: 'registry.registration.rejected', record: { ...base, status: 'rejected', reasons: registryReasons(answer.reasons, 'The registry no longer holds the entry as registered.') } };
}

/** The message that starts (or continues) the sweep for proofs due for renewal: EventBridge sends it daily, and a sweep that ran out of time sends the rest to itself. */
export interface RenewalSweepMessage {
  kind: 'proof-renewals';
  /** Where a continued sweep goes on: the day, its shard and the page's cursor. */
  from?: { day: string; shard: number; cursor?: string };
}

/** A queue message's body as a RenewalSweepMessage, or undefined. */
export function parseRenewalSweep(body: string): RenewalSweepMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.kind !== 'proof-renewals') return undefined;
  const from = value.from;
  if (isRecord(from) && typeof from.day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(from.day) && typeof from.shard === 'number' && Number.isInteger(from.shard) && from.shard >= 0) {
    return { kind: 'proof-renewals', from: { day: from.day, shard: from.shard, ...(typeof from.cursor === 'string' && from.cursor.length <= 4_096 ? { cursor: from.cursor } : {}) } };
  }
  return { kind: 'proof-renewals' };
}

/** SQS's longest delay and visibility wait we use: 15 minutes. */
export const MAX_OUTBOX_DELAY_SECONDS = 900;

/**
 * The pre-check codes that clear by themselves with time: an upward link not accepted yet (the links
 * go first), a backup copy not written yet (the backup function writes it from the stream) or
 * answering another version. A record held for one of these is checked again later (so that its
 * reasons stay true even when another one holds it too); any other reason waits for a person.
 */
export const WAITING_CODES: ReadonlySet<string> = new Set(['upward_link_missing', 'backup_missing', 'backup_unreachable', 'backup_digest_differs', 'backup_not_checked']);

/** How often a waiting record is checked again before the outbox leaves it `pending_checks` (about two and a half hours of waits at most). */
export const MAX_WAIT_ATTEMPTS = 16;

/** Whether a record held back waits for something that comes by itself. */
export const waitsForTime = (reasons: readonly RegistrationReason[]): boolean => reasons.some((r) => WAITING_CODES.has(r.code));

/** The wait before the n-th try (n from 1): 1, 2, 4, … seconds, at most 15 minutes. */
export const backoffSeconds = (attempt: number): number => Math.min(MAX_OUTBOX_DELAY_SECONDS, 2 ** Math.max(0, Math.min(attempt - 1, 10)));

/**
 * How long a message that failed on a registry's `retry` stays invisible: what the registry asked
 * (Retry-After), and never less than the backoff of its receive count, so that a registry down for
 * long is asked less and less often.
 */
export const retryVisibilitySeconds = (receiveCount: number, retryAfterSeconds?: number): number =>
  Math.min(MAX_OUTBOX_DELAY_SECONDS, Math.max(retryAfterSeconds ?? 0, backoffSeconds(receiveCount)));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A queue message's body as an OutboxMessage, or undefined for anything else (it is dropped). */
export function parseOutboxMessage(body: string): OutboxMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { orgId, environment, registrationId, attempt, registryId, registryUri } = value;
  if (typeof orgId !== 'string' || !orgId || (environment !== 'live' && environment !== 'test') || typeof registrationId !== 'string' || !registrationId) return undefined;
  const id = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 2_000;
  return {
    orgId,
    environment,
    registrationId,
    attempt: typeof attempt === 'number' && Number.isInteger(attempt) && attempt >= 0 ? attempt : 0,
    ...(id(registryId) ? { registryId, ...(id(registryUri) ? { registryUri } : {}) } : {}),
  };
}

/** What a registry's answer to a send or a status read does to a record. */
export type AnswerOutcome =
  | { kind: 'write'; record: RegistrationRecord; event: 'registry.registration.submitted' | 'registry.registration.registered' | 'registry.registration.rejected' | 'registry.registration.deactivated' | 'registry.registration.proof_renewed' }
  /** Still pending at the registry: nothing to write, ask again later. */
  | { kind: 'pending' }
  | { kind: 'retry'; retryAfterSeconds?: number; reason: string };

const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
const registryReasons = (reasons: readonly string[] | undefined, fallback: string): RegistrationReason[] =>
  (reasons?.length ? reasons : [fallback]).map((message) => ({ source: 'registry', code: 'registry_rejected', message }));

/**
 * The record after the registry's answer (one version on): accepted and pending → `submitted`;
 * registered → `registered` with the registry's id and URI and the proof's expiry (90 days);
 * rejected or refused → `rejected` with the registry's reasons. `retry` writes nothing.
 */
export function afterAnswer(current: RegistrationRecord, answer: RegistryAnswer, now: string): AnswerOutcome {
  if (answer.outcome === 'retry') return { kind: 'retry', reason: answer.reason, ...(answer.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: answer.retryAfterSeconds }) };
  const base = { ...unclaimed(current), updatedAt: now, version: current.version + 1 };
  if (answer.outcome === 'refused') {
    return { kind: 'write', event: 'registry.registration.rejected', record: { ...base, status: 'rejected', reasons: registryReasons(answer.reasons, 'The registry refused the entry.'), submittedAt: current.submittedAt ?? now } };
  }
  const ids = { registryId: answer.registryId, ...(answer.registryUri === undefined ? {} : { registryUri: answer.registryUri }) };
  if (answer.status === 'pending') {
    if (current.status === 'submitted') return { kind: 'pending' };
    return { kind: 'write', event: 'registry.registration.submitted', record: { ...base, ...ids, status: 'submitted', reasons: [], submittedAt: now } };
  }
  if (answer.status === 'registered') {
    return {
      kind: 'write',
      event: 'registry.registration.registered',
      record: { ...base, ...ids, status: 'registered', reasons: [], submittedAt: current.submittedAt ?? now, registeredAt: now, proofExpiresAt: addDays(now, PROOF_VALIDITY_DAYS) },
    };
  }
  return { kind: 'write', event: 'registry.registration.rejected', record: { ...base, ...ids, status: 'rejected', reasons: registryReasons(answer.reasons, 'The registry rejected the entry.'), submittedAt: current.submittedAt ?? now } };
}

// ---- Lifecycle (docs/registry.md#lifecycle) -------------------------------------------------------

/** The record without its pending deactivation. */
const settled = (record: RegistrationRecord): RegistrationRecord => {
  const { deactivation: _settled, ...rest } = record;
  return rest;
};

/**
 * What an item's withdrawal or recycling (`deactivate` true) or its reinstatement (false) makes of
 * its registration, one version on; undefined when nothing changes. Only an ITEM entry has
 * `deactivated` (the CIRPASS-2 mock's schema); only a `registered` one is deactivated and only a
 * `deactivated` one reactivated. Through the API the change is asked for (`deactivation`, the outbox
 * sends it); in files it is marked at once. An entry not sent yet (`pending_checks`, `ready`) or
 * `rejected` carries the change in its own `deactivated`; one on its way through the API asks for it
 * and the outbox sends it once the registry has registered the entry. A request not sent yet that
 * the opposite change cancels is dropped.
 */
export function lifecycleChange(current: RegistrationRecord, deactivate: boolean, submission: 'api' | 'files', now: string): RegistrationRecord | undefined {
  if (current.granularity !== 'ITEM') return undefined;
  const base = { ...current, updatedAt: now, version: current.version + 1 };
  // Not sent yet, or rejected (to be fixed and sent again): the entry itself carries the change, and goes with it.
  if (current.status === 'pending_checks' || current.status === 'ready' || current.status === 'rejected') {
    return (current.entry.deactivated ?? false) === deactivate ? undefined : { ...base, entry: { ...current.entry, deactivated: deactivate } };
  }
  // On its way through the API (claimed, or pending at the registry): asked for, and sent once the registry has registered it.
  if (current.status === 'submitted' && submission === 'api') {
    if (current.deactivation === (deactivate ? 'reactivation_requested' : 'requested')) return settled(base);
    if (current.deactivation !== undefined || (current.entry.deactivated ?? false) === deactivate) return undefined;
    return { ...base, deactivation: deactivate ? 'requested' : 'reactivation_requested' };
  }
  // The opposite request, not sent yet: the entry at the registry is already what is wanted.
  if (current.deactivation === (deactivate ? 'reactivation_requested' : 'requested')) return settled(base);
  const wanted: RegistrationRecord['deactivation'] = deactivate ? 'requested' : 'reactivation_requested';
  if (current.status !== (deactivate ? 'registered' : 'deactivated') || current.deactivation === wanted) return undefined;
  if (submission === 'api') return { ...base, deactivation: wanted };
  return { ...settled(base), status: deactivate ? 'deactivated' : 'registered', entry: { ...current.entry, deactivated: deactivate } };
}

/**
 * The record after the registry's answer to a (de)activation: taken (registered or pending) → the
 * status asked for, the entry's `deactivated` with it; refused or rejected → the request dropped,
 * the status as it was, with the registry's reasons. `retry` writes nothing.
 */
export function afterLifecycleAnswer(current: RegistrationRecord, answer: RegistryAnswer, now: string): AnswerOutcome {
  if (answer.outcome === 'retry') return { kind: 'retry', reason: answer.reason, ...(answer.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: answer.retryAfterSeconds }) };
  const base = settled({ ...unclaimed(current), updatedAt: now, version: current.version + 1 });
  if (answer.outcome === 'refused' || answer.status === 'rejected') {
    return { kind: 'write', event: 'registry.registration.rejected', record: { ...base, reasons: registryReasons(answer.reasons, 'The registry did not take the change.') } };
  }
  const deactivate = current.deactivation === 'requested';
  return {
    kind: 'write',
    event: deactivate ? 'registry.registration.deactivated' : 'registry.registration.registered',
    record: { ...base, status: deactivate ? 'deactivated' : 'registered', reasons: [], entry: { ...current.entry, deactivated: deactivate } },
  };
}
