import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.d.ts';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent.ts';
import type { Api } from './request.ts';
import { buildResources, type Resources } from './resources/index.ts';
import { retryingFetch, type FetchLike, type RetryOptions } from './retry.ts';

export interface PassportClientOptions extends RetryOptions {
  /**
   * `sk_live_…` or `sk_test_…`. Without one, requests carry no Authorization header (a page on the
   * API's own origin then sends the dashboard's session cookie).
   */
  apiKey?: string;
  /** The API's origin, such as `https://api.passport.example` or `http://localhost:3000`. */
  baseUrl: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: FetchLike;
  /** Makes each creating POST's Idempotency-Key (default: a random UUID). */
  idempotencyKey?: () => string;
}

/**
 * Sends an Idempotency-Key with every operation that takes one (src/generated/idempotent.ts: the
 * creating POSTs), unless the call gave its own. Retries send copies of the same request, so the
 * key stays the same across them (src/retry.ts).
 */
function idempotencyKeys(newKey: () => string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (!request.headers.has('idempotency-key') && IDEMPOTENT_OPERATIONS.includes(`${request.method} ${schemaPath}`)) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  };
}

// Declaration merging: a PassportClient has the resources of src/resources/index.ts as properties.
export interface PassportClient extends Resources {}

/**
 * The Product Passport API (docs/sdk.md):
 *
 * ```ts
 * const client = new PassportClient({ apiKey: process.env.PASSPORT_API_KEY, baseUrl: 'http://localhost:3000' });
 * const { productId } = await client.products.create({ name: 'Riesling 2023', category: 'wine', gtin: '4006381333931' });
 * for await (const product of client.products.list()) console.log(product.gtin, product.name);
 * ```
 *
 * Every method is typed by the OpenAPI document; `api` is the typed client underneath, for any
 * operation no resource wraps (`client.api.GET('/v1/labelling/terms', …)`).
 */
export class PassportClient {
  readonly api: Api;

  constructor(options: PassportClientOptions) {
    const { apiKey, baseUrl, headers, fetch, idempotencyKey, ...retry } = options;
    const send = fetch ?? ((request: Request) => globalThis.fetch(request));
    this.api = createClient<paths>({
      baseUrl,
      fetch: retryingFetch(send, retry),
      headers: { ...headers, ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
    });
    this.api.use(idempotencyKeys(idempotencyKey ?? (() => globalThis.crypto.randomUUID())));
    Object.assign(this, buildResources(this.api));
  }
}
