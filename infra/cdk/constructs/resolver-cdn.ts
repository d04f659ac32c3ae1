import { CfnOutput, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  OriginSslPolicy,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AaaaRecord, ARecord, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { RESOLVER_ORIGIN_HEADER } from '../../../lib/config.ts';
import { resolverCertificateArn, type DeploySettings } from '../settings.ts';
import { StackPart } from './part.ts';

/**
 * The immutable version pages (lib/domain/page-urls.ts, `/{orgId}/{environment}/p/…`), the only
 * paths CloudFront caches. An organization id is `org_` and 16 characters and the environment is
 * named, so no Digital Link path (`…/01/{gtin}/…`, whose qualifier values could read `p`) matches.
 */
export const PAGE_PATH_PATTERNS = [
  '/org_????????????????/live/p/*',
  '/org_????????????????/test/p/*',
  // Signed passports (docs/credentials.md): the status lists (a minute) and the DID documents (five minutes), as their Cache-Control says.
  '/org_????????????????/live/status/*',
  '/org_????????????????/test/status/*',
  '/orgs/org_????????????????/did.json',
] as const;

/** Headers the resolver reads: the viewer's country (CloudFront's) and content negotiation. */
export const RESOLVER_HEADERS = ['CloudFront-Viewer-Country', 'Accept', 'Accept-Language', 'Referer', 'User-Agent'] as const;

export interface ResolverCdnProps {
  /** The HTTP API's own host (`<id>.execute-api.<region>.amazonaws.com`), CloudFront's origin. */
  apiHost: string;
  settings: DeploySettings;
  /** The hosted zone for the resolver domain's alias records, when the settings name one. */
  zone?: IHostedZone;
}

/**
 * CloudFront in front of the public resolver: every printed qrCodeUrl lands here, so that
 * CloudFront-Viewer-Country reaches the resolver (docs/architecture.md). The resolver paths are never
 * cached (each GET is a counted scan and answers the current version); the immutable version pages
 * it redirects to are (PAGE_PATH_PATTERNS). HTTPS only, with the optional web ACL and custom domain
 * of the settings.
 * CloudFront sends the resolver a generated secret in X-Origin-Verify, which the resolver function
 * gets as RESOLVER_ORIGIN_SECRET (`originSecret`), so that the resolver routes on the API's own
 * domain, which bypass this distribution, are refused (docs/deploy.md). Both are CloudFormation
 * dynamic references resolved at deployment: the value is in no template. It grants nothing: its
 * origin is the API's public endpoint.
 */
export class ResolverCdn extends StackPart {
  readonly distribution: Distribution;
  /** Origin of every qrCodeUrl: the custom resolver domain, or the distribution's own. */
  readonly origin: string;
  /** Whether the distribution serves a custom domain with its own certificate. */
  readonly customCertificate: boolean;
  /** The secret CloudFront sends to the resolver, and its value (a dynamic reference) for RESOLVER_ORIGIN_SECRET. */
  readonly originSecret: Secret;
  readonly originSecretValue: string;

  constructor(scope: Construct, id: string, props: ResolverCdnProps) {
    super(scope, id);
    const { settings } = props;
    const stack = Stack.of(this);
    const certificateArn = settings.resolverDomain ? resolverCertificateArn(settings) : undefined;
    const certificate = certificateArn ? Certificate.fromCertificateArn(this, 'ResolverCertificate', certificateArn) : undefined;
    this.customCertificate = Boolean(certificate);
    const originRequestPolicy = new OriginRequestPolicy(this, 'ResolverOriginRequestPolicy', {
      // CloudFront is global: the name must differ between regions deploying the same stack.
      originRequestPolicyName: Fn.join('-', [stack.stackName, 'resolver', stack.region]),
      comment: 'Product Passport resolver: viewer country and content negotiation headers',
      headerBehavior: OriginRequestHeaderBehavior.allowList(...RESOLVER_HEADERS),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    this.originSecret = new Secret(this, 'ResolverOriginSecret', {
      description: 'Sent by the resolver distribution to the resolver (X-Origin-Verify): requests without it did not come through CloudFront',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.originSecretValue = this.originSecret.secretValue.unsafeUnwrap();
    const origin = new HttpOrigin(props.apiHost, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      customHeaders: { [RESOLVER_ORIGIN_HEADER]: this.originSecretValue },
    });
    // The version pages: cached as long as the page says (a year, immutable; a minute for a 404),
    // keyed by the path alone (the URL names the version and language; a passed-on query string
    // makes no other copy), compressed. Nothing is forwarded beyond what the key holds.
    const pagesCachePolicy = new CachePolicy(this, 'ResolverPagesCachePolicy', {
      cachePolicyName: Fn.join('-', [stack.stackName, 'resolver-pages', stack.region]),
      comment: 'Product Passport version pages: the origin Cache-Control decides, path only in the key',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const pagesBehavior = {
      origin,
      cachePolicy: pagesCachePolicy,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      compress: true,
    };
    this.distribution = new Distribution(this, 'ResolverDistribution', {
      comment: 'Product Passport public resolver (GS1 Digital Link)',
      additionalBehaviors: Object.fromEntries(PAGE_PATH_PATTERNS.map((pattern) => [pattern, pagesBehavior])),
      defaultBehavior: {
        origin,
        // Every resolution is a counted scan and reads the current version: never served from the cache.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(settings.resolverWebAclArn ? { webAclId: settings.resolverWebAclArn } : {}),
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(certificate && settings.resolverDomain
        ? { domainNames: [settings.resolverDomain], certificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
    });
    this.origin = settings.resolverDomain ? `https://${settings.resolverDomain}` : `https://${this.distribution.distributionDomainName}`;

    if (props.zone && settings.resolverDomain) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'ResolverAlias', { zone: props.zone, recordName: settings.resolverDomain, target });
      new AaaaRecord(this, 'ResolverAliasIpv6', { zone: props.zone, recordName: settings.resolverDomain, target });
    }
    new CfnOutput(this, 'ResolverUrl', { value: this.origin });
    new CfnOutput(this, 'ResolverDistributionDomain', { value: this.distribution.distributionDomainName });
  }
}
