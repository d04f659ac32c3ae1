import { createHash } from 'node:crypto';
import type { RegistryEntry, RegistryGranularity } from './entry.ts';
import type { PrecheckReason, PrecheckResult } from './precheck.ts';

/**
 * The upload files for the registry's web form (docs/registry.md#upload-files): JSON or XML, at most
 * 100 entries a file, since one invalid entry rejects its whole file; only entries that passed the
 * pre-checks, so that no file is rejected for a reason we could see. Models first, then batches, then
 * items, so that a link's target is always in an earlier file or the same one.
 */

/** The most entries one upload file may hold (the Commission's user guide; docs/registry.md#upload-files). */
export const MAX_ENTRIES_PER_FILE = 100;

export const REGISTRY_FILE_FORMATS = ['json', 'xml'] as const;
export type RegistryFileFormat = (typeof REGISTRY_FILE_FORMATS)[number];

export const REGISTRY_FILE_MEDIA_TYPES: Readonly<Record<RegistryFileFormat, string>> = {
  json: 'application/json',
  xml: 'application/xml',
};

/** The XML document's format name, in its root element (docs/registry.md#the-xml-file). */
export const REGISTRY_XML_FORMAT = 'dpp-registry-upload/1';

/** An entry with its pre-checks' result. */
export interface CheckedEntry {
  entry: RegistryEntry;
  result: PrecheckResult;
}

export interface RegistryFile {
  /** `registry-001-of-003.json`: upload them in this order. */
  name: string;
  format: RegistryFileFormat;
  mediaType: string;
  body: string;
  /** The identifiers it holds, in its order. */
  upis: string[];
  /** SHA-256 of the body, hex: names the file in the service's records. */
  sha256: string;
}

export interface RegistryFiles {
  files: RegistryFile[];
  /** The entries left out, each with its reasons: failed pre-checks, or a repeated identifier. */
  held: { upi: string; reasons: PrecheckReason[] }[];
}

const ORDER: Readonly<Record<RegistryGranularity, number>> = { MODEL: 0, BATCH: 1, ITEM: 2 };

/** The entry with the mock's keys in the mock's order, nothing else. */
function canonical(entry: RegistryEntry): RegistryEntry {
  const out: RegistryEntry = {
    upi: entry.upi,
    reoId: entry.reoId,
    facilitiesId: [...entry.facilitiesId],
    liveURL: entry.liveURL,
    backupURL: entry.backupURL,
    commodityCode: entry.commodityCode,
    granularityLevel: entry.granularityLevel,
  };
  if (Object.hasOwn(entry, 'deactivated')) out.deactivated = entry.deactivated ?? null;
  return out;
}

/** Text for an XML 1.0 element or attribute: the five characters XML gives meaning to, escaped. */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

function xmlOf(entries: readonly RegistryEntry[]): string {
  const element = (name: string, value: string) => `    <${name}>${escapeXml(value)}</${name}>`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<registryEntries format="${REGISTRY_XML_FORMAT}" count="${entries.length}">`];
  for (const e of entries) {
    lines.push('  <entry>', element('upi', e.upi), element('reoId', e.reoId), '    <facilitiesId>');
    for (const id of e.facilitiesId) lines.push(`      <facilityId>${escapeXml(id)}</facilityId>`);
    lines.push('    </facilitiesId>', element('liveURL', e.liveURL), element('backupURL', e.backupURL), element('commodityCode', e.commodityCode), element('granularityLevel', e.granularityLevel));
    if (Object.hasOwn(e, 'deactivated')) lines.push(e.deactivated === null || e.deactivated === undefined ? '    <deactivated/>' : element('deactivated', String(e.deactivated)));
    lines.push('  </entry>');
  }
  lines.push('</registryEntries>', '');
  return lines.join('\n');
}

/**
 * The upload files of `checked`: entries that passed their pre-checks (no error; warnings do not
 * hold an entry back), each identifier once, models then batches then items (stable within a level),
 * in files of at most MAX_ENTRIES_PER_FILE.
 */
export function registryFiles(checked: readonly CheckedEntry[], format: RegistryFileFormat): RegistryFiles {
  const held: RegistryFiles['held'] = [];
  const seen = new Set<string>();
  const ready: RegistryEntry[] = [];
  for (const { entry, result } of checked) {
    if (!result.ok || result.errors.length > 0) {
      held.push({ upi: entry.upi, reasons: result.errors });
    } else if (seen.has(entry.upi)) {
      held.push({ upi: entry.upi, reasons: [{ code: 'upi_repeated', field: 'upi', message: 'The same identifier is already in these files: each passport is registered once.' }] });
    } else {
      seen.add(entry.upi);
      ready.push(canonical(entry));
    }
  }
  ready.sort((a, b) => ORDER[a.granularityLevel] - ORDER[b.granularityLevel]);
  const count = Math.ceil(ready.length / MAX_ENTRIES_PER_FILE);
  const files: RegistryFile[] = [];
  for (let i = 0; i < count; i++) {
    const entries = ready.slice(i * MAX_ENTRIES_PER_FILE, (i + 1) * MAX_ENTRIES_PER_FILE);
    const body = format === 'json' ? `${JSON.stringify(entries, null, 2)}\n` : xmlOf(entries);
    const pad = (n: number) => String(n).padStart(3, '0');
    files.push({
      name: `registry-${pad(i + 1)}-of-${pad(count)}.${format}`,
      format,
      mediaType: REGISTRY_FILE_MEDIA_TYPES[format],
      body,
      upis: entries.map((e) => e.upi),
      sha256: createHash('sha256').update(body).digest('hex'),
    });
  }
  return { files, held };
}
