import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccountPrincipal, AnyPrincipal, ArnPrincipal, Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectLockRetention, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { DEFAULT_LOCK_YEARS } from '../../../lib/domain/backup-retention.ts';
import { StackPart } from './part.ts';

/** The default retention of every backup object: ten years (docs/backup.md#retention); an object of a category kept for the product's life gets its own lock too (lib/domain/backup-retention.ts). */
export const DEFAULT_BACKUP_RETENTION_YEARS = DEFAULT_LOCK_YEARS;
/**
 * What the backup function does to an object (docs/backup.md): puts it (conditionally), reads it back, and sets its own
 * retention and legal hold with the put (docs/backup.md#retention). Never a delete.
 */
export const BACKUP_WRITER_ACTIONS = ['s3:PutObject', 's3:GetObject', 's3:PutObjectRetention', 's3:PutObjectLegalHold'] as const;

/** The names a backup store has when it lives in another stack (another region or account): known to both stacks. */
export interface BackupStoreNames {
  bucketName: string;
  publicBucketName: string;
  /** The alias of the store's KMS key (`alias/…`): the writer's role is granted the key by it. */
  keyAlias: string;
}

/** The backup store of stack `stackName` in `account` and `region` (docs/backup.md#another-region-or-account). */
export function backupStoreNames(stackName: string, account: string, region: string): BackupStoreNames {
  const base = `${stackName.toLowerCase().replace(/[^a-z0-9-]/g, '-')}-backup`;
  return { bucketName: `${base}-${account}-${region}`, publicBucketName: `${base}-public-${account}-${region}`, keyAlias: `alias/${stackName}-backup` };
}

/** The writer of a store in another stack: the backup function's role, by ARN, and the account of the distribution that reads the public copy. */
export interface BackupStoreWriter {
  roleArn: string;
  account: string;
}

export interface BackupStoreProps {
  /** How long each object is locked (compliance mode); default DEFAULT_BACKUP_RETENTION_YEARS. */
  retentionYears?: number;
  /** Fixed names, for a store in another stack; absent, CloudFormation names the buckets. */
  names?: BackupStoreNames;
  /** For a store in another stack: who writes (the key and bucket policies grant it) and whose CloudFront reads the public copy. */
  writer?: BackupStoreWriter;
}

/**
 * The backup store (docs/backup.md): two buckets with Object Lock in compliance mode (every object
 * kept `retentionYears`, by no one deletable, the root user included), versioning (Object Lock needs
 * it), no public access, TLS only, and bucket policies that refuse any put without `If-None-Match`
 * (S3's condition key `s3:if-none-match`), so that no code path replaces an object:
 * - the private copy, SSE-KMS with its own key;
 * - the public copy (docs/backup.md#the-public-copy), SSE-S3: CloudFront reads it through origin
 *   access control, and nothing in it is confidential.
 * In the service's own stack by default; in a stack of another region or account
 * (infra/cdk/backup-stack.ts) with fixed names and grants to the writer's role.
 */
export class BackupStore extends StackPart {
  readonly key: Key;
  readonly bucket: Bucket;
  readonly publicBucket: Bucket;

  constructor(scope: Construct, id: string, props: BackupStoreProps = {}) {
    super(scope, id);
    const years = props.retentionYears ?? DEFAULT_BACKUP_RETENTION_YEARS;
    if (!Number.isInteger(years) || years < 1 || years > 100) throw new Error(`The backup retention must be a whole number of years from 1 to 100, not ${years}.`);
    const locked = {
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(years * 365)),
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    this.key = new Key(this, 'BackupKey', {
      description: 'Product Passport backup copy (SSE-KMS)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(props.names ? { alias: props.names.keyAlias } : {}),
    });
    this.bucket = new Bucket(this, 'BackupBucket', {
      ...locked,
      encryption: BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      ...(props.names ? { bucketName: props.names.bucketName } : {}),
    });
    this.publicBucket = new Bucket(this, 'BackupPublicBucket', {
      ...locked,
      encryption: BucketEncryption.S3_MANAGED,
      ...(props.names ? { bucketName: props.names.publicBucketName } : {}),
    });
    for (const bucket of [this.bucket, this.publicBucket]) {
      // Puts must be conditional: an object, once written, is never replaced by a new version.
      bucket.addToResourcePolicy(
        new PolicyStatement({
          sid: 'DenyUnconditionalPuts',
          effect: Effect.DENY,
          principals: [new AnyPrincipal()],
          actions: ['s3:PutObject'],
          resources: [bucket.arnForObjects('*')],
          conditions: { Null: { 's3:if-none-match': 'true' } },
        }),
      );
    }
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Only the backup function writes (conditional puts, never deletes, Object Lock in compliance mode); server access logs would be a second bucket to keep as long, and CloudTrail records the writes.',
    });
    Validations.of(this.publicBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Only the backup function writes (conditional puts, Object Lock in compliance mode); CloudFront reads it as the failover origin and logs as the distribution does.',
    });

    if (props.writer) {
      // The writer lives in another stack (another region or account): these policies let its role in.
      const writer = new ArnPrincipal(props.writer.roleArn);
      this.bucket.addToResourcePolicy(new PolicyStatement({ sid: 'BackupWriter', effect: Effect.ALLOW, principals: [writer], actions: [...BACKUP_WRITER_ACTIONS], resources: [this.bucket.arnForObjects('*')] }));
      this.publicBucket.addToResourcePolicy(new PolicyStatement({ sid: 'BackupWriter', effect: Effect.ALLOW, principals: [writer], actions: [...BACKUP_WRITER_ACTIONS], resources: [this.publicBucket.arnForObjects('*')] }));
      this.key.addToResourcePolicy(new PolicyStatement({ sid: 'BackupWriter', effect: Effect.ALLOW, principals: [writer], actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: ['*'] }));
      // The service's distributions read the public copy through origin access control; their ARNs are
      // made after this stack, so the condition names their account.
      this.publicBucket.addToResourcePolicy(
        new PolicyStatement({
          sid: 'ServiceDistributionsRead',
          effect: Effect.ALLOW,
          principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
          actions: ['s3:GetObject'],
          resources: [this.publicBucket.arnForObjects('*')],
          conditions: { StringEquals: { 'AWS:SourceAccount': props.writer.account } },
        }),
      );
      // An operator's restore reads the private copy with the writer account's credentials.
      this.key.addToResourcePolicy(new PolicyStatement({ sid: 'ServiceAccountRestore', effect: Effect.ALLOW, principals: [new AccountPrincipal(props.writer.account)], actions: ['kms:Decrypt'], resources: ['*'] }));
      this.bucket.addToResourcePolicy(new PolicyStatement({ sid: 'ServiceAccountRestore', effect: Effect.ALLOW, principals: [new AccountPrincipal(props.writer.account)], actions: ['s3:GetObject', 's3:ListBucket'], resources: [this.bucket.bucketArn, this.bucket.arnForObjects('*')] }));
    }
  }
}
