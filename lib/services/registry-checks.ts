import { config } from '../config.ts';
import { findDomainByHostname, listDomains } from '../data/domains.ts';
import { readUnits } from '../data/items.ts';
import { getText, type GetResult } from '../data/outbound-http.ts';
import { getPassportVersion } from '../data/passports.ts';
import { getProduct } from '../data/products.ts';
import { getRegistration, listRegistrations, updateRegistration } from '../data/registrations.ts';
import type { TransactItem } from '../data/writes.ts';
import { passportBackupUrl, unitBackupUrl } from '../domain/backup.ts';
import { overlayItemData } from '../domain/battery/overlay.ts';
import { draftMissing } from '../domain/draft.ts';
import { inParallel } from '../domain/in-parallel.ts';
import type { Category } from '../domain/enums.ts';
import { completenessReport, dayOf } from '../domain/passport-completeness.ts';
import { passportKindOf } from '../domain/passport-kinds.ts';
import type { PassportData } from '../domain/passport.ts';
import type { ProductRecord } from '../domain/product.ts';
import { batchUpiOf, modelUpiOf } from '../domain/registry/build.ts';
import type { RegistrationStatus, RegistryEntry, RegistryGranularity } from '../domain/registry/entry.ts';
import { precheck, REQUIRED_GRANULARITY, type BackupCheck, type PrecheckContext, type PrecheckReason, type PrecheckResult } from '../domain/registry/precheck.ts';
import { registrationIdOf, type RegistrationReason, type RegistrationRecord } from '../domain/registry/registration.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { UnitKind, UnitRecord } from '../domain/unit.ts';

/**
 * The pre-checks at work (docs/registry.md#pre-checks-at-work): what precheck() needs is gathered
 * here with I/O (the organization's verified brand hosts, what is registered or queued, the items
 * below a model or batch, the backup copy fetched and its digest compared, the passport's missing
 * elements on the day), the checks run, and each record written `ready` or `pending_checks` with
 * every reason. Models before batches before items, so that an item's links can become `ready` in
 * the same pass.
 */

/** A registration's statuses that a run checks: the others are with the registry, or done. */
export const CHECKED_STATUSES: readonly RegistrationStatus[] = ['pending_checks', 'ready'];
/** The statuses that make an identifier available as a link: registered, or on its way there. */
export const AVAILABLE_STATUSES: ReadonlySet<RegistrationStatus> = new Set<RegistrationStatus>(['registered', 'submitted', 'ready']);

/** The backup copy's fetch: 5 s, and at most 2 MiB of its answer (docs/security.md#parser-budgets). */
export const BACKUP_CHECK_TIMEOUT_MS = 5_000;
export const BACKUP_CHECK_MAX_BYTES = 2 * 1024 * 1024;
/** Backup copies fetched at once, and records written at once. */
const FETCHES_IN_FLIGHT = 16;
const WRITES_IN_FLIGHT = 8;
/** A write that lost its race is tried again from a fresh read this many times in all. */
const WRITE_ATTEMPTS = 3;

const LEVEL: Readonly<Record<RegistryGranularity, number>> = { MODEL: 0, BATCH: 1, ITEM: 2 };

/** What a record's passport is now, as the checks need it. */
export interface PassportState {
  category: Category;
  /** The digest of the version the backup copy must hold: the model's current passport version's, or the batch's or item's current version's. */
  digest?: string;
  /** The current version's backup copy URL, where the service knows its backup origin (BACKUP_PUBLIC_ORIGIN). */
  backupUrl?: string;
  /** The passport's mandatory elements missing on the day (or why there is no passport to judge). */
  missing: string[];
}

/** The I/O a run needs, behind one interface (the tests give a fake). */
export interface CheckSource {
  verifiedHosts(): Promise<string[]>;
  /** The stored status of the registration of `upi`; undefined when it has none. */
  statusOf(upi: string): Promise<RegistrationStatus | undefined>;
  passportOf(record: RegistrationRecord): Promise<PassportState>;
  /** Whether the product has a batch of `lot` (an item links its batch where it exists: Art. 8(3) to (5) of 2026/1778). */
  batchExists(gtin14: string, lot: string): Promise<boolean>;
  /** How many items below the model (or its batch `lot`) are registered or on their way, outside this run: more than 0 is all that matters. */
  itemsBelow(record: RegistrationRecord): Promise<number>;
  fetch(url: string): Promise<GetResult>;
}

/** A record with what its checks found, and the record to write (undefined: nothing changes). */
export interface CheckedRegistration {
  record: RegistrationRecord;
  result: PrecheckResult;
  /** The entry checked: the record's, its backupURL moved to the current version's copy where the service knows it. */
  entry: RegistryEntry;
}

/** A precheck reason as a registration keeps it. */
export const reasonOf = (reason: PrecheckReason): RegistrationReason => ({ source: 'precheck', code: reason.code, field: reason.field, message: reason.message });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the backup copy's answer says (pure): `missing` for 404, 403 (S3 and CloudFront answer 403
 * for a key that is not there) and 410; `unreachable` for no answer, another status, an answer over
 * the budget or not JSON; the digest in the read form (a model's `digest`, a batch's `batch.digest`,
 * an item's `item.digest`: docs/backup.md#the-public-copy) compared with `expected`.
 */
export function backupCheckOf(granularity: RegistryGranularity, expected: string | undefined, answer: GetResult): BackupCheck {
  if (answer.statusCode === null) return { outcome: 'unreachable', reason: answer.error ?? 'no answer' };
  if ([403, 404, 410].includes(answer.statusCode)) return { outcome: 'missing', status: answer.statusCode };
  if (answer.statusCode !== 200) return { outcome: 'unreachable', reason: `it answered HTTP ${answer.statusCode}` };
  if (answer.overBudget) return { outcome: 'unreachable', reason: `its answer is longer than ${BACKUP_CHECK_MAX_BYTES} bytes` };
  let body: unknown;
  try {
    body = JSON.parse(answer.body ?? '');
  } catch {
    return { outcome: 'unreachable', reason: 'its answer is not JSON' };
  }
  const holder = granularity === 'MODEL' ? body : isRecord(body) ? body[granularity === 'BATCH' ? 'batch' : 'item'] : undefined;
  const found = isRecord(holder) && typeof holder.digest === 'string' ? holder.digest : null;
  if (expected === undefined) return { outcome: 'other-digest', expected: 'none (no current version)', found };
  return found === expected ? { outcome: 'same-digest', digest: found } : { outcome: 'other-digest', expected, found };
}

/** The link of a record's model, and of its batch where the batch exists. */
async function linksOf(record: RegistrationRecord, source: CheckSource): Promise<NonNullable<PrecheckContext['links']>> {
  const model = modelUpiOf(record.entry.upi);
  if (record.granularity !== 'ITEM' || record.lot === undefined || !(await source.batchExists(record.gtin, record.lot))) return { model };
  return { model, batch: batchUpiOf(model, record.lot) };
}


/** The key of a model's or a batch's items in a run: the model's link, with the lot for a batch. */
const belowKey = (record: RegistrationRecord): string => (record.granularity === 'BATCH' ? `${modelUpiOf(record.entry.upi)}\u0000${record.lot ?? ''}` : modelUpiOf(record.entry.upi));

/**
 * Runs the pre-checks on `records` (those `pending_checks` or `ready`; others are left out), models
 * first, then batches, then items: an entry whose link passed in the same run counts it available.
 * Reads what the checks need through `source`; writes nothing.
 */
export async function precheckRecords(records: readonly RegistrationRecord[], source: CheckSource, options: { upiMaxLength?: number } = {}): Promise<CheckedRegistration[]> {
  const run = records.filter((r) => CHECKED_STATUSES.includes(r.status)).sort((a, b) => LEVEL[a.granularity] - LEVEL[b.granularity]);
  const inRun = new Map(run.map((r) => [r.entry.upi, r]));
  const passed = new Set<string>();
  const hosts = (await source.verifiedHosts()).map((h) => h.toLowerCase());
  const stored = new Map<string, Promise<RegistrationStatus | undefined>>();
  const available = async (upi: string): Promise<boolean> => {
    // A link checked in this run is available when it passed; any other when its stored status says so.
    if (inRun.has(upi)) return passed.has(upi);
    if (!stored.has(upi)) stored.set(upi, source.statusOf(upi));
    const status = await stored.get(upi);
    return status !== undefined && AVAILABLE_STATUSES.has(status);
  };

  const checked: CheckedRegistration[] = [];
  const contexts = new Map<CheckedRegistration, PrecheckContext>();
  for (const level of ['MODEL', 'BATCH', 'ITEM'] as const) {
    const ofLevel = run.filter((r) => r.granularity === level);
    const done = await inParallel(ofLevel, FETCHES_IN_FLIGHT, async (record) => {
      const state = await source.passportOf(record);
      const entry = state.backupUrl !== undefined && state.backupUrl !== record.entry.backupURL ? { ...record.entry, backupURL: state.backupUrl } : record.entry;
      const links = await linksOf(record, source);
      const availableLinks = new Set<string>();
      for (const link of [links.model, links.batch]) if (link !== undefined && (await available(link))) availableLinks.add(link);
      const backup = backupCheckOf(record.granularity, state.digest, await source.fetch(entry.backupURL));
      const needsItems = record.granularity !== 'ITEM' && REQUIRED_GRANULARITY[state.category] === 'ITEM';
      const context: PrecheckContext = {
        verifiedHosts: hosts,
        category: state.category,
        links,
        available: availableLinks,
        ...(needsItems ? { itemsBelow: await source.itemsBelow(record) } : {}),
        backup,
        missing: state.missing,
        ...(options.upiMaxLength === undefined ? {} : { upiMaxLength: options.upiMaxLength }),
      };
      return { record, entry, context };
    });
    for (const { record, entry, context } of done) {
      const one: CheckedRegistration = { record, entry, result: precheck(entry, context) };
      if (one.result.ok) passed.add(entry.upi);
      checked.push(one);
      contexts.set(one, context);
    }
  }

  // A battery model's or batch's entry is the link of its items: its warning goes once an item below it passed in this run.
  const itemsPassed = new Map<string, number>();
  for (const one of checked) {
    if (one.record.granularity !== 'ITEM' || !one.result.ok) continue;
    const model = modelUpiOf(one.entry.upi);
    itemsPassed.set(model, (itemsPassed.get(model) ?? 0) + 1);
    if (one.record.lot !== undefined) itemsPassed.set(`${model}\u0000${one.record.lot}`, (itemsPassed.get(`${model}\u0000${one.record.lot}`) ?? 0) + 1);
  }
  for (const one of checked) {
    const context = contexts.get(one);
    const below = itemsPassed.get(belowKey(one.record)) ?? 0;
    if (!context || context.itemsBelow === undefined || below === 0) continue;
    one.result = precheck(one.entry, { ...context, itemsBelow: context.itemsBelow + below });
  }
  return checked;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The record as its checks leave it (`ready` or `pending_checks`, every reason), or undefined when that is what it is already. */
export function afterCheck(current: RegistrationRecord, checked: CheckedRegistration, now: string): RegistrationRecord | undefined {
  const status: RegistrationStatus = checked.result.ok ? 'ready' : 'pending_checks';
  const reasons = checked.result.errors.map(reasonOf);
  const warnings = checked.result.warnings.map(reasonOf);
  if (current.status === status && sameJson(current.reasons, reasons) && sameJson(current.warnings, warnings) && sameJson(current.entry, checked.entry)) return undefined;
  return { ...current, entry: checked.entry, status, reasons, warnings, updatedAt: now, version: current.version + 1 };
}

export type ChangeOutcome = { outcome: 'written' | 'unchanged'; record: RegistrationRecord } | { outcome: 'skipped'; record?: RegistrationRecord };

/**
 * Writes `change(current)` over the stored record, with what `also(after)` rides along in the same
 * transaction; a write that lost its race (the record changed meanwhile) is made again from a fresh
 * read, up to WRITE_ATTEMPTS in all. `change` answers the record to write, `unchanged` (nothing to
 * write) or `skip` (the record is no longer one this change applies to).
 */
export async function changeRegistration(
  tenant: Tenant,
  record: RegistrationRecord,
  change: (current: RegistrationRecord) => RegistrationRecord | 'unchanged' | 'skip',
  also: (after: RegistrationRecord) => TransactItem[] = () => [],
): Promise<ChangeOutcome> {
  let current: RegistrationRecord | undefined = record;
  for (let attempt = 1; current && attempt <= WRITE_ATTEMPTS; attempt++) {
    const after = change(current);
    if (after === 'unchanged') return { outcome: 'unchanged', record: current };
    if (after === 'skip') return { outcome: 'skipped', record: current };
    if ((await updateRegistration(tenant, current, after, also(after))) === 'written') return { outcome: 'written', record: after };
    current = await getRegistration(tenant, record.registrationId);
  }
  return { outcome: 'skipped', ...(current ? { record: current } : {}) };
}

/** Whether a fresh read is still the record that was checked: checkable, and the same entry. */
const stillChecked = (current: RegistrationRecord, checked: CheckedRegistration): boolean =>
  CHECKED_STATUSES.includes(current.status) && sameJson(current.entry, checked.record.entry);

/** The service's source of what the checks need, for one tenant (reads cached for the run). */
export function storeSource(tenant: Tenant, records: readonly RegistrationRecord[], today: string = dayOf()): CheckSource {
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let value = cache.get(key);
    if (!value) {
      value = read();
      cache.set(key, value);
    }
    return value;
  };
  const products = new Map<string, Promise<ProductRecord | undefined>>();
  const modelData = new Map<string, Promise<PassportData | undefined>>();
  const units = new Map<string, Promise<Map<string, UnitRecord>>>();
  const batches = new Map<string, Promise<boolean>>();
  const below = new Map<string, Promise<number>>();
  const origin = config().backupPublicOrigin;
  const product = (productId: string) => once(products, productId, () => getProduct(tenant, productId));
  // An entry whose backupURL is the service's copy of another version of the same passport or record moves to the current version's;
  // the copy kept under a former owner's key too, for a product transferred in (docs/transfers.md#registrations).
  const movedBackup = (url: string, urlAt: (version: number, at?: Tenant) => string, current: number, formerOwners: readonly Tenant[] = []): { backupUrl?: string } => {
    const named = /\/(\d+)(?:\/passport)?\.json$/.exec(url)?.[1];
    return origin && named !== undefined && [tenant, ...formerOwners].some((at) => urlAt(Number(named), at) === url) ? { backupUrl: urlAt(current) } : {};
  };
  const formerTenants = (p: ProductRecord): Tenant[] => (p.formerOwners ?? []).map((orgId) => ({ orgId, environment: tenant.environment }));
  // A product transferred in keeps its Digital Link on a former owner's brand domain, verified by that owner (docs/transfers.md#registrations).
  const transferredHosts = async (): Promise<string[]> => {
    const hosts: string[] = [];
    for (const productId of new Set(records.map((r) => r.productId))) {
      const p = await product(productId);
      if (!p?.formerOwners?.length) continue;
      const hostname = new URL(p.qrCodeUrl).hostname.toLowerCase();
      const claim = await findDomainByHostname(hostname);
      if (claim?.status === 'verified' && p.formerOwners.includes(claim.orgId)) hosts.push(hostname);
    }
    return hosts;
  };
  const dataOf = (p: ProductRecord) => once(modelData, p.productId, async () => (p.passportVersion ? (await getPassportVersion(tenant, p.productId, p.passportVersion))?.data : undefined));
  // The run's batches or items of one product, read together (BatchGetItem, 100 a call).
  const unitOf = async (kind: UnitKind, gtin: string, value: string): Promise<UnitRecord | undefined> => {
    const all = await once(units, `${kind}\u0000${gtin}`, () => {
      const values = records.filter((r) => r.gtin === gtin && (kind === 'item' ? r.granularity === 'ITEM' && r.serial !== undefined : r.granularity === 'BATCH' && r.lot !== undefined));
      return readUnits(tenant, kind, gtin, values.map((r) => (kind === 'item' ? r.serial : r.lot) as string));
    });
    return all.get(value);
  };
  return {
    verifiedHosts: async () => [...(await listDomains(tenant.orgId)).filter((d) => d.status === 'verified').map((d) => d.hostname), ...(await transferredHosts())],
    statusOf: async (upi) => (await getRegistration(tenant, registrationIdOf(tenant.orgId, tenant.environment, upi)))?.status,
    batchExists: (gtin, lot) =>
      once(batches, `${gtin}\u0000${lot}`, async () => (await unitOf('batch', gtin, lot)) !== undefined || (await readUnits(tenant, 'batch', gtin, [lot])).has(lot)),
    itemsBelow: (record) =>
      once(below, belowKey(record), async () => {
        const page = await listRegistrations(tenant, { granularity: 'ITEM', productId: record.productId }, { limit: 100 });
        return page.data.filter((r) => AVAILABLE_STATUSES.has(r.status) && (record.granularity !== 'BATCH' || r.lot === record.lot)).length;
      }),
    passportOf: async (record) => {
      const p = await product(record.productId);
      if (!p) return { category: 'wine', missing: ['the product (it is not found)'] };
      const data = await dataOf(p);
      if (data === undefined) return { category: p.category, missing: ['a published passport'] };
      const battery = passportKindOf(p.category) === 'battery';
      if (record.granularity === 'MODEL') {
        const report = completenessReport({ product: p, source: 'passport', version: p.passportVersion, data, asOf: today, generalMissing: () => draftMissing(data, p.category) });
        const urlAt = (version: number, at: Tenant = tenant) => passportBackupUrl(origin ?? '', at, p.gtin, version);
        return {
          category: p.category,
          ...(p.passportDigest === undefined ? {} : { digest: p.passportDigest }),
          ...movedBackup(record.entry.backupURL, urlAt, p.passportVersion, formerTenants(p)),
          missing: report.missingMandatory,
        };
      }
      const kind: UnitKind = record.granularity === 'BATCH' ? 'batch' : 'item';
      const value = kind === 'batch' ? record.lot : record.serial;
      const unit = value === undefined ? undefined : await unitOf(kind, p.gtin, value);
      if (!unit) return { category: p.category, missing: [`the ${kind} ${value ?? ''} (it is not found)`] };
      // A battery's own passport is the model's data with the battery's laid over it (docs/battery.md#the-individual-battery).
      const judged = battery && kind === 'item' ? overlayItemData(isRecord(data) ? data : {}, unit.data) : data;
      const report = completenessReport({
        product: battery && kind === 'item' ? { ...p, granularity: 'item' } : p,
        source: 'passport',
        version: p.passportVersion,
        data: judged,
        asOf: today,
        generalMissing: () => draftMissing(data, p.category),
      });
      const urlAt = (version: number, at: Tenant = tenant) => unitBackupUrl(origin ?? '', at, p.gtin, kind, value as string, version);
      return { category: p.category, digest: unit.digest, ...movedBackup(record.entry.backupURL, urlAt, unit.version, formerTenants(p)), missing: report.missingMandatory };
    },
    fetch: (url) => {
      let allowLoopback = false;
      try {
        // The service's own backup origin may be a local store on loopback (the local stack's); no other URL may.
        allowLoopback = origin !== undefined && new URL(url).origin === new URL(origin).origin;
      } catch {
        allowLoopback = false;
      }
      return getText(url, { accept: 'application/json' }, { timeoutMs: BACKUP_CHECK_TIMEOUT_MS, allowLoopback, maxBodyBytes: BACKUP_CHECK_MAX_BYTES });
    },
  };
}

/** What a run did. */
export interface CheckRun {
  checked: CheckedRegistration[];
  /** The records as they stand after the run (written, or unchanged), by registration id. */
  records: Map<string, RegistrationRecord>;
  /** Records that changed under the run as many times as it tried: left as they were, checked next time. */
  skipped: string[];
}

/**
 * `checkRegistrations(tenant, records)`: runs the pre-checks on the records `pending_checks` or
 * `ready` and writes each as `ready` (no error; its warnings kept) or `pending_checks` with every
 * reason (source `precheck`); a record whose outcome is what it holds already is not written again.
 */
export async function checkRegistrations(
  tenant: Tenant,
  records: readonly RegistrationRecord[],
  options: { source?: CheckSource; now?: Date; upiMaxLength?: number } = {},
): Promise<CheckRun> {
  const now = options.now ?? new Date();
  const source = options.source ?? storeSource(tenant, records, dayOf(now));
  const checked = await precheckRecords(records, source, options.upiMaxLength === undefined ? {} : { upiMaxLength: options.upiMaxLength });
  const stamp = now.toISOString();
  const out: CheckRun = { checked, records: new Map(), skipped: [] };
  await inParallel(checked, WRITES_IN_FLIGHT, async (one) => {
    const written = await changeRegistration(tenant, one.record, (current) => {
      if (!stillChecked(current, one)) return 'skip';
      return afterCheck(current, one, stamp) ?? 'unchanged';
    });
    if (written.outcome === 'skipped') out.skipped.push(one.record.registrationId);
    else out.records.set(one.record.registrationId, written.record);
  });
  return out;
}
