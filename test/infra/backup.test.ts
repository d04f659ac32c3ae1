import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BackupStoreStack } from '../../infra/cdk/backup-stack.ts';
import { backupStoreFromContext } from '../../infra/cdk/settings.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_LAG_ALARM_MINUTES } from '../../infra/cdk/constructs/backup.ts';
import { STREAM_CONSUMER_ACTIONS } from '../../infra/cdk/function-table.ts';
import { logicalId, ofType, originGroupOf, single, synthesize, type Statement, type Synthesized } from './template.ts';
import { BACKUP_PATH_PATTERN, FAILOVER_STATUS_CODES } from '../../infra/cdk/constructs/resolver-cdn.ts';

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
    expect(sse.ServerSideEncryptionByDefault.KMSMasterKeyID).toEqual({ 'Fn::GetAtt': [logicalId(synth.stack.backup.key!), 'Arn'] });
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
  it('may put and read objects and set their own retention and legal hold, use the key and read the stream, and may delete nothing', () => {
    // Prepare
    const roleId = logicalId(synth.stack.backup.function.role as never);
    const policies = ofType(synth, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties?.Roles).includes(roleId));
    // Act
    const statements = policies.flatMap(([, p]) => (p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
    const actions = statements.flatMap((s) => [s.Action].flat());
    // Assess
    expect(new Set(actions)).toEqual(new Set(['s3:PutObject', 's3:GetObject', 's3:PutObjectRetention', 's3:PutObjectLegalHold', 'kms:GenerateDataKey', 'kms:Decrypt', 'dynamodb:GetItem', ...STREAM_CONSUMER_ACTIONS, 'logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']));
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

describe('the public copy and the failover (docs/backup.md#failover)', () => {
  const distribution = () => single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
  const behaviors = () => distribution().CacheBehaviors as Record<string, any>[];
  const bucketOrigin = () => (distribution().Origins as Record<string, any>[]).find((o) => JSON.stringify(o.DomainName).includes(logicalId(synth.stack.backup.publicBucket)));

  it('locks the public bucket like the private one, refuses unconditional puts, and lets only this distribution read it', () => {
    // Prepare
    const bucket = synth.resources[logicalId(synth.stack.backup.publicBucket)]?.Properties as Record<string, any>;
    const [, policy] = ofType(synth, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties?.Bucket) === JSON.stringify({ Ref: logicalId(synth.stack.backup.publicBucket) })) ?? [];
    // Act
    const statements = (policy?.Properties?.PolicyDocument as { Statement: (Statement & { Condition?: unknown; Principal?: unknown })[] }).Statement;
    // Assess
    expect(bucket.ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3650 } } });
    expect(bucket.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(statements).toContainEqual(expect.objectContaining({ Sid: 'DenyUnconditionalPuts', Effect: 'Deny', Action: 's3:PutObject' }));
    const reads = statements.filter((st) => st.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } });
    expect(JSON.stringify(reads[0]!.Condition)).toContain(logicalId(synth.stack.distribution));
  });

  it('serves the version pages and credentials from the resolver first and from the public copy on a 5xx, under the same path', () => {
    // Act
    const pages = behaviors().filter((b) => /\/p\/\*$|credential\.jwt$/.test(b.PathPattern));
    // Assess
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const behavior of pages) {
      const group = originGroupOf(distribution(), behavior.TargetOriginId);
      expect(group?.FailoverCriteria.StatusCodes.Items).toEqual([...FAILOVER_STATUS_CODES]);
      expect(group?.Members.Items[1]?.OriginId).toBe(bucketOrigin()?.Id);
    }
  });

  it('serves /backup/{key} from the public copy alone, the prefix dropped by its viewer-request function', () => {
    // Prepare
    const behavior = behaviors().find((b) => b.PathPattern === BACKUP_PATH_PATTERN);
    const fn = synth.resources[behavior?.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0]]?.Properties as { FunctionCode: string };
    const run = new Function('event', `${fn.FunctionCode}\nreturn handler(event);`) as (event: unknown) => { uri: string };
    // Act
    const request = run({ request: { uri: '/backup/org_0123456789abcdef/live/p/04006381333931/3/passport.json', headers: {} } });
    // Assess
    expect(behavior?.TargetOriginId).toBe(bucketOrigin()?.Id);
    expect(behavior).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https' });
    expect(request.uri).toBe('/org_0123456789abcdef/live/p/04006381333931/3/passport.json');
  });

  it('tells the functions where the public copy is served: under /backup on the resolver origin, or the context value backupPublicOrigin', () => {
    // Prepare
    const custom = synthesize({}, { backupPublicOrigin: 'https://backup.passports.example' });
    const envOf = (s: Synthesized) => (s.resources[logicalId(s.stack.backup.function)]?.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment.Variables;
    // Act
    const byDefault = JSON.stringify(envOf(synth).BACKUP_PUBLIC_ORIGIN);
    // Assess
    expect(byDefault).toContain(logicalId(synth.stack.distribution));
    expect(byDefault).toContain('/backup');
    expect(envOf(custom).BACKUP_PUBLIC_ORIGIN).toBe('https://backup.passports.example');
    expect(envOf(synth).BACKUP_PUBLIC_BUCKET).toEqual({ Ref: logicalId(synth.stack.backup.publicBucket) });
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

describe('the store in another region and account (docs/backup.md#another-region-or-account)', () => {
  const context = { backupRegion: 'eu-west-1', account: '111111111111', backupAccount: '222222222222' };
  const writerRole = 'arn:aws:iam::111111111111:role/PassportTest-backup-writer';
  const remote = () => {
    const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    const backup = backupStoreFromContext(app.node, 'PassportTest');
    if (!backup) throw new Error('no backup store in the context');
    const stack = new BackupStoreStack(app, 'PassportTestBackup', backup.stack);
    return { app, backup, stack, resources: Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }> };
  };

  it('keeps the locked buckets and their key in a stack of that region and account, open to the service\'s backup role and distributions only', () => {
    // Act
    const { stack, resources } = remote();
    const of = (type: string) => Object.values(resources).filter((r) => r.Type === type);
    const policyOf = (name: string) => JSON.stringify(of('AWS::S3::BucketPolicy').find((p) => JSON.stringify(p.Properties.Bucket).includes(logicalIdIn(resources, name)))?.Properties.PolicyDocument);
    // Assess
    expect([stack.region, stack.account]).toEqual(['eu-west-1', '222222222222']);
    const buckets = of('AWS::S3::Bucket').map((b) => b.Properties);
    expect(buckets.map((b) => b.BucketName).sort()).toEqual(['passporttest-backup-222222222222-eu-west-1', 'passporttest-backup-public-222222222222-eu-west-1']);
    for (const bucket of buckets) expect(bucket.ObjectLockConfiguration).toEqual({ ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3650 } } });
    expect(policyOf('passporttest-backup-222222222222-eu-west-1')).toContain(writerRole);
    expect(policyOf('passporttest-backup-222222222222-eu-west-1')).toContain('DenyUnconditionalPuts');
    expect(policyOf('passporttest-backup-public-222222222222-eu-west-1')).toContain('"AWS:SourceAccount":"111111111111"');
    expect(JSON.stringify(of('AWS::KMS::Key')[0]?.Properties.KeyPolicy)).toContain(writerRole);
    expect(of('AWS::KMS::Alias')[0]?.Properties.AliasName).toBe('alias/PassportTest-backup');
  });

  it('writes there from the service\'s stack: no bucket of its own, the store\'s region and names, the role by its fixed name, the key by its alias', () => {
    // Prepare
    const { backup } = remote();
    // Act
    const service = synthesize({ backupStore: backup.service }, context);
    const fn = service.resources[logicalId(service.stack.backup.function)]?.Properties as { Environment: { Variables: Record<string, unknown> } };
    const role = service.resources[logicalId(service.stack.backup.function.role as never)]?.Properties as { RoleName: string };
    const statements = ofType(service, 'AWS::IAM::Policy').flatMap(([, p]) => (p.Properties?.PolicyDocument as { Statement: (Statement & { Sid?: string; Condition?: unknown })[] }).Statement);
    // Assess
    expect(ofType(service, 'AWS::S3::Bucket').filter(([, b]) => (b.Properties as { ObjectLockEnabled?: boolean }).ObjectLockEnabled)).toEqual([]);
    expect(fn.Environment.Variables).toMatchObject({ BACKUP_REGION: 'eu-west-1', BACKUP_BUCKET: 'passporttest-backup-222222222222-eu-west-1', BACKUP_PUBLIC_BUCKET: 'passporttest-backup-public-222222222222-eu-west-1' });
    expect(role.RoleName).toBe('PassportTest-backup-writer');
    expect(statements).toContainEqual(expect.objectContaining({ Sid: 'BackupKey', Condition: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': 'alias/PassportTest-backup' } } }));
    expect(JSON.stringify((single(service, 'AWS::CloudFront::Distribution').DistributionConfig as { Origins: unknown[] }).Origins)).toContain('passporttest-backup-public-222222222222-eu-west-1');
  });

  it('refuses backupRegion without the service\'s account, which the store\'s policies name', () => {
    // Act / Assess
    const app = new App({ context: { backupRegion: 'eu-west-1' } });
    expect(() => backupStoreFromContext(app.node, 'PassportTest')).toThrow(/context value account/);
  });

  it('reports no unacknowledged AwsSolutions finding on the backup stack', () => {
    // Prepare
    const { app, stack } = remote();
    // Act
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    // Assess
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});

/** The logical id of the bucket named `name` in a template's resources. */
function logicalIdIn(resources: Record<string, { Type: string; Properties: Record<string, any> }>, name: string): string {
  return Object.entries(resources).find(([, r]) => r.Type === 'AWS::S3::Bucket' && r.Properties.BucketName === name)?.[0] ?? '';
}
