import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.d.ts';
import { errorOf } from './errors.ts';

/** The typed openapi-fetch client every resource calls through (auth, retries and keys included). */
export type Api = Client<paths>;

/** Options every SDK method takes. */
export interface RequestOptions {
  /** Cancels the request, and any wait between its retries. */
  signal?: AbortSignal;
}

/** Options of a method that creates something. */
export interface CreateOptions extends RequestOptions {
  /**
   * The `Idempotency-Key` to send; by default a new UUID for each call, kept across its retries.
   * Give your own to make a retry of your own (after a restart, say) safe too.
   */
  idempotencyKey?: string;
}

/** Fetch options of `options` (its signal, its Idempotency-Key) with `headers`. */
export const init = (options: CreateOptions = {}, headers: Record<string, string> = {}) => ({
  ...(options.signal ? { signal: options.signal } : {}),
  headers: { ...headers, ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}) },
});

/** An RFC 7396 merge patch's media type (docs/api.md: drafts, batches and items take it). */
export const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

/** The data of a successful answer; a PassportError for any other. */
export async function ok<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorOf(response, error);
  return data as T;
}

/** A successful text answer (an SVG, a CSV page, a credential) with its headers. */
export async function okText(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<{ text: string; headers: Headers }> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorOf(response, error);
  return { text: typeof data === 'string' ? data : '', headers: response.headers };
}
