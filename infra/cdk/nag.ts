import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { Auth } from '../../lib/api/routes.ts';

/**
 * Every cdk-nag (AwsSolutions) finding this stack accepts, each on the construct it concerns and
 * with the reason it is accepted. Anything not listed here stops `npm run synth` and fails
 * test/infra/stack.test.ts.
 */
export interface NagTargets {
  sessionSecret: IConstruct;
  distribution: IConstruct;
  userPool: IConstruct;
  functions: readonly IConstruct[];
  routes: readonly { construct: IConstruct; auth: Auth }[];
  /** Whether the distribution serves a custom domain with its own certificate (TLS policy settable). */
  customResolverCertificate: boolean;
  /** Whether a WAF web ACL is attached to the distribution. */
  resolverWebAcl: boolean;
}

/** The reason an API route has no API Gateway authorizer, per kind of authentication. */
export const ROUTE_AUTH_REASONS: Record<Auth, string> = {
  apiKey:
    'Authorized in the function: the shared lib/http pipeline checks the API key (stored only as a SHA-256 hash) and the route\'s scopes from lib/api/routes.ts; an API Gateway Lambda authorizer would add a second invocation per request.',
  session:
    'Authorized in the function: the encrypted session cookie (key in Secrets Manager) and a CSRF check for state changes are verified by the shared pipeline; an API Gateway authorizer cannot decrypt the cookie.',
  webhook:
    'Authorized in the function: the HMAC-SHA256 signature must be computed over the exact raw body, which only the function sees.',
  optional:
    'Authorized in the function when credentials are sent (as for apiKey); without them the caller reads only what is public anyway (the EN 18222 reads, docs/access.md).',
  none:
    'Public by design: the GS1 Digital Link resolver behind every printed QR code, and the start of the OIDC sign-in (login redirect and callback, protected by state and PKCE).',
};

export function addSuppressions(targets: NagTargets): void {
  Validations.of(targets.sessionSecret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The secret is the key of the dashboard session cookies; rotating it signs every user out, so operators rotate it on purpose (docs/deploy.md#cdk-nag-acknowledgements) rather than on a schedule.',
  });
  Validations.of(targets.distribution).acknowledge(
    {
      id: 'AwsSolutions-CFR1',
      reason: 'The resolver answers the QR codes printed on products sold in every country; no country may be blocked.',
    },
    {
      id: 'AwsSolutions-CFR3',
      reason:
        'CloudFront access logs record each viewer\'s IP address and user agent; the EU wine e-label rules forbid collecting or tracking consumer data, so scans are counted only as aggregates.',
    },
  );
  if (!targets.resolverWebAcl) {
    Validations.of(targets.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        'The resolver serves public, read-only pages, and the HTTP API stage throttles every request; a web ACL (context resolverWebAclArn) costs more than the resolver itself at low volume and can be attached when abuse appears.',
    });
  }
  if (!targets.customResolverCertificate) {
    Validations.of(targets.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'Without resolverDomain the distribution serves the default *.cloudfront.net certificate, whose TLS security policy cannot be set; with resolverDomain and its certificate the stack sets TLSv1.2_2021.',
    });
  }
  Validations.of(targets.userPool).acknowledge({
    id: 'AwsSolutions-COG8',
    reason:
      'The Plus feature plan (threat protection) is billed per monthly active user; dashboard users are few, are invited (no self sign-up) and must use TOTP MFA.',
  });
  for (const fn of targets.functions) {
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The design pins nodejs22.x (docs/decisions.md#node-22-everywhere): the tests, benchmarks and local stack run on Node 22, so the functions run on the runtime they were tested on.',
    });
  }
  for (const route of targets.routes) {
    Validations.of(route.construct).acknowledge({ id: 'AwsSolutions-APIG4', reason: ROUTE_AUTH_REASONS[route.auth] });
  }
}
