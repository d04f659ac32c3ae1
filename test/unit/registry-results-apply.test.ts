import { describe, expect, it } from 'vitest';
import { registryEntryOf } from '../../lib/domain/registry/build.ts';
import type { RegistryGranularity } from '../../lib/domain/registry/entry.ts';
import { registrationIdOf, type RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import type { RegistryResult } from '../../lib/domain/registry/results.ts';
import { afterResult, PROOF_VALIDITY_DAYS } from '../../lib/services/registry-files.ts';

/** What a row of the registry's result file makes of a registration (docs/registry.md#results-in). */

const MODEL = 'https://id.brand.example/01/04006381333931';

function record(granularity: RegistryGranularity, upi: string, extra: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return {
    registrationId: registrationIdOf('org_a', 'live', upi),
    entry: registryEntryOf({
      digitalLink: upi,
      granularity,
      operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' },
      facilities: ['4006381000017'],
      commodityCode: '85076000',
      backupURL: 'https://backup.example/copy.json',
    }),
    granularity,
    productId: '0190a3b4-0000-7000-8000-000000000001',
    gtin: '04006381333931',
    status: 'pending_checks',
    reasons: [],
    warnings: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 1,
    ...extra,
  };
}

describe('afterResult', () => {
  const now = new Date('2026-11-29T12:00:00.000Z');
  const submitted = record('MODEL', MODEL, { status: 'submitted', correlationId: 'rfs_0000000000000000000a', submittedAt: '2026-11-28T00:00:00.000Z' });
  const row = (extra: Partial<RegistryResult>): RegistryResult => ({ row: 2, correlationId: null, upi: MODEL, outcome: 'registered', registryId: 'REG-1', registryUri: 'https://registry.example/REG-1', reasons: [], ...extra });

  it(`marks a submitted record registered, with the registry's id and URI and a proof valid ${PROOF_VALIDITY_DAYS} days`, () => {
    // Act
    const after = afterResult(submitted, row({}), now);

    // Assess
    expect(after).toMatchObject({
      status: 'registered',
      registryId: 'REG-1',
      registryUri: 'https://registry.example/REG-1',
      registeredAt: '2026-11-29T12:00:00.000Z',
      proofExpiresAt: '2027-02-27T12:00:00.000Z',
      version: 2,
    });
  });

  it("marks it rejected with the registry's reasons in its words", () => {
    // Act
    const after = afterResult(submitted, row({ outcome: 'rejected', registryId: null, registryUri: null, reasons: ['Unknown operator', 'Bad commodity code'] }), now);

    // Assess
    expect(after).toMatchObject({ status: 'rejected', version: 2 });
    expect(typeof after === 'object' && 'reasons' in after ? after.reasons : []).toEqual([
      { source: 'registry', code: 'registry_rejected', message: 'Unknown operator' },
      { source: 'registry', code: 'registry_rejected', message: 'Bad commodity code' },
    ]);
  });

  it('changes nothing for a row the record says already, or a pending row', () => {
    // Prepare
    const registered = afterResult(submitted, row({}), now) as RegistrationRecord;

    // Act + Assess
    expect(afterResult(registered, row({}), now)).toBe('unchanged');
    expect(afterResult(submitted, row({ outcome: 'pending', registryId: null, registryUri: null }), now)).toBe('unchanged');
  });

  it('applies to no record of another correlation id, nor to one that was not submitted', () => {
    // Act
    const other = afterResult(submitted, row({ correlationId: 'rfs_0000000000000000000b' }), now);
    const notSent = afterResult(record('MODEL', MODEL, { status: 'ready' }), row({}), now);
    const sameSet = afterResult(submitted, row({ correlationId: 'rfs_0000000000000000000a' }), now);

    // Assess
    expect(other).toEqual({ unmatched: expect.stringContaining('submitted under rfs_0000000000000000000a') });
    expect(notSent).toEqual({ unmatched: expect.stringContaining('ready, not submitted') });
    expect(sameSet).toMatchObject({ status: 'registered' });
  });
});
