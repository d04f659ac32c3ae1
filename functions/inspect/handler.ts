import Negotiator from 'negotiator';
import { config } from '../../lib/config.ts';
import {
  authenticateInspector,
  clearInspectorCookie,
  clearInspectorLogin,
  hasInspectorCookie,
  inspectAddressRateLimit,
  inspectorLogin,
  inspectorRateLimit,
  keepInspectorLogin,
  startInspectorSession,
  trustedIssuer,
} from '../../lib/auth/inspector-session.ts';
import { defineApiHandler, publicOperation, type PublicRequest } from '../../lib/api/handler.ts';
import { parseDppId } from '../../lib/domain/dpp-id.ts';
import { INSPECT_PATH, INSPECT_SIGN_IN_PATH } from '../../lib/domain/inspect.ts';
import { INSPECT_CALLBACK_PARAMS, NOT_A_DPP_ID, inspectCallbackQuerySchema, inspectSignInQuerySchema, inspectViewQuerySchema } from '../../lib/domain/inspect-schemas.ts';
import { NotFoundError, PermissionError, ValidationError } from '../../lib/http/errors.ts';
import { json } from '../../lib/http/response.ts';
import type { HttpResult } from '../../lib/http/types.ts';
import { parseQuery } from '../../lib/http/validation.ts';
import { beginInspectorLogin, completeInspectorLogin, readAsInspector, signInAgainAsInspector } from '../../lib/services/inspections.ts';
import { PAGE_HEADERS, renderInspection, renderIssuerChoice } from './page.ts';

/**
 * Market surveillance from a scan (docs/access.md#market-surveillance-authorities): the public
 * battery page links to `GET /inspect/{dppId}`, where an inspector of a market surveillance
 * authority signs in with the authority's own identity provider (one of AUTHORITY_ISSUERS) and
 * reads the passport as the `authority` audience, as a page or as JSON. The routes take no API key
 * and no dashboard session (auth `none` in the route table): the inspector's own cookie is read
 * here, and it opens nothing under /v1.
 */

const addressOf = (request: PublicRequest): string => request.event.requestContext?.http?.sourceIp ?? 'unknown';

/** Whether the view answers its JSON form: `?format=json`, or an Accept preferring JSON to HTML. */
function wantsJson(request: PublicRequest, format: 'html' | 'json' | undefined): boolean {
  if (format) return format === 'json';
  const accept = request.event.headers?.accept;
  return accept ? new Negotiator({ headers: { accept } }).mediaType(['text/html', 'application/json']) === 'application/json' : false;
}

const redirect = (statusCode: 302 | 303, location: string, cookies: string[] = [], headers: Record<string, string> = {}): HttpResult => ({
  statusCode,
  headers: { Location: location, 'Cache-Control': 'no-store', ...headers },
  ...(cookies.length ? { cookies } : {}),
});

const signInPath = (dppId: string): string => `${INSPECT_SIGN_IN_PATH}?${new URLSearchParams({ dppId }).toString()}`;

/** `GET /inspect/{dppId}`: the passport as the signed-in inspector reads it; before signing in, to the sign-in (a page) or 401 (JSON). */
async function view(request: PublicRequest): Promise<HttpResult> {
  const { format } = parseQuery(inspectViewQuerySchema, request.event.queryStringParameters, ['format']);
  const asJson = wantsJson(request, format);
  const dppId = request.event.pathParameters?.dppId ?? '';
  if (!parseDppId(dppId)) throw new NotFoundError('No passport with this id (or none you may know of).', { param: 'dppId' });
  const inspector = await authenticateInspector(request.event);
  if (!inspector) {
    const limits = await inspectAddressRateLimit(addressOf(request));
    const cleared = hasInspectorCookie(request.event) ? [clearInspectorCookie()] : [];
    if (asJson) throw signInAgainAsInspector('Sign in as an inspector of a market surveillance authority first.', dppId, cleared[0] ? { 'Set-Cookie': cleared[0] } : {});
    return redirect(302, signInPath(dppId), cleared, limits);
  }
  const limits = await inspectorRateLimit(inspector);
  const dpp = await readAsInspector(inspector, dppId, request.requestId);
  const headers = { ...limits, 'Cache-Control': 'no-store', Vary: 'Accept, Cookie' };
  return asJson ? json(200, dpp, headers) : { statusCode: 200, headers: { ...PAGE_HEADERS, ...headers }, body: renderInspection(dpp, inspector) };
}

/** `GET /inspect/sign-in`: to the trusted authority's identity provider (the one named, or the only one), or a choice among several. */
async function signIn(request: PublicRequest): Promise<HttpResult> {
  const limits = await inspectAddressRateLimit(addressOf(request));
  const { dppId, issuer } = parseQuery(inspectSignInQuerySchema, request.event.queryStringParameters, ['dppId', 'issuer']);
  if (!parseDppId(dppId)) throw new ValidationError(NOT_A_DPP_ID, 'dppId');
  const trusted = config().authorityIssuers;
  const chosen = issuer === undefined ? (trusted.length === 1 ? trusted[0] : undefined) : trustedIssuer(issuer);
  if (issuer !== undefined && !chosen) {
    throw new PermissionError("This issuer is not one of the market surveillance authorities' identity providers trusted here.", {
      param: 'issuer',
      suggestion: 'Sign in with your authority’s identity provider as the sign-in page lists it; the operator lists the trusted ones (docs/access.md#market-surveillance-authorities).',
    });
  }
  if (trusted.length === 0) {
    throw new PermissionError('No market surveillance authority signs in here yet.', { suggestion: 'The operator lists the trusted identity providers in AUTHORITY_ISSUERS (docs/access.md#market-surveillance-authorities).' });
  }
  if (!chosen) return { statusCode: 200, headers: { ...PAGE_HEADERS, ...limits }, body: renderIssuerChoice(trusted, dppId) };
  const { url, login } = await beginInspectorLogin(chosen, dppId);
  return redirect(302, url.href, [await keepInspectorLogin(login)], limits);
}

/** `GET /inspect/callback`: the authority's provider sends the inspector back; a verified identity gets the view's cookie. */
async function callback(request: PublicRequest): Promise<HttpResult> {
  const limits = await inspectAddressRateLimit(addressOf(request));
  // Every value within its budget before anything is decrypted or sent to a provider (docs/security.md#parser-budgets).
  const query = parseQuery(inspectCallbackQuerySchema, request.event.queryStringParameters, INSPECT_CALLBACK_PARAMS);
  const refused = (param: string) =>
    new PermissionError("The identity comes from an issuer that is not one of the market surveillance authorities' identity providers trusted here.", {
      param,
      suggestion: 'Sign in with your authority’s identity provider as the sign-in page lists it (docs/access.md#market-surveillance-authorities).',
    });
  if (query.iss !== undefined && !trustedIssuer(query.iss)) throw refused('iss');
  const login = await inspectorLogin(request.event);
  if (!login) throw signInAgainAsInspector('No sign-in is in progress in this browser, or it took too long.');
  // The issuer this sign-in went to, taken off the trusted list meanwhile.
  const issuer = trustedIssuer(login.issuer);
  if (!issuer) throw refused('iss');
  // RFC 9207: an answer from another provider than the one this sign-in went to is a mix-up.
  if (query.iss !== undefined && query.iss !== login.issuer) throw signInAgainAsInspector('The answer comes from another identity provider than the sign-in went to.', login.dppId);
  const subject = await completeInspectorLogin(issuer, request.event.rawQueryString ?? '', login);
  return redirect(303, `${INSPECT_PATH}/${login.dppId}`, [await startInspectorSession(issuer, subject), clearInspectorLogin()], limits);
}

export const handler = defineApiHandler('inspect', {
  'GET /inspect/{dppId}': publicOperation(view),
  'GET /inspect/sign-in': publicOperation(signIn),
  'GET /inspect/callback': publicOperation(callback),
});
