import { describe, expect, it } from 'vitest';
import type { GetResult } from '../../lib/data/outbound-http.ts';
import { batchUpiOf, registryEntryOf } from '../../lib/domain/registry/build.ts';
import type { RegistrationStatus, RegistryGranularity } from '../../lib/domain/registry/entry.ts';
import { registrationIdOf, type RegistrationRecord } from '../../lib/domain/registry/registration.ts';
import { afterCheck, backupCheckOf, precheckRecords, type CheckSource, type PassportState } from '../../lib/services/registry-checks.ts';

/**
 * The pre-checks at work (docs/registry.md#pre-checks-at-work): what a backup copy's answer says,
 * and a run over models, batches and items with a fake source of what the checks read.
 */

const HOST = 'id.brand.example';
const GTIN = '04006381333931';
const MODEL = `https://${HOST}/01/${GTIN}`;
const BATCH = batchUpiOf(MODEL, 'L1');
const itemUpi = (serial: string) => `${MODEL}/21/${serial}`;
const backupOf = (upi: string) => `https://backup.example/${encodeURIComponent(upi)}.json`;

function record(granularity: RegistryGranularity, upi: string, extra: Partial<RegistrationRecord> = {}): RegistrationRecord {
  const entry = registryEntryOf({
    digitalLink: upi,
    granularity,
    operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' },
    facilities: ['4006381000017'],
    commodityCode: '85076000',
    backupURL: backupOf(upi),
  });
  return {
    registrationId: registrationIdOf('org_a', 'live', upi),
    entry,
    granularity,
    productId: '0190a3b4-0000-7000-8000-000000000001',
    gtin: GTIN,
    ...(granularity === 'BATCH' ? { lot: 'L1' } : {}),
    ...(granularity === 'ITEM' ? { serial: upi.split('/').at(-1) as string, lot: 'L1' } : {}),
    status: 'pending_checks',
    reasons: [],
    warnings: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 1,
    ...extra,
  };
}

const answer = (statusCode: number | null, body: unknown, extra: Partial<GetResult> = {}): GetResult => ({
  statusCode,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  overBudget: false,
  error: statusCode === null ? 'connect ECONNREFUSED' : null,
  ...extra,
});

/** A source where every backup copy answers with the digest the passport has, unless told otherwise. */
function fakeSource(options: { missingBackup?: string[]; stored?: Record<string, RegistrationStatus>; incomplete?: string[]; batch?: boolean } = {}): CheckSource & { fetched: string[] } {
  const fetched: string[] = [];
  const digestOf = (url: string) => `sha256:${url.length}`;
  return {
    fetched,
    verifiedHosts: async () => [HOST],
    statusOf: async (upi) => options.stored?.[upi],
    batchExists: async () => options.batch ?? true,
    itemsBelow: async () => 0,
    passportOf: async (r): Promise<PassportState> => ({ category: 'battery', digest: digestOf(r.entry.backupURL), missing: options.incomplete?.includes(r.entry.upi) ? ['data.labeling.declarationOfConformity'] : [] }),
    fetch: async (url) => {
      fetched.push(url);
      if (options.missingBackup?.some((upi) => backupOf(upi) === url)) return answer(404, 'not found');
      const granularity = url.includes(encodeURIComponent('/21/')) ? 'item' : url.includes(encodeURIComponent('/10/')) ? 'batch' : undefined;
      return answer(200, granularity ? { [granularity]: { digest: digestOf(url) } } : { digest: digestOf(url) });
    },
  };
}

const codes = (r: { result: { errors: { code: string; field: string }[] } }) => r.result.errors.map((e) => `${e.code} ${e.field}`);

describe('backupCheckOf', () => {
  it.each<[string, RegistryGranularity, GetResult, string]>([
    ['a model\'s copy with its digest', 'MODEL', answer(200, { digest: 'sha256:a' }), 'same-digest'],
    ['an item\'s copy with the item\'s digest', 'ITEM', answer(200, { digest: 'sha256:model', item: { digest: 'sha256:a' } }), 'same-digest'],
    ['a batch\'s copy with the batch\'s digest', 'BATCH', answer(200, { digest: 'sha256:model', batch: { digest: 'sha256:a' } }), 'same-digest'],
    ['an item\'s copy holding only the model\'s digest', 'ITEM', answer(200, { digest: 'sha256:a' }), 'other-digest'],
    ['another version', 'MODEL', answer(200, { digest: 'sha256:b' }), 'other-digest'],
    ['404', 'MODEL', answer(404, ''), 'missing'],
    ['403, as S3 and CloudFront answer a key that is not there', 'MODEL', answer(403, '<Error/>'), 'missing'],
    ['500', 'MODEL', answer(500, ''), 'unreachable'],
    ['no answer', 'MODEL', answer(null, null), 'unreachable'],
    ['an answer that is not JSON', 'MODEL', answer(200, '<html>'), 'unreachable'],
    ['an answer over the budget', 'MODEL', answer(200, '{"digest":', { overBudget: true }), 'unreachable'],
  ])('reads %s as %s', (_what, granularity, got, outcome) => {
    // Act
    const check = backupCheckOf(granularity, 'sha256:a', got);

    // Assess
    expect(check.outcome).toBe(outcome);
  });
});

describe('precheckRecords', () => {
  it('checks models, then batches, then items, so that an item whose model and batch pass in the same run passes too', async () => {
    // Prepare: given items first, as a listing might give them
    const records = [record('ITEM', itemUpi('S1')), record('ITEM', itemUpi('S2')), record('BATCH', BATCH), record('MODEL', MODEL)];

    // Act
    const checked = await precheckRecords(records, fakeSource());

    // Assess
    expect(checked.map((c) => c.record.granularity)).toEqual(['MODEL', 'BATCH', 'ITEM', 'ITEM']);
    expect(checked.map((c) => c.result.ok)).toEqual([true, true, true, true]);
    // The battery model's and batch's entries are the links of items that passed: no warning that none is registered.
    expect(checked.flatMap((c) => c.result.warnings.map((w) => w.code))).not.toContain('granularity_below_category');
  });

  it('holds back the items of a model that fails, with every reason, and the model with its own', async () => {
    // Prepare
    const records = [record('MODEL', MODEL), record('ITEM', itemUpi('S1'))];

    // Act
    const checked = await precheckRecords(records, fakeSource({ missingBackup: [MODEL], batch: false }));

    // Assess
    expect(codes(checked[0]!)).toEqual(['backup_missing backupURL']);
    expect(codes(checked[1]!)).toEqual(['upward_link_missing links.model']);
    // The model stays without items registered below it: a warning beside its error.
    expect(checked[0]!.result.warnings.map((w) => w.code)).toContain('granularity_below_category');
  });

  it('counts a link available by its stored status: registered, submitted or ready, not pending_checks or rejected', async () => {
    // Prepare: items alone in the run, their model and batch stored
    const item = record('ITEM', itemUpi('S1'));

    // Act
    const registered = await precheckRecords([item], fakeSource({ stored: { [MODEL]: 'registered', [BATCH]: 'submitted' } }));
    const waiting = await precheckRecords([item], fakeSource({ stored: { [MODEL]: 'ready', [BATCH]: 'pending_checks' } }));
    const rejected = await precheckRecords([item], fakeSource({ stored: { [MODEL]: 'rejected', [BATCH]: 'registered' } }));

    // Assess
    expect(codes(registered[0]!)).toEqual([]);
    expect(codes(waiting[0]!)).toEqual(['upward_link_missing links.batch']);
    expect(codes(rejected[0]!)).toEqual(['upward_link_missing links.model']);
  });

  it('links an item to its batch only where the batch exists', async () => {
    // Prepare
    const item = record('ITEM', itemUpi('S1'));

    // Act
    const checked = await precheckRecords([item], fakeSource({ stored: { [MODEL]: 'registered' }, batch: false }));

    // Assess
    expect(codes(checked[0]!)).toEqual([]);
  });

  it('checks only records pending_checks or ready, and names an incomplete passport', async () => {
    // Prepare
    const source = fakeSource({ stored: { [MODEL]: 'registered', [BATCH]: 'registered' }, incomplete: [itemUpi('S2')] });
    const records = [record('ITEM', itemUpi('S1'), { status: 'submitted' }), record('ITEM', itemUpi('S2'), { status: 'ready' }), record('ITEM', itemUpi('S3'), { status: 'registered' })];

    // Act
    const checked = await precheckRecords(records, source);

    // Assess
    expect(checked.map((c) => c.record.entry.upi)).toEqual([itemUpi('S2')]);
    expect(codes(checked[0]!)).toEqual(['passport_incomplete passport']);
    expect(source.fetched).toEqual([backupOf(itemUpi('S2'))]);
  });

  it('moves the entry\'s backupURL to the current version\'s copy where the service knows it, and checks that one', async () => {
    // Prepare
    const item = record('ITEM', itemUpi('S1'));
    const source = fakeSource({ stored: { [MODEL]: 'registered', [BATCH]: 'registered' } });
    const current = `${backupOf(itemUpi('S1'))}?v=2`;
    const passportOf = source.passportOf;
    source.passportOf = async (r) => ({ ...(await passportOf(r)), backupUrl: current, digest: `sha256:${current.length}` });

    // Act
    const checked = await precheckRecords([item], source);

    // Assess
    expect(checked[0]!.entry.backupURL).toBe(current);
    expect(source.fetched).toEqual([current]);
    expect(codes(checked[0]!)).toEqual([]);
  });
});

describe('afterCheck', () => {
  it('writes a change of status, reasons or entry, one version on, and nothing when the record says it already', async () => {
    // Prepare
    const model = record('MODEL', MODEL);
    const [failed] = await precheckRecords([model], fakeSource({ missingBackup: [MODEL] }));

    // Act
    const after = afterCheck(model, failed!, '2026-11-29T12:00:00.000Z');
    const again = afterCheck(after!, failed!, '2026-11-29T12:05:00.000Z');

    // Assess
    expect(after).toMatchObject({ status: 'pending_checks', version: 2, updatedAt: '2026-11-29T12:00:00.000Z' });
    expect(after!.reasons.map((r) => [r.source, r.code])).toEqual([['precheck', 'backup_missing']]);
    expect(again).toBeUndefined();
  });
});
