import { createHash } from 'node:crypto';
import { readXml } from '../support/registry-xml.ts';
import { describe, expect, it } from 'vitest';
import { registryEntryOf } from '../../lib/domain/registry/build.ts';
import type { RegistryEntry } from '../../lib/domain/registry/entry.ts';
import { escapeXml, MAX_ENTRIES_PER_FILE, registryFiles, type CheckedEntry, type RegistryFile } from '../../lib/domain/registry/files.ts';
import { precheck, type PrecheckContext } from '../../lib/domain/registry/precheck.ts';
import { registryEntryErrors } from '../support/registry-schema.ts';

/** The upload files (docs/registry.md#upload-files). */

const HOST = 'id.brand.example';
const MODEL = `https://${HOST}/01/04006381333931`;
const common = {
  operator: { scheme: 'LEI', identifier: '529900T8BM49AURSDO55' },
  facilities: ['4006381000017'],
  commodityCode: '85076000',
  backupURL: `https://${HOST}/backup/x.json`,
} as const;

const context: PrecheckContext = {
  verifiedHosts: [HOST],
  category: 'battery',
  available: new Set([MODEL]),
  itemsBelow: 249,
  backup: { outcome: 'same-digest', digest: 'sha256-abc' },
  missing: [],
};

const checked = (entry: RegistryEntry, ctx: PrecheckContext = context): CheckedEntry => ({ entry, result: precheck(entry, ctx) });
const model = () => registryEntryOf({ ...common, facilities: [...common.facilities], digitalLink: MODEL, granularity: 'MODEL' });
const itemEntry = (i: number, deactivated = false) =>
  registryEntryOf({ ...common, facilities: [...common.facilities], digitalLink: `${MODEL}/21/SN${String(i).padStart(6, '0')}`, granularity: 'ITEM', deactivated });

const entriesOf = (file: RegistryFile): Record<string, unknown>[] => (file.format === 'json' ? (JSON.parse(file.body) as Record<string, unknown>[]) : readXml(file.body));

describe('registryFiles', () => {
  it.each(['json', 'xml'] as const)('puts 250 entries in 3 %s files of at most 100, each entry valid against the mock\'s schema, the model first', (format) => {
    // Prepare
    const entries = [...Array.from({ length: 249 }, (_, i) => checked(itemEntry(i + 1, i % 50 === 0))), checked(model())];

    // Act
    const { files, held } = registryFiles(entries, format);

    // Assess
    expect(held).toEqual([]);
    expect(files.map((f) => [f.name, f.upis.length])).toEqual([
      [`registry-001-of-003.${format}`, 100],
      [`registry-002-of-003.${format}`, 100],
      [`registry-003-of-003.${format}`, 50],
    ]);
    const all = files.flatMap(entriesOf);
    expect(all).toHaveLength(250);
    expect(all[0]?.upi).toBe(MODEL);
    expect(new Set(all.map((e) => e.upi)).size).toBe(250);
    for (const entry of all) expect(registryEntryErrors(entry)).toEqual([]);
    for (const file of files) {
      expect(entriesOf(file).map((e) => e.upi)).toEqual(file.upis);
      expect(file.upis.length).toBeLessThanOrEqual(MAX_ENTRIES_PER_FILE);
      expect(file.sha256).toBe(createHash('sha256').update(file.body).digest('hex'));
      expect(file.mediaType).toBe(format === 'json' ? 'application/json' : 'application/xml');
    }
  });

  it('writes the XML file as the same entries as the JSON file, deactivated only on items', () => {
    // Prepare
    const entries = [checked(model()), checked(itemEntry(1, true)), checked(itemEntry(2))];

    // Act
    const [json] = registryFiles(entries, 'json').files;
    const [xml] = registryFiles(entries, 'xml').files;

    // Assess
    expect(xml?.body).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<registryEntries format="dpp-registry-upload\/1" count="3">/);
    expect(readXml(xml?.body ?? '')).toEqual(JSON.parse(json?.body ?? '[]'));
    expect((JSON.parse(json?.body ?? '[]') as RegistryEntry[]).map((e) => e.deactivated)).toEqual([undefined, true, false]);
  });

  it('leaves out every entry that failed its pre-checks, with its reasons, and keeps those with warnings only', () => {
    // Prepare
    const bad = { ...itemEntry(7), commodityCode: '8507' };
    const entries = [checked(model(), { ...context, itemsBelow: 0 }), checked(bad), checked(itemEntry(8))];

    // Act
    const { files, held } = registryFiles(entries, 'json');

    // Assess
    expect(files.flatMap((f) => f.upis)).toEqual([MODEL, itemEntry(8).upi]);
    expect(held).toEqual([{ upi: bad.upi, reasons: [expect.objectContaining({ code: 'commodity_code_invalid', field: 'commodityCode' })] }]);
  });

  it('sends an identifier once: a second entry for it is held as repeated', () => {
    const { files, held } = registryFiles([checked(itemEntry(1)), checked(itemEntry(1, true))], 'json');

    expect(files.flatMap((f) => f.upis)).toEqual([itemEntry(1).upi]);
    expect(held).toEqual([{ upi: itemEntry(1).upi, reasons: [expect.objectContaining({ code: 'upi_repeated' })] }]);
  });

  it('escapes what XML gives meaning to, and reads back the same text', () => {
    // Prepare: a backup URL with a query of two parameters, and quotes.
    const entry = { ...model(), backupURL: `https://${HOST}/b?a=1&b='2'&c="<3>"` };

    // Act
    const [file] = registryFiles([{ entry, result: { ok: true, errors: [], warnings: [] } }], 'xml').files;

    // Assess
    expect(file?.body).toContain('<backupURL>https://id.brand.example/b?a=1&amp;b=&apos;2&apos;&amp;c=&quot;&lt;3&gt;&quot;</backupURL>');
    expect(file?.body.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/&/);
    expect(readXml(file?.body ?? '')[0]?.backupURL).toBe(entry.backupURL);
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;');
  });

  it('makes no file of nothing', () => {
    expect(registryFiles([], 'xml')).toEqual({ files: [], held: [] });
  });
});
