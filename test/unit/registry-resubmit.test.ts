import { describe, expect, it } from 'vitest';
import { registryEntryOf } from '../../lib/domain/registry/build.ts';
import { REGISTRATION_STATUSES, type RegistryGranularity } from '../../lib/domain/registry/entry.ts';
import { registrationIdOf, type RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import { isResubmittable, resubmitted } from '../../lib/domain/registry/resubmit.ts';

/** What "fix and resubmit" makes of a registration (docs/registry.md#fix-and-resubmit). */

const MODEL = 'https://id.brand.example/01/04006381333931';
const ITEM = `${MODEL}/21/SN1`;
const NOW = '2026-12-01T10:00:00.000Z';
/** The settings as they are now: the commodity code fixed, a second facility added. */
const FIXED = { operator: { scheme: 'LEI' as const, identifier: '529900T8BM49AURSDO55' }, facilities: ['GLN-4006381000017', 'GLN-4012345000009'], commodityCode: '85076000' };

function record(granularity: RegistryGranularity, upi: string, extra: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return {
    registrationId: registrationIdOf('org_a', 'live', upi),
    entry: registryEntryOf({
      digitalLink: upi,
      granularity,
      operator: { scheme: 'EORI', identifier: 'DE123456789' },
      facilities: ['4006381000017'],
      commodityCode: '8507',
      backupURL: 'https://backup.example/copy/v3.json',
      ...(granularity === 'ITEM' ? { deactivated: false } : {}),
    }),
    granularity,
    productId: '0190a3b4-0000-7000-8000-000000000001',
    gtin: '04006381333931',
    status: 'pending_checks',
    reasons: [],
    warnings: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 4,
    ...extra,
  };
}

const registryReason = { source: 'registry' as const, code: 'registry_rejected', message: 'Unknown commodity code 8507.' };
const precheckReason = { source: 'precheck' as const, code: 'commodity_code_invalid', field: 'commodityCode', message: 'commodityCode must be 6, 8 or 10 digits.' };

describe('resubmitted', () => {
  it('takes a rejected registration back to pending_checks without reasons, one version on, its entry following the settings', () => {
    // Prepare
    const rejected = record('MODEL', MODEL, {
      status: 'rejected',
      reasons: [registryReason],
      warnings: [{ ...precheckReason, code: 'upi_long' }],
      registryId: 'EU-REG-1',
      registryUri: 'https://registry.example/EU-REG-1',
      correlationId: 'rfs_0000000000000000000a',
      submittedAt: '2026-11-20T00:00:00.000Z',
    });
    // Act
    const after = resubmitted(rejected, FIXED, NOW);
    // Assess
    expect(after).toMatchObject({ status: 'pending_checks', reasons: [], warnings: [], updatedAt: NOW, version: 5, registryId: 'EU-REG-1', registryUri: 'https://registry.example/EU-REG-1' });
    expect(after?.entry).toEqual({ ...rejected.entry, reoId: 'LEI-529900T8BM49AURSDO55', facilitiesId: ['GLN-4006381000017', 'GLN-4012345000009'], commodityCode: '85076000' });
    // The members in the mock's order, as the entry was built.
    expect(Object.keys(after?.entry ?? {})).toEqual(Object.keys(rejected.entry));
    // The previous submission is over: its correlation id and time go, so that its next hand-over is a new one.
    expect(after).not.toHaveProperty('correlationId');
    expect(after).not.toHaveProperty('submittedAt');
  });

  it('keeps an item’s identity, backup copy and deactivated as they are, and drops the outbox’s claim and waits', () => {
    // Prepare
    const held = record('ITEM', ITEM, {
      lot: 'L1',
      serial: 'SN1',
      reasons: [precheckReason],
      claimedAt: '2026-11-30T00:00:00.000Z',
      notBefore: '2026-12-01T11:00:00.000Z',
      sendRetries: 3,
    });
    // Act
    const after = resubmitted(held, FIXED, NOW);
    // Assess
    expect(after).toMatchObject({ lot: 'L1', serial: 'SN1', reasons: [], entry: { upi: ITEM, liveURL: ITEM, backupURL: 'https://backup.example/copy/v3.json', granularityLevel: 'ITEM', deactivated: false } });
    for (const member of ['claimedAt', 'notBefore', 'sendRetries'] as const) expect(after, member).not.toHaveProperty(member);
  });

  it('answers nothing to write for a pending_checks registration without reasons whose entry follows the settings', () => {
    // Prepare: what a resubmission leaves
    const once = resubmitted(record('BATCH', `${MODEL}/10/L1`, { status: 'rejected', reasons: [registryReason] }), FIXED, NOW);
    // Act
    const twice = once && resubmitted(once, FIXED, '2026-12-01T10:05:00.000Z');
    // Assess
    expect(once).toBeDefined();
    expect(twice).toBeUndefined();
  });

  it('resubmits a registration pending_checks without reasons whose entry differs from the settings: the fix reaches the entry', () => {
    // Act
    const after = resubmitted(record('MODEL', MODEL), FIXED, NOW);
    // Assess
    expect(after?.entry.commodityCode).toBe('85076000');
    expect(after?.version).toBe(5);
  });
});

describe('isResubmittable', () => {
  it('takes rejected and pending_checks, and no other status', () => {
    // Act
    const taken = REGISTRATION_STATUSES.filter(isResubmittable);
    // Assess
    expect(taken).toEqual(['pending_checks', 'rejected']);
  });
});
