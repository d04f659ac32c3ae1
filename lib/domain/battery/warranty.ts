/**
 * The commercial warranty period of a battery (Annex XIII 1(m); docs/battery.md#extension-members)
 * without zod, so that the resolver's battery page reads it without bundling the schemas
 * (docs/benchmarks.md: the resolver stays zod-free). No imports.
 */

/**
 * A commercial warranty period as an ISO 8601 duration of years and months, in canonical form:
 * `P8Y`, `P8Y6M`, `P18M` written `P1Y6M` (at most 99 years and 11 months, no zero component). An
 * extension of the data model (docs/battery.md#extension-members): its `warrentyPeriod` is a gMonth,
 * which names a month of the year and cannot state an eight-year warranty.
 */
export const COMMERCIAL_WARRANTY_PERIOD_PATTERN = '^P(?:[1-9][0-9]?Y(?:(?:[1-9]|1[01])M)?|(?:[1-9]|1[01])M)$';
/** The length budget of a warranty period, checked before the pattern (docs/security.md#parser-budgets). */
export const MAX_WARRANTY_PERIOD_LENGTH = 20;

/** The years and months of a period COMMERCIAL_WARRANTY_PERIOD_PATTERN accepts, or undefined for anything else. */
export function warrantyYearsAndMonths(value: string): { years: number; months: number } | undefined {
  if (value.length > MAX_WARRANTY_PERIOD_LENGTH || !new RegExp(COMMERCIAL_WARRANTY_PERIOD_PATTERN, 'u').test(value)) return undefined;
  const years = /(\d+)Y/u.exec(value)?.[1];
  const months = /(\d+)M/u.exec(value)?.[1];
  return { years: Number(years ?? 0), months: Number(months ?? 0) };
}
