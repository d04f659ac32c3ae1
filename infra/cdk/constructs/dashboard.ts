import { AssetHashType, DefaultStackSynthesizer, DockerImage, Duration, Stack, Validations } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUrlIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type Distribution,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildDashboardSync, DASHBOARD_SRC } from '../../../dashboard/build.ts';
import { DASHBOARD_CSP } from '../../local/dashboard.ts';

export interface DashboardSiteProps {
  /** The distribution that gets the `/dashboard*` behaviour (the resolver's). */
  distribution: Distribution;
  /** The HTTP API on whose origin browsers use the dashboard. */
  api: HttpApi;
}

/** Where the dashboard lives: the same path on the API's origin as on the local gateway. */
export const DASHBOARD_PREFIX = 'dashboard';

/**
 * The dashboard web app in AWS: its static files (built by esbuild during synthesis, no Docker) in
 * a private S3 bucket, served by CloudFront through origin access control with the dashboard's
 * security headers, and routed on the HTTP API at `/dashboard` and `/dashboard/{proxy+}` so that the
 * dashboard shares the API's origin: the session cookie (host-only, set by the sign-in callback on
 * the API's domain) and the CSRF origin check work as they do locally. API Gateway's HTTP proxy
 * sends the distribution's own Host header. It grants CloudFront (this distribution only, through
 * origin access control) read access to the bucket, and the deployment's function writes to it.
 */
export class DashboardSite extends Construct {
  readonly bucket: Bucket;
  readonly routes: HttpRoute[];

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket holds only the dashboard build (public static files, replaced on every deployment) and is read only by CloudFront; access logs would record nothing worth keeping.',
    });

    new BucketDeployment(this, 'Deploy', {
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${DASHBOARD_PREFIX}/`,
      sources: [
        Source.asset(DASHBOARD_SRC, {
          assetHashType: AssetHashType.OUTPUT,
          exclude: ['dist', 'node_modules'],
          bundling: {
            // Never used: the local esbuild builds it (as for the functions, no Docker).
            image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-alpine'),
            local: {
              tryBundle(outputDir: string): boolean {
                buildDashboardSync(outputDir);
                return true;
              },
            },
          },
        }),
      ],
      prune: true,
      memoryLimit: 256,
    });
    // The deployment's function is a singleton at the stack's root; cdk-nag reports its role's
    // findings one by one (granular ids), so each is acknowledged by name.
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string;
    const deploymentReasons: Record<string, string> = {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        'The CDK BucketDeployment custom resource runs with the AWSLambdaBasicExecutionRole managed policy (its own logs), and only during deployments.',
      'AwsSolutions-L1': 'The runtime of the CDK BucketDeployment custom resource is chosen by aws-cdk-lib; it runs only during deployments.',
      ...Object.fromEntries(
        [
          'Action::s3:GetObject*',
          'Action::s3:GetBucket*',
          'Action::s3:List*',
          'Action::s3:DeleteObject*',
          'Action::s3:Abort*',
          `Resource::arn:<AWS::Partition>:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>/*`,
          `Resource::<${bucketId}.Arn>/*`,
        ].map((finding) => [
          `AwsSolutions-IAM5[${finding}]`,
          'The CDK BucketDeployment custom resource copies the built dashboard from the CDK asset bucket into this bucket and prunes old files: its wildcards are object keys of those two buckets.',
        ]),
      ),
    };
    for (const handler of stack.node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      for (const [id, reason] of Object.entries(deploymentReasons)) Validations.of(handler).acknowledge({ id, reason });
    }

    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Product Passport dashboard: CSP and security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: true },
      },
    });
    // S3 (through origin access control) has no index documents: /dashboard and /dashboard/ are the app.
    const index = new CloudFrontFunction(this, 'Index', {
      comment: 'Serves /dashboard and /dashboard/ as /dashboard/index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        `function handler(event) { var r = event.request; if (r.uri === '/${DASHBOARD_PREFIX}' || r.uri === '/${DASHBOARD_PREFIX}/') r.uri = '/${DASHBOARD_PREFIX}/index.html'; return r; }`,
      ),
    });
    props.distribution.addBehavior(`/${DASHBOARD_PREFIX}*`, S3BucketOrigin.withOriginAccessControl(this.bucket), {
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      // A few small files, replaced on each deployment: never stale, no invalidation needed.
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: headers,
      compress: true,
      functionAssociations: [{ function: index, eventType: FunctionEventType.VIEWER_REQUEST }],
    });

    const site = `https://${props.distribution.distributionDomainName}/${DASHBOARD_PREFIX}`;
    this.routes = [
      new HttpRoute(this, 'IndexRoute', {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(`/${DASHBOARD_PREFIX}`, HttpMethod.GET),
        integration: new HttpUrlIntegration('IndexIntegration', `${site}/`, { method: HttpMethod.GET }),
      }),
      new HttpRoute(this, 'FilesRoute', {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(`/${DASHBOARD_PREFIX}/{proxy+}`, HttpMethod.GET),
        integration: new HttpUrlIntegration('FilesIntegration', `${site}/{proxy}`, { method: HttpMethod.GET }),
      }),
    ];
    for (const route of this.routes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: 'Public by design: the dashboard\'s static files (HTML, script, stylesheet); everything they show comes from API routes that authorize the session.',
      });
    }
  }
}
