import { isEnvironment, type Tenant } from '../../../lib/domain/tenant.ts';
import type { HttpEvent } from '../../../lib/http/types.ts';
import { CONTENT_SECURITY_POLICY } from './elabel.ts';

const ORG_ID = /^org_[0-9a-z]{16}$/;

/**
 * The headers every HTML page of the resolver carries (the e-label, its version pages, the 400,
 * 404 pages): its language, the hash-based CSP, and no referrer to other sites
 * (docs/resolver.md).
 */
export const pageHeaders = (lang: string): Record<string, string> => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Language': lang,
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
});

/** The tenant a platform path names (`/{orgId}/{environment}/…`), undefined when either is malformed. */
export function tenantOfPath(event: HttpEvent): Tenant | undefined {
  const orgId = event.pathParameters?.orgId ?? '';
  const environment = event.pathParameters?.environment ?? '';
  return ORG_ID.test(orgId) && isEnvironment(environment) ? { orgId, environment } : undefined;
}
