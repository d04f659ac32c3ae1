/**
 * What a registration sends to the EU registry of Digital Product Passports (Regulation (EU)
 * 2024/1781 Art. 13; Implementing Regulation (EU) 2026/1778) and what the registry answers, as
 * the service holds them (docs/registry.md). The entry's shape follows the contract of the
 * CIRPASS-2 project's mock registry, the one registry contract published so far; the Commission's
 * own format is one more adapter (lib/data/registry-client.ts). No imports: every layer and the
 * dashboard may read it.
 */

/** The granularity of a registered passport (Regulation (EU) 2024/1781 Art. 9; the registry's granularityLevel). */
export const REGISTRY_GRANULARITIES = ['MODEL', 'BATCH', 'ITEM'] as const;
export type RegistryGranularity = (typeof REGISTRY_GRANULARITIES)[number];

/** One entry as the registry's API and upload files take it (the mock registry's metadata). */
export interface RegistryEntry {
  /** The unique product identifier: the passport's GS1 Digital Link, an https URL. */
  upi: string;
  /** The responsible economic operator's identifier, with its scheme as a prefix (`LEI-…`, `EORI-…`, `VAT-…`, `GLN-…`). */
  reoId: string;
  /** The facilities' identifiers (`GLN-…`), at least one. */
  facilitiesId: string[];
  /** Where the passport is read: the Digital Link again, resolved by the service. */
  liveURL: string;
  /** The backup copy a DPP service provider keeps (docs/backup.md#the-public-copy). */
  backupURL: string;
  /** The commodity code (HS/CN/TARIC) where the product is released for free circulation: 4 to 10 digits in the mock, 6, 8 or 10 in our pre-checks. */
  commodityCode: string;
  granularityLevel: RegistryGranularity;
  /** Present exactly for ITEM entries (the mock's rule): true once withdrawn or recycled. */
  deactivated?: boolean | null;
}

/** A registration's state in the service (docs/registry.md#statuses). */
export const REGISTRATION_STATUSES = ['pending_checks', 'ready', 'submitted', 'registered', 'rejected', 'deactivated'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** What a registry answered to one entry. */
export type RegistryAnswer =
  /** Taken: checked later by the registry (Art. 8(7) of 2026/1778), or at once. */
  | { outcome: 'accepted'; registryId: string; registryUri?: string; status: 'pending' | 'registered' | 'rejected'; reasons?: string[] }
  /** Not taken now, try again later (a 5xx, 429, a timeout): nothing was registered. */
  | { outcome: 'retry'; retryAfterSeconds?: number; reason: string }
  /** Refused for good: the entry is wrong (a 4xx with reasons). */
  | { outcome: 'refused'; reasons: string[] };
