import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_LAG_ALARM_MINUTES } from '../../infra/cdk/constructs/backup.ts';
import { STREAM_CONSUMER_ACTIONS } from '../../infra/cdk/function-table.ts';
import { logicalId, ofType, synthesize, type Statement, type Synthesized } from './template.ts';

/**
 * The backup copy in AWS (docs/backup.md), by template assertions: what the local store cannot
 * show (Object Lock, versioning, SSE-KMS, the bucket policy refusing unconditional puts) is asserted
 * on the synthesized stack instead (docs/decisions.md#the-backup-store-locally).
 */
let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const bucketOf = (s: Synthesized) => s.resources[logicalId(s.stack.backup.bucket)]?.Properties as Record<string, any>;

describe('the backup bucket', () => {
  it('locks every object for ten years in compliance mode, keeps versions, encrypts with its own KMS key and blocks public access', () => {
    // Act
    const bucket = bucketOf(synth);
    // Assess
    expect(bucket.ObjectLockEnabled).toBe(true);
    expect(bucket.ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3650 } } });
    expect(bucket.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const sse = bucket.BucketEncryption.ServerSideEncryptionConfiguration[0];
    expect(sse.ServerSideEncryptionByDefault.SSEAlgorithm).toBe('aws:kms');
    expect(sse.ServerSideEncryptionByDefault.KMSMasterKeyID).toEqual({ 'Fn::GetAtt': [logicalId(synth.stack.backup.key), 'Arn'] });
    expect(bucket.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect((synth.template.toJSON().Resources as Record<string, { DeletionPolicy?: string }>)[logicalId(synth.stack.backup.bucket)]?.DeletionPolicy).toBe('Retain');
  });

  it('takes its retention from the context value backupRetentionYears, and refuses one that is not whole years', () => {
    // Act
    const twelve = synthesize({}, { backupRetentionYears: 12 });
    // Assess
    expect(bucketOf(twelve).ObjectLockConfiguration.Rule.DefaultRetention).toEqual({ Mode: 'COMPLIANCE', Days: 12 * 365 });
    expect(() => synthesize({}, { backupRetentionYears: 0.5 })).toThrow(/whole number of years/);
  });

  it('refuses, by its bucket policy, any put without If-None-Match, so that no code path replaces an object', () => {
    // Prepare
    const [, policy] = ofType(synth, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties?.Bucket) === JSON.stringify({ Ref: logicalId(synth.stack.backup.bucket) })) ?? [];
    // Act
    const statements = (policy?.Properties?.PolicyDocument as { Statement: (Statement & { Condition?: unknown })[] }).Statement;
    // Assess
    expect(statements).toContainEqual(expect.objectContaining({ Sid: 'DenyUnconditionalPuts', Effect: 'Deny', Action: 's3:PutObject', Condition: { Null: { 's3:if-none-match': 'true' } } }));
  });
});

describe('the backup function', () => {
  it('may put and read objects, use the key and read the stream, and may delete nothing', () => {
    // Prepare
    const roleId = logicalId(synth.stack.backup.function.role as never);
    const policies = ofType(synth, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties?.Roles).includes(roleId));
    // Act
    const statements = policies.flatMap(([, p]) => (p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
    const actions = statements.flatMap((s) => [s.Action].flat());
    // Assess
    expect(new Set(actions)).toEqual(new Set(['s3:PutObject', 's3:GetObject', 'kms:GenerateDataKey', 'kms:Decrypt', ...STREAM_CONSUMER_ACTIONS, 'logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']));
    expect(actions.filter((a) => /Delete|\*/.test(a))).toEqual([]);
  });

  it('reads the table stream filtered to new and replaced page, batch, item and credential items, retries, and sends what fails to its DLQ', () => {
    // Prepare
    const functionId = logicalId(synth.stack.backup.function);
    // Act
    const [, mapping] = ofType(synth, 'AWS::Lambda::EventSourceMapping').find(([, m]) => JSON.stringify(m.Properties?.FunctionName) === JSON.stringify({ Ref: functionId })) ?? [];
    // Assess
    const props = mapping?.Properties as Record<string, any>;
    expect(props.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(props.MaximumRetryAttempts).toBe(10);
    expect(props.DestinationConfig.OnFailure.Destination).toEqual({ 'Fn::GetAtt': [logicalId(synth.stack.backup.deadLetterQueue), 'Arn'] });
    expect(JSON.parse(props.FilterCriteria.Filters[0].Pattern)).toEqual({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['page', 'batch', 'item', 'credential'] } } } });
  });

  it('alarms on the lag (the iterator age) and on records in the DLQ', () => {
    // Act
    const alarms = ofType(synth, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties as Record<string, any>);
    // Assess
    expect(alarms).toContainEqual(expect.objectContaining({ MetricName: 'IteratorAge', Namespace: 'AWS/Lambda', Threshold: BACKUP_LAG_ALARM_MINUTES * 60_000 }));
    expect(alarms.find((a) => a.MetricName === 'IteratorAge')?.AlarmActions).toHaveLength(1);
    expect(alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions ?? []).includes(logicalId(synth.stack.backup.deadLetterQueue)))).toHaveLength(1);
  });
});

describe('cdk-nag', () => {
  it('reports no unacknowledged AwsSolutions finding on the backup copy', () => {
    // Act
    const report = new AwsSolutionsChecks(synth.app).validateScope(synth.stack.backup);
    // Assess
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
