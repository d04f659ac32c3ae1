import { config } from '../config.ts';
import { provisionTenant } from '../data/cloudfront-tenants.ts';
import { deleteDomain, findDomainByHostname, getDomain, insertDomain, listDomains, markVerified, readDefault, setDefault } from '../data/domains.ts';
import { lookupTxt } from '../data/dns.ts';
import { eventPut } from '../data/events.ts';
import {
  DOMAIN_ID_PATTERN,
  toDomainView,
  hostnameProblem,
  newVerificationValue,
  testingNameProblem,
  verificationRecordName,
  type CreateDomainInput,
  type DomainRecord,
} from '../domain/domain.ts';
import { newEvent, type EventType, type Origin } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import type { Tenant } from '../domain/tenant.ts';
import { DuplicateError, NotFoundError, ValidationError } from '../http/errors.ts';

/**
 * Brand-owned resolver domains of an organization (docs/brand-domains.md): created pending with a
 * TXT record to publish, verified over DNS, claimed by one organization at most, one of them the
 * organization's live default.
 *
 * Each change writes its event (docs/lifecycle.md#event-log) in the same transaction. A domain
 * belongs to the organization, not to one environment: its events go to the log of the tenant the
 * caller works in (`Tenant`). A call that changes nothing (verifying a verified domain, setting the
 * default it already has) writes no event; neither does a refused one (a failed DNS check stores
 * nothing).
 */

/** A domain's read form, with the CNAME target of this deployment (BRAND_CNAME_TARGET) once it is verified. */
export const domainView = (domain: DomainRecord) => toDomainView(domain, config().brandCnameTarget ?? null);

const domainEvent = (tenant: Tenant, type: EventType, domain: DomainRecord, origin: Origin, now: string) =>
  eventPut(tenant, newEvent(type, domainView(domain), origin, now));

/** The platform's own hosts, which no brand may claim (nor names under them). */
function platformHosts(): string[] {
  const { resolverOrigin, publicApiOrigin } = config();
  return [...new Set([resolverOrigin, publicApiOrigin].map((origin) => new URL(origin).hostname.toLowerCase()))];
}

const takenElsewhere = (hostname: string) =>
  new DuplicateError(`${hostname} is already verified by another organization.`, {
    param: 'hostname',
    suggestion: 'Use another hostname, or ask the organization that verified it to delete its domain.',
  });

/**
 * Whether this is a local stack: the platform's resolver is on a loopback host over plain HTTP (the
 * local stack and the tests; in AWS RESOLVER_ORIGIN of the API functions is always an https
 * CloudFront or custom domain). Only there may a brand domain be a documentation or testing name
 * (`*.example`, `*.test`): the stack's own DNS server answers its TXT record (docs/brand-domains.md#locally),
 * as event subscriptions may use loopback addresses only there (docs/webhooks-outbound.md#ssrf).
 */
function localStack(): boolean {
  const { protocol, hostname } = new URL(config().resolverOrigin);
  return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

export async function createDomain(tenant: Tenant, input: CreateDomainInput, origin: Origin, now = new Date().toISOString()): Promise<DomainRecord> {
  const { orgId } = tenant;
  const problem = hostnameProblem(input.hostname, platformHosts()) ?? (localStack() ? undefined : testingNameProblem(input.hostname));
  if (problem) throw new ValidationError(problem, 'hostname');
  if ((await listDomains(orgId)).some((d) => d.hostname === input.hostname)) {
    throw new DuplicateError(`Your organization already has the domain ${input.hostname}.`, { param: 'hostname' });
  }
  const domain: DomainRecord = {
    domainId: newSortableId('dom'),
    orgId,
    hostname: input.hostname,
    status: 'pending',
    default: false,
    verification: { name: verificationRecordName(input.hostname), value: newVerificationValue() },
    createdAt: now,
    updatedAt: now,
  };
  if ((await insertDomain(domain, [domainEvent(tenant, 'domain.created', domain, origin, now)])) === 'verified-elsewhere') throw takenElsewhere(domain.hostname);
  return domain;
}

/** The organization's domain, or 404 (also for another organization's domain). */
export async function requireDomain(orgId: string, domainId: string): Promise<DomainRecord> {
  const domain = DOMAIN_ID_PATTERN.test(domainId) ? await getDomain(orgId, domainId) : undefined;
  if (!domain) throw new NotFoundError(`No domain with id '${domainId}'.`, { param: 'domainId' });
  return domain;
}

export const domainsOf = (orgId: string): Promise<DomainRecord[]> => listDomains(orgId);

const quoted = (values: string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * Looks the domain's TXT record up over DNS; when it holds the expected value, claims the
 * hostname for the organization (a conditional write: 409 if another organization verified it
 * first) and, in AWS, creates its CloudFront distribution tenant. A verified domain stays verified.
 */
export async function verifyDomain(tenant: Tenant, domain: DomainRecord, origin: Origin, now = new Date().toISOString()): Promise<DomainRecord> {
  if (domain.status === 'verified') return domain;
  const { name, value } = domain.verification;
  const found = await lookupTxt(name);
  if (found === 'unavailable') {
    throw new ValidationError(`The DNS lookup of the TXT record ${name} failed; nothing was verified.`, 'verification', 'Try again in a minute.');
  }
  if (!found.includes(value)) {
    throw new ValidationError(
      found.length === 0
        ? `No TXT record found at ${name}; it must hold "${value}".`
        : `The TXT record at ${name} holds ${quoted(found)}, not "${value}".`,
      'verification',
      `Create a TXT record named ${name} with the value ${value}, wait for DNS to publish it, then verify again.`,
    );
  }
  const claim = await findDomainByHostname(domain.hostname);
  if (claim?.status === 'verified' && claim.domainId !== domain.domainId) throw takenElsewhere(domain.hostname);
  // Before the claim is written: a failure here leaves the domain pending, and a retry finds the tenant made.
  await provisionTenant(domain);
  const verified: DomainRecord = { ...domain, status: 'verified', verifiedAt: now, updatedAt: now };
  const outcome = await markVerified(domain, now, [domainEvent(tenant, 'domain.verified', verified, origin, now)]);
  if (outcome === 'verified-elsewhere') throw takenElsewhere(domain.hostname);
  if (outcome === 'gone') throw new NotFoundError(`No domain with id '${domain.domainId}'.`, { param: 'domainId' });
  return verified;
}

/**
 * `default: true` makes a verified domain the organization's live default (the previous default
 * stops being it, in the same transaction); `false` stops it being the default. The previous
 * default is the pointer itself, read consistently (not the domains' flags), so a pointer to a
 * domain that no longer exists is overwritten rather than blocking every later change. The write is
 * conditional on the domain still existing and verified (docs/security.md, finding 4): 404 when it
 * was deleted meanwhile, 409 when another change of the default won the race.
 */
export async function setDefaultDomain(tenant: Tenant, domain: DomainRecord, value: boolean, origin: Origin, now = new Date().toISOString()): Promise<DomainRecord> {
  if (domain.default === value) return domain;
  if (value && domain.status !== 'verified') {
    throw new ValidationError('Only a verified domain can be the default; verify it first.', 'default');
  }
  const previous = value ? await readDefault(domain.orgId) : undefined;
  const updated: DomainRecord = { ...domain, default: value, updatedAt: now };
  if ((await setDefault(domain, value, previous, now, [domainEvent(tenant, 'domain.updated', updated, origin, now)])) === 'conflict') {
    if (!(await getDomain(domain.orgId, domain.domainId, true))) throw new NotFoundError(`No domain with id '${domain.domainId}'.`, { param: 'domainId' });
    throw new DuplicateError('The default domain changed while this request ran; read the domains again and retry.', { param: 'default' });
  }
  return updated;
}

/**
 * Deletes the domain and frees its hostname (the claim goes with it if it is this domain's), and
 * the default pointer with it when it is the default, conditional on what was read and retried
 * against a fresh read (lib/data/domains.ts): 404 when a concurrent delete won.
 */
export async function removeDomain(tenant: Tenant, domain: DomainRecord, origin: Origin, now = new Date().toISOString()): Promise<void> {
  const outcome = await deleteDomain(domain, (current) => [domainEvent(tenant, 'domain.deleted', current, origin, now)]);
  if (outcome === 'gone') throw new NotFoundError(`No domain with id '${domain.domainId}'.`, { param: 'domainId' });
  if (outcome === 'conflict') {
    throw new DuplicateError('The domain changed while this request ran; read it again and retry.', { param: 'domainId' });
  }
}
