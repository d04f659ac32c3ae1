import { CloudFrontClient, CreateDistributionTenantCommand } from '@aws-sdk/client-cloudfront';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { provisionTenant, tenantName } from '../../lib/data/cloudfront-tenants.ts';

/**
 * A verified brand domain becomes a distribution tenant of the multi-tenant distribution, with a
 * CloudFront-managed certificate (docs/brand-domains.md). The CloudFront API is mocked: the test
 * asserts the call AWS would receive.
 */
process.env.CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID = 'E2MULTITENANT';
const cloudfront = mockClient(CloudFrontClient);
const domain = { domainId: 'dom_0mhx3k2a1abcdefghijk', orgId: 'org_1', hostname: 'id.brand.example' };

beforeEach(() => cloudfront.reset());

describe('provisionTenant', () => {
  it('creates a distribution tenant for the hostname with a managed certificate that CloudFront validates', async () => {
    // Prepare
    cloudfront.on(CreateDistributionTenantCommand).resolves({ DistributionTenant: { Id: 'dt_1' } });
    // Act
    const outcome = await provisionTenant(domain);
    // Assess
    expect(outcome).toBe('created');
    const calls = cloudfront.commandCalls(CreateDistributionTenantCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      DistributionId: 'E2MULTITENANT',
      Name: 'passport-dom-0mhx3k2a1abcdefghijk',
      Domains: [{ Domain: 'id.brand.example' }],
      ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: 'id.brand.example', CertificateTransparencyLoggingPreference: 'enabled' },
      Enabled: true,
      Tags: { Items: [{ Key: 'orgId', Value: 'org_1' }, { Key: 'domainId', Value: 'dom_0mhx3k2a1abcdefghijk' }] },
    });
  });

  it('treats a tenant an earlier verification already made as done, so verifying again is safe', async () => {
    // Prepare
    cloudfront.on(CreateDistributionTenantCommand).rejects(Object.assign(new Error('exists'), { name: 'EntityAlreadyExists' }));
    // Act
    const outcome = await provisionTenant(domain);
    // Assess
    expect(outcome).toBe('exists');
  });

  it('lets any other CloudFront failure through, so the domain stays pending and can be verified again', async () => {
    // Prepare
    cloudfront.on(CreateDistributionTenantCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    // Act
    const outcome = provisionTenant(domain);
    // Assess
    await expect(outcome).rejects.toThrow('denied');
  });

  it('names tenants from the domain id with letters, digits and hyphens only', () => {
    // Act
    const name = tenantName('dom_abc_123');
    // Assess
    expect(name).toBe('passport-dom-abc-123');
  });
});
