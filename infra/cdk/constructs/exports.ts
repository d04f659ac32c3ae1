import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { StackPart } from './part.ts';

/** How long an archive stays in the bucket (docs/import-export.md#leaving-the-archive). */
export const ARCHIVE_EXPIRY_DAYS = 7;

export interface ExportsStoreProps {
  /** The stack's functions and their specs: those with grants.exportsBucket get its actions and EXPORTS_BUCKET. */
  functions: Readonly<Record<string, NodejsFunction>>;
  specs: Readonly<Record<string, FunctionSpec>>;
}

/**
 * The exports bucket: the archives of `POST /v1/exports/archive` (docs/import-export.md#leaving-the-archive).
 * Private (no public access, bucket owner enforced), SSE-S3, TLS only; every archive expires after
 * ARCHIVE_EXPIRY_DAYS and an unfinished multipart upload after a day. An archive is read only
 * through the presigned URL its function answers, signed with that function's role.
 */
export class ExportsStore extends StackPart {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: ExportsStoreProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'ExportsBucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [{ id: 'ExpireArchives', enabled: true, expiration: Duration.days(ARCHIVE_EXPIRY_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds short-lived archives (7 days) written by one function and read through presigned URLs; server access logs would be a second bucket, and CloudTrail records the writes.',
    });
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string;
    for (const [name, spec] of Object.entries(props.specs)) {
      const actions = spec.grants.exportsBucket;
      const fn = props.functions[name];
      if (!actions?.length || !fn) continue;
      fn.addEnvironment('EXPORTS_BUCKET', this.bucket.bucketName);
      fn.role?.addToPrincipalPolicy(new PolicyStatement({ sid: 'ExportsObjects', effect: Effect.ALLOW, actions: [...actions], resources: [this.bucket.arnForObjects('*')] }));
      if (fn.role) {
        Validations.of(fn.role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
          reason: 'Each archive is a new object whose key is made at run time (organization, environment, archive id), so the statement names the exports bucket\'s objects.',
        });
      }
    }
  }
}
