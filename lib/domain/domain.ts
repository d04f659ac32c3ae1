import * as z from 'zod';
import { normalizeHostname } from './hostname.ts';
import { randomString } from './ids.ts';

export { normalizeHostname };

/**
 * Brand-owned resolver domains (docs/brand-domains.md): a hostname such as `id.brand.example`
 * that an organization proves it controls with a DNS TXT record, then prints on its packaging.
 */
export const DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export interface DomainRecord {
  domainId: string;
  orgId: string;
  /** Lower-case, no trailing dot. */
  hostname: string;
  status: DomainStatus;
  /** The organization's live default: new live products' qrCodeUrl use it. */
  default: boolean;
  /** The TXT record that proves control: `name` holds `value`. */
  verification: { name: string; value: string };
  createdAt: string;
  updatedAt: string;
  verifiedAt?: string;
}

export const DOMAIN_ID_PATTERN = /^dom_[0-9a-z]{20}$/;

/** The label of the TXT record that proves control of `hostname`. */
export const TXT_RECORD_LABEL = '_passport-challenge';
export const verificationRecordName = (hostname: string): string => `${TXT_RECORD_LABEL}.${hostname}`;
/** The value the TXT record must hold: unguessable, so only someone told it can publish it. */
export const newVerificationValue = (): string => `passport-verification=${randomString(32)}`;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Why `hostname` (already lower-case) cannot be a brand domain, or undefined when it can: a DNS
 * hostname of letters, digits and hyphens (labels of 1 to 63 characters, 253 in all, at least two
 * labels, a top-level label that is not all digits), not an IP address, not `localhost` (nor
 * `localhost.…`), not a special-use name (ALWAYS_SPECIAL; the testing names are testingNameProblem's),
 * no wildcard, and not the platform's own resolver host or a name under it (`platformHosts`).
 */
export function hostnameProblem(hostname: string, platformHosts: readonly string[] = []): string | undefined {
  if (hostname === '') return 'hostname must name a host, such as id.brand.example.';
  if (hostname.includes('*')) return 'hostname must not be a wildcard: name one host, such as id.brand.example.';
  if (hostname.includes('@')) return 'hostname must be the host alone, without a user name (the part before @).';
  if (hostname.startsWith('[') || IPV4.test(hostname) || /^[0-9a-f]*:[0-9a-f:]*$/.test(hostname)) return 'hostname must be a domain name, not an IP address.';
  if (/:\d*$/.test(hostname)) return 'hostname must be the host alone, without a port (the part from :).';
  if (hostname.includes(':')) return 'hostname must be a DNS hostname: letters, digits, hyphens and dots, without a scheme, port or path.';
  if (hostname.endsWith('.')) return 'hostname must not end with a dot.';
  if (hostname.length > 253) return 'hostname must be at most 253 characters.';
  const labels = hostname.split('.');
  if (labels.length < 2) return 'hostname must have at least two labels, such as id.brand.example.';
  for (const label of labels) {
    if (label.length > 63) return 'hostname must have labels of at most 63 characters.';
    if (!LABEL.test(label)) {
      return 'hostname must be a DNS hostname: labels of letters, digits and hyphens, not starting or ending with a hyphen, separated by dots.';
    }
  }
  if (/^\d+$/.test(labels.at(-1) ?? '')) return 'hostname must be a domain name, not an IP address.';
  if (labels.at(-1) === 'localhost' || labels[0] === 'localhost') return 'hostname must not be localhost, a name under it, or a local alias of it such as localhost.localdomain.';
  const special = specialUseName(hostname, ALWAYS_SPECIAL);
  if (special) return `hostname must be a public domain name: ${special} is reserved for special use (no brand can own it).`;
  for (const platform of platformHosts) {
    if (hostname === platform || hostname.endsWith(`.${platform}`)) return `hostname must be your own domain, not ${platform} or a name under it.`;
  }
  return undefined;
}

/**
 * Special-use domain names a brand can never own (docs/security.md, finding 11): a name equal to or
 * under one of them is refused. From the IANA Special-Use Domain Names registry (RFC 6761 and the
 * RFCs that add to it): `invalid` (RFC 6761), `local` (RFC 6762, multicast DNS), `onion` (RFC 7686),
 * `alt` (RFC 9476), `home.arpa` (RFC 8375) and the rest of `arpa` (the infrastructure domain:
 * reverse mapping, `ipv4only.arpa`, …); `localhost` is refused above. Beyond the registry:
 * `internal` (reserved for private use by ICANN in 2024), `localdomain` (the hosts-file alias of
 * localhost), and the private-namespace names RFC 6762 Appendix G advises against
 * (`intranet`, `private`, `corp`, `home`, `lan`), which no public DNS delegates.
 */
const ALWAYS_SPECIAL = ['invalid', 'local', 'onion', 'alt', 'arpa', 'internal', 'localdomain', 'intranet', 'private', 'corp', 'home', 'lan'] as const;
/**
 * The registry's names for documentation and testing (RFC 6761): `example`, `example.com`,
 * `example.net`, `example.org`, `test`. Refused too, except on a local stack, whose own DNS server
 * answers for them (testingNameProblem; docs/brand-domains.md#locally).
 */
const TESTING_NAMES = ['example', 'example.com', 'example.net', 'example.org', 'test'] as const;

/** The special-use name of `names` that `hostname` is or is under, if any. */
function specialUseName(hostname: string, names: readonly string[]): string | undefined {
  return names.find((name) => hostname === name || hostname.endsWith(`.${name}`));
}

/**
 * Why `hostname` cannot be a brand domain because it is a documentation or testing name of RFC 6761
 * (`example`, `example.com/.net/.org`, `test` and names under them), or undefined. The service
 * applies it unless it runs as a local stack (lib/services/domains.ts).
 */
export function testingNameProblem(hostname: string): string | undefined {
  const name = specialUseName(hostname, TESTING_NAMES);
  return name ? `hostname must be a public domain name: ${name} is reserved for documentation and testing (no brand can own it).` : undefined;
}

/**
 * hostnameProblem's rules as the OpenAPI document states them: dot-separated DNS labels (at least
 * two), the last one starting with a letter (so never all digits or an IPv4 address), and not
 * localhost (`not`). Stricter than the check only in refusing a top-level label that starts with a
 * digit; the platform's own hosts, a deployment setting, are in the description.
 */
const HOSTNAME_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const HOSTNAME_PATTERN = new RegExp(`^(?:${HOSTNAME_LABEL}\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`);

export const createDomainSchema = z.strictObject({
  hostname: z
    .string({ error: (i) => (i.input === undefined ? 'hostname is required.' : 'hostname must be a string.') })
    .trim()
    .min(1, { error: 'hostname must not be empty.' })
    .max(2048, { error: 'hostname is too long: a hostname has at most 253 characters.' })
    .meta({
      description:
        "The host to print on packaging, such as id.brand.example (letters are read in lower case; a pasted address such as https://id.brand.example/ is read as its host: the scheme, the path and a trailing dot are removed): a DNS hostname, not localhost, not a special-use name (invalid, local, onion, alt, arpa, internal, example, test, …: docs/brand-domains.md), not the platform's own resolver host or a name under it",
      example: 'id.brand.example',
      pattern: HOSTNAME_PATTERN.source,
      not: { pattern: '(?:^|\\.)[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]$' },
    })
    .transform(normalizeHostname)
    .superRefine((v, ctx) => {
      const problem = hostnameProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: v });
    }),
});
export type CreateDomainInput = z.infer<typeof createDomainSchema>;

export const updateDomainSchema = z.strictObject({
  default: z.boolean({ error: (i) => (i.input === undefined ? 'default is required.' : 'default must be true or false.') }).meta({
    description: 'true makes this verified domain the organization’s live default (the previous default stops being it); false stops it being the default',
  }),
});
export type UpdateDomainInput = z.infer<typeof updateDomainSchema>;

export const domainSchema = z
  .object({
    id: z.string().regex(DOMAIN_ID_PATTERN),
    hostname: z.string(),
    status: z.enum(DOMAIN_STATUSES),
    default: z.boolean(),
    verification: z.object({
      type: z.literal('TXT'),
      name: z.string().describe('The DNS name of the TXT record to create'),
      value: z.string().describe('The value the TXT record must hold'),
    }),
    cname: z
      .object({
        type: z.literal('CNAME'),
        name: z.string().describe('The DNS name of the CNAME record: the hostname'),
        target: z.string().nullable().describe("The host it points at: the brand distribution's endpoint (null when the deployment does not name it: the operator gives it)"),
      })
      .nullable()
      .describe('Once verified: the CNAME record that points the hostname at the resolver (null while pending)'),
    createdAt: z.iso.datetime(),
    verifiedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof domainSchema>;

export const domainListSchema = z.object({ data: z.array(domainSchema) }).meta({ id: 'DomainList' });
export type DomainList = z.infer<typeof domainListSchema>;

/** The read form; `cnameTarget` is the deployment's brand endpoint (lib/services/domains.ts domainView), null when it names none. */
export const toDomainView = (d: DomainRecord, cnameTarget: string | null = null): Domain => ({
  id: d.domainId,
  hostname: d.hostname,
  status: d.status,
  default: d.default,
  verification: { type: 'TXT', name: d.verification.name, value: d.verification.value },
  cname: d.status === 'verified' ? { type: 'CNAME', name: d.hostname, target: cnameTarget } : null,
  createdAt: d.createdAt,
  verifiedAt: d.verifiedAt ?? null,
});

/** The Digital Link URI of a live product of an organization with a verified default domain. */
export const brandDigitalLinkUri = (hostname: string, gtin14: string): string => `https://${hostname}/01/${gtin14}`;
