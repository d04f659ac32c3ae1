import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { batchUpiOf, registryEntryOf } from '../../lib/domain/registry/build.ts';
import type { RegistryEntry } from '../../lib/domain/registry/entry.ts';
import { MOCK_UPI_MAX_LENGTH, PRECHECK_CODES, precheck, WARNING_CODES, type PrecheckContext } from '../../lib/domain/registry/precheck.ts';

/** Our pre-checks of a registry entry (docs/registry.md#pre-checks). */

const HOST = 'id.brand.example';
const MODEL = `https://${HOST}/01/04006381333931`;
const BATCH = batchUpiOf(MODEL, 'L2026');
const ITEM = `${MODEL}/21/SN000001`;

const item = (): RegistryEntry =>
  registryEntryOf({
    digitalLink: ITEM,
    granularity: 'ITEM',
    operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' },
    facilities: ['4006381000017'],
    commodityCode: '85076000',
    backupURL: `https://${HOST}/backup/org_a/live/p/04006381333931/21/SN000001/1.json`,
  });

const context = (): PrecheckContext => ({
  verifiedHosts: [HOST],
  category: 'battery',
  links: { model: MODEL, batch: BATCH },
  available: new Set([MODEL, BATCH]),
  backup: { outcome: 'same-digest', digest: 'sha256-abc' },
  missing: [],
});

const codes = (reasons: readonly { code: string; field: string }[]) => reasons.map((r) => `${r.code} ${r.field}`);

describe('precheck', () => {
  it('passes a complete battery item whose model and batch are registered and whose backup answers with the same digest', () => {
    // Act
    const result = precheck(item(), context());

    // Assess: the link is longer than v1.01's 50 characters, a warning only.
    expect(result.ok).toBe(true);
    expect(result.errors).toEqual([]);
    expect(codes(result.warnings)).toEqual(['upi_long upi']);
    expect(result.warnings[0]?.message).toMatch(/54 characters.*v1\.01.*50.*v1\.02 takes 2000/);
  });

  it('gives no warning for an identifier of 50 characters or fewer', () => {
    // Prepare
    const short = registryEntryOf({ ...item(), digitalLink: 'https://b.example/01/04006381333931', granularity: 'MODEL', operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'] });

    // Act
    const result = precheck(short, { ...context(), verifiedHosts: ['b.example'], category: 'wine' });

    // Assess
    expect(result).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it.each<[string, (e: RegistryEntry, c: PrecheckContext) => [RegistryEntry, PrecheckContext], string]>([
    ['an http identifier', (e, c) => [{ ...e, upi: e.upi.replace('https:', 'http:') }, c], 'upi_not_https upi'],
    ['an identifier that is no URL', (e, c) => [{ ...e, upi: 'urn:epc:id:sgtin:0614141.107346.2017' }, c], 'upi_not_https upi'],
    ['an identifier over 2,000 characters', (e, c) => [{ ...e, upi: `${e.upi}${'9'.repeat(2000)}` }, c], 'upi_too_long upi'],
    ['an identifier over the mock\'s 200 characters when sent to the mock', (e, c) => [{ ...e, upi: `${MODEL}/21/${'S'.repeat(20)}`.padEnd(201, 'x') }, { ...c, upiMaxLength: MOCK_UPI_MAX_LENGTH }], 'upi_too_long upi'],
    ['an identifier on the platform\'s path form', (e, c) => [{ ...e, upi: `https://${HOST}/org_a/live/01/04006381333931/21/SN000001` }, c], 'upi_not_digital_link upi'],
    ['a GTIN with a wrong check digit', (e, c) => [{ ...e, upi: `https://${HOST}/01/04006381333932/21/SN000001` }, c], 'upi_not_digital_link upi'],
    ['an identifier with a query', (e, c) => [{ ...e, upi: `${ITEM}?linkType=gs1:pip` }, c], 'upi_not_digital_link upi'],
    ['a host that is not a verified brand domain', (e, c) => [e, { ...c, verifiedHosts: ['other.example'] }], 'upi_host_not_verified upi'],
    ['an item entry whose link names a model', (e, c) => [{ ...e, upi: MODEL }, c], 'granularity_mismatch granularityLevel'],
    ['an item without deactivated', ({ deactivated: _d, ...e }, c) => [e, c], 'deactivated_mismatch deactivated'],
    ['an http liveURL', (e, c) => [{ ...e, liveURL: e.liveURL.replace('https:', 'http:') }, c], 'live_url_invalid liveURL'],
    ['a model not registered nor sent with it', (e, c) => [e, { ...c, available: new Set([BATCH]) }], 'upward_link_missing links.model'],
    ['a batch not registered nor sent with it', (e, c) => [e, { ...c, available: new Set([MODEL]) }], 'upward_link_missing links.batch'],
    ['an operator identifier without a scheme', (e, c) => [{ ...e, reoId: '529900T8BM49AURSDO55' }, c], 'operator_scheme_unknown reoId'],
    ['an LEI with wrong check digits', (e, c) => [{ ...e, reoId: 'LEI-529900T8BM49AURSDO56' }, c], 'operator_identifier_invalid reoId'],
    ['no facility', (e, c) => [{ ...e, facilitiesId: [] }, c], 'facility_missing facilitiesId'],
    ['a facility GLN with a wrong check digit', (e, c) => [{ ...e, facilitiesId: ['GLN-4006381000017', 'GLN-7612345000009'] }, c], 'facility_invalid facilitiesId[1]'],
    ['a facility that is not a GLN', (e, c) => [{ ...e, facilitiesId: ['FAC-MILANO-001'] }, c], 'facility_invalid facilitiesId[0]'],
    ['a facility twice', (e, c) => [{ ...e, facilitiesId: ['GLN-4006381000017', 'GLN-4006381000017'] }, c], 'facility_repeated facilitiesId[1]'],
    ['a commodity code of 7 digits', (e, c) => [{ ...e, commodityCode: '8507600' }, c], 'commodity_code_invalid commodityCode'],
    ['no commodity code', (e, c) => [{ ...e, commodityCode: '' }, c], 'commodity_code_invalid commodityCode'],
    ['a backup URL over plain http', (e, c) => [{ ...e, backupURL: 'http://backup.example/x.json' }, c], 'backup_url_invalid backupURL'],
    ['a backup copy not checked', (e, c) => [e, { ...c, backup: undefined }], 'backup_not_checked backupURL'],
    ['a backup copy not there', (e, c) => [e, { ...c, backup: { outcome: 'missing', status: 404 } }], 'backup_missing backupURL'],
    ['a backup copy that does not answer', (e, c) => [e, { ...c, backup: { outcome: 'unreachable', reason: 'timed out after 5 s' } }], 'backup_unreachable backupURL'],
    ['a backup copy of another version', (e, c) => [e, { ...c, backup: { outcome: 'other-digest', expected: 'sha256-abc', found: 'sha256-old' } }], 'backup_digest_differs backupURL'],
    ['a passport incomplete on the day', (e, c) => [e, { ...c, missing: ['data.carbonFootprint.batteryCarbonFootprint'] }], 'passport_incomplete passport'],
    ['a line break in the identifier', (e, c) => [{ ...e, upi: `${e.upi}\n` }, c], 'text_control_character upi'],
    ['a lone surrogate in a facility', (e, c) => [{ ...e, facilitiesId: ['GLN-4006381000017\ud800'] }, c], 'text_control_character facilitiesId[0]'],
  ])('holds back %s, naming the field', (_name, spoil, expected) => {
    // Prepare
    const [entry, ctx] = spoil(item(), context());

    // Act
    const result = precheck(entry, ctx);

    // Assess
    expect(result.ok).toBe(false);
    expect(codes(result.errors)).toContain(expected);
    for (const reason of result.errors) expect(reason.message.length).toBeGreaterThan(10);
  });

  it('holds back a model entry that carries deactivated', () => {
    const model = { ...registryEntryOf({ ...item(), digitalLink: MODEL, granularity: 'MODEL', operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'] }), deactivated: false };

    expect(codes(precheck(model, { ...context(), itemsBelow: 1 }).errors)).toEqual(['deactivated_mismatch deactivated']);
  });

  it('gives every reason at once, not only the first', () => {
    // Prepare
    const entry = { ...item(), reoId: 'LEI-529900T8BM49AURSDO56', commodityCode: '850', facilitiesId: [] };

    // Act
    const result = precheck(entry, { ...context(), backup: undefined, missing: ['a', 'b'] });

    // Assess
    expect(codes(result.errors)).toEqual([
      'operator_identifier_invalid reoId',
      'facility_missing facilitiesId',
      'commodity_code_invalid commodityCode',
      'backup_not_checked backupURL',
      'passport_incomplete passport',
    ]);
    expect(result.errors.at(-1)?.message).toMatch(/a, b are missing/);
  });

  it('takes a backup copy on the local stack\'s loopback origin over http', () => {
    const entry = { ...item(), backupURL: 'http://127.0.0.1:4566/passport-backup-public/org_a/live/p/04006381333931/21/SN000001/1.json' };

    expect(precheck(entry, context()).ok).toBe(true);
  });

  it('warns, and does not hold back, a battery model none of whose batteries is registered yet; says nothing once one is, nor for a wine', () => {
    // Prepare
    const model = registryEntryOf({ ...item(), digitalLink: MODEL, granularity: 'MODEL', operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' }, facilities: ['4006381000017'] });

    // Act
    const alone = precheck(model, context());
    const withItems = precheck(model, { ...context(), itemsBelow: 1000 });
    const wine = precheck(model, { ...context(), category: 'wine' });

    // Assess
    expect(alone.ok).toBe(true);
    expect(codes(alone.warnings)).toContain('granularity_below_category granularityLevel');
    expect(codes(withItems.warnings)).not.toContain('granularity_below_category granularityLevel');
    expect(codes(wine.warnings)).not.toContain('granularity_below_category granularityLevel');
  });

  it('derives the item\'s model from its link when the context names none', () => {
    // Prepare
    const ctx = { ...context(), links: {} };

    // Act
    const registered = precheck(item(), { ...ctx, available: new Set([MODEL]) });
    const missing = precheck(item(), { ...ctx, available: new Set<string>() });

    // Assess
    expect(registered.ok).toBe(true);
    expect(missing.errors[0]?.message).toContain(MODEL);
  });

  it('never throws, whatever the entry holds', () => {
    // Prepare
    const odd = { upi: '%E0%A4%A', reoId: '-', facilitiesId: ['', 'GLN-'], liveURL: '', backupURL: '::', commodityCode: 'x', granularityLevel: 'BATCH' } as RegistryEntry;

    // Act
    const result = precheck(odd, { ...context(), available: new Set(), backup: undefined });

    // Assess
    expect(result.ok).toBe(false);
    expect(result.errors.length).toBeGreaterThan(5);
  });
});

describe('docs/registry.md', () => {
  it('lists every pre-check code in its table, warnings as warnings', () => {
    // Prepare
    const doc = readFileSync(new URL('../../docs/registry.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'));

    // Act
    const documented = new Map(rows.map((row) => [/^\| `([a-z_]+)`/.exec(row)?.[1], row]));

    // Assess
    for (const code of PRECHECK_CODES) {
      const row = documented.get(code);
      expect(row, code).toBeDefined();
      expect(row?.includes('| warning |'), code).toBe(WARNING_CODES.has(code));
    }
  });
});
