import * as z from 'zod';
import { dppSchema } from '../domain/access.ts';
import { INSPECTOR_RATE_LIMIT_PER_MINUTE, INSPECTOR_SESSION_TTL_SECONDS } from '../domain/inspect.ts';
import { inspectCallbackQuerySchema, inspectSignInQuerySchema, inspectViewQuerySchema } from '../domain/inspect-schemas.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of market surveillance from a scan (docs/access.md#market-surveillance-authorities). */
const page = (description: string) => ({ description, contentType: 'text/html', schema: z.string() });

export function inspectOperations(): Record<string, OperationDoc> {
  return {
    'GET /inspect/{dppId}': {
      summary: 'Read a passport as a market surveillance authority (inspector sign-in)',
      description: `The authenticated view the public battery page links to. An inspector of a market surveillance authority signed in with the authority's own identity provider (one of AUTHORITY_ISSUERS, GET /inspect/sign-in) reads the passport as the authority audience reads it (Regulation (EU) 2023/1542 Art. 77(2)(b): Annex XIII points 1 to 3, never point 4) as a page, or as JSON with format=json or Accept: application/json (the form of GET /v1/dpps/{dppId}). A test passport reads as the public does. Each read of restricted elements writes passport.accessed in the owner's log, naming the authority, the issuer and the subject. Without the inspector's cookie (it lasts ${INSPECTOR_SESSION_TTL_SECONDS / 60} minutes): 302 to the sign-in, or 401 for JSON. Takes no API key and no dashboard session. At most ${INSPECTOR_RATE_LIMIT_PER_MINUTE} requests a minute per inspector; before signing in, the client address's limit (ANON_RATE_LIMIT_PER_MINUTE). 404 for an id that names no published passport.`,
      tag: 'Access',
      query: inspectViewQuerySchema,
      responses: {
        200: { ...page('The passport as the inspector reads it'), alternatives: { 'application/json': dppSchema } },
        302: { description: 'Not signed in: to GET /inspect/sign-in' },
      },
      errors: [400, 401, 404, 422, 429],
    },
    'GET /inspect/sign-in': {
      summary: 'Sign in as an inspector of a market surveillance authority',
      description:
        "Starts the OpenID Connect authorization code flow (PKCE, state, nonce) with the authority's identity provider named by issuer, or the only trusted one, and redirects to it; with several trusted and none named, a page to choose. An issuer not on the trusted list is 403 naming issuer; so is any sign-in while none is trusted. dppId names the passport to read afterwards (422 for anything else than a DPP id).",
      tag: 'Access',
      query: inspectSignInQuerySchema,
      responses: {
        200: page('A choice of the trusted authorities’ identity providers'),
        302: { description: "To the authority's identity provider" },
      },
      errors: [400, 403, 422, 429],
    },
    'GET /inspect/callback': {
      summary: "The authority's identity provider returns here",
      description:
        "Completes an inspector's sign-in: the state, the code (exchanged with the PKCE verifier) and the ID token (signature, issuer, audience, expiry, nonce) are checked, then the inspector's cookie is set and the browser goes to the passport. Each parameter within its budget (422 naming it past it, docs/security.md#parser-budgets); an answer from an issuer not trusted here is 403 naming iss; no sign-in in progress, a provider's error or a response that does not verify is 401.",
      tag: 'Access',
      query: inspectCallbackQuerySchema,
      responses: { 303: { description: "Signed in: the inspector's cookie is set; to GET /inspect/{dppId}" } },
      errors: [400, 401, 403, 422, 429],
    },
  };
}
