import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_EXPIRY_DAYS } from '../../infra/cdk/constructs/exports.ts';
import { FUNCTIONS } from '../../infra/functions.ts';
import { functionLogicalId, logicalId, ofType, roleStatements, synthesize, type Synthesized } from './template.ts';

/**
 * The exports bucket (docs/import-export.md#leaving-the-archive), by template assertions: private,
 * encrypted, TLS only, archives expiring after a week, and only the function that builds archives
 * may write and read them.
 */
let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const bucketId = () => logicalId(synth.stack.exports.bucket);

describe('the exports bucket', () => {
  it('blocks public access, encrypts, and expires every archive after 7 days and every unfinished upload after a day', () => {
    // Act
    const bucket = synth.resources[bucketId()]?.Properties as Record<string, any>;
    // Assess
    expect(bucket.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(ARCHIVE_EXPIRY_DAYS).toBe(7);
    expect(bucket.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 7, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } })]);
  });

  it('refuses every request without TLS', () => {
    // Act
    const [, policy] = ofType(synth, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties?.Bucket) === JSON.stringify({ Ref: bucketId() })) ?? [];
    // Assess
    expect(JSON.stringify(policy?.Properties?.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('is written and read by the function serving POST /v1/exports/archive only, which is told its name', () => {
    // Act
    const touching = Object.keys(FUNCTIONS).filter((name) => JSON.stringify(roleStatements(synth, name).statements).includes(bucketId()));
    const variables = (synth.resources[functionLogicalId(synth, 'credentials')]?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;
    const statement = roleStatements(synth, 'credentials').statements.find((s) => s.Sid === 'ExportsObjects');
    // Assess
    expect(touching).toEqual(['credentials']);
    expect(variables.EXPORTS_BUCKET).toEqual({ Ref: bucketId() });
    expect(statement?.Action).toEqual(['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload']);
  });

  it('leaves no unacknowledged cdk-nag finding on the bucket or the grant', () => {
    // Act
    const report = new AwsSolutionsChecks(synth.app).validateScope(synth.stack);
    const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName}: ${r.constructPath}`)).filter((f) => /Exports|Credentials/.test(f));
    // Assess
    expect(findings).toEqual([]);
  });
});
