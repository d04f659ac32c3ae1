import { createHash } from 'node:crypto';
import type { RegistrationStatus, RegistryEntry, RegistryGranularity } from './entry.ts';

/** Why a registration waits or was rejected: one of our pre-checks (its code, lib/domain/registry/precheck.ts) or the registry's own words. */
export interface RegistrationReason {
  source: 'precheck' | 'registry';
  code: string;
  /** The entry's field it names, where it names one. */
  field?: string;
  message: string;
}

/** A pending change of an ITEM entry's `deactivated` (docs/registry.md#lifecycle). */
export type Deactivation = 'requested' | 'reactivation_requested';

/**
 * A registration: one passport identifier (a model's, a batch's or an item's) on its way into the
 * EU registry, and where it stands (docs/registry.md#statuses). One per identifier and tenant: its
 * id is derived from the identifier, so writing it twice is writing it once.
 */
export interface RegistrationRecord {
  registrationId: string;
  /** The entry as sent (or to be sent): its identifier (`entry.upi`), granularity, operator, links. */
  entry: RegistryEntry;
  granularity: RegistryGranularity;
  productId: string;
  gtin: string;
  lot?: string;
  serial?: string;
  status: RegistrationStatus;
  /** Why it is `pending_checks` or `rejected`: our pre-checks' reasons or the registry's, in people's words. */
  reasons: RegistrationReason[];
  /** Our pre-checks' warnings (sent all the same). */
  warnings: RegistrationReason[];
  /** The registry's identifier and URI of the entry, once it has taken it. */
  registryId?: string;
  registryUri?: string;
  /** The upload file set it went out in (`submitted` by files). */
  correlationId?: string;
  submittedAt?: string;
  registeredAt?: string;
  /** When the proof of registration runs out (Art. 9 of Implementing Regulation (EU) 2026/1778: 90 days, docs/registry.md). */
  proofExpiresAt?: string;
  /** When the proof was last renewed (docs/registry.md#proof-of-registration). */
  proofRenewedAt?: string;
  /**
   * A change of an ITEM entry's `deactivated` its item's life asks for and the outbox has still to
   * send (docs/registry.md#lifecycle): `requested` (withdrawn or recycled: to `deactivated`),
   * `reactivation_requested` (reinstated: back to `registered`).
   */
  deactivation?: Deactivation;
  /**
   * The outbox's claim (docs/registry.md#the-outbox): when a worker took the record to send it (its
   * entry, or its deactivation). Written before the send, on the condition that the record is the
   * one the worker read, so that two deliveries of one message never both send; a claim older than
   * CLAIM_LEASE_SECONDS belongs to a worker that is gone.
   */
  claimedAt?: string;
  /** A registry that asked to wait (or was down): the outbox does not send before this time. */
  notBefore?: string;
  /** How often the registry answered "try again" to this record's send in a row (the backoff grows with it). */
  sendRetries?: number;
  createdAt: string;
  updatedAt: string;
  /** Counts every change: a change is written on the condition that the stored record is still the one it was made from. */
  version: number;
}

/** The registration id of an identifier in a tenant: `reg_` and 26 lower-case base32 characters of its SHA-256. */
export function registrationIdOf(orgId: string, environment: string, upi: string): string {
  const digest = createHash('sha256').update(`${orgId}\u0000${environment}\u0000${upi}`, 'utf8').digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `reg_${out}`;
}

export const REGISTRATION_ID_PATTERN = /^reg_[a-z2-7]{26}$/;
