import { createHash } from 'node:crypto';
import { inCurrentUnits, storedData } from './battery/units-migration.ts';
import { CSET82, encodeLinkValue } from './digital-link.ts';
import { jcs } from './jcs.ts';
import type { Tenant } from './tenant.ts';

/**
 * Batches and serialised items under a GTIN (docs/api.md#batches-and-items): the records a
 * product of granularity `batch` or `item` has one passport page each of, on top of its model
 * passport. A batch is named by its lot (GS1 AI 10), an item by its serial (AI 21); an item may name
 * its lot. Each is versioned with the digest chain of the passports (docs/lifecycle.md#digest-chain).
 *
 * No zod and no npm import: the resolver reads stored batches and items through this module, and
 * its import path stays free of zod (docs/decisions.md#the-resolvers-import-path-is-free-of-zod).
 * The API's schemas are in lib/domain/units.ts, the data of each category in lib/domain/unit-data.ts.
 */
export const UNIT_KINDS = ['batch', 'item'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

/** The GS1 Application Identifier that names each kind in a Digital Link: 10 (batch or lot), 21 (serial). */
export const UNIT_AI: Readonly<Record<UnitKind, '10' | '21'>> = { batch: '10', item: '21' };

/** The path parameter and field that names each kind. */
export const UNIT_PARAM: Readonly<Record<UnitKind, 'lot' | 'serial'>> = { batch: 'lot', item: 'serial' };

/** AI 10 and AI 21 both hold 1 to 20 characters of GS1 character set 82. */
export const UNIT_VALUE_MAX_LENGTH = 20;

/** GS1 character set 82 in a character class, and the same without the full stop. */
const CSET82_CLASS = `!"%&'()*+,\\-./0-9:;<=>?A-Z_a-z`;
const CSET82_CLASS_NO_DOT = `!"%&'()*+,\\-/0-9:;<=>?A-Z_a-z`;

/**
 * The same rule as unitValueProblem, as a pattern for the API reference: 1 to 20 characters of GS1
 * character set 82, but not `.` or `..` alone (spelt without a lookahead, which JSON Schema tools
 * and the fuzz suite's generator do not all take).
 */
export const UNIT_VALUE_PATTERN = `^(?:[${CSET82_CLASS_NO_DOT}][${CSET82_CLASS}]?|\\.[${CSET82_CLASS_NO_DOT}]|[${CSET82_CLASS}]{3,${UNIT_VALUE_MAX_LENGTH}})$`;

/** `.` and `..` alone: GS1 allows them, but a URL path cannot carry them as a segment (RFC 3986 removes dot segments, `%2E` included). */
const DOT_SEGMENTS: readonly string[] = ['.', '..'];

/**
 * The one rule for a lot or serial, whichever way it comes in (a PUT's path, an items file's row, a
 * body's lot, a handover's serial, a list's cursor): what is wrong with `value`, or undefined when it
 * is a lot or serial the service takes. 1 to 20 characters of GS1 character set 82, and not `.` or
 * `..` alone: those are dot segments, which every URL parser removes, so the record's Digital Link,
 * its pages and its backup copy's link could never name it (issue 37, finding 7).
 */
export function unitValueProblem(kind: UnitKind, value: string): string | undefined {
  const param = UNIT_PARAM[kind];
  if (value === '') return `${param} is required.`;
  if (value.length > UNIT_VALUE_MAX_LENGTH || !CSET82.test(value)) return `${param} must be 1 to ${UNIT_VALUE_MAX_LENGTH} characters of GS1 character set 82 (AI ${UNIT_AI[kind]}).`;
  if (DOT_SEGMENTS.includes(value)) return `${param} cannot be '${value}' alone: a URL path drops it as a dot segment, so its Digital Link would not name it.`;
  return undefined;
}

/** Whether `value` is a lot or serial the service takes (unitValueProblem finds nothing wrong with it). */
export const isUnitValue = (value: string): boolean => unitValueProblem('item', value) === undefined;

/** The statuses every category has; a category may add its own (lib/domain/unit-data.ts). */
export const BASE_UNIT_STATUSES = ['active', 'withdrawn'] as const;
/** The status whose Digital Link answers 410 Gone, as a withdrawn product's does. */
export const WITHDRAWN = 'withdrawn';

/**
 * A link between an item and another one it became or came from in a second life (a repurposed or
 * remanufactured battery, docs/battery.md#second-life): written by a handover both organizations
 * agreed to, never by a PUT or PATCH.
 */
export interface LineageLink {
  /** The other item's GS1 Digital Link, as it was when the handover was accepted. */
  digitalLink: string;
  /** What was done to the battery: repurposing, remanufacturing or preparation for re-use. */
  operation: string;
  handoverId: string;
  /** When the handover was accepted. */
  at: string;
}

/** A waste handover's mark on a battery: the organization, the handover, when (docs/battery.md#a-batterys-life). */
export interface LineageMark {
  orgId: string;
  handoverId: string;
  at: string;
}

/**
 * An item's second-life links and the marks of its life's operations: the items it came from (a
 * list, one per original; versions written before hold one link, read by predecessorsOf in
 * lib/domain/battery/lifecycle.ts), the items it became, the organization responsible since a waste
 * handover, and its recycling (docs/battery.md#a-batterys-life).
 */
export interface Lineage {
  predecessor?: LineageLink[] | LineageLink;
  successors?: LineageLink[];
  responsible?: LineageMark;
  recycled?: LineageMark;
}

/** A batch or an item as stored: one version of it (the current one, or an archived one). */
export interface UnitRecord {
  kind: UnitKind;
  productId: string;
  /** The product's GTIN-14, which never changes (docs/decisions.md#batches-and-items-keyed-by-gtin). */
  gtin: string;
  /** A batch's lot; an item's lot when it names one. */
  lot?: string;
  /** An item's serial. */
  serial?: string;
  status: string;
  data: Record<string, unknown>;
  /** 1, 2, …: every change is a new version. */
  version: number;
  digest: string;
  previousDigest: string | null;
  createdAt: string;
  /** When this version was made: `?at=` picks the newest version whose updatedAt is not after it. */
  updatedAt: string;
  /** The import whose worker wrote this version (bulk registration), if one did: a redelivered chunk knows its own rows. */
  importId?: string;
  /** Second-life links (items only), carried from version to version. */
  lineage?: Lineage;
  /** The organization that wrote this version, when it is not the owner (a grantee with write: docs/access.md#grants). */
  updatedBy?: string;
}

/** The value that names a record: its lot (batch) or serial (item). */
export const unitValue = (unit: Pick<UnitRecord, 'kind' | 'lot' | 'serial'>): string => (unit.kind === 'batch' ? unit.lot : unit.serial) ?? '';

/**
 * The members a version's digest covers, exactly these (docs/api.md#digests-of-batches-and-items):
 * `data`, `gtin`, `lineage` (only when it has one: versions before any handover keep their digests),
 * `lot` (null for an item without one), `updatedBy` (only when another organization wrote the
 * version), `previousDigest`, `productId`, `serial` (items only), `status`, `updatedAt` and `version`.
 */
export function unitDigestInput(unit: Omit<UnitRecord, 'digest' | 'importId' | 'createdAt'>): Record<string, unknown> {
  return {
    // As stored: a record read in older units is converted, its digest covers what was stored (docs/battery.md#units).
    data: storedData(unit),
    gtin: unit.gtin,
    ...(unit.lineage === undefined ? {} : { lineage: unit.lineage }),
    lot: unit.lot ?? null,
    ...(unit.updatedBy === undefined ? {} : { updatedBy: unit.updatedBy }),
    previousDigest: unit.previousDigest,
    productId: unit.productId,
    ...(unit.kind === 'item' ? { serial: unit.serial ?? '' } : {}),
    status: unit.status,
    updatedAt: unit.updatedAt,
    version: unit.version,
  };
}

/** `sha256:` + lowercase hex SHA-256 of the JCS form of unitDigestInput (the passports' scheme, docs/lifecycle.md#digest-chain). */
export const unitDigest = (unit: Omit<UnitRecord, 'digest' | 'importId' | 'createdAt'>): string =>
  `sha256:${createHash('sha256').update(jcs(unitDigestInput(unit)), 'utf8').digest('hex')}`;

/** What a new version changes: its lot (items), status and data. */
export interface UnitContent {
  lot?: string;
  status: string;
  data: Record<string, unknown>;
  /** Another organization writes this version (a grantee with write), named in it. */
  updatedBy?: string;
}

/** Whether `content` is what `unit` already holds (then nothing is written and no version made). */
export const sameContent = (unit: UnitRecord, content: UnitContent): boolean =>
  (unit.kind === 'batch' || (unit.lot ?? null) === (content.lot ?? null)) && unit.status === content.status && jcs(unit.data) === jcs(content.data);

/**
 * The next version of a record: version 1 of a new one (`before` undefined), or version n + 1 naming
 * version n's digest. `importId` marks a version a bulk registration wrote. The lineage is carried
 * over from `before` unless `lineage` gives the new one (a handover).
 */
export function nextUnitVersion(
  base: { kind: UnitKind; productId: string; gtin: string; value: string },
  before: UnitRecord | undefined,
  content: UnitContent,
  now: string,
  importId?: string,
  lineage: Lineage | undefined = before?.lineage,
): UnitRecord {
  const unsigned = {
    kind: base.kind,
    productId: base.productId,
    gtin: base.gtin,
    ...(base.kind === 'batch' ? { lot: base.value } : { serial: base.value, ...(content.lot === undefined ? {} : { lot: content.lot }) }),
    status: content.status,
    data: content.data,
    version: before ? before.version + 1 : 1,
    previousDigest: before ? before.digest : null,
    updatedAt: now,
    ...(lineage === undefined ? {} : { lineage }),
    ...(content.updatedBy === undefined ? {} : { updatedBy: content.updatedBy }),
  };
  return { ...unsigned, digest: unitDigest(unsigned), createdAt: before?.createdAt ?? now, ...(importId ? { importId } : {}) };
}

// ---- A record's digest chain as stored -----------------------------------------------------------

/**
 * What is wrong with a record's stored versions (docs/operator-cli.md#repairing-a-batch-or-an-item):
 * two versions under one number (`duplicate_version`: a forked chain), a version whose
 * previousDigest is not its predecessor's digest (`broken_link`; version 1's is null), a digest its
 * version's members do not give (`digest`), or a number missing between 1 and the newest (`gap`).
 */
export interface UnitChainFinding {
  version: number;
  problem: 'duplicate_version' | 'broken_link' | 'digest' | 'gap';
  /** The digests of the versions concerned. */
  digests: string[];
}

/** The stored versions by number, oldest first, a version stored twice with one digest (an archived copy of the current one) once. */
function byNumber(versions: readonly UnitRecord[]): Map<number, UnitRecord[]> {
  const out = new Map<number, UnitRecord[]>();
  for (const version of [...versions].sort((a, b) => a.version - b.version)) {
    const same = out.get(version.version) ?? [];
    if (!same.some((other) => other.digest === version.digest)) out.set(version.version, [...same, version]);
  }
  return out;
}

/**
 * Checks a record's stored versions, in any order (its archived ones and its current one): every
 * problem found, by version; none for an intact chain 1..n.
 */
export function unitChainFindings(versions: readonly UnitRecord[]): UnitChainFinding[] {
  const findings: UnitChainFinding[] = [];
  const numbers = byNumber(versions);
  const newest = Math.max(0, ...numbers.keys());
  for (let n = 1; n <= newest; n++) {
    const here = numbers.get(n);
    if (!here) {
      findings.push({ version: n, problem: 'gap', digests: [] });
      continue;
    }
    if (here.length > 1) findings.push({ version: n, problem: 'duplicate_version', digests: here.map((v) => v.digest) });
    const bad = here.filter((v) => unitDigest(v) !== v.digest);
    if (bad.length) findings.push({ version: n, problem: 'digest', digests: bad.map((v) => v.digest) });
    const before = numbers.get(n - 1);
    const unlinked = here.filter((v) => (n === 1 ? v.previousDigest !== null : before !== undefined && !before.some((p) => p.digest === v.previousDigest)));
    if (unlinked.length) findings.push({ version: n, problem: 'broken_link', digests: unlinked.map((v) => v.digest) });
  }
  return findings;
}

/**
 * The longest consistent chain among `versions` (a record's stored versions, from the table and the
 * backup copy): version 1 naming no predecessor, each next version naming the previous one's digest,
 * every digest what its version's members give. Of two chains as long, the one whose newest version
 * was made later (then the lower digest, so that the answer never depends on the order read).
 * Empty when no version 1 holds.
 */
export function longestUnitChain(versions: readonly UnitRecord[]): UnitRecord[] {
  const sound = [...new Map(versions.filter((v) => unitDigest(v) === v.digest).map((v) => [v.digest, v])).values()];
  const next = new Map<string, UnitRecord[]>();
  for (const v of sound) if (v.previousDigest !== null) next.set(v.previousDigest, [...(next.get(v.previousDigest) ?? []), v]);
  const better = (a: UnitRecord[], b: UnitRecord[]): UnitRecord[] => {
    if (a.length !== b.length) return a.length > b.length ? a : b;
    const [headA, headB] = [a.at(-1)!, b.at(-1)!];
    if (headA.updatedAt !== headB.updatedAt) return headA.updatedAt > headB.updatedAt ? a : b;
    return headA.digest <= headB.digest ? a : b;
  };
  // The longest chain from each version onwards (memoised by digest: each version is visited once).
  const from = new Map<string, UnitRecord[]>();
  const longestFrom = (v: UnitRecord): UnitRecord[] => {
    const known = from.get(v.digest);
    if (known) return known;
    let best: UnitRecord[] = [v];
    for (const child of next.get(v.digest) ?? []) if (child.version === v.version + 1) best = better(best, [v, ...longestFrom(child)]);
    from.set(v.digest, best);
    return best;
  };
  let best: UnitRecord[] = [];
  for (const first of sound) if (first.version === 1 && first.previousDigest === null) best = best.length ? better(best, longestFrom(first)) : longestFrom(first);
  return best;
}

/**
 * The record's GS1 Digital Link: the product's `qrCodeUrl` (`…/01/{gtin14}`, on its brand domain
 * when it has one) with `/10/{lot}` or `/21/{serial}`, the value percent-encoded as the canonical
 * form writes it (docs/resolver.md#canonical-uris).
 */
export const unitDigitalLink = (qrCodeUrl: string, kind: UnitKind, value: string): string =>
  `${qrCodeUrl.replace(/\/+$/, '')}/${UNIT_AI[kind]}/${encodeLinkValue(value)}`;

/**
 * The stored record as the resolver and the API read it (undefined for an item of another kind),
 * battery data stored in older units converted (lib/domain/battery/units-migration.ts).
 */
export function unitFromItem(item: Record<string, unknown> | undefined, kind: UnitKind): UnitRecord | undefined {
  if (!item || item.kind !== kind || typeof item.version !== 'number') return undefined;
  const record: UnitRecord = {
    kind,
    productId: String(item.productId),
    gtin: String(item.gtin),
    ...(typeof item.lot === 'string' ? { lot: item.lot } : {}),
    ...(typeof item.serial === 'string' ? { serial: item.serial } : {}),
    status: String(item.status ?? 'active'),
    data: typeof item.data === 'object' && item.data !== null && !Array.isArray(item.data) ? (item.data as Record<string, unknown>) : {},
    version: item.version,
    digest: String(item.digest ?? ''),
    previousDigest: typeof item.previousDigest === 'string' ? item.previousDigest : null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.importId === 'string' ? { importId: item.importId } : {}),
    ...(typeof item.lineage === 'object' && item.lineage !== null ? { lineage: item.lineage as Lineage } : {}),
    ...(typeof item.updatedBy === 'string' ? { updatedBy: item.updatedBy } : {}),
  };
  return inCurrentUnits(record, item.dataUnits);
}

// ---- The immutable pages of a batch or an item -------------------------------------------------

/**
 * A batch's or item's page: the product's passport version with the record's version, immutable like
 * a version page (lib/domain/page-urls.ts) and cached as one, since both versions are:
 *
 *   {origin}/{orgId}/{environment}/p/{gtin14}/{version}/10/{lot}/{batchVersion}/{lang|passport.json}
 *   {origin}/{orgId}/{environment}/p/{gtin14}/{version}/21/{serial}/{itemVersion}/{lang|passport.json}
 */
export function unitPageUrl(
  origin: string,
  tenant: Tenant,
  page: { gtin14: string; version: number; kind: UnitKind; value: string; unitVersion: number },
  last: string,
): string {
  const root = origin.replace(/\/+$/, '');
  return `${root}/${encodeURIComponent(tenant.orgId)}/${tenant.environment}/p/${page.gtin14}/${page.version}/${UNIT_AI[page.kind]}/${encodeLinkValue(page.value)}/${page.unitVersion}/${last}`;
}

export interface UnitPageRef {
  kind: UnitKind;
  value: string;
  unitVersion: number;
}

/**
 * The record part of a unit page's path (`{ai}/{value}/{unitVersion}`, the value percent-decoded
 * once), or undefined for anything that was never handed out.
 */
export function parseUnitPageRef(ai: string, value: string, unitVersion: string): UnitPageRef | undefined {
  const kind = ai === '10' ? 'batch' : ai === '21' ? 'item' : undefined;
  if (!kind || !isUnitValue(value) || !/^[1-9]\d{0,8}$/.test(unitVersion)) return undefined;
  return { kind, value, unitVersion: Number(unitVersion) };
}

/** The public read of a record a page and the resolver's JSON show beside the passport (no import id). */
export interface UnitPublicView {
  lot: string | null;
  status: string;
  data: Record<string, unknown>;
  version: number;
  digest: string;
  previousDigest: string | null;
  createdAt: string;
  updatedAt: string;
  serial?: string;
  lineage?: PublicLineage;
}

/**
 * What the public reads of an item's lineage: the links to the passports it came from and became,
 * nothing else. The operation, the handover, its time and the marks of a waste handover or a
 * recycling tell the battery's status, which is Annex XIII point 4(c), read by persons with a
 * legitimate interest only (docs/battery.md#the-public-page-json-and-links).
 */
export interface PublicLineage {
  predecessor?: Array<Pick<LineageLink, 'digitalLink'>>;
  successors?: Array<Pick<LineageLink, 'digitalLink'>>;
}

export function publicLineage(lineage: Lineage): PublicLineage | undefined {
  const links = (list: LineageLink[] | LineageLink | undefined) => (list === undefined ? [] : Array.isArray(list) ? list : [list]).map((link) => ({ digitalLink: link.digitalLink }));
  const predecessor = links(lineage.predecessor);
  const successors = links(lineage.successors);
  if (predecessor.length === 0 && successors.length === 0) return undefined;
  return { ...(predecessor.length ? { predecessor } : {}), ...(successors.length ? { successors } : {}) };
}

export function unitPublicView(unit: UnitRecord, data: Record<string, unknown>): UnitPublicView {
  const lineage = unit.lineage === undefined ? undefined : publicLineage(unit.lineage);
  return {
    ...(unit.kind === 'item' ? { serial: unit.serial ?? '' } : {}),
    lot: unit.lot ?? null,
    status: unit.status,
    data,
    version: unit.version,
    digest: unit.digest,
    previousDigest: unit.previousDigest,
    createdAt: unit.createdAt,
    updatedAt: unit.updatedAt,
    ...(lineage === undefined ? {} : { lineage }),
  };
}
