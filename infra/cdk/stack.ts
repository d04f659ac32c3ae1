import { join } from 'node:path';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  DomainName,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
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
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AccountRecovery, Mfa, OAuthScope, UserPool, UserPoolClientIdentityProvider } from 'aws-cdk-lib/aws-cognito';
import { BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, EventSourceMapping, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { ARecord, AaaaRecord, HostedZone, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties, CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ROUTES, type Route } from '../../lib/api/routes.ts';
import { FUNCTIONS, type FunctionSpec } from '../functions.ts';
import { LAMBDA_NODE_OPTIONS, lambdaBundling, REPO_ROOT } from './bundling.ts';
import { DashboardSite } from './dashboard.ts';
import { addSuppressions } from './nag.ts';
import { DEFAULT_SETTINGS, resolverCertificateArn, validateSettings, type DeploySettings } from './settings.ts';
import { tableShape } from './table.ts';

/** A function table and a route table in the shape of infra/functions.ts and lib/api/routes.ts (tests pass their own). */
export type FunctionTable = Readonly<Record<string, FunctionSpec>>;
export type StackRoute = Pick<Route, 'method' | 'path' | 'auth'> & { function: string };

export interface PassportStackProps extends StackProps {
  /** Default: FUNCTIONS of infra/functions.ts. */
  functions?: FunctionTable;
  /** Default: ROUTES of lib/api/routes.ts. */
  routes?: readonly StackRoute[];
  /** Default: no custom domains, 30 days of logs, 500 req/s (burst 1000). */
  settings?: DeploySettings;
  /** Default: the local stack's CreateTable input (lib/data/table.ts). */
  tableInput?: CreateTableCommandInput;
  /** Serve the dashboard web app (infra/cdk/dashboard.ts). Default: off; infra/app.ts turns it on. */
  dashboard?: boolean;
}

/** The actions an SQS event source mapping needs on the queue it polls (on the function's role). */
export const CONSUMER_ACTIONS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'] as const;

/** Functions that always read the session key. */
const SESSION_FUNCTIONS = new Set(['auth']);

/** Headers the resolver reads: the viewer's country (CloudFront's) and content negotiation. */
export const RESOLVER_HEADERS = ['CloudFront-Viewer-Country', 'Accept', 'Accept-Language', 'Referer', 'User-Agent'] as const;

/** Access log fields. No source IP or user agent: the e-label rules forbid tracking consumers. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTimeEpoch',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * The whole service in one stack, environment-agnostic: the single table, the scan queue and its
 * DLQ, one function per FUNCTIONS entry with exactly its grants, the HTTP API with one route per
 * ROUTES entry, CloudFront in front of the public resolver, Cognito for dashboard sign-in, the
 * session key, alarms.
 */
export class PassportStack extends Stack {
  readonly table: Table;
  readonly scanQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly api: HttpApi;
  readonly distribution: Distribution;
  readonly userPool: UserPool;
  readonly sessionSecret: Secret;
  readonly functions: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: PassportStackProps = {}) {
    super(scope, id, props);
    const functions = props.functions ?? FUNCTIONS;
    const routes = props.routes ?? ROUTES;
    const settings = props.settings ?? DEFAULT_SETTINGS;
    validateSettings(settings);
    validateTables(functions, routes);

    // --- Data: the single table, from the key definition the local stack uses.
    const shape = tableShape(props.tableInput);
    this.table = new Table(this, 'Table', {
      partitionKey: shape.partitionKey,
      ...(shape.sortKey ? { sortKey: shape.sortKey } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      timeToLiveAttribute: shape.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of shape.globalSecondaryIndexes) this.table.addGlobalSecondaryIndex(index);
    const tableResources = [this.table.tableArn, ...shape.globalSecondaryIndexes.map((i) => `${this.table.tableArn}/index/${i.indexName}`)];

    // --- The scan queue: the resolver sends, the aggregator (event source mapping) consumes.
    const consumers = Object.values(functions).filter((spec) => spec.trigger?.queue === 'scan');
    this.deadLetterQueue = new Queue(this, 'ScanDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.scanQueue = new Queue(this, 'ScanQueue', {
      visibilityTimeout: Duration.seconds(scanVisibilityTimeoutSeconds(consumers)),
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });

    // --- The session cookie key: base64 text of 43 alphanumerics decodes to 32 bytes (256 bits).
    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'Encryption key of the dashboard session cookie (base64 of 32 bytes)',
      generateSecretString: { passwordLength: 43, excludePunctuation: true, includeSpace: false, requireEachIncludedType: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // --- HTTP API (its default stage comes below, once the routes exist).
    this.api = new HttpApi(this, 'Api', {
      description: 'Product Passport API and public GS1 Digital Link resolver',
      createDefaultStage: false,
    });
    const apiHost = `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const apiOrigin = settings.apiDomain ? `https://${settings.apiDomain}` : `https://${apiHost}`;

    // --- CloudFront in front of the resolver, so CloudFront-Viewer-Country reaches it.
    const resolverCertArn = settings.resolverDomain ? resolverCertificateArn(settings) : undefined;
    const resolverCertificate: ICertificate | undefined = resolverCertArn
      ? Certificate.fromCertificateArn(this, 'ResolverCertificate', resolverCertArn)
      : undefined;
    const originRequestPolicy = new OriginRequestPolicy(this, 'ResolverOriginRequestPolicy', {
      // CloudFront is global: the name must differ between regions deploying the same stack.
      originRequestPolicyName: Fn.join('-', [this.stackName, 'resolver', this.region]),
      comment: 'Product Passport resolver: viewer country and content negotiation headers',
      headerBehavior: OriginRequestHeaderBehavior.allowList(...RESOLVER_HEADERS),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    this.distribution = new Distribution(this, 'ResolverDistribution', {
      comment: 'Product Passport public resolver (GS1 Digital Link)',
      defaultBehavior: {
        origin: new HttpOrigin(apiHost, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        }),
        // Every GET is a counted scan, so nothing is served from the cache.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(settings.resolverWebAclArn ? { webAclId: settings.resolverWebAclArn } : {}),
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(resolverCertificate && settings.resolverDomain
        ? { domainNames: [settings.resolverDomain], certificate: resolverCertificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
    });
    const resolverOrigin = settings.resolverDomain
      ? `https://${settings.resolverDomain}`
      : `https://${this.distribution.distributionDomainName}`;

    // --- The dashboard: static files in S3, a /dashboard* behaviour of this distribution, served on
    // the API's origin (same session cookie and CSRF origin as the API).
    if (props.dashboard) new DashboardSite(this, 'Dashboard', { distribution: this.distribution, api: this.api });

    // --- Cognito: dashboard sign-in (authorization code + PKCE, public client).
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
    const callbackUrl = `${apiOrigin}/v1/auth/callback`;
    const client = this.userPool.addClient('Dashboard', {
      generateSecret: false,
      preventUserExistenceErrors: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [callbackUrl],
        logoutUrls: [`${apiOrigin}/`],
      },
    });
    const domainPrefix = settings.authDomainPrefix ?? Fn.join('-', ['product-passport', this.account]);
    const authDomain = this.userPool.addDomain('SignIn', { cognitoDomain: { domainPrefix } });

    // --- Functions: one per FUNCTIONS entry, each with exactly its grants.
    const environment: Record<string, string> = {
      TABLE_NAME: this.table.tableName,
      SCAN_QUEUE_URL: this.scanQueue.queueUrl,
      RESOLVER_ORIGIN: resolverOrigin,
      PUBLIC_API_ORIGIN: apiOrigin,
      OIDC_ISSUER: this.userPool.userPoolProviderUrl,
      OIDC_CLIENT_ID: client.userPoolClientId,
      OIDC_REDIRECT_URI: callbackUrl,
      POWERTOOLS_SERVICE_NAME: 'product-passport',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
      ...(settings.dashboardOrigins ? { DASHBOARD_ORIGINS: settings.dashboardOrigins } : {}),
    };
    for (const [name, spec] of Object.entries(functions)) {
      const id = pascal(name);
      const logGroup = new LogGroup(this, `${id}Logs`, { retention: settings.logRetention });
      const role = new Role(this, `${id}Role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Product Passport ${name} function: exactly the grants of infra/functions.ts`,
      });
      const readsSession = readsSessionSecret(name, spec);
      const fn = new NodejsFunction(this, `${id}Function`, {
        entry: join(REPO_ROOT, spec.entry),
        handler: 'handler',
        description: spec.description,
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: spec.memoryMb,
        timeout: Duration.seconds(spec.timeoutSeconds),
        role,
        logGroup,
        loggingFormat: LoggingFormat.JSON,
        projectRoot: REPO_ROOT,
        depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
        awsSdkConnectionReuse: false,
        bundling: lambdaBundling(spec.assets),
        environment: { ...environment, ...(readsSession ? { SESSION_SECRET_ARN: this.sessionSecret.secretArn } : {}) },
      });
      this.functions[name] = fn;

      // Least privilege, written out from the grants (grantReadWriteData would over-grant).
      logGroup.grantWrite(role);
      if (spec.grants.table.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'Table', effect: Effect.ALLOW, actions: [...spec.grants.table], resources: tableResources }),
        );
      }
      const queueActions = scanQueueActions(spec);
      if (queueActions.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'ScanQueue', effect: Effect.ALLOW, actions: queueActions, resources: [this.scanQueue.queueArn] }),
        );
      }
      if (readsSession) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'SessionSecret', effect: Effect.ALLOW, actions: ['secretsmanager:GetSecretValue'], resources: [this.sessionSecret.secretArn] }),
        );
      }
      if (spec.trigger) {
        const mapping = new EventSourceMapping(this, `${id}ScanQueueSource`, {
          target: fn,
          eventSourceArn: this.scanQueue.queueArn,
          batchSize: spec.trigger.batchSize,
          maxBatchingWindow: Duration.seconds(spec.trigger.maxBatchingWindowSeconds),
          reportBatchItemFailures: true,
        });
        // The mapping is validated against the role's permissions when it is created.
        mapping.node.addDependency(role);
      }
    }

    // --- Routes: one per ROUTES entry, integrated with the function the table names.
    const integrations = new Map<string, HttpLambdaIntegration>();
    const routeConstructs: { construct: HttpRoute; auth: StackRoute['auth'] }[] = [];
    for (const route of routes) {
      const fn = this.functions[route.function];
      if (!fn) throw new Error(`Route ${route.method} ${route.path} names unknown function ${route.function}.`);
      let integration = integrations.get(route.function);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${pascal(route.function)}Integration`, fn, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
          // One invoke permission per function for the whole API instead of one per route.
          scopePermissionToRoute: false,
        });
        integrations.set(route.function, integration);
      }
      const construct = new HttpRoute(this, `Route ${route.method} ${route.path}`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration,
      });
      routeConstructs.push({ construct, auth: route.auth });
    }

    const apiLogs = new LogGroup(this, 'ApiAccessLogs', { retention: settings.logRetention });
    const apiDomainName = settings.apiDomain && settings.certificateArn
      ? new DomainName(this, 'ApiDomain', {
          domainName: settings.apiDomain,
          certificate: Certificate.fromCertificateArn(this, 'ApiCertificate', settings.certificateArn),
        })
      : undefined;
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.apiRateLimit, burstLimit: settings.apiBurstLimit },
      accessLogSettings: { destination: new LogGroupLogDestination(apiLogs), format: ACCESS_LOG_FORMAT },
      ...(apiDomainName ? { domainMapping: { domainName: apiDomainName } } : {}),
    });

    // --- DNS for the custom domains, when a hosted zone is given (no lookups: ids from context).
    if (settings.hostedZoneId && settings.hostedZoneName) {
      const zone: IHostedZone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: settings.hostedZoneId,
        zoneName: settings.hostedZoneName,
      });
      if (apiDomainName && settings.apiDomain) {
        const target = RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(apiDomainName.regionalDomainName, apiDomainName.regionalHostedZoneId));
        new ARecord(this, 'ApiAlias', { zone, recordName: settings.apiDomain, target });
        new AaaaRecord(this, 'ApiAliasIpv6', { zone, recordName: settings.apiDomain, target });
      }
      if (settings.resolverDomain) {
        const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
        new ARecord(this, 'ResolverAlias', { zone, recordName: settings.resolverDomain, target });
        new AaaaRecord(this, 'ResolverAliasIpv6', { zone, recordName: settings.resolverDomain, target });
      }
    }

    // --- Alarms, to an SNS topic (optionally e-mailed).
    const alarmTopic = new Topic(this, 'AlarmTopic', { displayName: 'Product Passport alarms', enforceSSL: true });
    if (settings.alarmEmail) alarmTopic.addSubscription(new EmailSubscription(settings.alarmEmail));
    const notify: IAlarmAction = new SnsAction(alarmTopic);
    new Alarm(this, 'ScanDeadLetterAlarm', {
      alarmDescription: 'Scan events are in the dead-letter queue: the aggregator failed them 5 times.',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(notify);
    new Alarm(this, 'Api5xxRateAlarm', {
      alarmDescription: 'More than 1% of API requests answered 5xx over 5 minutes.',
      metric: new MathExpression({
        label: '5xx rate (%)',
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: this.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
          requests: this.api.metricCount({ period: Duration.minutes(5), statistic: 'Sum' }),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(notify);
    for (const [name, fn] of Object.entries(this.functions)) {
      new Alarm(this, `${pascal(name)}ThrottlesAlarm`, {
        alarmDescription: `The ${name} function was throttled.`,
        metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(notify);
    }

    // --- Outputs.
    new CfnOutput(this, 'ApiUrl', { value: apiOrigin });
    new CfnOutput(this, 'ResolverUrl', { value: resolverOrigin });
    if (props.dashboard) new CfnOutput(this, 'DashboardUrl', { value: `${apiOrigin}/dashboard` });
    new CfnOutput(this, 'ResolverDistributionDomain', { value: this.distribution.distributionDomainName });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'ScanQueueUrl', { value: this.scanQueue.queueUrl });
    new CfnOutput(this, 'ScanDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'OidcIssuer', { value: this.userPool.userPoolProviderUrl });
    new CfnOutput(this, 'OidcClientId', { value: client.userPoolClientId });
    new CfnOutput(this, 'SignInDomain', { value: authDomain.baseUrl() });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn });

    addSuppressions({
      sessionSecret: this.sessionSecret,
      distribution: this.distribution,
      userPool: this.userPool,
      functions: Object.values(this.functions),
      routes: routeConstructs,
      customResolverCertificate: Boolean(resolverCertificate),
      resolverWebAcl: Boolean(settings.resolverWebAclArn),
    });
  }
}

/** Whether a function gets `secretsmanager:GetSecretValue` on the session key. */
export function readsSessionSecret(name: string, spec: FunctionSpec): boolean {
  return SESSION_FUNCTIONS.has(name) || spec.grants.sessionSecret === true;
}

/**
 * The SQS actions a function's role gets on the scan queue: its grants, plus what the event
 * source mapping needs to poll the queue for it when it has a trigger.
 */
export function scanQueueActions(spec: FunctionSpec): string[] {
  return [...new Set([...(spec.grants.scanQueue ?? []), ...(spec.trigger ? CONSUMER_ACTIONS : [])])].sort();
}

/**
 * At least six times the consuming function's timeout (AWS's advice for SQS event sources), plus
 * its batching window; 30 s (SQS's default) when nothing consumes the queue yet.
 */
export function scanVisibilityTimeoutSeconds(consumers: readonly FunctionSpec[]): number {
  return Math.max(30, ...consumers.map((spec) => 6 * spec.timeoutSeconds + (spec.trigger?.maxBatchingWindowSeconds ?? 0)));
}

/** Mistakes in the route table that would only show up as a failed deployment or a 500. */
export function validateTables(functions: FunctionTable, routes: readonly StackRoute[]): void {
  for (const [name, spec] of Object.entries(functions)) {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`Function name ${name} must be lower-case letters, digits and hyphens.`);
    const trigger = spec.trigger;
    if (trigger) {
      if (!Number.isInteger(trigger.batchSize) || trigger.batchSize < 1 || trigger.batchSize > 10_000) {
        throw new Error(`Function ${name}: trigger.batchSize must be 1..10000.`);
      }
      if (trigger.maxBatchingWindowSeconds < 0 || trigger.maxBatchingWindowSeconds > 300) {
        throw new Error(`Function ${name}: trigger.maxBatchingWindowSeconds must be 0..300.`);
      }
      if (trigger.batchSize > 10 && trigger.maxBatchingWindowSeconds < 1) {
        throw new Error(`Function ${name}: an SQS batch over 10 messages needs maxBatchingWindowSeconds of at least 1.`);
      }
    }
    const served = routes.filter((route) => route.function === name);
    if (served.some((route) => route.auth === 'session') && !readsSessionSecret(name, spec)) {
      throw new Error(`Function ${name} serves session-authenticated routes, so it needs grants.sessionSecret: true.`);
    }
  }
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route ${key} appears twice.`);
    seen.add(key);
    if (!functions[route.function]) throw new Error(`Route ${key} names unknown function ${route.function}.`);
  }
}

const pascal = (name: string): string => name.split(/[^A-Za-z0-9]+/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
