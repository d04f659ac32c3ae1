/** Display helpers: dates in the viewer's locale, GTINs as printed, JSON as edited. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDate = (isoDay: string): string => dateOnly.format(new Date(`${isoDay.slice(0, 10)}T00:00:00Z`));

/** GTIN-14 as printed under the barcode: GTIN-13 when the first digit is 0. */
export const printedGtin = (gtin14: string): string => (gtin14.startsWith('0') ? gtin14.slice(1) : gtin14);

export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** A product's category or a passport field name, for people: `saturatedFatG` → `Saturated fat (g)`. */
export function labelOf(field: string): string {
  const unit = /Kj$/.test(field) ? ' (kJ)' : /Kcal$/.test(field) ? ' (kcal)' : /G$/.test(field) ? ' (g)' : '';
  const words = field.replace(/(Kj|Kcal|G)$/, '').replace(/([A-Z])/g, ' $1').toLowerCase().trim();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}${unit}`;
}

/** Today in UTC, and a day `days` before it, as YYYY-MM-DD. */
export function utcDay(offsetDays = 0, from = new Date()): string {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() - offsetDays));
  return day.toISOString().slice(0, 10);
}
