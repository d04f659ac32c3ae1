import * as z from 'zod';
import { DPP_ID_MAX_LENGTH } from './dpp-id.ts';
import { CALLBACK_BUDGETS } from './inspect.ts';

/**
 * The query strings of an inspector's view, sign-in and callback
 * (docs/access.md#market-surveillance-authorities), each value within its budget
 * (docs/security.md#parser-budgets): an unknown parameter is 400, a value past its budget 422
 * naming it.
 */

/** `GET /inspect/{dppId}`: `format=json` answers the JSON form (as `Accept: application/json` does). */
export const inspectViewQuerySchema = z.strictObject({
  format: z.enum(['html', 'json']).optional().describe('json: the JSON form of the view, as Accept: application/json asks for it; html (default): the page'),
});

/** A DPP id's form; the handler also checks it is one the service hands out (parseDppId), 422 otherwise. */
const dppIdParam = z
  .string()
  .max(DPP_ID_MAX_LENGTH)
  .regex(/^dpp_[A-Za-z0-9_-]+$/, { error: 'dppId must be a DPP id (dpp_…) as the service hands it out.' });

/** The message of a dppId that has the form but names nothing the service hands out. */
export const NOT_A_DPP_ID = 'dppId must be a DPP id (dpp_…) as the service hands it out.';


/** `GET /inspect/sign-in`: the passport to read once signed in, and the authority's issuer (one of the trusted ones). */
export const inspectSignInQuerySchema = z.strictObject({
  dppId: dppIdParam.describe('The DPP id of the passport to read once signed in'),
  issuer: z
    .string()
    .max(2048)
    .optional()
    .describe("The authority's OpenID Connect issuer: one of the trusted issuers (403 for another); may be left out when only one is trusted"),
});

const bounded = (name: keyof typeof CALLBACK_BUDGETS, description: string) => z.string().min(1).max(CALLBACK_BUDGETS[name]).optional().describe(description);

/** `GET /inspect/callback`: what the authority's identity provider sends back (OAuth 2.0, RFC 9207). */
export const inspectCallbackQuerySchema = z.strictObject({
  code: bounded('code', 'The authorization code'),
  state: bounded('state', 'The state of the sign-in this browser started'),
  iss: bounded('iss', 'The issuer of the answer (RFC 9207); one not trusted here is 403'),
  session_state: bounded('session_state', "The provider's session state (OpenID Connect Session Management), ignored"),
  error: bounded('error', 'The error the provider answered instead of a code'),
  error_description: bounded('error_description', "The provider's words on that error"),
  error_uri: bounded('error_uri', "The provider's page on that error"),
});

export const INSPECT_CALLBACK_PARAMS = Object.keys(inspectCallbackQuerySchema.shape);
