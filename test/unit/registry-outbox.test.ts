import { config } from '../../lib/config.ts';
import { describe, expect, it } from 'vitest';
import { afterAnswer, afterLifecycleAnswer, afterRenewal, backoffSeconds, CLAIM_LEASE_SECONDS, claimed, claimIsFresh, lifecycleChange, parseOutboxMessage, parseRenewalSweep, released, RENEW_BEFORE_DAYS, renewalDayOf, renewalDue, retryVisibilitySeconds, secondsUntilSend, waitsForTime } from '../../lib/domain/registry/outbox.ts';
import { FUNCTIONS } from '../../infra/functions.ts';
import type { RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import { outboxMessagesOf } from '../../lib/services/registry-outbox.ts';

/**
 * The outbox's rules (docs/registry.md#the-outbox): what a registry's answer makes of a record, how
 * long a message waits when the registry asks to try again, which records the stream's feed queues.
 */

const NOW = '2026-11-29T12:00:00.000Z';
const UPI = 'https://id.brand.example/01/04006381333931/21/S1';
const record = (overrides: Partial<RegistrationRecord> = {}): RegistrationRecord => ({
  registrationId: 'reg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
  entry: {
    upi: UPI,
    reoId: 'LEI-529900T8BM49AURSDO55',
    facilitiesId: ['GLN-4006381000017'],
    liveURL: UPI,
    backupURL: 'https://backup.example/1.json',
    commodityCode: '85076000',
    granularityLevel: 'ITEM',
    deactivated: false,
  },
  granularity: 'ITEM',
  productId: 'p',
  gtin: '04006381333931',
  serial: 'S1',
  status: 'ready',
  reasons: [],
  warnings: [],
  createdAt: NOW,
  updatedAt: NOW,
  version: 3,
  ...overrides,
});
const tenant = { orgId: 'org_a', environment: 'live' as const };

describe('afterAnswer', () => {
  it('marks an entry the registry took as pending submitted, with its registry id, one version on', () => {
    // Act
    const outcome = afterAnswer(record(), { outcome: 'accepted', registryId: 'r-1', registryUri: 'https://registry.example/r-1', status: 'pending' }, NOW);

    // Assess
    expect(outcome).toMatchObject({ kind: 'write', event: 'registry.registration.submitted', record: { status: 'submitted', registryId: 'r-1', registryUri: 'https://registry.example/r-1', submittedAt: NOW, version: 4 } });
  });

  it('marks a registered entry with its proof of registration, valid 90 days', () => {
    // Act
    const outcome = afterAnswer(record({ status: 'submitted', submittedAt: '2026-11-29T11:59:00.000Z', registryId: 'r-1' }), { outcome: 'accepted', registryId: 'r-1', status: 'registered' }, NOW);

    // Assess
    expect(outcome).toMatchObject({
      kind: 'write',
      event: 'registry.registration.registered',
      record: { status: 'registered', registeredAt: NOW, proofExpiresAt: '2027-02-27T12:00:00.000Z', submittedAt: '2026-11-29T11:59:00.000Z' },
    });
  });

  it('marks a rejected or refused entry rejected with the registry\'s reasons', () => {
    // Act
    const rejected = afterAnswer(record({ status: 'submitted' }), { outcome: 'accepted', registryId: 'r-1', status: 'rejected', reasons: ['The operator is not verified.'] }, NOW);
    const refused = afterAnswer(record(), { outcome: 'refused', reasons: [] }, NOW);

    // Assess
    expect(rejected).toMatchObject({ kind: 'write', event: 'registry.registration.rejected', record: { status: 'rejected', reasons: [{ source: 'registry', message: 'The operator is not verified.' }] } });
    expect(refused).toMatchObject({ kind: 'write', record: { status: 'rejected', reasons: [{ source: 'registry', message: 'The registry refused the entry.' }] } });
  });

  it('writes nothing for a retry or an entry still pending at the registry', () => {
    // Act
    const retry = afterAnswer(record(), { outcome: 'retry', reason: '503', retryAfterSeconds: 7 }, NOW);
    const pending = afterAnswer(record({ status: 'submitted' }), { outcome: 'accepted', registryId: 'r-1', status: 'pending' }, NOW);

    // Assess
    expect(retry).toEqual({ kind: 'retry', reason: '503', retryAfterSeconds: 7 });
    expect(pending).toEqual({ kind: 'pending' });
  });
});

describe('waits', () => {
  it('honours Retry-After, never waits less than the backoff of the receive count, and at most 15 minutes', () => {
    // Act and Assess
    expect([1, 2, 3, 4, 11, 30].map(backoffSeconds)).toEqual([1, 2, 4, 8, 900, 900]);
    expect(retryVisibilitySeconds(1, 30)).toBe(30);
    expect(retryVisibilitySeconds(5, 1)).toBe(16);
    expect(retryVisibilitySeconds(2, 86_400)).toBe(900);
  });

  it('looks again at a record held for a link or a backup copy, not at one held only for what a person fixes', () => {
    // Act and Assess
    expect(waitsForTime([{ source: 'precheck', code: 'upward_link_missing', message: '' }])).toBe(true);
    expect(waitsForTime([{ source: 'precheck', code: 'upi_not_https', message: '' }, { source: 'precheck', code: 'backup_missing', message: '' }])).toBe(true);
    expect(waitsForTime([{ source: 'precheck', code: 'commodity_code_invalid', message: '' }])).toBe(false);
  });
});

describe('messages', () => {
  it('reads a message and drops anything else', () => {
    // Act and Assess
    expect(parseOutboxMessage('{"orgId":"org_a","environment":"test","registrationId":"reg_x","attempt":2}')).toEqual({ orgId: 'org_a', environment: 'test', registrationId: 'reg_x', attempt: 2 });
    expect(parseOutboxMessage('{"orgId":"org_a","environment":"prod","registrationId":"reg_x"}')).toBeUndefined();
    expect(parseOutboxMessage('not json')).toBeUndefined();
  });

  it('queues new, ready and API-submitted registrations (the last after the poll delay), not those held with reasons, done, or submitted in a file', () => {
    // Act
    const messages = outboxMessagesOf([
      { tenant, record: record({ registrationId: 'reg_new', status: 'pending_checks' }) },
      { tenant, record: record({ registrationId: 'reg_ready', status: 'ready' }) },
      { tenant, record: record({ registrationId: 'reg_api', status: 'submitted', registryId: 'r-1' }) },
      { tenant, record: record({ registrationId: 'reg_held', status: 'pending_checks', reasons: [{ source: 'precheck', code: 'backup_missing', message: '' }] }) },
      { tenant, record: record({ registrationId: 'reg_done', status: 'registered' }) },
      { tenant, record: record({ registrationId: 'reg_file', status: 'submitted', correlationId: 'rfs_1' }) },
    ]);

    // Assess
    expect(messages.map((m) => [m.message.registrationId, m.delaySeconds ?? 0])).toEqual([
      ['reg_new', 0],
      ['reg_ready', 0],
      // REGISTRY_STATUS_POLL_SECONDS: 60 by default; a suite that loaded the local stack's environment has it at 1.
      ['reg_api', config().registryStatusPollSeconds],
    ]);
  });
});

describe('lifecycle (docs/registry.md#lifecycle)', () => {
  it('asks to deactivate a registered item withdrawn through the API, and marks it deactivated at once in files', () => {
    // Prepare
    const registered = record({ status: 'registered', registryId: 'r-1' });

    // Act
    const api = lifecycleChange(registered, true, 'api', NOW);
    const files = lifecycleChange(registered, true, 'files', NOW);

    // Assess
    expect(api).toMatchObject({ status: 'registered', deactivation: 'requested', version: 4, entry: { deactivated: false } });
    expect(files).toMatchObject({ status: 'deactivated', version: 4, entry: { deactivated: true } });
    expect(files?.deactivation).toBeUndefined();
  });

  it('puts the change in the entry of an item not sent yet or rejected, and asks for it on one on its way through the API', () => {
    // Act
    const ready = lifecycleChange(record({ status: 'ready' }), true, 'api', NOW);
    const rejected = lifecycleChange(record({ status: 'rejected', entry: { ...record().entry, deactivated: true } }), false, 'files', NOW);
    const inFlight = lifecycleChange(record({ status: 'submitted', claimedAt: NOW }), true, 'api', NOW);
    const registeredLater = inFlight && afterAnswer(inFlight, { outcome: 'accepted', registryId: 'r-1', status: 'registered' }, NOW);

    // Assess
    expect(ready).toMatchObject({ status: 'ready', version: 4, entry: { deactivated: true } });
    expect(ready?.deactivation).toBeUndefined();
    expect(rejected).toMatchObject({ status: 'rejected', entry: { deactivated: false } });
    expect(lifecycleChange(record({ status: 'ready' }), false, 'api', NOW)).toBeUndefined();
    expect(inFlight).toMatchObject({ status: 'submitted', deactivation: 'requested', entry: { deactivated: false } });
    // Registered by the registry, it still asks: the outbox's next message sends the deactivation.
    expect(registeredLater).toMatchObject({ kind: 'write', record: { status: 'registered', deactivation: 'requested' } });
  });

  it('leaves a model and a request already made as they are', () => {
    // Act and Assess
    expect(lifecycleChange(record({ status: 'registered', granularity: 'MODEL' }), true, 'api', NOW)).toBeUndefined();
    expect(lifecycleChange(record({ status: 'registered', deactivation: 'requested' }), true, 'api', NOW)).toBeUndefined();
    expect(lifecycleChange(record({ status: 'registered' }), false, 'api', NOW)).toBeUndefined();
  });

  it('drops a deactivation not sent yet when the item is reinstated', () => {
    // Act
    const after = lifecycleChange(record({ status: 'registered', deactivation: 'requested' }), false, 'api', NOW);

    // Assess
    expect(after).toMatchObject({ status: 'registered', version: 4 });
    expect(after && 'deactivation' in after).toBe(false);
  });

  it('marks the registration deactivated or registered again once the registry took the change, and keeps its status when it refused', () => {
    // Prepare
    const taken = { outcome: 'accepted', registryId: 'r-1', status: 'registered' } as const;

    // Act
    const deactivated = afterLifecycleAnswer(record({ status: 'registered', deactivation: 'requested' }), taken, NOW);
    const reactivated = afterLifecycleAnswer(record({ status: 'deactivated', deactivation: 'reactivation_requested', entry: { ...record().entry, deactivated: true } }), taken, NOW);
    const refused = afterLifecycleAnswer(record({ status: 'registered', deactivation: 'requested' }), { outcome: 'refused', reasons: ['no'] }, NOW);

    // Assess
    expect(deactivated).toMatchObject({ kind: 'write', event: 'registry.registration.deactivated', record: { status: 'deactivated', entry: { deactivated: true } } });
    expect(reactivated).toMatchObject({ kind: 'write', event: 'registry.registration.registered', record: { status: 'registered', entry: { deactivated: false } } });
    expect(refused).toMatchObject({ kind: 'write', event: 'registry.registration.rejected', record: { status: 'registered', reasons: [{ source: 'registry', message: 'no' }] } });
    expect(refused.kind === 'write' && refused.record.deactivation).toBe(undefined);
  });

  it('queues a registration whose item asks for a (de)activation', () => {
    // Act
    const messages = outboxMessagesOf([
      { tenant, record: record({ registrationId: 'reg_off', status: 'registered', deactivation: 'requested' }) },
      { tenant, record: record({ registrationId: 'reg_on', status: 'deactivated', deactivation: 'reactivation_requested' }) },
      { tenant, record: record({ registrationId: 'reg_off_done', status: 'deactivated' }) },
    ]);

    // Assess
    expect(messages.map((m) => m.message.registrationId)).toEqual(['reg_off', 'reg_on']);
  });
});

describe('claims (docs/registry.md#the-outbox)', () => {
  it('claims a checked record as submitted before its send, and a (de)activation with its status kept', () => {
    // Prepare
    const ready = record({ status: 'ready', notBefore: '2026-11-29T11:00:00.000Z', sendRetries: 2 });
    const asked = record({ status: 'registered', deactivation: 'requested', registryId: 'r-1' });

    // Act
    const sent = claimed(ready, NOW);
    const change = claimed(asked, NOW);

    // Assess
    expect(sent).toMatchObject({ status: 'submitted', claimedAt: NOW, submittedAt: NOW, sendRetries: 2, version: 4 });
    expect(sent.notBefore).toBeUndefined();
    expect(change).toMatchObject({ status: 'registered', deactivation: 'requested', claimedAt: NOW, version: 4 });
  });

  it('lets a claim go after "try again": back to ready, not before what the registry asked or the growing backoff', () => {
    // Prepare
    const mine = claimed(record({ status: 'ready' }), NOW);

    // Act
    const first = released(mine, NOW);
    const asked = released(claimed(first, NOW), NOW, 120);

    // Assess
    expect(first).toMatchObject({ status: 'ready', sendRetries: 1, notBefore: '2026-11-29T12:00:01.000Z' });
    expect(first.claimedAt).toBeUndefined();
    expect(asked).toMatchObject({ sendRetries: 2, notBefore: '2026-11-29T12:02:00.000Z' });
    expect(secondsUntilSend(asked, new Date(NOW))).toBe(120);
  });

  it('holds a claim for the outbox worker\'s timeout, and the written outcome lets it go', () => {
    // Prepare
    const mine = claimed(record(), NOW);
    const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000);

    // Act
    const registered = afterAnswer(mine, { outcome: 'accepted', registryId: 'r-1', status: 'registered' }, NOW);

    // Assess
    expect(CLAIM_LEASE_SECONDS).toBe(FUNCTIONS['registry-outbox'].timeoutSeconds);
    expect(claimIsFresh(mine, at(CLAIM_LEASE_SECONDS - 1))).toBe(true);
    expect(claimIsFresh(mine, at(CLAIM_LEASE_SECONDS))).toBe(false);
    expect(registered.kind === 'write' && registered.record.claimedAt).toBeUndefined();
    expect(afterAnswer(mine, { outcome: 'accepted', registryId: 'r-1', status: 'pending' }, NOW)).toEqual({ kind: 'pending' });
  });

  it('queues no message for a claimed record, and queues a released one after its wait', () => {
    // Prepare
    const mine = claimed(record(), NOW);
    const waiting = released(mine, NOW, 30);

    // Act
    const messages = outboxMessagesOf([{ tenant, record: mine }, { tenant, record: waiting }], new Date(NOW));

    // Assess
    expect(messages).toEqual([{ message: { ...tenant, registrationId: waiting.registrationId, attempt: 0 }, delaySeconds: 30 }]);
  });

  it('carries the registry\'s id in a status read\'s message, and drops one that is not a string of at most 2,000 characters', () => {
    // Prepare
    const body = (registryId: unknown) => JSON.stringify({ ...tenant, registrationId: 'reg_x', attempt: 1, registryId, registryUri: 'https://registry.example/r-1' });

    // Act
    const carried = parseOutboxMessage(body('r-1'));
    const tooLong = parseOutboxMessage(body('r'.repeat(2_001)));

    // Assess
    expect(carried).toEqual({ ...tenant, registrationId: 'reg_x', attempt: 1, registryId: 'r-1', registryUri: 'https://registry.example/r-1' });
    expect(tooLong).toEqual({ ...tenant, registrationId: 'reg_x', attempt: 1 });
  });
});

describe('proof of registration renewal (docs/registry.md#proof-of-registration)', () => {
  const registered = (overrides: Partial<RegistrationRecord> = {}) =>
    record({ status: 'registered', registryId: 'r-1', registeredAt: NOW, proofExpiresAt: '2027-02-27T12:00:00.000Z', ...overrides });

  it('is due 14 days before the proof runs out, only for a registered entry with a registry id and no pending (de)activation', () => {
    // Prepare
    const before = new Date('2027-02-12T23:59:59.000Z');
    const on = new Date('2027-02-13T00:00:00.000Z');

    // Act
    const day = renewalDayOf(registered());

    // Assess
    expect(RENEW_BEFORE_DAYS).toBe(14);
    expect(day).toBe('2027-02-13');
    expect(renewalDue(registered(), before)).toBe(false);
    expect(renewalDue(registered(), on)).toBe(true);
    expect(renewalDayOf(registered({ status: 'deactivated' }))).toBeUndefined();
    expect(renewalDayOf(registered({ deactivation: 'requested' }))).toBeUndefined();
    expect(renewalDayOf(registered({ registryId: undefined }))).toBeUndefined();
  });

  it('gives a still registered entry a fresh proof of 90 days from the renewal, and a no longer registered one the registry\'s reasons', () => {
    // Prepare
    const at = '2027-02-15T08:00:00.000Z';

    // Act
    const renewed = afterRenewal(registered(), { outcome: 'accepted', registryId: 'r-1', status: 'registered' }, at);
    const gone = afterRenewal(registered(), { outcome: 'accepted', registryId: 'r-1', status: 'rejected', reasons: ['Operator no longer verified.'] }, at);

    // Assess
    expect(renewed).toMatchObject({ kind: 'write', event: 'registry.registration.proof_renewed', record: { status: 'registered', proofExpiresAt: '2027-05-16T08:00:00.000Z', proofRenewedAt: at, registeredAt: NOW, version: 4 } });
    expect(gone).toMatchObject({ kind: 'write', event: 'registry.registration.rejected', record: { status: 'rejected', reasons: [{ source: 'registry', message: 'Operator no longer verified.' }] } });
    expect(afterRenewal(registered(), { outcome: 'retry', reason: '503' }, at).kind).toBe('retry');
  });

  it('reads the sweep\'s message and its continuation, and nothing else as one', () => {
    // Act
    const daily = parseRenewalSweep('{"kind":"proof-renewals"}');
    const continued = parseRenewalSweep(JSON.stringify({ kind: 'proof-renewals', from: { day: '2027-02-13', shard: 3, cursor: '{"PK":"x"}' } }));

    // Assess
    expect(daily).toEqual({ kind: 'proof-renewals' });
    expect(continued).toEqual({ kind: 'proof-renewals', from: { day: '2027-02-13', shard: 3, cursor: '{"PK":"x"}' } });
    expect(parseRenewalSweep(JSON.stringify({ kind: 'proof-renewals', from: { day: 'tomorrow', shard: 1 } }))).toEqual({ kind: 'proof-renewals' });
    expect(parseRenewalSweep(JSON.stringify({ orgId: 'o', environment: 'live', registrationId: 'reg_x' }))).toBeUndefined();
    expect(parseRenewalSweep('not json')).toBeUndefined();
  });
});
