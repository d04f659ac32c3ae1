import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildDashboardSync, DASHBOARD_FILES } from '../../dashboard/build.ts';
import { DASHBOARD_CSP } from '../../infra/local/dashboard.ts';
import { acknowledgements, logicalId, ofType, synthesize } from './template.ts';

const synth = synthesize({ dashboard: true });

describe('the dashboard in AWS', () => {
  it('keeps its files in a private, encrypted, TLS-only bucket that a BucketDeployment fills', () => {
    // Act: every bucket but the backup copies' (test/infra/backup.test.ts) and the exports bucket (test/infra/exports.test.ts)
    const buckets = ofType(synth, 'AWS::S3::Bucket').filter(([id]) => ![synth.stack.backup.bucket, synth.stack.backup.publicBucket, synth.stack.exports.bucket].some((bucket) => logicalId(bucket) === id));
    const deployments = ofType(synth, 'Custom::CDKBucketDeployment');

    // Assess
    expect(buckets).toHaveLength(1);
    expect(buckets[0]?.[1].Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    const policy = JSON.stringify(ofType(synth, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties?.Bucket) === JSON.stringify({ Ref: buckets[0]?.[0] }))?.[1].Properties);
    expect(policy).toContain('aws:SecureTransport');
    expect(policy).toContain('cloudfront.amazonaws.com');
    expect(deployments).toHaveLength(1);
    expect(deployments[0]?.[1].Properties).toMatchObject({ DestinationBucketKeyPrefix: 'dashboard/', Prune: true });
  });

  it('serves /dashboard* from the bucket through the distribution, uncached, with the dashboard CSP', () => {
    // Act
    const distribution = synth.resources[logicalId(synth.stack.distribution)]?.Properties?.DistributionConfig as {
      CacheBehaviors: Record<string, unknown>[];
    };
    const behavior = distribution.CacheBehaviors.find((b) => b.PathPattern === '/dashboard*');
    const policyId = (behavior?.ResponseHeadersPolicyId as { Ref: string } | undefined)?.Ref ?? '';
    const headers = JSON.stringify(synth.resources[policyId]?.Properties);
    const fnId = (behavior?.FunctionAssociations as { FunctionARN: { 'Fn::GetAtt': [string] } }[] | undefined)?.[0]?.FunctionARN['Fn::GetAtt'][0] ?? '';
    const fn = synth.resources[fnId]?.Properties as { FunctionCode: string };

    // Assess
    expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad' });
    expect(behavior?.FunctionAssociations).toHaveLength(1);
    expect(headers).toContain(DASHBOARD_CSP);
    expect(fn.FunctionCode).toContain("'/dashboard/index.html'");
    // One for the bucket (s3), one for the public backup copy (s3), one for the resolver's function URL (lambda).
    expect(ofType(synth, 'AWS::CloudFront::OriginAccessControl').map(([, r]) => (r.Properties?.OriginAccessControlConfig as { OriginAccessControlOriginType: string }).OriginAccessControlOriginType).sort()).toEqual(['lambda', 's3', 's3']);
  });

  it('routes GET /dashboard and /dashboard/{proxy+} on the API to it, so the dashboard shares the API\'s origin', () => {
    // Act
    const routes = ofType(synth, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey);
    const proxies = ofType(synth, 'AWS::ApiGatewayV2::Integration').filter(([, i]) => i.Properties?.IntegrationType === 'HTTP_PROXY');
    const outputs = synth.template.toJSON().Outputs as Record<string, unknown>;

    // Assess
    expect(routes).toEqual(expect.arrayContaining(['GET /dashboard', 'GET /dashboard/{proxy+}']));
    expect(proxies).toHaveLength(2);
    expect(JSON.stringify(proxies.map(([, i]) => i.Properties?.IntegrationUri))).toContain('/dashboard/{proxy}');
    expect(outputs).toHaveProperty('DashboardUrl');
  });

  it('passes cdk-nag, every acknowledgement with its reason', () => {
    // Act
    const report = new AwsSolutionsChecks(synth.app).validateScope(synth.stack);
    const acknowledged = acknowledgements(synth.stack).filter(({ path }) => /Dashboard|CDKBucketDeployment/.test(path));

    // Assess
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { id, reason } of acknowledged) expect(reason.length, id).toBeGreaterThan(60);
  });

  it('builds the files the bucket receives (what synthesis bundles), with no reference to another origin', () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-build-'));
    try {
      // Act
      buildDashboardSync(dir);
      // Assess
      for (const file of DASHBOARD_FILES) expect(existsSync(join(dir, file)), file).toBe(true);
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      expect(html).toContain('src="/dashboard/app.js"');
      expect(readFileSync(join(dir, 'app.js'), 'utf8')).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\//i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
