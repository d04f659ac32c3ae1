import { CfnOutput, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccountRecovery, Mfa, OAuthScope, UserPool, UserPoolClientIdentityProvider, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { StackPart } from './part.ts';

export interface SignInProps {
  /** Origin of the API as browsers reach it: the sign-in callback and logout land there. */
  apiOrigin: string;
  /** Prefix of the Cognito hosted sign-in domain; default `product-passport-<account>`. */
  authDomainPrefix?: string;
}

/**
 * Dashboard sign-in (docs/architecture.md): the Cognito user pool (invited users only, TOTP MFA,
 * retained), its public authorization-code + PKCE client with the API's callback, the hosted sign-in
 * domain, and the Secrets Manager secret that encrypts session cookies. It grants nothing itself:
 * the functions that read the session key get GetSecretValue on `sessionSecret` (infra/functions.ts).
 */
export class SignIn extends StackPart {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly sessionSecret: Secret;
  /** The callback registered with Cognito (OIDC_REDIRECT_URI of the functions). */
  readonly callbackUrl: string;

  constructor(scope: Construct, id: string, props: SignInProps) {
    super(scope, id);
    // The session cookie key: base64 text of 43 alphanumerics decodes to 32 bytes (256 bits).
    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'Encryption key of the dashboard session cookie (base64 of 32 bytes)',
      generateSecretString: { passwordLength: 43, excludePunctuation: true, includeSpace: false, requireEachIncludedType: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.callbackUrl = `${props.apiOrigin}/v1/auth/callback`;
    this.client = this.userPool.addClient('Dashboard', {
      generateSecret: false,
      preventUserExistenceErrors: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [this.callbackUrl],
        logoutUrls: [`${props.apiOrigin}/`],
      },
    });
    const domainPrefix = props.authDomainPrefix ?? Fn.join('-', ['product-passport', Stack.of(this).account]);
    const domain = this.userPool.addDomain('SignIn', { cognitoDomain: { domainPrefix } });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'OidcIssuer', { value: this.userPool.userPoolProviderUrl });
    new CfnOutput(this, 'OidcClientId', { value: this.client.userPoolClientId });
    new CfnOutput(this, 'SignInDomain', { value: domain.baseUrl() });
  }
}
