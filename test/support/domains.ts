import { randomBytes } from 'node:crypto';
import { markVerified } from '../../lib/data/domains.ts';
import { createDomain } from '../../lib/services/domains.ts';
import { SERVICE_ORIGIN } from '../../lib/services/service-origin.ts';

/**
 * A verified brand domain of `orgId` on a fresh hostname, for suites that need one to exist
 * (fuzz, contract): made through the service and marked verified in the table directly, as a TXT
 * lookup would leave it (test/integration/domains.test.ts verifies over DNS).
 */
export async function verifiedDomainId(orgId: string): Promise<string> {
  const domain = await createDomain({ orgId, environment: 'live' }, { hostname: `fx${randomBytes(5).toString('hex')}.fixture.example` }, SERVICE_ORIGIN);
  if ((await markVerified(domain, new Date().toISOString())) !== 'verified') throw new Error('could not verify the fixture domain');
  return domain.domainId;
}
