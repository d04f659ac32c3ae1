import { join } from 'node:path';
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { ApplicationLogLevel, Architecture, EventSourceMapping, FilterCriteria, FilterRule, LoggingFormat, Runtime, StartingPosition, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BACKED_UP_TYPES } from '../../../lib/services/backup.ts';
import { lambdaBundling, LAMBDA_NODE_OPTIONS, REPO_ROOT } from '../bundling.ts';
import { STREAM_CONSUMER_ACTIONS } from '../function-table.ts';
import { BACKUP_WRITER_ACTIONS } from './backup-store.ts';
import { StackPart } from './part.ts';

export { DEFAULT_BACKUP_RETENTION_YEARS } from './backup-store.ts';
/** The backup lag that raises the alarm: the stream mapping's iterator age, in minutes. */
export const BACKUP_LAG_ALARM_MINUTES = 15;

export interface BackupCopyProps {
  tableStreamArn: string;
  logRetention: RetentionDays;
  /**
   * Where the copy goes: the buckets (and the private copy's key) of this stack's BackupStore, or
   * of a BackupStoreStack in another region or account (`region`, `keyAlias`; docs/backup.md#another-region-or-account).
   */
  store: { bucket: IBucket; publicBucket: IBucket; key?: IKey; region?: string; account?: string; keyAlias?: string; roleName?: string };
  /** The table the backup function reads a record's current passport from (its public copy names it: docs/backup.md#the-public-copy). */
  tableName: string;
  tableArn: string;
  /** Where the public copy is served (BACKUP_PUBLIC_ORIGIN, the start of every backupUrl). */
  publicOrigin: string;
}

/**
 * The backup copy of every published version (docs/backup.md): the backup function reads the
 * table's stream, filtered to the items of published versions, and writes each once to the backup
 * store (constructs/backup-store.ts: in this stack, or in another region and account); a record
 * that fails after the retries goes to a DLQ. The lag is the mapping's iterator age, alarmed.
 */
export class BackupCopy extends StackPart {
  readonly bucket: IBucket;
  /** The public copy (docs/backup.md#the-public-copy): the resolver distribution's failover origin for the version pages. */
  readonly publicBucket: IBucket;
  private readonly alarms: Alarm[];
  /** The private copy's key, when the store is in this stack. */
  readonly key: IKey | undefined;
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: BackupCopyProps) {
    super(scope, id);
    const store = props.store;
    this.bucket = store.bucket;
    this.publicBucket = store.publicBucket;
    this.key = store.key;

    this.deadLetterQueue = new Queue(this, 'BackupDeadLetterQueue', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(this.deadLetterQueue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'It is the dead-letter destination of the backup function\'s stream mapping: the records it could not copy after its retries.' });

    const logGroup = new LogGroup(this, 'BackupLogs', { retention: props.logRetention });
    // A store in another stack grants this role by name (BackupStoreStack): the name is fixed then.
    const role = new Role(this, 'BackupRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Product Passport backup function: conditional puts to the backup bucket',
      ...(store.roleName ? { roleName: store.roleName } : {}),
    });
    this.function = new NodejsFunction(this, 'BackupFunction', {
      entry: join(REPO_ROOT, 'functions/backup/handler.ts'),
      handler: 'handler',
      description: 'Copies each published passport, batch and item version to the backup bucket, once (docs/backup.md)',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(60),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel.WARN,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      awsSdkConnectionReuse: false,
      bundling: lambdaBundling(),
      environment: {
        BACKUP_BUCKET: this.bucket.bucketName,
        ...(store.region ? { BACKUP_REGION: store.region } : {}),
        BACKUP_PUBLIC_BUCKET: this.publicBucket.bucketName,
        BACKUP_PUBLIC_ORIGIN: props.publicOrigin,
        BACKUP_PUBLIC_PAGES: 'all',
        TABLE_NAME: props.tableName,
        NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
        POWERTOOLS_SERVICE_NAME: 'product-passport',
      },
    });
    logGroup.grantWrite(role);
    // PutObject (conditional, by the bucket policy); GetObject for HeadObject of a key found there already. No delete.
    // PutObjectRetention and PutObjectLegalHold: an object's own lock by its product's category, set with the put (docs/backup.md#retention).
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'BackupObjects', effect: Effect.ALLOW, actions: [...BACKUP_WRITER_ACTIONS], resources: [this.bucket.arnForObjects('*'), this.publicBucket.arnForObjects('*')] }));
    // A batch's or item's public copy names the passport version current when it is copied: one GetItem of the GTIN item.
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'CurrentPassport', effect: Effect.ALLOW, actions: ['dynamodb:GetItem'], resources: [props.tableArn] }));
    // The private copy's key: this stack's, or the other stack's by its alias (its ARN is made there).
    const keyStatement = this.key
      ? { resources: [this.key.keyArn] }
      : { resources: [`arn:${Stack.of(this).partition}:kms:${store.region}:${store.account}:key/*`], conditions: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': store.keyAlias } } };
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'BackupKey', effect: Effect.ALLOW, actions: ['kms:GenerateDataKey', 'kms:Decrypt'], ...keyStatement }));
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'TableStream', effect: Effect.ALLOW, actions: [...STREAM_CONSUMER_ACTIONS], resources: [props.tableStreamArn] }));
    const stack = Stack.of(this);
    const objectsReason = 'The backup function writes objects per published version; object keys are made at run time (tenant, GTIN, version), so the statement names the bucket\'s objects.';
    for (const bucket of [this.bucket, this.publicBucket]) {
      const cfn = bucket.node.defaultChild as CfnBucket | undefined;
      if (cfn) Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::<${stack.resolve(stack.getLogicalId(cfn)) as string}.Arn>/*]`, reason: objectsReason });
    }
    if (!this.key) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5',
        reason: `${objectsReason} The store is in another stack (docs/backup.md#another-region-or-account): its buckets are named, and its key, whose ARN is made there, is granted by its alias.`,
      });
    }
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The design pins nodejs22.x (docs/decisions.md#node-22-everywhere): the tests, benchmarks and local stack run on Node 22, so the functions run on the runtime they were tested on.',
    });

    // New and replaced items of the types that hold a published version or its credential (lib/services/backup.ts).
    const mapping = new EventSourceMapping(this, 'BackupTableStreamSource', {
      target: this.function,
      eventSourceArn: props.tableStreamArn,
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: 10,
      onFailure: new SqsDlq(this.deadLetterQueue),
      filters: [FilterCriteria.filter({ eventName: FilterRule.or('INSERT', 'MODIFY'), dynamodb: { NewImage: { type: { S: FilterRule.or(...BACKED_UP_TYPES) } } } })],
    });
    mapping.node.addDependency(role);

    const above = { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 1, treatMissingData: TreatMissingData.NOT_BREACHING };
    const lag = new Alarm(this, 'BackupLagAlarm', {
      alarmDescription: `The backup copy is more than ${BACKUP_LAG_ALARM_MINUTES} minutes behind the table (the stream mapping's iterator age, docs/backup.md#lag).`,
      metric: this.function.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: BACKUP_LAG_ALARM_MINUTES * 60_000,
      ...above,
    });
    const dead = new Alarm(this, 'BackupDeadLetterAlarm', {
      alarmDescription: 'Versions could not be copied to the backup bucket after the retries (docs/backup.md#lag).',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      ...above,
    });
    this.alarms = [lag, dead];
    new CfnOutput(this, 'BackupBucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'BackupPublicBucketName', { value: this.publicBucket.bucketName });
    new CfnOutput(this, 'BackupRegion', { value: Stack.of(this).region });
  }

  /** Sends the backup's alarms (lag, DLQ) to `action` (the stack's alarm topic, made after this part). */
  alarmTo(action: IAlarmAction): void {
    for (const alarm of this.alarms) alarm.addAlarmAction(action);
  }
}
