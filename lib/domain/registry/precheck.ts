import { parseGtinPath } from '../digital-link.ts';
import type { Category } from '../enums.ts';
import { modelUpiOf } from './build.ts';
import { commodityCodeProblem, facilityIdProblem } from './codes.ts';
import type { RegistryEntry, RegistryGranularity } from './entry.ts';
import { normalizeOperatorIdentifier, OPERATOR_SCHEMES, operatorIdentifierProblem, parseReoId } from './operator.ts';

/**
 * Our pre-checks of a registry entry (docs/registry.md#pre-checks): the checks the registry makes
 * after taking an entry (Implementing Regulation (EU) 2026/1778 Art. 8(7): semantic conformity,
 * coherence of mandatory data, granularity, commodity code, the backup link), made before anything
 * is sent so that no entry, and no upload file, is rejected for a reason we could have seen. Pure:
 * what needs I/O (the hosts verified, what is registered, the backup copy's answer, the passport's
 * completeness) comes in the context. Never throws.
 */

/** The longest identifier the Commission's user guide v1.02 admits (secondary source: docs/registry.md#sources). */
export const UPI_MAX_LENGTH = 2000;
/** The longest identifier v1.01 of the user guide admitted: longer ones are a warning. */
export const UPI_WARN_LENGTH = 50;
/** The CIRPASS-2 mock's `upi` maxLength: an adapter for the mock passes it as `upiMaxLength`. */
export const MOCK_UPI_MAX_LENGTH = 200;

/** The granularity a category's passport is at, where a law sets it: a battery's passport is per battery (Regulation (EU) 2023/1542 Art. 77(1), (3)). */
export const REQUIRED_GRANULARITY: Readonly<Partial<Record<Category, RegistryGranularity>>> = { battery: 'ITEM' };

/** What the backup copy answered when the service fetched it (lib/services does; this module fetches nothing). */
export type BackupCheck =
  | { outcome: 'same-digest'; digest: string }
  | { outcome: 'other-digest'; expected: string; found: string | null }
  | { outcome: 'missing'; status?: number }
  | { outcome: 'unreachable'; reason: string };

export interface PrecheckContext {
  /** The organization's verified brand hosts (docs/brand-domains.md), lower case. */
  verifiedHosts: readonly string[];
  category: Category;
  /** The identifiers of the entry's model and batch where they exist; the model's defaults to the link up to its GTIN (modelUpiOf). */
  links?: { model?: string; batch?: string };
  /** Identifiers registered already, or in the same submission (queued or in the same file set). */
  available: ReadonlySet<string>;
  /** Items below this model or batch, registered or in the same submission (for a category whose passport is per item). */
  itemsBelow?: number;
  /** The backup copy's answer; undefined when it was not checked. */
  backup: BackupCheck | undefined;
  /** The passport's mandatory elements missing for its category on the day (lib/domain/passport-completeness.ts). */
  missing: readonly string[];
  /** The identifier's limit of the registry this goes to: UPI_MAX_LENGTH by default, MOCK_UPI_MAX_LENGTH for the mock. */
  upiMaxLength?: number;
}

/** The reasons a pre-check gives, each with a stable code (docs/registry.md#pre-checks). */
export const PRECHECK_CODES = [
  'text_control_character',
  'upi_not_https',
  'upi_too_long',
  'upi_long',
  'upi_not_digital_link',
  'upi_host_not_verified',
  'upi_repeated',
  'live_url_invalid',
  'granularity_mismatch',
  'granularity_below_category',
  'deactivated_mismatch',
  'upward_link_missing',
  'operator_scheme_unknown',
  'operator_identifier_invalid',
  'facility_missing',
  'facility_invalid',
  'facility_repeated',
  'commodity_code_invalid',
  'backup_url_invalid',
  'backup_not_checked',
  'backup_missing',
  'backup_unreachable',
  'backup_digest_differs',
  'passport_incomplete',
] as const;
export type PrecheckCode = (typeof PRECHECK_CODES)[number];

/** The codes that are warnings: they are shown, and do not stop an entry from being sent. */
export const WARNING_CODES: ReadonlySet<PrecheckCode> = new Set<PrecheckCode>(['upi_long', 'granularity_below_category']);

/** One reason, in people's words, naming the entry's field (or the context's: `links.model`, `passport`). */
export interface PrecheckReason {
  code: PrecheckCode;
  field: string;
  message: string;
}

export interface PrecheckResult {
  /** True when there is no error: the entry may be sent. */
  ok: boolean;
  errors: PrecheckReason[];
  warnings: PrecheckReason[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// C0 and C1 control characters, the Unicode line separators, the noncharacters U+FFFE and U+FFFF and lone
// surrogates: an XML 1.0 document cannot carry most of them, and no registry field is meant to hold any.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function urlOf(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The granularity a Digital Link names: ITEM with a serial (AI 21), BATCH with a lot (AI 10), MODEL with neither. */
const granularityNamed = (qualifiers: Readonly<Record<string, string>>): RegistryGranularity =>
  qualifiers['21'] !== undefined ? 'ITEM' : qualifiers['10'] !== undefined ? 'BATCH' : 'MODEL';

const LEVEL_WORDS: Readonly<Record<RegistryGranularity, string>> = { MODEL: 'a model', BATCH: 'a batch', ITEM: 'an item' };

/** Every reason `entry` is not ready for the registry, errors apart from warnings. */
export function precheck(entry: RegistryEntry, context: PrecheckContext): PrecheckResult {
  const reasons: PrecheckReason[] = [];
  const add = (code: PrecheckCode, field: string, message: string) => reasons.push({ code, field, message });

  for (const [field, value] of [
    ['upi', entry.upi],
    ['reoId', entry.reoId],
    ['liveURL', entry.liveURL],
    ['backupURL', entry.backupURL],
    ['commodityCode', entry.commodityCode],
    ...entry.facilitiesId.map((id, i) => [`facilitiesId[${i}]`, id] as const),
  ] as const) {
    if (CONTROL.test(value)) add('text_control_character', field, `${field} holds a control character (a line break, a tab or similar) or another character no registry file can carry.`);
  }

  checkIdentifier(entry, context, add);

  const live = urlOf(entry.liveURL);
  if (!live || live.protocol !== 'https:') add('live_url_invalid', 'liveURL', 'liveURL must be an https:// URL where the passport is read.');

  if (entry.granularityLevel === 'ITEM' ? !Object.hasOwn(entry, 'deactivated') : Object.hasOwn(entry, 'deactivated')) {
    add(
      'deactivated_mismatch',
      'deactivated',
      entry.granularityLevel === 'ITEM' ? 'An item\'s entry must say whether it is deactivated (true, false or null).' : `${LEVEL_WORDS[entry.granularityLevel]}'s entry must not carry deactivated: only items are deactivated.`,
    );
  }

  checkLinks(entry, context, add);
  checkOperator(entry.reoId, add);

  if (entry.facilitiesId.length === 0) add('facility_missing', 'facilitiesId', 'No facility is named: give the GLN of at least one site where the product is made or assembled.');
  const seen = new Set<string>();
  entry.facilitiesId.forEach((id, i) => {
    const problem = facilityIdProblem(id);
    if (problem) add('facility_invalid', `facilitiesId[${i}]`, problem);
    if (seen.has(id)) add('facility_repeated', `facilitiesId[${i}]`, `${id} is named twice: each facility once.`);
    seen.add(id);
  });

  const commodity = commodityCodeProblem(entry.commodityCode);
  if (commodity) add('commodity_code_invalid', 'commodityCode', commodity);

  checkBackup(entry.backupURL, context.backup, add);

  if (context.missing.length > 0) {
    const shown = context.missing.slice(0, 10).join(', ');
    const more = context.missing.length > 10 ? ` and ${context.missing.length - 10} more` : '';
    add('passport_incomplete', 'passport', `The passport is not complete for its category today: ${shown}${more} ${context.missing.length === 1 ? 'is' : 'are'} missing.`);
  }

  const errors = reasons.filter((r) => !WARNING_CODES.has(r.code));
  return { ok: errors.length === 0, errors, warnings: reasons.filter((r) => WARNING_CODES.has(r.code)) };
}

type Add = (code: PrecheckCode, field: string, message: string) => void;

function checkIdentifier(entry: RegistryEntry, context: PrecheckContext, add: Add): void {
  const max = context.upiMaxLength ?? UPI_MAX_LENGTH;
  if (entry.upi.length > max) add('upi_too_long', 'upi', `The identifier has ${entry.upi.length} characters; the registry takes at most ${max}.`);
  else if (entry.upi.length > UPI_WARN_LENGTH) {
    add('upi_long', 'upi', `The identifier has ${entry.upi.length} characters: the registry's first user guide (v1.01) took at most ${UPI_WARN_LENGTH}, v1.02 takes ${UPI_MAX_LENGTH}.`);
  }
  const url = urlOf(entry.upi);
  if (!url || url.protocol !== 'https:') {
    add('upi_not_https', 'upi', 'The identifier must be an https:// URL: the passport\'s Digital Link.');
    return;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  let decoded: string[] | undefined;
  try {
    decoded = segments.map((s) => decodeURIComponent(s));
  } catch {
    decoded = undefined;
  }
  const parsed = decoded && decoded[0] === '01' && url.search === '' && url.hash === '' ? parseGtinPath(decoded[1] ?? '', decoded.slice(2)) : undefined;
  if (!parsed?.ok) {
    add(
      'upi_not_digital_link',
      'upi',
      parsed && !parsed.ok
        ? `The identifier is not a valid Digital Link: ${parsed.reason}`
        : 'The identifier must be a GS1 Digital Link on the brand\'s own domain: https://{domain}/01/{GTIN}, with /10/{lot} or /21/{serial}, and no query.',
    );
  } else if (granularityNamed(parsed.qualifiers) !== entry.granularityLevel) {
    add('granularity_mismatch', 'granularityLevel', `The entry says ${LEVEL_WORDS[entry.granularityLevel]}, but its identifier names ${LEVEL_WORDS[granularityNamed(parsed.qualifiers)]}.`);
  }
  if (!context.verifiedHosts.includes(url.hostname.toLowerCase())) {
    add('upi_host_not_verified', 'upi', `${url.hostname} is not a verified brand domain of the organization: register the passport under the brand's own domain.`);
  }
  const required = REQUIRED_GRANULARITY[context.category];
  if (required === 'ITEM' && entry.granularityLevel !== 'ITEM' && !((context.itemsBelow ?? 0) > 0)) {
    add(
      'granularity_below_category',
      'granularityLevel',
      `A ${context.category}'s passport is per item: ${LEVEL_WORDS[entry.granularityLevel]}'s entry is the link its items name, and none of its items is registered yet.`,
    );
  }
}

function checkLinks(entry: RegistryEntry, context: PrecheckContext, add: Add): void {
  if (entry.granularityLevel === 'MODEL') return;
  const model = context.links?.model ?? modelUpiOf(entry.upi);
  if (!context.available.has(model)) {
    add('upward_link_missing', 'links.model', `The model's passport (${model}) is not registered, nor sent with this one: register the model first.`);
  }
  const batch = context.links?.batch;
  if (entry.granularityLevel === 'ITEM' && batch !== undefined && !context.available.has(batch)) {
    add('upward_link_missing', 'links.batch', `The batch's passport (${batch}) is not registered, nor sent with this one: register the batch first.`);
  }
}

function checkOperator(reoId: string, add: Add): void {
  const identity = parseReoId(reoId);
  if (!identity) {
    add('operator_scheme_unknown', 'reoId', `The operator identifier must name its scheme (${OPERATOR_SCHEMES.join(', ')}), such as LEI-529900T8BM49AURSDO55.`);
    return;
  }
  const problem = operatorIdentifierProblem(identity.scheme, normalizeOperatorIdentifier(identity.scheme, identity.identifier));
  if (problem) add('operator_identifier_invalid', 'reoId', `The operator's ${identity.scheme} ${problem.message.replace(/^identifier /, '')}`);
}

function checkBackup(backupURL: string, backup: BackupCheck | undefined, add: Add): void {
  const url = urlOf(backupURL);
  const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!url || !secure) {
    add('backup_url_invalid', 'backupURL', 'backupURL must be the https:// URL of the backup copy a DPP service provider keeps.');
    return;
  }
  if (!backup) {
    add('backup_not_checked', 'backupURL', 'The backup copy has not been checked yet: it is fetched before the entry is sent.');
    return;
  }
  switch (backup.outcome) {
    case 'same-digest':
      return;
    case 'missing':
      add('backup_missing', 'backupURL', `The backup copy is not there yet${backup.status ? ` (HTTP ${backup.status})` : ''}: it is written after each publication; the entry waits for it.`);
      return;
    case 'unreachable':
      add('backup_unreachable', 'backupURL', `The backup copy did not answer: ${backup.reason}.`);
      return;
    case 'other-digest':
      add('backup_digest_differs', 'backupURL', `The backup copy holds another version than the passport (digest ${backup.found ?? 'none'}, expected ${backup.expected}).`);
  }
}
