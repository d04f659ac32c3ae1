import { CloudFrontClient, CreateDistributionTenantCommand } from '@aws-sdk/client-cloudfront';
import { config } from '../config.ts';

/**
 * Brand domains on CloudFront (docs/brand-domains.md): a verified hostname becomes a distribution
 * tenant of the multi-tenant (SaaS) distribution CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID, with a
 * CloudFront-managed ACM certificate that CloudFront validates itself once the brand's CNAME
 * points at the distribution. Without the setting (locally) nothing is created.
 */
let client: CloudFrontClient | undefined;
// CloudFront's API lives in us-east-1 whatever the stack's region.
const cloudfront = (): CloudFrontClient => (client ??= new CloudFrontClient({ region: 'us-east-1' }));

/** The tenant's name: unique in the account, from the domain id (letters, digits, hyphens). */
export const tenantName = (domainId: string): string => `passport-${domainId.replace(/_/g, '-')}`;

/**
 * Creates the distribution tenant serving `hostname` ('created'), or finds it already made by an
 * earlier verification ('exists'); 'disabled' when no multi-tenant distribution is configured.
 */
export async function provisionTenant(domain: { domainId: string; orgId: string; hostname: string }): Promise<'created' | 'exists' | 'disabled'> {
  const distributionId = config().cloudfrontMultiTenantDistributionId;
  if (!distributionId) return 'disabled';
  try {
    await cloudfront().send(
      new CreateDistributionTenantCommand({
        DistributionId: distributionId,
        Name: tenantName(domain.domainId),
        Domains: [{ Domain: domain.hostname }],
        ManagedCertificateRequest: {
          // CloudFront serves ACM's HTTP validation token itself once the CNAME points at it.
          ValidationTokenHost: 'cloudfront',
          PrimaryDomainName: domain.hostname,
          CertificateTransparencyLoggingPreference: 'enabled',
        },
        Enabled: true,
        Tags: {
          Items: [
            { Key: 'orgId', Value: domain.orgId },
            { Key: 'domainId', Value: domain.domainId },
          ],
        },
      }),
    );
    return 'created';
  } catch (error) {
    if (error instanceof Error && error.name === 'EntityAlreadyExists') return 'exists';
    throw error;
  }
}
