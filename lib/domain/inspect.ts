/**
 * Where an inspector of a market surveillance authority reads a passport
 * (docs/access.md#market-surveillance-authorities): `GET {apiOrigin}/inspect/{dppId}` on the API's
 * origin, signed in with the authority's own identity provider. The public battery page links
 * here. No imports: the resolver's pages use it, and its bundle carries no zod.
 */

/** The view's path prefix; the sign-in and its callback sit beside the DPP ids under it. */
export const INSPECT_PATH = '/inspect';
export const INSPECT_SIGN_IN_PATH = `${INSPECT_PATH}/sign-in`;
export const INSPECT_CALLBACK_PATH = `${INSPECT_PATH}/callback`;

/** The authenticated view of a passport (a product's, a batch's or an item's DPP id, lib/domain/dpp-id.ts). */
export const inspectUrl = (apiOrigin: string, dppId: string): string => `${apiOrigin.replace(/\/+$/, '')}${INSPECT_PATH}/${encodeURIComponent(dppId)}`;

/** Where the authorities' identity providers send the inspector back (registered there as the client's redirect URI). */
export const inspectCallbackUrl = (apiOrigin: string): string => `${apiOrigin.replace(/\/+$/, '')}${INSPECT_CALLBACK_PATH}`;

/**
 * The budgets of the callback's query (docs/security.md#parser-budgets), in characters: an
 * authorization code (some providers' codes run past a kilobyte), our state (43), the provider's
 * issuer (RFC 9207 `iss`), an error and its description. Past one: 422 naming it, before any call
 * to the provider.
 */
export const CALLBACK_BUDGETS = {
  code: 4096,
  state: 128,
  iss: 2048,
  session_state: 512,
  error: 256,
  error_description: 1024,
  error_uri: 2048,
} as const;

/** How long an inspector's sign-in may take at the provider, and how long the view's cookie lasts, in seconds. */
export const INSPECT_LOGIN_TTL_SECONDS = 600;
export const INSPECTOR_SESSION_TTL_SECONDS = 1800;

/** Requests a minute one inspector (issuer and subject) may make to the view. */
export const INSPECTOR_RATE_LIMIT_PER_MINUTE = 120;
