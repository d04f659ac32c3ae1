import { CfnOutput, Duration, Fn, Stack } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  OriginProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, OriginGroup, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { CfnPermission, FunctionUrlAuthType, type FunctionUrl, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { AaaaRecord, ARecord, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { CONTENT_SECURITY_POLICY } from '../../../functions/resolver/page/elabel.ts';
import { resolverCertificateArn, type DeploySettings } from '../settings.ts';
import { StackPart } from './part.ts';

/**
 * The immutable version pages (lib/domain/page-urls.ts, `/{orgId}/{environment}/p/…`), the only
 * paths CloudFront caches. An organization id is `org_` and 16 characters and the environment is
 * named, so no Digital Link path (`…/01/{gtin}/…`, whose qualifier values could read `p`) matches.
 */
export const PAGE_PATH_PATTERNS = ['/org_????????????????/live/p/*', '/org_????????????????/test/p/*'] as const;

/**
 * The signed passports' public documents (docs/credentials.md): each version's credential (next to
 * its pages, so listed before them: CloudFront takes the first pattern that matches), the status
 * lists and the organizations' DID documents. They are served by the credentials function, which
 * signs with KMS on a credential's first request, through the HTTP API; CloudFront caches them as
 * their Cache-Control says (a year, a minute, five minutes). Rare next to scans, so the API
 * Gateway request they cost does not count against the scan path (docs/decisions.md).
 */
export const CREDENTIAL_PATH_PATTERNS = [
  '/org_????????????????/live/p/*/credential.jwt',
  '/org_????????????????/test/p/*/credential.jwt',
  '/org_????????????????/live/status/*',
  '/org_????????????????/test/status/*',
  '/orgs/org_????????????????/did.json',
] as const;

/**
 * The public backup copy (docs/backup.md#the-public-copy), served from its bucket alone under
 * `/backup/…` (every `backupUrl`): a viewer-request function drops the prefix, so the object key is
 * the rest of the path.
 */
export const BACKUP_PATH_PATTERN = '/backup/*';
export const BACKUP_PATH_PREFIX = '/backup';

/** The primary's answers on which CloudFront asks the backup bucket instead (docs/backup.md#failover). */
export const FAILOVER_STATUS_CODES = [500, 502, 503, 504] as const;

/**
 * The headers the viewer-request function sets on every resolver request (VIEWER_REQUEST_CODE),
 * overwriting whatever the viewer sent: the Host the viewer asked for (a function URL's own Host is
 * its lambda-url domain; docs/resolver.md) and the platform resolver's origin (the function cannot
 * be told it in its environment: docs/deploy.md#the-public-path).
 */
export const FORWARDED_HOST_HEADER = 'X-Forwarded-Host';
export const RESOLVER_ORIGIN_FORWARD_HEADER = 'X-Resolver-Origin';

/** Headers the resolver reads: the viewer's country (CloudFront's), content negotiation, and the two the viewer-request function sets. */
export const RESOLVER_HEADERS = [
  'CloudFront-Viewer-Country',
  'Accept',
  'Accept-Language',
  'Referer',
  'User-Agent',
  FORWARDED_HOST_HEADER,
  RESOLVER_ORIGIN_FORWARD_HEADER,
] as const;

/**
 * The headers forwarded to the resolver when the platform distribution has a custom resolver domain
 * and so no viewer-request function: RESOLVER_HEADERS without the two that function would set, which
 * a viewer could otherwise send itself (docs/security.md, finding 11). The function then takes the
 * platform origin from RESOLVER_ORIGIN, and its Host is the function URL's own (never a brand's).
 */
export const CUSTOM_DOMAIN_RESOLVER_HEADERS = RESOLVER_HEADERS.filter((h) => h !== FORWARDED_HOST_HEADER && h !== RESOLVER_ORIGIN_FORWARD_HEADER);

/**
 * The viewer-request CloudFront Function (JavaScript runtime 2.0) of the resolver behaviour: it
 * copies the viewer's Host into X-Forwarded-Host and names the platform origin in
 * X-Resolver-Origin, `platformOrigin` (a literal or a CloudFormation token), or, without one, the
 * distribution's own domain.
 */
export function viewerRequestCode(platformOrigin?: string): string {
  const origin = platformOrigin === undefined ? "'https://' + event.context.distributionDomainName" : `'${platformOrigin}'`;
  return [
    'function handler(event) {',
    '  var request = event.request;',
    "  var host = request.headers.host ? request.headers.host.value : '';",
    `  request.headers['${FORWARDED_HOST_HEADER.toLowerCase()}'] = { value: host };`,
    `  request.headers['${RESOLVER_ORIGIN_FORWARD_HEADER.toLowerCase()}'] = { value: ${origin} };`,
    '  return request;',
    '}',
  ].join('\n');
}

export interface ResolverCdnProps {
  /** The resolver function: CloudFront reaches it through its function URL (AWS_IAM, origin access control). */
  resolver: IFunction;
  settings: DeploySettings;
  /** The hosted zone for the resolver domain's alias records, when the settings name one. */
  zone?: IHostedZone;
  /** The HTTP API's domain (`{id}.execute-api.{region}.amazonaws.com`): the origin of CREDENTIAL_PATH_PATTERNS. */
  apiDomain: string;
  /** The public backup copy: the failover origin of the version pages and credentials, and the origin of BACKUP_PATH_PATTERN. */
  backupPublicBucket?: IBucket;
}

/**
 * CloudFront in front of the public resolver: every printed qrCodeUrl lands here, so that
 * CloudFront-Viewer-Country reaches the resolver (docs/architecture.md). Its origin is the
 * resolver's Lambda function URL with auth type AWS_IAM, which CloudFront signs through origin
 * access control: no API Gateway on the public path, and nothing but this distribution (and the
 * brand distribution of the settings, when given) may invoke the URL (docs/deploy.md#the-public-path).
 * The resolver paths are never cached (each GET is a counted scan and answers the current
 * version); the immutable version pages it redirects to are (PAGE_PATH_PATTERNS), compressed
 * (gzip, Brotli). HTTPS only, with the optional web ACL and custom domain of the settings.
 */
export class ResolverCdn extends StackPart {
  readonly distribution: Distribution;
  /** Origin of every qrCodeUrl: the custom resolver domain, or the distribution's own. */
  readonly origin: string;
  /** Whether the distribution serves a custom domain with its own certificate. */
  readonly customCertificate: boolean;
  /** The resolver's function URL (AWS_IAM), CloudFront's origin. */
  readonly functionUrl: FunctionUrl;
  /** The viewer-request function of the resolver behaviour (without a custom resolver domain only). */
  readonly viewerRequest: CloudFrontFunction | undefined;

  constructor(scope: Construct, id: string, props: ResolverCdnProps) {
    super(scope, id);
    const { settings } = props;
    const stack = Stack.of(this);
    const certificateArn = settings.resolverDomain ? resolverCertificateArn(settings) : undefined;
    const certificate = certificateArn ? Certificate.fromCertificateArn(this, 'ResolverCertificate', certificateArn) : undefined;
    this.customCertificate = Boolean(certificate);
    const platformOrigin = settings.resolverDomain ? `https://${settings.resolverDomain}` : undefined;
    const originRequestPolicy = new OriginRequestPolicy(this, 'ResolverOriginRequestPolicy', {
      // CloudFront is global: the name must differ between regions deploying the same stack.
      originRequestPolicyName: Fn.join('-', [stack.stackName, 'resolver', stack.region]),
      comment: 'Product Passport resolver: viewer country, content negotiation, viewer host and platform origin',
      // Never Host: a function URL answers only to its own (CloudFront sends the origin's domain).
      // With a custom resolver domain no viewer-request function overwrites X-Forwarded-Host and
      // X-Resolver-Origin, so they are not forwarded at all: the viewer's own would reach the function.
      headerBehavior: OriginRequestHeaderBehavior.allowList(...(platformOrigin ? CUSTOM_DOMAIN_RESOLVER_HEADERS : RESOLVER_HEADERS)),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    this.functionUrl = props.resolver.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });
    // Origin access control signs every origin request (SigV4); the construct grants this
    // distribution lambda:InvokeFunctionUrl and lambda:InvokeFunction (via the URL) on the resolver.
    const origin = FunctionUrlOrigin.withOriginAccessControl(this.functionUrl, { readTimeout: Duration.seconds(10) });
    // Only without a custom resolver domain: the function cannot then be told the platform origin
    // (the distribution's own domain) in its environment. With one, RESOLVER_ORIGIN names it, and a
    // scan spares the function's invocation (docs/benchmarks.md#cost).
    this.viewerRequest = platformOrigin
      ? undefined
      : new CloudFrontFunction(this, 'ResolverViewerRequest', {
          comment: 'Product Passport resolver: X-Forwarded-Host and X-Resolver-Origin for the function URL',
          runtime: FunctionRuntime.JS_2_0,
          code: FunctionCode.fromInline(viewerRequestCode()),
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
    // The public backup copy (docs/backup.md#failover): a version page, JSON or credential the
    // primary cannot answer (5xx) is read from it under the same path; `/backup/…` reads it alone.
    const backupOrigin = props.backupPublicBucket ? S3BucketOrigin.withOriginAccessControl(props.backupPublicBucket) : undefined;
    const withFailover = (primary: typeof origin) =>
      backupOrigin ? new OriginGroup({ primaryOrigin: primary, fallbackOrigin: backupOrigin, fallbackStatusCodes: [...FAILOVER_STATUS_CODES] }) : primary;
    // What S3 cannot store with an object: the page's security headers and CORS, added where the origin sent none.
    const pageHeadersPolicy = new ResponseHeadersPolicy(this, 'ResolverPageHeaders', {
      responseHeadersPolicyName: Fn.join('-', [stack.stackName, 'resolver-pages', stack.region]),
      comment: 'Product Passport version pages: the headers the resolver sends, also on an answer from the backup copy',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: false },
        contentTypeOptions: { override: false },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
      },
      customHeadersBehavior: { customHeaders: [{ header: 'Access-Control-Allow-Origin', value: '*', override: false }] },
    });
    const pagesBehavior = {
      origin: withFailover(origin),
      responseHeadersPolicy: pageHeadersPolicy,
      cachePolicy: pagesCachePolicy,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      compress: true,
    };
    // The credential documents through the HTTP API (HTTPS only; it answers to its own Host, which
    // CloudFront sends when no Host is forwarded), cached like the pages as their Cache-Control says.
    const credentialsBehavior = { ...pagesBehavior, origin: withFailover(new HttpOrigin(props.apiDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY })) };
    // `/backup/{key}`: the public copy alone, the prefix dropped by a viewer-request function.
    const backupBehavior = backupOrigin && {
      ...pagesBehavior,
      origin: backupOrigin,
      functionAssociations: [
        {
          eventType: FunctionEventType.VIEWER_REQUEST,
          function: new CloudFrontFunction(this, 'BackupPathFunction', {
            comment: 'Product Passport backup copy: /backup/{key} reads {key} of the public backup bucket',
            runtime: FunctionRuntime.JS_2_0,
            code: FunctionCode.fromInline(
              ['function handler(event) {', '  var request = event.request;', `  request.uri = request.uri.substring(${BACKUP_PATH_PREFIX.length});`, '  return request;', '}'].join('\n'),
            ),
          }),
        },
      ],
    };
    this.distribution = new Distribution(this, 'ResolverDistribution', {
      comment: 'Product Passport public resolver (GS1 Digital Link)',
      additionalBehaviors: Object.fromEntries([
        ...CREDENTIAL_PATH_PATTERNS.map((pattern) => [pattern, credentialsBehavior] as const),
        ...PAGE_PATH_PATTERNS.map((pattern) => [pattern, pagesBehavior] as const),
        ...(backupBehavior ? [[BACKUP_PATH_PATTERN, backupBehavior] as const] : []),
      ]),
      defaultBehavior: {
        origin,
        // Every resolution is a counted scan and reads the current version: never served from the cache
        // (and so never compressed: CloudFront compresses only what a cache policy with gzip/Brotli admits).
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        ...(this.viewerRequest ? { functionAssociations: [{ function: this.viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }] } : {}),
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(settings.resolverWebAclArn ? { webAclId: settings.resolverWebAclArn } : {}),
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(certificate && settings.resolverDomain
        ? { domainNames: [settings.resolverDomain], certificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
    });
    this.origin = platformOrigin ?? `https://${this.distribution.distributionDomainName}`;

    // The brand domains' multi-tenant distribution (docs/brand-domains.md) reaches the same function
    // URL through its own origin access control: it may invoke it too.
    if (settings.brandDistributionId) {
      const sourceArn = `arn:${stack.partition}:cloudfront::${stack.account}:distribution/${settings.brandDistributionId}`;
      new CfnPermission(this, 'BrandDistributionInvokeUrl', {
        principal: 'cloudfront.amazonaws.com',
        action: 'lambda:InvokeFunctionUrl',
        functionName: props.resolver.functionArn,
        sourceArn,
        functionUrlAuthType: FunctionUrlAuthType.AWS_IAM,
      });
      new CfnPermission(this, 'BrandDistributionInvoke', {
        principal: 'cloudfront.amazonaws.com',
        action: 'lambda:InvokeFunction',
        functionName: props.resolver.functionArn,
        sourceArn,
        invokedViaFunctionUrl: true,
      });
      // The brand distribution's viewer-request function: the brand's Host, and this platform's origin.
      const brandViewerRequest = new CloudFrontFunction(this, 'BrandViewerRequest', {
        comment: 'Product Passport brand domains: X-Forwarded-Host and X-Resolver-Origin for the resolver function URL',
        runtime: FunctionRuntime.JS_2_0,
        code: FunctionCode.fromInline(viewerRequestCode(this.origin)),
      });
      new CfnOutput(this, 'BrandViewerRequestFunctionArn', { value: brandViewerRequest.functionArn });
    }

    if (props.zone && settings.resolverDomain) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'ResolverAlias', { zone: props.zone, recordName: settings.resolverDomain, target });
      new AaaaRecord(this, 'ResolverAliasIpv6', { zone: props.zone, recordName: settings.resolverDomain, target });
    }
    new CfnOutput(this, 'ResolverUrl', { value: this.origin });
    new CfnOutput(this, 'ResolverDistributionDomain', { value: this.distribution.distributionDomainName });
    new CfnOutput(this, 'ResolverFunctionUrl', { value: this.functionUrl.url });
  }
}
