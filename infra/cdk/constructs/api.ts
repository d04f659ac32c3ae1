import { join } from 'node:path';
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
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
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { KMS_ENCRYPTION_CONTEXT } from '../../../lib/data/secret-box.ts';
import { SIGNING_KEY_TAGS } from '../../../lib/data/signers.ts';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { AaaaRecord, ARecord, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { lambdaBundling, nodeOptionsOf, REPO_ROOT } from '../bundling.ts';
import { apiGatewayRoutes, DEFAULT_LOG_LEVEL, deliveryQueueActions, importQueueActions, pascal, readsSessionSecret, registryOutboxQueueActions, scanQueueActions, STREAM_CONSUMER_ACTIONS, type FunctionTable, type StackRoute } from '../function-table.ts';
import type { EventDeliveryPipeline } from './event-delivery-pipeline.ts';
import type { ImportPipeline } from './import-pipeline.ts';
import type { RegistryOutboxPipeline } from './registry-outbox-pipeline.ts';
import type { DeploySettings } from '../settings.ts';
import { StackPart } from './part.ts';
import type { ScanPipeline } from './scan-pipeline.ts';

/**
 * Access log fields: a line per API call, the only record of a call that the function logs do not
 * hold (stage throttling, an integration failure) and what support looks up by Request-Id. Kept
 * short: at ~0.6 $ per GB ingested, each byte of a line costs ~0.6 $ per billion calls
 * (docs/configuration.md#logs). No source IP or user agent: the e-label rules forbid tracking consumers.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTimeEpoch',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latency: '$context.responseLatency',
  error: '$context.integrationErrorMessage',
} as const;
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));

/** The environment without the variables a function's own environment removed (undefined). */
const definedOnly = (environment: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined));

export interface ApiProps {
  settings: DeploySettings;
  /** The hosted zone for the API domain's alias records, when the settings name one. */
  zone?: IHostedZone;
}

export interface ApiFunctionsProps {
  functions: FunctionTable;
  routes: readonly StackRoute[];
  /** The environment every function gets (table, queue, origins, identity provider). */
  environment: Record<string, string>;
  /** Extra environment of single functions, by name; an undefined value removes the variable for that function. */
  environmentOf?: Readonly<Record<string, Record<string, string | undefined>>>;
  /** The table's and its indexes' ARNs. */
  tableResources: string[];
  scanPipeline: ScanPipeline;
  /** The bulk import queue (constructs/import-pipeline.ts). */
  importPipeline: ImportPipeline;
  /** The event delivery queue and the fan-out's stream mapping (constructs/event-delivery-pipeline.ts). */
  eventDeliveryPipeline: EventDeliveryPipeline;
  /** The registry outbox queue and its feed's stream mapping (constructs/registry-outbox-pipeline.ts). */
  registryOutboxPipeline?: RegistryOutboxPipeline;
  /** The table's stream, for the functions a `tableStream` trigger invokes. */
  tableStreamArn?: string;
  sessionSecret: ISecret;
  /** The EU registries' client secrets (Secrets Manager ARNs), for the functions with `grants.registry` (docs/registry.md#the-outbox). */
  registrySecretArns?: readonly string[];
  /** The key sealing webhook secrets (constructs/secrets-key.ts), for the functions with `grants.secretsKey`. */
  secretsKey?: IKey;
  /** The multi-tenant distribution serving brand domains, for the functions with `grants.cloudfrontTenants` (none without it). */
  brandDistributionId?: string;
}

/**
 * The HTTP API and its functions (docs/architecture.md): one Node 22 ARM64 function per
 * infra/functions.ts entry with its own log group and role, one route per lib/api/routes.ts entry,
 * the throttled `$default` stage with access logs without IP addresses, and the optional custom
 * domain. It grants each function's role exactly the grants of infra/functions.ts (table actions
 * on the table and its indexes, SQS actions on the scan queue, GetSecretValue on the session key,
 * KMS actions on the secrets key, writes to its log group), and API Gateway the right to invoke each HTTP function.
 */
export class Api extends StackPart {
  readonly api: HttpApi;
  /** The API's own host (`<id>.execute-api.<region>.amazonaws.com`). */
  readonly host: string;
  /** Origin of the API as browsers reach it: the custom domain, or the execute-api host. */
  readonly origin: string;
  readonly functions: Record<string, NodejsFunction> = {};
  readonly routes: { construct: HttpRoute; auth: StackRoute['auth'] }[] = [];
  private readonly settings: DeploySettings;
  private readonly zone: IHostedZone | undefined;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.settings = props.settings;
    this.zone = props.zone;
    // Its default stage comes with the routes (addFunctions).
    this.api = new HttpApi(this, 'Api', {
      description: 'Product Passport API and public GS1 Digital Link resolver',
      createDefaultStage: false,
    });
    const stack = Stack.of(this);
    this.host = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.origin = props.settings.apiDomain ? `https://${props.settings.apiDomain}` : `https://${this.host}`;
  }

  /** The functions with exactly their grants, the routes to them, and the stage that serves them. */
  addFunctions(props: ApiFunctionsProps): void {
    const { settings } = this;
    for (const [name, spec] of Object.entries(props.functions)) {
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
        // Reserved concurrency where the deployment sets one (docs/deploy.md#context-values: accessReservedConcurrency).
        ...(settings.reservedConcurrency?.[name] === undefined ? {} : { reservedConcurrentExecutions: settings.reservedConcurrency[name] }),
        role,
        logGroup,
        // Advanced logging controls (docs/configuration.md#logs): JSON lines; no START/END/REPORT
        // platform lines per invocation (system level WARN); application lines below the function's level dropped.
        loggingFormat: LoggingFormat.JSON,
        systemLogLevelV2: SystemLogLevel.WARN,
        applicationLogLevelV2: ApplicationLogLevel[spec.logLevel ?? DEFAULT_LOG_LEVEL],
        projectRoot: REPO_ROOT,
        depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
        awsSdkConnectionReuse: false,
        bundling: lambdaBundling(spec.assets),
        environment: definedOnly({
          ...props.environment,
          NODE_OPTIONS: nodeOptionsOf(spec),
          ...(readsSession ? { SESSION_SECRET_ARN: props.sessionSecret.secretArn } : {}),
          ...(spec.grants.secretsKey?.length && props.secretsKey ? { SECRETS_KMS_KEY_ID: props.secretsKey.keyArn } : {}),
          ...props.environmentOf?.[name],
        }),
      });
      this.functions[name] = fn;

      // Least privilege, written out from the grants (grantReadWriteData would over-grant).
      logGroup.grantWrite(role);
      if (spec.grants.table.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'Table', effect: Effect.ALLOW, actions: [...spec.grants.table], resources: props.tableResources }),
        );
      }
      const queueActions = scanQueueActions(spec);
      if (queueActions.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'ScanQueue', effect: Effect.ALLOW, actions: queueActions, resources: [props.scanPipeline.queue.queueArn] }),
        );
      }
      const importActions = importQueueActions(spec);
      if (importActions.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'ImportQueue', effect: Effect.ALLOW, actions: importActions, resources: [props.importPipeline.queue.queueArn] }),
        );
      }
      const deliveryActions = deliveryQueueActions(spec);
      if (deliveryActions.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'EventDeliveryQueue', effect: Effect.ALLOW, actions: deliveryActions, resources: [props.eventDeliveryPipeline.queue.queueArn] }),
        );
      }
      const outboxActions = registryOutboxQueueActions(spec);
      if (outboxActions.length) {
        if (!props.registryOutboxPipeline) throw new Error(`Function ${name} uses the registry outbox queue, but the stack gave none.`);
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'RegistryOutboxQueue', effect: Effect.ALLOW, actions: outboxActions, resources: [props.registryOutboxPipeline.queue.queueArn] }),
        );
      }
      if (spec.trigger?.kind === 'tableStream') {
        if (!props.tableStreamArn) throw new Error(`Function ${name} is triggered by the table stream, but the table has none.`);
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'TableStream', effect: Effect.ALLOW, actions: [...STREAM_CONSUMER_ACTIONS], resources: [props.tableStreamArn] }),
        );
      }
      if (spec.grants.registry && props.registrySecretArns?.length) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'RegistryClientSecret', effect: Effect.ALLOW, actions: ['secretsmanager:GetSecretValue'], resources: [...props.registrySecretArns] }),
        );
      }
      if (readsSession) {
        role.addToPrincipalPolicy(
          new PolicyStatement({ sid: 'SessionSecret', effect: Effect.ALLOW, actions: ['secretsmanager:GetSecretValue'], resources: [props.sessionSecret.secretArn] }),
        );
      }
      if (spec.grants.secretsKey?.length) {
        if (!props.secretsKey) throw new Error(`Function ${name} has grants.secretsKey, but the stack gave no secrets key.`);
        // Only for the secret box's own data keys: the encryption context lib/data/secret-box.ts binds to every call.
        const context = Object.fromEntries(Object.entries(KMS_ENCRYPTION_CONTEXT).map(([k, v]) => [`kms:EncryptionContext:${k}`, v]));
        role.addToPrincipalPolicy(
          new PolicyStatement({
            sid: 'SecretsKey',
            effect: Effect.ALLOW,
            actions: [...spec.grants.secretsKey],
            resources: [props.secretsKey.keyArn],
            conditions: { StringEquals: context },
          }),
        );
      }
      if (spec.grants.cloudfrontTenants?.length && props.brandDistributionId) {
        // The multi-tenant distribution and the tenants made of it (their ids are CloudFront's, not known here).
        const stack = Stack.of(this);
        const arn = (resource: string) => `arn:${stack.partition}:cloudfront::${stack.account}:${resource}`;
        role.addToPrincipalPolicy(
          new PolicyStatement({
            sid: 'BrandDistributionTenants',
            effect: Effect.ALLOW,
            actions: [...spec.grants.cloudfrontTenants],
            resources: [arn(`distribution/${props.brandDistributionId}`), arn('distribution-tenant/*')],
          }),
        );
        Validations.of(role).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution-tenant/*]',
          reason:
            'A distribution tenant\'s ARN holds the id CloudFront gives it when it is created, so the grant to create (and tag) tenants names distribution-tenant/* of this account, beside the one multi-tenant distribution they belong to (docs/brand-domains.md).',
        });
      }
      if (spec.grants.signingKeys?.length) signingKeyGrants(role, spec.grants.signingKeys);
      if (spec.trigger?.queue === 'scan') props.scanPipeline.addConsumer(id, fn, role, spec.trigger);
      if (spec.trigger?.queue === 'import') props.importPipeline.addConsumer(id, fn, role, spec.trigger);
      if (spec.trigger?.queue === 'delivery') props.eventDeliveryPipeline.addConsumer(id, fn, role, spec.trigger);
      if (spec.trigger?.queue === 'registryOutbox') props.registryOutboxPipeline?.addConsumer(id, fn, role, spec.trigger);
      if (spec.trigger?.kind === 'tableStream' && props.tableStreamArn) {
        if (spec.trigger.changedWithStatus) props.registryOutboxPipeline?.addStreamConsumer(id, fn, role, props.tableStreamArn, spec.trigger);
        else props.eventDeliveryPipeline.addStreamConsumer(id, fn, role, props.tableStreamArn, spec.trigger);
      }
    }

    // One route per ROUTES entry API Gateway serves (not those of the function-URL functions:
    // constructs/resolver-cdn.ts), integrated with the function the table names.
    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const route of apiGatewayRoutes(props.functions, props.routes)) {
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
      this.routes.push({ construct, auth: route.auth });
    }

    const apiLogs = new LogGroup(this, 'ApiAccessLogs', { retention: settings.logRetention });
    // In the stack's own scope: the stage's API mapping is named after the domain's path, and a
    // renamed mapping would be created beside the old one for the same domain, which fails.
    const stack = Stack.of(this);
    const domainName =
      settings.apiDomain && settings.certificateArn
        ? new DomainName(stack, 'ApiDomain', {
            domainName: settings.apiDomain,
            certificate: Certificate.fromCertificateArn(stack, 'ApiCertificate', settings.certificateArn),
          })
        : undefined;
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.apiRateLimit, burstLimit: settings.apiBurstLimit },
      accessLogSettings: { destination: new LogGroupLogDestination(apiLogs), format: ACCESS_LOG_FORMAT },
      ...(domainName ? { domainMapping: { domainName } } : {}),
    });
    if (this.zone && domainName && settings.apiDomain) {
      const target = RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId));
      new ARecord(this, 'ApiAlias', { zone: this.zone, recordName: settings.apiDomain, target });
      new AaaaRecord(this, 'ApiAliasIpv6', { zone: this.zone, recordName: settings.apiDomain, target });
    }
    new CfnOutput(this, 'ApiUrl', { value: this.origin });
  }
}

/**
 * The organizations' credential signing keys (docs/credentials.md#keys), created at run time on
 * first use, so no key ARN is known here: CreateKey only of an ECC_NIST_P256 SIGN_VERIFY key
 * carrying this service's tags (TagResource to set them, on the same condition), and Sign and
 * GetPublicKey only on keys carrying them.
 */
function signingKeyGrants(role: Role, actions: readonly string[]): void {
  const tagged = (prefix: string) => Object.fromEntries(Object.entries(SIGNING_KEY_TAGS).map(([key, value]) => [`${prefix}/${key}`, value]));
  const create = actions.filter((a) => a === 'kms:CreateKey' || a === 'kms:TagResource');
  const use = actions.filter((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey');
  if (create.length) {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'SigningKeysCreate',
        effect: Effect.ALLOW,
        actions: create,
        resources: ['*'],
        conditions: {
          StringEquals: { ...tagged('aws:RequestTag'), 'kms:KeySpec': 'ECC_NIST_P256', 'kms:KeyUsage': 'SIGN_VERIFY' },
          'ForAllValues:StringEquals': { 'aws:TagKeys': [...Object.keys(SIGNING_KEY_TAGS), 'orgId'] },
        },
      }),
    );
  }
  if (use.length) {
    const stack = Stack.of(role);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'SigningKeysUse',
        effect: Effect.ALLOW,
        actions: use,
        resources: [`arn:${stack.partition}:kms:${stack.region}:${stack.account}:key/*`],
        conditions: { StringEquals: tagged('aws:ResourceTag') },
      }),
    );
  }
  Validations.of(role).acknowledge(
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'kms:CreateKey names no resource (the key does not exist yet): the grant is conditioned on the new key’s spec, usage and this service’s tags instead (docs/credentials.md#keys).',
    },
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:kms:<AWS::Region>:<AWS::AccountId>:key/*]',
      reason: 'Each organization’s signing key is created at run time, so its ARN is not known to the stack: Sign and GetPublicKey are limited to keys tagged as this service’s signing keys (docs/credentials.md#keys).',
    },
  );
}
