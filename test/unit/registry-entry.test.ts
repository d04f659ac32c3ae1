import { describe, expect, it } from 'vitest';
import { batchUpiOf, modelUpiOf, registryEntryOf, type RegistryEntryInput } from '../../lib/domain/registry/build.ts';
import type { RegistryEntry } from '../../lib/domain/registry/entry.ts';
import { REGISTRY_SCHEMA_PATH, registryEntryErrors, registryValidatorAt } from '../support/registry-schema.ts';

/**
 * registryEntryOf (docs/registry.md#the-entry): every entry it builds validates against the
 * CIRPASS-2 mock's schema in ../shared/registry/default-schema.json, and entries that break the
 * mock's rules do not.
 */

const MODEL = 'https://id.brand.example/01/04006381333931';
const base: Omit<RegistryEntryInput, 'digitalLink' | 'granularity'> = {
  operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' },
  facilities: ['4006381000017'],
  commodityCode: '85076000',
  backupURL: 'https://id.brand.example/backup/org_a/live/p/04006381333931/1/passport.json',
};

describe('registryEntryOf', () => {
  it('builds a model entry in the mock\'s shape: the link as upi and liveURL, the reoId with its scheme, facilities as GLN-…, no deactivated', () => {
    // Act
    const entry = registryEntryOf({ ...base, digitalLink: ` ${MODEL} `, granularity: 'MODEL' });

    // Assess
    expect(entry).toEqual({
      upi: MODEL,
      reoId: 'LEI-529900T8BM49AURSDO55',
      facilitiesId: ['GLN-4006381000017'],
      liveURL: MODEL,
      backupURL: base.backupURL,
      commodityCode: '85076000',
      granularityLevel: 'MODEL',
    });
    expect(Object.keys(entry)).toEqual(['upi', 'reoId', 'facilitiesId', 'liveURL', 'backupURL', 'commodityCode', 'granularityLevel']);
    expect(registryEntryErrors(entry)).toEqual([]);
  });

  it.each<[string, Partial<RegistryEntryInput>]>([
    ['a wine model with an EORI operator and two facilities', { digitalLink: 'https://wine.example/01/09506000134352', granularity: 'MODEL', operator: { scheme: 'EORI', identifier: 'IT123456789' }, facilities: ['4006381000017', 'GLN-7612345000008'], commodityCode: '220421' }],
    ['a battery lot (a lot with a slash, percent-encoded)', { digitalLink: batchUpiOf(MODEL, 'L/2026-07'), granularity: 'BATCH' }],
    ['a battery item, not deactivated', { digitalLink: `${MODEL}/21/SN000001`, granularity: 'ITEM' }],
    ['a withdrawn battery item, deactivated', { digitalLink: `${MODEL}/21/SN000002`, granularity: 'ITEM', deactivated: true }],
    ['an item whose state is unknown (null)', { digitalLink: `${MODEL}/21/SN000003`, granularity: 'ITEM', deactivated: null, operator: { scheme: 'VAT', identifier: 'DE123456789' } }],
    ['a GLN operator and a TARIC code', { digitalLink: MODEL, granularity: 'MODEL', operator: { scheme: 'GLN', identifier: '4012345000016' }, commodityCode: '8507600010' }],
  ])('builds an entry the mock\'s schema takes: %s', (_name, input) => {
    // Act
    const entry = registryEntryOf({ ...base, digitalLink: MODEL, granularity: 'MODEL', ...input } as RegistryEntryInput);

    // Assess
    expect(registryEntryErrors(entry)).toEqual([]);
    expect(Object.hasOwn(entry, 'deactivated')).toBe(entry.granularityLevel === 'ITEM');
  });

  it('gives an item deactivated false when not told, and drops deactivated from a model even when told', () => {
    expect(registryEntryOf({ ...base, digitalLink: `${MODEL}/21/S1`, granularity: 'ITEM' }).deactivated).toBe(false);
    expect(Object.hasOwn(registryEntryOf({ ...base, digitalLink: MODEL, granularity: 'MODEL', deactivated: true }), 'deactivated')).toBe(false);
  });

  it('names a facility once when it is given twice (the schema wants unique items)', () => {
    const entry = registryEntryOf({ ...base, digitalLink: MODEL, granularity: 'MODEL', facilities: ['4006381000017', 'GLN-4006381000017'] });

    expect(entry.facilitiesId).toEqual(['GLN-4006381000017']);
    expect(registryEntryErrors(entry)).toEqual([]);
  });
});

describe('the mock\'s schema, read from ../shared', () => {
  const good = registryEntryOf({ ...base, digitalLink: `${MODEL}/21/S1`, granularity: 'ITEM' });

  it.each<[string, (e: RegistryEntry) => Record<string, unknown>, RegExp]>([
    ['an item without deactivated', ({ deactivated: _d, ...e }) => e, /required.*deactivated/],
    ['a model with deactivated', (e) => ({ ...e, granularityLevel: 'MODEL' }), /must match "else" schema/],
    ['a commodity code of 3 digits', (e) => ({ ...e, commodityCode: '850' }), /\/commodityCode must match pattern/],
    ['no facility', (e) => ({ ...e, facilitiesId: [] }), /\/facilitiesId must NOT have fewer than 1 items/],
    ['a reoId over 50 characters', (e) => ({ ...e, reoId: `LEI-${'A'.repeat(47)}` }), /\/reoId must NOT have more than 50 characters/],
    ['a backupURL that is not a URL', (e) => ({ ...e, backupURL: 'backup copy' }), /\/backupURL must/],
    ['a granularity the mock does not know', (e) => ({ ...e, granularityLevel: 'LOT' }), /\/granularityLevel must be equal to one of the allowed values/],
  ])('refuses %s (the validation can fail)', (_name, spoil, reason) => {
    // Act
    const errors = registryEntryErrors(spoil(good));

    // Assess
    expect(errors.join('\n')).toMatch(reason);
  });

  it('is read from the shared folder beside the repository, not from the repository', () => {
    expect(REGISTRY_SCHEMA_PATH).toMatch(/\/shared\/registry\/default-schema\.json$/);
    expect(REGISTRY_SCHEMA_PATH.startsWith(new URL('../..', import.meta.url).pathname)).toBe(false);
  });

  it('says where the schema is expected when it is missing', () => {
    expect(() => registryValidatorAt('/nowhere/shared/registry/default-schema.json')).toThrow(/not at \/nowhere\/shared\/registry\/default-schema\.json.*\.\.\/shared\/registry\//);
  });
});

describe('modelUpiOf and batchUpiOf', () => {
  it('finds the model of an item\'s and a batch\'s link, and builds a batch\'s link as the service does', () => {
    expect(modelUpiOf(`${MODEL}/21/SN1`)).toBe(MODEL);
    expect(modelUpiOf(`${MODEL}/10/L1`)).toBe(MODEL);
    expect(modelUpiOf(MODEL)).toBe(MODEL);
    expect(batchUpiOf(`${MODEL}/`, 'L/1')).toBe(`${MODEL}/10/L%2F1`);
  });
});
