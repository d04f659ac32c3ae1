/**
 * Access tiers of passport elements, for every product category (docs/battery.md#audiences): who
 * may read an element. The names say nothing about batteries so that other categories use the same
 * three (a wine's or a food's elements are all `public`). A reader of a tier sees the elements of
 * that tier and of every lower one; the passport's owner sees everything. No imports: the
 * dashboard may read it.
 *
 * - `public`: anyone (Reg. (EU) 2023/1542 Art. 77(2)(a), Annex XIII point 1).
 * - `legitimate_interest`: persons with a legitimate interest, such as repairers, remanufacturers,
 *   second-life operators and recyclers (Art. 77(2)(c), Annex XIII points 2 and 4).
 * - `authority`: notified bodies, market surveillance authorities and the Commission
 *   (Art. 77(2)(b), Annex XIII points 2 and 3).
 */
export const ACCESS_TIERS = ['public', 'legitimate_interest', 'authority'] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];

/** Who reads: a tier, or the passport's owner, who reads every element. */
export type Reader = AccessTier | 'owner';
export const READERS: readonly Reader[] = [...ACCESS_TIERS, 'owner'];

const RANK: Readonly<Record<Reader, number>> = { public: 0, legitimate_interest: 1, authority: 2, owner: 3 };

/** True when a reader of `reader` may see an element of tier `tier`. */
export const canRead = (reader: Reader, tier: AccessTier): boolean => RANK[reader] >= RANK[tier];

export const isReader = (value: unknown): value is Reader => typeof value === 'string' && Object.hasOwn(RANK, value);
