import * as client from 'openid-client';
import { config } from '../config.ts';
import { isLoopbackHost } from '../http/cookies.ts';
import { signInAgain } from '../auth/session.ts';
import type { SignInIdentity } from './users.ts';

/**
 * The dashboard's OpenID Connect client: authorization code flow with PKCE, state and nonce,
 * through openid-client. The same code talks to Amazon Cognito in AWS and to the development
 * provider (oidc-provider) locally; only OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET differ.
 */
let discovered: Promise<client.Configuration> | undefined;

function oidcClient(): Promise<client.Configuration> {
  const { oidc } = config();
  if (!oidc.issuer || !oidc.clientId) {
    return Promise.reject(new Error('Sign-in is not configured: set OIDC_ISSUER and OIDC_CLIENT_ID.'));
  }
  const issuer = new URL(oidc.issuer);
  discovered ??= client
    .discovery(
      issuer,
      oidc.clientId,
      { redirect_uris: [oidc.redirectUri], response_types: ['code'] },
      oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None(),
      {
        execute: [
          // Verify the ID token's signature against the issuer's JWKS, not only its claims.
          client.enableNonRepudiationChecks,
          // Plain HTTP only for a development provider on this machine.
          ...(issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname) ? [client.allowInsecureRequests] : []),
        ],
      },
    )
    .catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
  return discovered;
}

/** What the callback needs to finish a sign-in; kept in an encrypted cookie meanwhile. */
export interface LoginTransaction {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/** The identity provider's authorization URL for a new sign-in, and the transaction to keep. */
export async function beginLogin(returnTo: string): Promise<{ url: URL; transaction: LoginTransaction }> {
  const configuration = await oidcClient();
  const transaction: LoginTransaction = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: config().oidc.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
    code_challenge_method: 'S256',
    state: transaction.state,
    nonce: transaction.nonce,
  });
  return { url, transaction };
}

/**
 * The authorization code of a provider's return exchanged for the ID token's claims (code flow with
 * PKCE, state and nonce checked by openid-client): undefined when the answer fails the protocol or
 * the token's checks, which is the caller's to answer; a provider that cannot be reached throws its
 * error. The dashboard's sign-in and an inspector's (lib/services/inspections.ts) both use it.
 */
export async function codeGrantClaims(
  configuration: client.Configuration,
  redirectUri: string,
  params: URLSearchParams,
  expected: { verifier: string; state: string; nonce: string },
): Promise<client.IDToken | undefined> {
  const callbackUrl = new URL(redirectUri);
  callbackUrl.search = params.toString();
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: expected.verifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    return tokens.claims();
  } catch (error) {
    if (error instanceof client.ClientError || error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) return undefined;
    throw error;
  }
}

/**
 * Finishes a sign-in from the callback's query string: checks state, exchanges the code with the
 * PKCE verifier, and verifies the ID token (signature against the issuer's JWKS, issuer,
 * audience, expiry, nonce). 401 when any of it fails.
 */
export async function completeLogin(rawQueryString: string, transaction: LoginTransaction): Promise<SignInIdentity> {
  const configuration = await oidcClient();
  const params = new URLSearchParams(rawQueryString);
  if (params.has('error')) throw signInAgain('The identity provider did not sign you in.');
  const claims = await codeGrantClaims(configuration, config().oidc.redirectUri, params, transaction);
  if (!claims) throw signInAgain('The sign-in response could not be verified.');
  return {
    issuer: claims.iss,
    subject: claims.sub,
    ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    ...(typeof claims.name === 'string' ? { name: claims.name } : {}),
  };
}
