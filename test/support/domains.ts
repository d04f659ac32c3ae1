import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { dnsRecordsFile, setTxtRecords } from '../../infra/local/dns.ts';
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

/**
 * Publishes TXT values at `name` on the suite's DNS server by writing the records file that
 * `npm run admin -- dns set-txt` writes (the server reads it on every query, docs/brand-domains.md):
 * the same records without a CLI process of seconds each. test/integration/domains.test.ts runs the
 * CLI itself in its whole flow.
 */
export function publishTxt(name: string, values: readonly string[]): void {
  setTxtRecords(dnsRecordsFile(inject('dataDir'), inject('stack').port), name, [...values]);
}
