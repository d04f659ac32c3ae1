import type { Category } from './enums.ts';
import { holdsBatteryData } from './passport-kinds.ts';

/**
 * How long the backup copy of a product's versions is kept, by the product's category
 * (docs/backup.md#retention): the copy is kept for the product's life where the law ties the
 * passport to it, not a fixed ten years. Each object of the copy is written with
 *
 * - a compliance-mode retention of `lockYears` from when it is written (Object Lock: nobody, the
 *   account's root user included, deletes it or shortens the retention before then), and
 * - where `holdForLife` is set, a legal hold: no end date; the object stays until the hold is lifted,
 *   which the service never does (an operator does once the product's passport has ended, and only
 *   then does the retention decide).
 *
 * Each entry carries what it rests on and whether that was read in the legal text (`confirmed`).
 * The periods in years are the platform's floor (the store's default, docs/backup.md#retention),
 * not numbers read in a law: none of the acts read here sets a number of years for the passport.
 */
export interface BackupRetention {
  /** Years each object is locked from its write (Object Lock, compliance mode). */
  lockYears: number;
  /** A legal hold on each object too: kept for the product's life, with no end date the service knows. */
  holdForLife: boolean;
  /** What the period rests on, in our words. */
  basis: string;
  /** Where it was read, and in which language. */
  source: string;
  /** Read in the legal text itself (true), or only in secondary sources, or not set by any text found (false). */
  confirmed: boolean;
}

/** The store's default retention, in years (infra/cdk/constructs/backup-store.ts), which every category keeps at least. */
export const DEFAULT_LOCK_YEARS = 10;

const ESPR_LIFETIME =
  'ESPR (Regulation (EU) 2024/1781) Art. 9(2)(i): the delegated act of a product group sets the period the passport must be available, at least the expected lifetime of the product; Art. 11(e): it stays available for that period, also after the operator\'s insolvency, liquidation or end of activity in the Union. Legal text, German, as published by Haufe (docs/transfers.md#sources).';

export const BACKUP_RETENTION: Readonly<Record<Category, BackupRetention>> = {
  battery: {
    lockYears: DEFAULT_LOCK_YEARS,
    holdForLife: true,
    basis:
      "A battery's passport lives as long as the battery, through re-use, repurposing and remanufacturing (each a new passport linked to the original, Art. 77(7)), and ceases to exist once the battery is recycled (Art. 77(8)): the copy is held until then. No period in years was found in Art. 77.",
    source: `Regulation (EU) 2023/1542 Art. 77(7) and (8), read only as secondary sources restate them (docs/battery.md#sources); ${ESPR_LIFETIME}`,
    confirmed: false,
  },
  wine: {
    lockYears: DEFAULT_LOCK_YEARS,
    holdForLife: false,
    basis: 'Not set by any act we found: no period to keep a wine\'s e-label available was found (Regulation (EU) 2019/33 Art. 48a, as docs/labelling.md reads it, names none), and ESPR was not read to cover food or drink. The platform keeps the copy its default years.',
    source: 'None found; unconfirmed (docs/backup.md#retention).',
    confirmed: false,
  },
  food: {
    lockYears: DEFAULT_LOCK_YEARS,
    holdForLife: false,
    basis: 'Not set by law, as far as we found: no act read sets a period for a food product\'s digital information. The platform keeps the copy its default years.',
    source: 'None found; unconfirmed (docs/backup.md#retention).',
    confirmed: false,
  },
  textile: {
    lockYears: DEFAULT_LOCK_YEARS,
    holdForLife: true,
    basis: 'ESPR asks for at least the expected lifetime of the product; the delegated act for textiles, which sets the period, was not found adopted: the copy is held for the product\'s life.',
    source: ESPR_LIFETIME,
    confirmed: false,
  },
  electronics: {
    lockYears: DEFAULT_LOCK_YEARS,
    holdForLife: true,
    basis: 'ESPR asks for at least the expected lifetime of the product; no delegated act for electronics was found adopted: the copy is held for the product\'s life.',
    source: ESPR_LIFETIME,
    confirmed: false,
  },
};

/** What an object of the backup copy is written with: locked until `retainUntil`, and held while `legalHold`. */
export interface ObjectLock {
  retainUntil: Date;
  legalHold: boolean;
}

const isCategory = (value: unknown): value is Category => typeof value === 'string' && Object.hasOwn(BACKUP_RETENTION, value);

/**
 * The category of a stored item the backup copies: a version page names its product's (`category`);
 * a batch's or item's record names none, and is a battery's when its data holds battery aspects (the
 * service sets every battery item's identifier: docs/battery.md#the-individual-battery). Undefined when
 * unknown: the object then takes the store's default retention.
 */
export function categoryOfStored(item: Record<string, unknown>): Category | undefined {
  if (isCategory(item.category)) return item.category;
  return holdsBatteryData(item.data) ? 'battery' : undefined;
}

/** The lock of an object written at `writtenAt` for a product of `category` (undefined: the store's default alone). */
export function objectLockOf(category: Category | undefined, writtenAt: Date): ObjectLock | undefined {
  if (category === undefined) return undefined;
  const retention = BACKUP_RETENTION[category];
  const retainUntil = new Date(writtenAt);
  retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + retention.lockYears);
  return { retainUntil, legalHold: retention.holdForLife };
}
