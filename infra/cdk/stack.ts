import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CfnOutput, Fn, Lazy, Stack, type CfnElement, type StackProps } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { UserPool } from 'aws-cdk-lib/aws-cognito';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ROUTES } from '../../lib/api/routes.ts';
import { FUNCTIONS } from '../functions.ts';
import { Alarms } from './constructs/alarms.ts';
import { BackupCopy } from './constructs/backup.ts';
import { BackupStore, type BackupStoreNames } from './constructs/backup-store.ts';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { ExportsStore } from './constructs/exports.ts';
import { Api } from './constructs/api.ts';
import { DashboardSite } from './constructs/dashboard.ts';
import { StackPart } from './constructs/part.ts';
import { BACKUP_PATH_PREFIX, ResolverCdn } from './constructs/resolver-cdn.ts';
import { ScanPipeline } from './constructs/scan-pipeline.ts';
import { ImportPipeline } from './constructs/import-pipeline.ts';
import { EventDeliveryPipeline } from './constructs/event-delivery-pipeline.ts';
import { REGISTRY_OUTBOX_MAX_RECEIVES, RegistryOutboxPipeline } from './constructs/registry-outbox-pipeline.ts';
import { SecretsKey } from './constructs/secrets-key.ts';
import { SignIn } from './constructs/sign-in.ts';
import { DataTable } from './constructs/table.ts';
import { validateTables, type FunctionTable, type StackRoute } from './function-table.ts';
import { addSuppressions } from './nag.ts';
import { DEFAULT_SETTINGS, validateSettings, type DeploySettings } from './settings.ts';

export { CONSUMER_ACTIONS, deliveryQueueActions, STREAM_CONSUMER_ACTIONS, importQueueActions, readsSessionSecret, registryOutboxQueueActions, scanQueueActions, queueVisibilityTimeoutSeconds, validateTables } from './function-table.ts';
export type { FunctionTable, StackRoute } from './function-table.ts';
export { RESOLVER_HEADERS } from './constructs/resolver-cdn.ts';

export interface PassportStackProps extends StackProps {
  /** Default: FUNCTIONS of infra/functions.ts. */
  functions?: FunctionTable;
  /** Default: ROUTES of lib/api/routes.ts. */
  routes?: readonly StackRoute[];
  /** Default: no custom domains, 30 days of logs, 500 req/s (burst 1000). */
  settings?: DeploySettings;
  /** Default: the local stack's CreateTable input (lib/data/table.ts). */
  tableInput?: CreateTableCommandInput;
  /** Serve the dashboard web app (constructs/dashboard.ts). Default: off; infra/app.ts turns it on. */
  dashboard?: boolean;
  /**
   * The backup store in another region or account (infra/cdk/backup-stack.ts, made by infra/app.ts
   * from the context values backupRegion and backupAccount; docs/backup.md#another-region-or-account).
   * Default: the store is a part of this stack.
   */
  backupStore?: { region: string; account: string; names: BackupStoreNames; roleName: string };
}

/**
 * The whole service in one stack, environment-agnostic, composed of the parts of the picture in
 * docs/architecture.md (one construct each, under constructs/): the table, the scan pipeline, the
 * API with its functions, CloudFront in front of the resolver, the dashboard, sign-in, alarms.
 */
export class PassportStack extends Stack {
  readonly table: Table;
  readonly scanQueue: Queue;
  readonly deadLetterQueue: Queue;
  /** The bulk import queue and its DLQ (constructs/import-pipeline.ts). */
  readonly importQueue: Queue;
  readonly importDeadLetterQueue: Queue;
  /** The event delivery queue of outbound webhooks and its DLQ (constructs/event-delivery-pipeline.ts). */
  readonly eventDeliveryQueue: Queue;
  readonly eventDeliveryDeadLetterQueue: Queue;
  /** Where the fan-out's stream mapping reports an event record it set aside (docs/webhooks-outbound.md#a-record-that-keeps-failing). */
  readonly eventStreamFailureQueue: Queue | undefined;
  /** The registry outbox queue and its DLQ (constructs/registry-outbox-pipeline.ts). */
  readonly registryOutboxQueue: Queue;
  readonly registryOutboxDeadLetterQueue: Queue;
  readonly api: HttpApi;
  readonly distribution: Distribution;
  readonly userPool: UserPool;
  readonly sessionSecret: Secret;
  /** The KMS key sealing webhook secrets (constructs/secrets-key.ts). */
  readonly secretsKey: SecretsKey['key'];
  readonly functions: Record<string, NodejsFunction>;
  /** The backup bucket and its function (constructs/backup.ts). */
  readonly backup: BackupCopy;
  /** The exports bucket: organizations' archives (constructs/exports.ts). */
  readonly exports: ExportsStore;

  constructor(scope: Construct, id: string, props: PassportStackProps = {}) {
    super(scope, id, props);
    const functions = props.functions ?? FUNCTIONS;
    const routes = props.routes ?? ROUTES;
    const settings = props.settings ?? DEFAULT_SETTINGS;
    validateSettings(settings);
    validateTables(functions, routes);
    // DNS for the custom domains, when a hosted zone is given (no lookups: ids from context).
    const zone =
      settings.hostedZoneId && settings.hostedZoneName
        ? HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: settings.hostedZoneId, zoneName: settings.hostedZoneName })
        : undefined;

    const data = new DataTable(this, 'Data', { ...(props.tableInput ? { tableInput: props.tableInput } : {}) });
    const scans = new ScanPipeline(this, 'ScanPipeline', { consumers: Object.values(functions).filter((spec) => spec.trigger?.queue === 'scan') });
    const imports = new ImportPipeline(this, 'ImportPipeline', { consumers: Object.values(functions).filter((spec) => spec.trigger?.queue === 'import') });
    const deliveries = new EventDeliveryPipeline(this, 'EventDeliveryPipeline', { consumers: Object.values(functions).filter((spec) => spec.trigger?.queue === 'delivery') });
    const outbox = new RegistryOutboxPipeline(this, 'RegistryOutboxPipeline', {
      consumers: Object.values(functions).filter((spec) => spec.trigger?.queue === 'registryOutbox'),
      maxReceiveCount: REGISTRY_OUTBOX_MAX_RECEIVES,
    });
    const api = new Api(this, 'Api', { settings, ...(zone ? { zone } : {}) });
    // The distribution is built after the functions (its origin is the resolver's function URL);
    // the functions' RESOLVER_ORIGIN names it, read once it exists.
    let cdn: ResolverCdn | undefined;
    const resolverOrigin = Lazy.string({ produce: () => cdn?.origin });
    // The backup copy of every published version (docs/backup.md); retention from context
    // backupRetentionYears. Its public copy is served where backupPublicOrigin says, by default on the
    // resolver's origin, whose version pages fail over to it (constructs/resolver-cdn.ts).
    const retentionYears: unknown = this.node.tryGetContext('backupRetentionYears');
    const backupOriginContext: unknown = this.node.tryGetContext('backupPublicOrigin');
    const defaultBackupOrigin = Lazy.string({ produce: () => (cdn ? `${cdn.origin}${BACKUP_PATH_PREFIX}` : undefined) });
    const backupPublicOrigin = typeof backupOriginContext === 'string' && backupOriginContext ? backupOriginContext : defaultBackupOrigin;
    if (!data.table.tableStreamArn) throw new Error('The backup copy reads the table stream, but the table has none.');
    const remote = props.backupStore;
    const store = remote
      ? {
          bucket: Bucket.fromBucketAttributes(this, 'RemoteBackupBucket', { bucketName: remote.names.bucketName, region: remote.region, account: remote.account }),
          publicBucket: Bucket.fromBucketAttributes(this, 'RemoteBackupPublicBucket', { bucketName: remote.names.publicBucketName, region: remote.region, account: remote.account }),
          region: remote.region,
          account: remote.account,
          keyAlias: remote.names.keyAlias,
          roleName: remote.roleName,
        }
      : new BackupStore(this, 'BackupStore', retentionYears === undefined ? {} : { retentionYears: Number(retentionYears) });
    this.backup = new BackupCopy(this, 'Backup', {
      tableStreamArn: data.table.tableStreamArn,
      tableName: data.table.tableName,
      tableArn: data.table.tableArn,
      logRetention: settings.logRetention,
      publicOrigin: backupPublicOrigin,
      store,
    });
    const secrets = new SecretsKey(this, 'SecretsKey');
    const signIn = new SignIn(this, 'SignIn', { apiOrigin: api.origin, ...(settings.authDomainPrefix ? { authDomainPrefix: settings.authDomainPrefix } : {}) });
    api.addFunctions({
      functions,
      routes,
      environment: {
        TABLE_NAME: data.table.tableName,
        SCAN_QUEUE_URL: scans.queue.queueUrl,
        IMPORT_QUEUE_URL: imports.queue.queueUrl,
        RESOLVER_ORIGIN: resolverOrigin,
        BACKUP_PUBLIC_ORIGIN: backupPublicOrigin,
        EVENT_DELIVERY_QUEUE_URL: deliveries.queue.queueUrl,
        REGISTRY_OUTBOX_QUEUE_URL: outbox.queue.queueUrl,
        PUBLIC_API_ORIGIN: api.origin,
        OIDC_ISSUER: signIn.userPool.userPoolProviderUrl,
        OIDC_CLIENT_ID: signIn.client.userPoolClientId,
        OIDC_REDIRECT_URI: signIn.callbackUrl,
        // No POWERTOOLS_LOG_LEVEL: the logger follows each function's Lambda log level (docs/configuration.md#logs).
        POWERTOOLS_SERVICE_NAME: 'product-passport',
        ...(settings.dashboardOrigins ? { DASHBOARD_ORIGINS: settings.dashboardOrigins } : {}),
      },
      environmentOf: {
        // The resolver cannot be given the distribution's domain (the distribution's origin is the
        // resolver's function URL: a cycle); CloudFront's viewer-request function names it in
        // X-Resolver-Origin instead (constructs/resolver-cdn.ts). A custom resolver domain is a literal.
        ...Object.fromEntries(
          Object.entries(functions)
            .filter(([, spec]) => spec.functionUrl)
            .map(([name]) => [
              name,
              {
                RESOLVER_ORIGIN: settings.resolverDomain ? `https://${settings.resolverDomain}` : undefined,
                // The same cycle for the backup origin, unless it is a literal (docs/backup.md#the-backup-url).
                BACKUP_PUBLIC_ORIGIN: backupPublicOrigin === defaultBackupOrigin ? (settings.resolverDomain ? `https://${settings.resolverDomain}${BACKUP_PATH_PREFIX}` : undefined) : backupPublicOrigin,
              },
            ]),
        ),
        // The functions with grants.cloudfrontTenants create brand domains' distribution tenants (docs/brand-domains.md).
        ...Object.fromEntries(
          settings.brandDistributionId
            ? Object.entries(functions)
                .filter(([, spec]) => spec.grants.cloudfrontTenants?.length)
                .map(([name]) => [
                  name,
                  {
                    CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID: settings.brandDistributionId as string,
                    // The domain's read form names the CNAME target a verified brand host points at (docs/brand-domains.md).
                    ...(settings.brandCnameTarget ? { BRAND_CNAME_TARGET: settings.brandCnameTarget } : {}),
                  },
                ])
            : [],
        ),
        // The authorities' identity providers, for the inspectors' sign-in (docs/access.md#market-surveillance-authorities).
        ...(settings.authorityIssuers ? { inspect: { AUTHORITY_ISSUERS: settings.authorityIssuers } } : {}),
        // The EU registry's API, for the functions whose grants say registry (docs/registry.md#the-outbox); the secret stays in Secrets Manager.
        ...Object.fromEntries(
          Object.entries(functions)
            .filter(([, spec]) => spec.grants.registry && settings.registry)
            .map(([name]) => [
              name,
              Object.fromEntries(
                (['production', 'acceptance'] as const).flatMap((which) => {
                  const registry = settings.registry?.[which];
                  const prefix = which === 'production' ? 'REGISTRY_' : 'REGISTRY_ACCEPTANCE_';
                  return registry
                    ? [
                        [`${prefix}BASE_URL`, registry.baseUrl],
                        [`${prefix}TOKEN_URL`, registry.tokenUrl],
                        [`${prefix}CLIENT_ID`, registry.clientId],
                        [`${prefix}CLIENT_SECRET_ARN`, registry.clientSecretArn],
                      ]
                    : [];
                }),
              ),
            ]),
        ),
      },
      registrySecretArns: Object.values(settings.registry ?? {}).map((registry) => registry.clientSecretArn),
      ...(settings.brandDistributionId ? { brandDistributionId: settings.brandDistributionId } : {}),
      tableResources: data.resources,
      scanPipeline: scans,
      importPipeline: imports,
      eventDeliveryPipeline: deliveries,
      registryOutboxPipeline: outbox,
      ...(data.table.tableStreamArn ? { tableStreamArn: data.table.tableStreamArn } : {}),
      sessionSecret: signIn.sessionSecret,
      secretsKey: secrets.key,
    });
    const resolverFunction = Object.entries(functions).find(([, spec]) => spec.functionUrl)?.[0];
    const resolver = resolverFunction ? api.functions[resolverFunction] : undefined;
    if (!resolver) throw new Error('No function of the function table is served by its function URL (functionUrl: true): the resolver distribution needs one.');
    cdn = new ResolverCdn(this, 'ResolverCdn', { resolver, settings, backupPublicBucket: this.backup.publicBucket, apiDomain: Fn.select(2, Fn.split('/', api.api.apiEndpoint)), ...(zone ? { zone } : {}) });
    // Static files in S3 behind the distribution, served on the API's origin (same cookie and CSRF origin).
    if (props.dashboard) new DashboardSite(this, 'Dashboard', { distribution: cdn.distribution, api: api.api });
    const alarms = new Alarms(this, 'Alarms', { deadLetterQueue: scans.deadLetterQueue, importDeadLetterQueue: imports.deadLetterQueue, eventDeliveryDeadLetterQueue: deliveries.deadLetterQueue, registryOutboxDeadLetterQueue: outbox.deadLetterQueue, api: api.api, functions: api.functions, httpFunctions: [...new Set(routes.map((route) => route.function))], ...(settings.alarmEmail ? { email: settings.alarmEmail } : {}) });
    if (props.dashboard) new CfnOutput(this, 'DashboardUrl', { value: `${api.origin}/dashboard` });
    this.backup.alarmTo(new SnsAction(alarms.topic));
    deliveries.alarmTo(new SnsAction(alarms.topic));

    // The archives of POST /v1/exports/archive, granted to the functions whose grants name the bucket.
    this.exports = new ExportsStore(this, 'Exports', { functions: api.functions, specs: functions });
    this.table = data.table;
    this.scanQueue = scans.queue;
    this.deadLetterQueue = scans.deadLetterQueue;
    this.importQueue = imports.queue;
    this.importDeadLetterQueue = imports.deadLetterQueue;
    this.eventDeliveryQueue = deliveries.queue;
    this.eventDeliveryDeadLetterQueue = deliveries.deadLetterQueue;
    this.eventStreamFailureQueue = deliveries.streamFailureQueue;
    this.registryOutboxQueue = outbox.queue;
    this.registryOutboxDeadLetterQueue = outbox.deadLetterQueue;
    this.api = api.api;
    this.distribution = cdn.distribution;
    this.userPool = signIn.userPool;
    this.sessionSecret = signIn.sessionSecret;
    this.secretsKey = secrets.key;
    this.functions = api.functions;
    addSuppressions({
      sessionSecret: signIn.sessionSecret,
      distribution: cdn.distribution,
      userPool: signIn.userPool,
      functions: Object.values(api.functions),
      routes: api.routes,
      customResolverCertificate: cdn.customCertificate,
      resolverWebAcl: Boolean(settings.resolverWebAclArn),
    });
  }

  /** The logical ID a resource had before the parts existed: the parts' ids are left out of the path (constructs/part.ts). */
  protected override allocateLogicalId(element: CfnElement): string {
    const scopes = element.node.scopes.filter((scope) => !StackPart.isStackPart(scope));
    return super.allocateLogicalId({ node: { scopes }, stack: this } as unknown as CfnElement);
  }
}
