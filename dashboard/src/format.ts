/** Display helpers: dates in the viewer's locale, GTINs as printed, JSON as edited. */
import type { EventType } from '../../lib/domain/event-types.ts';

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

/** Each event type in people's words, for the activity log and event subscriptions (docs/lifecycle.md#event-log). */
export const EVENT_TYPE_LABELS: Readonly<Partial<Record<EventType, string>>> = {
  'product.created': 'Product created',
  'product.updated': 'Product changed',
  'product.withdrawn': 'Product withdrawn',
  'product.reinstated': 'Product reinstated',
  'passport.published': 'Passport published',
  'passport.draft.updated': 'Passport draft saved',
  'passport.draft.deleted': 'Passport draft discarded',
  'supplier.created': 'Supplier added',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'webhook_endpoint.created': 'Webhook endpoint created',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'webhook_delivery.ingested': 'Webhook delivery received',
  'domain.created': 'Domain added',
  'domain.updated': 'Domain changed',
  'domain.deleted': 'Domain deleted',
  'domain.verified': 'Domain verified',
  'import.created': 'Import started',
  'event_subscription.created': 'Event subscription added',
  'event_subscription.updated': 'Event subscription changed',
  'event_subscription.deleted': 'Event subscription deleted',
  'labelling_term.updated': 'Legal term wording saved',
  'labelling_term.deleted': 'Legal term wording cleared',
};

/** A type without its own words, from its parts: `batch.created` → `Batch created`, `ping` → `Ping`. */
const wordsOf = (type: string): string => {
  const words = type.replace(/[._]/g, ' ').trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : type;
};

/** An event type for people (`Product created`); a type without its own label in words from its parts; `*` is every type. */
export const eventTypeLabel = (type: string): string =>
  type === '*' ? 'Every event, present and future' : ((EVENT_TYPE_LABELS as Readonly<Record<string, string | undefined>>)[type] ?? (type === 'ping' ? 'ping' : wordsOf(type)));
