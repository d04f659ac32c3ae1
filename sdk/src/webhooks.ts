import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Event } from './types.ts';

/**
 * Verifying outbound webhooks (docs/webhooks-outbound.md#receiving): Standard Webhooks signatures
 * through the `standardwebhooks` package.
 */

/** What a delivery carries: an event of the log as `GET /v1/events/{id}` shows it, or a `ping` (POST …/test). */
export type WebhookEvent = Event | (Omit<Event, 'type'> & { type: 'ping' });

/** Request headers as fetch (`Headers`) or node:http (`req.headers`) give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export { WebhookVerificationError };

const NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerValues(headers: WebhookHeaders): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of NAMES) {
    let value: string | readonly string[] | null | undefined;
    if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
    else value = Object.entries(headers as Record<string, string | readonly string[] | undefined>).find(([key]) => key.toLowerCase() === name)?.[1];
    const text = typeof value === 'string' ? value : value?.join(' ');
    if (text) values[name] = text;
  }
  return values;
}

/**
 * The event of a delivery, once its signature is checked over the exact bytes received: throws
 * WebhookVerificationError unless one signature matches `secret` (`whsec_…`; after a rotation either
 * secret) and the timestamp is within 5 minutes of now. Dedupe on `event.id`: a delivery may come twice.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  let body: string;
  try {
    body = typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: true }).decode(payload);
  } catch {
    throw new WebhookVerificationError('The payload is not UTF-8');
  }
  return new Webhook(secret).verify(body, headerValues(headers)) as WebhookEvent;
}
