import { Resolver } from 'node:dns/promises';
import { config } from '../config.ts';

/**
 * TXT records over DNS, for verifying brand domains (docs/brand-domains.md): from DNS_SERVER
 * when it is set (locally the stack's own server, infra/local/dns.ts), else the system's resolvers.
 */
let resolver: Resolver | undefined;

function dns(): Resolver {
  if (resolver) return resolver;
  resolver = new Resolver({ timeout: 3000, tries: 2 });
  const { dnsServer } = config();
  if (dnsServer) resolver.setServers([dnsServer]);
  return resolver;
}

/** Codes meaning "no such record": the answer is an empty list, not an error. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * The TXT values published at `name` (each record's strings joined, as RFC 7208 reads them), or
 * 'unavailable' when DNS did not answer (timeout, server failure).
 */
export async function lookupTxt(name: string): Promise<string[] | 'unavailable'> {
  try {
    return (await dns().resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code && NO_RECORD.has(code) ? [] : 'unavailable';
  }
}
