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
  suggestion?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly suggestion: string | undefined;

  constructor(status: number, body: Partial<ApiErrorBody> | undefined) {
    super(body?.message ?? `The request failed (HTTP ${status}).`);
    this.status = status;
    this.type = body?.type ?? 'api_error';
    this.param = body?.param;
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
}

/** One API call; resolves with the parsed body, throws ApiError for any non-2xx answer. */
export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: options.text ? '*/*' : 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
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

// ---- The API's shapes, as the dashboard reads them -------------------------------------------

export type Environment = 'live' | 'test';

export interface SessionView {
  user: { id: string; email: string; name?: string };
  organizations: { id: string; name: string }[];
  organization: { id: string; name: string };
  environment: Environment;
  csrfToken: string;
  expiresAt: string;
}

export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  environment: Environment;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  rateLimitPerMinute: number;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  environment: Environment;
  prefix: string;
  key: string;
  createdAt: string;
}

export interface Product {
  productId: string;
  environment: Environment;
  gtin: string;
  name: string;
  category: string;
  brand: string | null;
  sku: string | null;
  qrCodeUrl: string;
  createdAt: string;
  updatedAt: string;
}

export interface ProductPage {
  data: Product[];
  pagination: { total: number; limit: number; offset: number };
  hasMore: boolean;
}

export interface Producer {
  name: string;
  role?: string;
  country?: string;
}

export interface PassportData {
  productType?: string;
  colour?: string;
  vintage?: number;
  ingredients?: string[];
  nutrition?: Record<string, number>;
  allergens?: Record<string, boolean>;
  origin?: { country?: string; region?: string; designation?: string };
  producers?: Producer[];
}

export interface PassportView {
  productId: string;
  passportId: string;
  name: string;
  data: PassportData;
  qrCodeUrl: string;
  status: string;
  version: number;
  lastUpdated: string;
}

export interface PassportVersion {
  passportId: string;
  productId: string;
  version: number;
  status: string;
  data: PassportData;
  createdAt: string;
}

export interface Analytics {
  productId: string;
  period: { start: string; end: string };
  granularity: 'day' | 'week' | 'month';
  totalScans: number;
  uniqueCountries: number;
  locations: Record<string, number>;
  topReferrers: { domain: string; scans: number }[];
  devices: { mobile: number; desktop: number; tablet: number };
  bots: number;
  scansByDay: { date: string; scans: number }[];
}

export interface WebhookEndpoint {
  id: string;
  source: 'headless-cms' | 'custom';
  environment: Environment;
  defaultCategory: string;
  mapping: Record<string, unknown>;
  description: string | null;
  secretPreviousValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
}
