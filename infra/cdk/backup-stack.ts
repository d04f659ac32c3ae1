import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BackupStore, type BackupStoreNames, type BackupStoreWriter } from './constructs/backup-store.ts';

export interface BackupStoreStackProps extends StackProps {
  names: BackupStoreNames;
  writer: BackupStoreWriter;
  retentionYears?: number;
}

/**
 * The backup store in a region, and optionally an account, of its own (docs/backup.md#another-region-or-account):
 * made by infra/app.ts when the context names `backupRegion` (and `backupAccount`), deployed before
 * the service's stack, whose backup function writes here by the fixed names and whose distribution
 * reads the public copy. Nothing here depends on the service's stack but its account and role name,
 * so the store outlives it.
 */
export class BackupStoreStack extends Stack {
  readonly store: BackupStore;

  constructor(scope: Construct, id: string, props: BackupStoreStackProps) {
    super(scope, id, props);
    this.store = new BackupStore(this, 'BackupStore', {
      names: props.names,
      writer: props.writer,
      ...(props.retentionYears === undefined ? {} : { retentionYears: props.retentionYears }),
    });
    new CfnOutput(this, 'BackupBucketName', { value: this.store.bucket.bucketName });
    new CfnOutput(this, 'BackupPublicBucketName', { value: this.store.publicBucket.bucketName });
  }
}
