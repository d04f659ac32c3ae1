import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as client from 'openid-client';
import { config, type AuthorityIssuer } from '../config.ts';
import type { InspectorLogin, InspectorPrincipal } from '../auth/inspector-session.ts';
import { db } from '../data/client.ts';
import { eventPut } from '../data/events.ts';
import { audiencesOf, tierOfReader, type Audience } from '../domain/battery/access-tiers.ts';
import { newEvent } from '../domain/events.ts';
import { INSPECT_SIGN_IN_PATH, inspectCallbackUrl } from '../domain/inspect.ts';
import type { Tenant } from '../domain/tenant.ts';
import { isLoopbackHost } from '../http/cookies.ts';
import { AuthenticationError, ServiceUnavailableError } from '../http/errors.ts';
import type { ReaderAccess } from './access-grants.ts';
import { readDppWith, type DppAnswer } from './dpps.ts';
import { codeGrantClaims } from './oidc.ts';

/**
 * Market surveillance from a scan (docs/access.md#market-surveillance-authorities): an inspector of
 * an authority signs in with the authority's own OpenID Connect provider, one of AUTHORITY_ISSUERS
 * (authorization code flow with PKCE, state and nonce, through openid-client, as the dashboard's
 * sign-in in lib/services/oidc.ts), and reads a passport as the `authority` audience reads it
 * (Regulation (EU) 2023/1542 Art. 77(2)(b): Annex XIII points 1 to 3, never point 4), through the
 * same find and filter as every read (lib/services/dpps.ts). Each read of restricted elements is a
 * `passport.accessed` event in the owner's log naming the issuer and the subject.
 */

/** How long a call to an authority's provider (discovery, token) may take, in seconds: the function answers within its 10 s. */
const PROVIDER_TIMEOUT_SECONDS = 4;

const configurations = new Map<string, Promise<client.Configuration>>();

/** A provider that does not answer (or answers no OpenID Connect provider's documents) is an outage, not the inspector's error: 503. */
const unreachable = (error: unknown): ServiceUnavailableError =>
  new ServiceUnavailableError(5, "The authority's identity provider did not answer; nothing was changed.", {
    suggestion: `Retry in a few seconds. (${error instanceof Error ? error.name : 'error'})`,
  });

/** The openid-client configuration of a trusted issuer, discovered once per instance (again after a failure). */
function configurationOf(issuer: AuthorityIssuer): Promise<client.Configuration> {
  const key = `${issuer.issuer}\n${issuer.clientId}`;
  let found = configurations.get(key);
  if (!found) {
    const url = new URL(issuer.issuer);
    found = client
      .discovery(url, issuer.clientId, { redirect_uris: [inspectCallbackUrl(config().publicApiOrigin)], response_types: ['code'] }, client.None(), {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        execute: [
          // Verify the ID token's signature against the issuer's JWKS, not only its claims.
          client.enableNonRepudiationChecks,
          // Plain HTTP only for a development provider on this machine.
          ...(url.protocol === 'http:' && isLoopbackHost(url.hostname) ? [client.allowInsecureRequests] : []),
        ],
      })
      .catch((error: unknown) => {
        configurations.delete(key);
        throw unreachable(error);
      });
    configurations.set(key, found);
  }
  return found;
}

/** The provider's authorization URL for a new sign-in to read `dppId`, and the sign-in to keep meanwhile. */
export async function beginInspectorLogin(issuer: AuthorityIssuer, dppId: string): Promise<{ url: URL; login: InspectorLogin }> {
  const configuration = await configurationOf(issuer);
  const login: InspectorLogin = { issuer: issuer.issuer, state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), dppId };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: inspectCallbackUrl(config().publicApiOrigin),
    // The subject is all the service keeps of the inspector: no e-mail, no name (docs/access.md#market-surveillance-authorities).
    scope: 'openid',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
    code_challenge_method: 'S256',
    state: login.state,
    nonce: login.nonce,
  });
  return { url, login };
}

/** 401 for a sign-in that did not finish: start again from the passport. */
export const signInAgainAsInspector = (message: string, dppId?: string, headers: Record<string, string> = {}): AuthenticationError =>
  new AuthenticationError(message, {
    suggestion: `Sign in${dppId ? ` at ${INSPECT_SIGN_IN_PATH}?dppId=${dppId}` : ' again from the passport’s page'}.`,
    headers: { 'WWW-Authenticate': 'Cookie realm="inspect"', ...headers },
  });

/**
 * Finishes a sign-in from the callback's query string: checks the state, exchanges the code with
 * the PKCE verifier and verifies the ID token (signature against the issuer's JWKS, issuer,
 * audience, expiry, nonce). Answers the subject; 401 when any of it fails.
 */
export async function completeInspectorLogin(issuer: AuthorityIssuer, rawQueryString: string, login: InspectorLogin): Promise<string> {
  const configuration = await configurationOf(issuer);
  const params = new URLSearchParams(rawQueryString);
  if (params.has('error')) throw signInAgainAsInspector("The authority's identity provider did not sign you in.", login.dppId);
  let claims: client.IDToken | undefined;
  try {
    claims = await codeGrantClaims(configuration, inspectCallbackUrl(config().publicApiOrigin), params, login);
  } catch (error) {
    // A provider that cannot be reached is an outage; protocol and token failures come back as undefined.
    throw unreachable(error);
  }
  if (!claims || claims.iss !== issuer.issuer || typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > 255) {
    throw signInAgainAsInspector('The sign-in response could not be verified.', login.dppId);
  }
  return claims.sub;
}

/** The audiences an inspector reads a live passport as: the authorities' (Art. 77(2)(b)). */
const AUTHORITY_READER: readonly Audience[] = ['public', 'authority'];

/**
 * How an inspector reads an owner's passport: a live one as `authority`, as the authority mark
 * reads (docs/access.md#authorities); a test one as the public does (test passports stay their owner's).
 */
const inspectorAccess = (owner: Tenant): ReaderAccess =>
  owner.environment === 'live' ? { reader: AUTHORITY_READER, write: false, via: 'authority' } : { reader: ['public'], write: false, via: 'none' };

/**
 * `GET /inspect/{dppId}`: the passport as the inspector may read it, the read logged in the owner's
 * log when it holds restricted elements (one `passport.accessed` per request), naming the
 * authority, the issuer and the subject; 404 for a DPP id that names no published passport.
 */
export async function readAsInspector(inspector: InspectorPrincipal, dppId: string, requestId: string): Promise<DppAnswer> {
  const { dpp, owner, productId, restricted } = await readDppWith(inspectorAccess, dppId);
  if (restricted.length > 0) {
    const reader = inspectorAccess(owner).reader;
    const object = {
      object: 'passport_access',
      dppId: dpp.digitalProductPassportId,
      productId,
      reader: {
        tier: tierOfReader(reader),
        audiences: audiencesOf(reader),
        via: 'inspector',
        authority: inspector.authority,
        issuer: inspector.issuer,
        subject: inspector.subject,
      },
      elements: restricted,
    };
    const origin = { actor: { type: 'inspector' as const, id: inspector.subject, name: inspector.authority }, requestId };
    await db().send(new TransactWriteCommand({ TransactItems: [eventPut(owner, newEvent('passport.accessed', object, origin))] }));
  }
  return dpp;
}
