/**
 * The dashboard's client of the API: same origin, the session cookie (HttpOnly, sent by the
 * browser), and on state-changing calls the session's CSRF token. Errors arrive as the API's
 * `{error: {type, code, message, param?, suggestion?}}` and are thrown as ApiError; the types are
 * those of the API's table (lib/http/error-types.ts).
 */
import type { ErrorType } from '../../lib/http/error-types.ts';

export interface ApiErrorBody {
  type: ErrorType;
  code: ErrorType;
  message: string;
  param?: string;
  /** Every field a refusal names, when it names several (a battery passport's missing elements). */
  params?: string[];
  suggestion?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly params: readonly string[];
  readonly suggestion: string | undefined;

  constructor(status: number, body: Partial<ApiErrorBody> | undefined) {
    super(body?.message ?? `The request failed (HTTP ${status}).`);
    this.status = status;
    this.type = body?.type ?? 'api_error';
    this.param = body?.param;
    this.params = Array.isArray(body?.params) ? body.params : body?.param ? [body.param] : [];
    this.suggestion = body?.suggestion;
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

/** Set from GET /v1/auth/session; sent as X-CSRF-Token on every state-changing call. */
export const setCsrfToken = (token: string): void => {
  csrfToken = token;
};

/** Called when the API answers 401: the session ended or expired. */
export const whenSignedOut = (callback: () => void): void => {
  onSignedOut = callback;
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Read the answer as text instead of JSON (the QR code's SVG). */
  text?: boolean;
  /** Do not treat a 401 as the end of the session (the first session check). */
  quiet401?: boolean;
  /** Send these bytes as the body, with this content type, instead of JSON (an import's file). */
  upload?: { body: Blob; contentType: string };
  /** The JSON body's media type instead of application/json (a merge patch: application/merge-patch+json). */
  contentType?: string;
}

/** One API call; resolves with the parsed body, throws ApiError for any non-2xx answer. */
export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: options.text ? '*/*' : 'application/json' };
  if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.upload) headers['content-type'] = options.upload.contentType;
  if (STATE_CHANGING.has(method)) headers['x-csrf-token'] = csrfToken;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const url = query.size ? `${path}?${query}` : path;
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.upload ? { body: options.upload.body } : {}),
  });
  if (!response.ok) {
    let body: { error?: ApiErrorBody } | undefined;
    try {
      body = (await response.json()) as { error?: ApiErrorBody };
    } catch {
      body = undefined;
    }
    if (response.status === 401 && !options.quiet401) onSignedOut();
    throw new ApiError(response.status, body?.error);
  }
  if (options.text) return (await response.text()) as T;
  return (await response.json()) as T;
}

// ---- The API's shapes: the types lib/ derives from the very zod schemas the OpenAPI document is
// generated from (type-only imports: nothing of lib/ or zod reaches the bundle). Names are the
// document's component names.

export type { Session, ApiKey, CreatedApiKey, WebhookEndpoint } from '../../lib/api/schemas.ts';
export type { Grant as AccessGrant } from '../../lib/domain/access.ts';
export type { Analytics } from '../../lib/domain/analytics.ts';
export type { Domain } from '../../lib/domain/domain.ts';
export type { DomainEvent } from '../../lib/domain/events.ts';
export type { DeliveryView as EventDelivery, SubscriptionView as EventSubscription } from '../../lib/domain/event-subscription.ts';
export type { ImportJob, ImportStatus } from '../../lib/domain/imports.ts';
export type { Passport, PassportData, PassportVersion } from '../../lib/domain/passport.ts';
export type { CompletenessElement, CompletenessReport } from '../../lib/domain/passport-completeness.ts';
export type { Draft } from '../../lib/domain/draft.ts';
export type { Batch, Item } from '../../lib/domain/units.ts';
export type { Product, ProductList } from '../../lib/domain/product.ts';
export type { Environment } from '../../lib/domain/tenant.ts';
