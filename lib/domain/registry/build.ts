import { encodeLinkValue } from '../digital-link.ts';
import { facilityIdOf } from './codes.ts';
import type { RegistryEntry, RegistryGranularity } from './entry.ts';
import { reoIdOf, type OperatorIdentity } from './operator.ts';

/** What a registry entry is built from (docs/registry.md#the-entry). */
export interface RegistryEntryInput {
  /** The passport's GS1 Digital Link: the model's, the batch's (`…/10/{lot}`) or the item's (`…/21/{serial}`). */
  digitalLink: string;
  operator: OperatorIdentity;
  /** The facilities' GLNs, 13 digits (or already `GLN-…`). */
  facilities: readonly string[];
  commodityCode: string;
  /** The backup copy's URL (docs/backup.md#the-public-copy). */
  backupURL: string;
  granularity: RegistryGranularity;
  /** Items only: true once withdrawn or recycled (docs/registry.md#statuses); false when not given. */
  deactivated?: boolean | null;
}

/**
 * The entry the registry takes for a model, a batch or an item, in the CIRPASS-2 mock's shape and
 * key order: the Digital Link as both `upi` and `liveURL`, the operator as `{SCHEME}-{identifier}`,
 * facilities as `GLN-…` without repeats, and `deactivated` present exactly for an ITEM (the mock's
 * rule). It checks nothing: precheck() does (docs/registry.md#pre-checks).
 */
export function registryEntryOf(input: RegistryEntryInput): RegistryEntry {
  const link = input.digitalLink.trim();
  const entry: RegistryEntry = {
    upi: link,
    reoId: reoIdOf(input.operator),
    facilitiesId: [...new Set(input.facilities.map(facilityIdOf))],
    liveURL: link,
    backupURL: input.backupURL.trim(),
    commodityCode: input.commodityCode.trim(),
    granularityLevel: input.granularity,
  };
  if (input.granularity === 'ITEM') entry.deactivated = input.deactivated ?? false;
  return entry;
}

/** The Digital Link of the model an item's or a batch's link belongs to: the link up to its GTIN (`…/01/{gtin14}`). */
export function modelUpiOf(upi: string): string {
  return /^(.*?\/01\/\d{14})(?:[/?#].*)?$/s.exec(upi)?.[1] ?? upi;
}

/** The Digital Link of a batch of a model (`…/10/{lot}`), the lot encoded as the service writes it (lib/domain/unit.ts unitDigitalLink). */
export const batchUpiOf = (modelUpi: string, lot: string): string => `${modelUpi.replace(/\/+$/, '')}/10/${encodeLinkValue(lot)}`;
