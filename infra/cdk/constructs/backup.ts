import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { AnyPrincipal, Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ApplicationLogLevel, Architecture, EventSourceMapping, FilterCriteria, FilterRule, LoggingFormat, Runtime, StartingPosition, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectLockRetention, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BACKED_UP_TYPES } from '../../../lib/services/backup.ts';
import { lambdaBundling, LAMBDA_NODE_OPTIONS, REPO_ROOT } from '../bundling.ts';
import { STREAM_CONSUMER_ACTIONS } from '../function-table.ts';
import { StackPart } from './part.ts';

/** The default retention of every backup object: ten years (docs/backup.md#retention). */
export const DEFAULT_BACKUP_RETENTION_YEARS = 10;
/** The backup lag that raises the alarm: the stream mapping's iterator age, in minutes. */
export const BACKUP_LAG_ALARM_MINUTES = 15;

export interface BackupCopyProps {
  tableStreamArn: string;
  logRetention: RetentionDays;
  /** How long each object is locked (compliance mode); default DEFAULT_BACKUP_RETENTION_YEARS. */
  retentionYears?: number;
  /** The table the backup function reads a record's current passport from (its public copy names it: docs/backup.md#the-public-copy). */
  tableName: string;
  tableArn: string;
  /** Where the public copy is served (BACKUP_PUBLIC_ORIGIN, the start of every backupUrl). */
  publicOrigin: string;
}

/**
 * The backup copy of every published version (docs/backup.md): a bucket with Object Lock in
 * compliance mode (every object kept `retentionYears`, by no one deletable, the root user
 * included), versioning (Object Lock needs it), SSE-KMS with its own key, no public access, TLS
 * only, and a bucket policy that refuses any put without `If-None-Match` (S3's condition key
 * `s3:if-none-match`), so that no code path replaces an object. The backup function reads the
 * table's stream, filtered to the items of published versions, and writes each once; a record
 * that fails after the retries goes to a DLQ. The lag is the mapping's iterator age, alarmed.
 */
export class BackupCopy extends StackPart {
  readonly bucket: Bucket;
  /** The public copy (docs/backup.md#the-public-copy): the resolver distribution's failover origin for the version pages. */
  readonly publicBucket: Bucket;
  private readonly alarms: Alarm[];
  readonly key: Key;
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: BackupCopyProps) {
    super(scope, id);
    const years = props.retentionYears ?? DEFAULT_BACKUP_RETENTION_YEARS;
    if (!Number.isInteger(years) || years < 1 || years > 100) throw new Error(`The backup retention must be a whole number of years from 1 to 100, not ${years}.`);
    this.key = new Key(this, 'BackupKey', { description: 'Product Passport backup copy (SSE-KMS)', enableKeyRotation: true, removalPolicy: RemovalPolicy.RETAIN });
    this.bucket = new Bucket(this, 'BackupBucket', {
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(years * 365)),
      versioned: true,
      encryption: BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Puts must be conditional: an object, once written, is never replaced by a new version.
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'DenyUnconditionalPuts',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects('*')],
        conditions: { Null: { 's3:if-none-match': 'true' } },
      }),
    );
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Only the backup function writes (conditional puts, never deletes, Object Lock in compliance mode); server access logs would be a second bucket to keep as long, and CloudTrail records the writes.',
    });

    // The public copy: what anyone may read of each version (docs/backup.md#the-public-copy), locked
    // like the private copy, encrypted with S3's key (CloudFront reads it through origin access
    // control; nothing in it is confidential), never public but through the resolver distribution.
    this.publicBucket = new Bucket(this, 'BackupPublicBucket', {
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(years * 365)),
      versioned: true,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.publicBucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'DenyUnconditionalPuts',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['s3:PutObject'],
        resources: [this.publicBucket.arnForObjects('*')],
        conditions: { Null: { 's3:if-none-match': 'true' } },
      }),
    );
    Validations.of(this.publicBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Only the backup function writes (conditional puts, Object Lock in compliance mode); CloudFront reads it as the failover origin and logs as the distribution does.',
    });

    this.deadLetterQueue = new Queue(this, 'BackupDeadLetterQueue', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(this.deadLetterQueue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'It is the dead-letter destination of the backup function\'s stream mapping: the records it could not copy after its retries.' });

    const logGroup = new LogGroup(this, 'BackupLogs', { retention: props.logRetention });
    const role = new Role(this, 'BackupRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: 'Product Passport backup function: conditional puts to the backup bucket' });
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
        BACKUP_PUBLIC_BUCKET: this.publicBucket.bucketName,
        BACKUP_PUBLIC_ORIGIN: props.publicOrigin,
        TABLE_NAME: props.tableName,
        NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
        POWERTOOLS_SERVICE_NAME: 'product-passport',
      },
    });
    logGroup.grantWrite(role);
    // PutObject (conditional, by the bucket policy); GetObject for HeadObject of a key found there already. No delete.
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'BackupObjects', effect: Effect.ALLOW, actions: ['s3:PutObject', 's3:GetObject'], resources: [this.bucket.arnForObjects('*'), this.publicBucket.arnForObjects('*')] }));
    // A batch's or item's public copy names the passport version current when it is copied: one GetItem of the GTIN item.
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'CurrentPassport', effect: Effect.ALLOW, actions: ['dynamodb:GetItem'], resources: [props.tableArn] }));
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'BackupKey', effect: Effect.ALLOW, actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [this.key.keyArn] }));
    role.addToPrincipalPolicy(new PolicyStatement({ sid: 'TableStream', effect: Effect.ALLOW, actions: [...STREAM_CONSUMER_ACTIONS], resources: [props.tableStreamArn] }));
    const stack = Stack.of(this);
    for (const bucket of [this.bucket, this.publicBucket]) {
      const bucketId = stack.resolve(stack.getLogicalId(bucket.node.defaultChild as CfnBucket)) as string;
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
        reason: 'The backup function writes objects per published version; object keys are made at run time (tenant, GTIN, version), so the statement names the bucket\'s objects.',
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
