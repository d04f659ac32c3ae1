import type { RegistrationStatus } from './entry.ts';
import { registryEntryOf } from './build.ts';
import type { RegistrationRecord } from './registration.ts';
import type { RegistrySettings } from './settings.ts';

/**
 * "Fix and resubmit" (docs/registry.md#fix-and-resubmit): a registration the registry rejected, or
 * one our pre-checks hold back, goes back to `pending_checks` without reasons once its cause was
 * fixed, so that it is checked again: the outbox takes such a record from the table's stream
 * (submission `api`), and the next upload file takes every `pending_checks` record (`files`).
 */

/** The statuses a registration may be resubmitted from; any other is a 409 naming `status`. */
export const RESUBMITTABLE_STATUSES: readonly RegistrationStatus[] = ['rejected', 'pending_checks'];

export const isResubmittable = (status: RegistrationStatus): boolean => RESUBMITTABLE_STATUSES.includes(status);

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The record resubmitted, one version on, or undefined when that is what it is already (a
 * `pending_checks` record without reasons whose entry follows the settings: nothing to write).
 *
 * - Status `pending_checks`, no reasons and no warnings (the checks give them again).
 * - The entry's members that come from the settings (`reoId`, `facilitiesId`, `commodityCode`)
 *   taken from the settings as they are now: a fix made in the settings reaches the entry. Its
 *   identity (`upi`, `liveURL`, `granularityLevel`), `backupURL` (the checks move it to the current
 *   version's copy) and an item's `deactivated` stay as they are.
 * - The previous submission's traces (`correlationId`, `submittedAt`) and the outbox's claim and
 *   waits (`claimedAt`, `notBefore`, `sendRetries`) are dropped: it goes out anew, and its hand-over
 *   writes `registry.registration.submitted` again. The registry's id and URI of the entry, once
 *   given, are kept: the registry identifies an entry by its `upi`.
 */
export function resubmitted(current: RegistrationRecord, settings: Pick<RegistrySettings, 'operator' | 'facilities' | 'commodityCode'>, now: string): RegistrationRecord | undefined {
  const rebuilt = registryEntryOf({
    digitalLink: current.entry.upi,
    operator: settings.operator,
    facilities: settings.facilities,
    commodityCode: settings.commodityCode,
    backupURL: current.entry.backupURL,
    granularity: current.entry.granularityLevel,
    ...(current.entry.granularityLevel === 'ITEM' ? { deactivated: current.entry.deactivated ?? null } : {}),
  });
  const entry = { ...rebuilt, liveURL: current.entry.liveURL };
  const {
    correlationId: _correlation,
    submittedAt: _submitted,
    claimedAt: _claim,
    notBefore: _wait,
    sendRetries: _retries,
    ...rest
  } = current;
  const after: RegistrationRecord = { ...rest, entry, status: 'pending_checks', reasons: [], warnings: [], updatedAt: now, version: current.version + 1 };
  const changed =
    current.status !== 'pending_checks' ||
    current.reasons.length > 0 ||
    current.warnings.length > 0 ||
    !sameJson(current.entry, entry) ||
    [current.correlationId, current.submittedAt, current.claimedAt, current.notBefore, current.sendRetries].some((value) => value !== undefined);
  return changed ? after : undefined;
}
