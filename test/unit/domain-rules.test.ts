import { describe, expect, it } from 'vitest';
import { createDomainSchema, hostnameProblem, testingNameProblem, verificationRecordName } from '../../lib/domain/domain.ts';
import { viewerHostname } from '../../lib/domain/viewer-host.ts';

/** The hostname rules of brand domains (docs/brand-domains.md). */
describe('hostnameProblem', () => {
  it.each(['id.brand.example', 'a.b', 'xn--bcher-kva.example', `${'a'.repeat(63)}.example`, '1id.brand-name.example'])('accepts %s', (hostname) => {
    // Act
    const problem = hostnameProblem(hostname, ['resolver.passport.example']);
    // Assess
    expect(problem).toBeUndefined();
  });

  it.each([
    ['10.0.0.1', 'IP address'],
    ['::1', 'IP address'],
    ['1.2.3.4567', 'IP address'],
    ['localhost', 'two labels'],
    ['id.localhost', 'localhost'],
    ['*.brand.example', 'wildcard'],
    ['brand', 'two labels'],
    ['id..brand.example', 'DNS hostname'],
    ['id-.brand.example', 'DNS hostname'],
    ['id_x.brand.example', 'DNS hostname'],
    [`${'a'.repeat(64)}.example`, '63 characters'],
    [`${'a.'.repeat(126)}example`, '253 characters'],
    ['resolver.passport.example', 'your own domain'],
    ['id.resolver.passport.example', 'your own domain'],
  ])('refuses %s, saying why (%s)', (hostname, why) => {
    // Act
    const problem = hostnameProblem(hostname, ['resolver.passport.example']);
    // Assess
    expect(problem).toMatch(/^hostname must /);
    expect(problem).toContain(why);
  });

  it('does not take a name that only ends like the platform host for one under it', () => {
    // Act
    const problem = hostnameProblem('myresolver.passport.example', ['resolver.passport.example']);
    // Assess
    expect(problem).toBeUndefined();
  });
});

describe('createDomainSchema', () => {
  it('reads the hostname in lower case, trimmed', () => {
    // Act
    const parsed = createDomainSchema.parse({ hostname: '  ID.Brand.Example ' });
    // Assess
    expect(parsed).toEqual({ hostname: 'id.brand.example' });
  });

  it('names the TXT record under the hostname', () => {
    // Act
    const name = verificationRecordName('id.brand.example');
    // Assess
    expect(name).toBe('_passport-challenge.id.brand.example');
  });
});

describe('special-use names (docs/security.md, finding 11)', () => {
  it.each([
    'localhost.localdomain',
    'id.localdomain',
    'localhost.brand.example',
    'id.brand.invalid',
    'printer.local',
    'abcdefghijklmnop.onion',
    'router.home.arpa',
    '10.in-addr.arpa',
    'ipv4only.arpa',
    'id.brand.alt',
    'id.corp.internal',
    'nas.lan',
    'wiki.intranet',
    'id.corp',
    'id.home',
    'id.private',
  ])('refuses %s as a brand domain, naming it reserved', (hostname) => {
    // Act
    const problem = hostnameProblem(hostname, ['resolver.passport.example']);
    // Assess
    expect(problem).toMatch(/reserved for special use|localhost/);
  });

  it.each(['id.brand.example', 'example', 'shop.example.com', 'a.example.net', 'b.example.org', 'id.brand.test'])(
    'leaves the documentation and testing name %s to testingNameProblem, which refuses it',
    (hostname) => {
      // Act
      const problem = testingNameProblem(hostname);
      // Assess
      expect(problem).toContain('reserved for documentation and testing');
    },
  );

  it.each(['id.brand.com', 'examples.com', 'id.testing.de', 'local.brand.com', 'onion.brand.com', 'id.arpanet.eu'])('takes %s (a special-use word as a label of a public name)', (hostname) => {
    // Act / Assess
    expect(hostnameProblem(hostname)).toBeUndefined();
    expect(testingNameProblem(hostname)).toBeUndefined();
  });
});

describe('viewerHostname (docs/security.md, finding 6)', () => {
  it('reads X-Forwarded-Host before Host, lower case, without port or trailing dot', () => {
    // Act / Assess
    expect(viewerHostname({ 'x-forwarded-host': 'ID.Brand.Example.:443, other.example', host: 'x.lambda-url.eu-central-1.on.aws' })).toBe('id.brand.example');
    expect(viewerHostname({ host: 'localhost:3000' })).toBe('localhost');
  });

  it.each([
    ['a 2,000-character host', `${'a'.repeat(50)}.`.repeat(40) + 'example'],
    ['a host of 254 characters', `${'a'.repeat(62)}.`.repeat(4) + 'ab'],
    ['an underscore', 'id_1.brand.example'],
    ['a space', 'id brand.example'],
    ['a NUL', 'id\u0000.brand.example'],
    ['an empty label', 'id..brand.example'],
    ['a port that is no number', 'id.brand.example:http'],
    ['nothing', ''],
  ])('refuses %s (undefined: nobody\'s brand host)', (_label, host) => {
    // Act / Assess
    expect(viewerHostname({ host })).toBeUndefined();
    expect(viewerHostname({ 'x-forwarded-host': host, host: 'id.brand.example' })).toBeUndefined();
  });
});

describe('createDomain outside a local stack', () => {
  it('attack: refuses a documentation or testing name (id.brand.example, id.brand.test) with 422 naming hostname, before anything is read', async () => {
    // Prepare: a deployed platform (an https resolver origin); config() is read once, so before the import
    process.env.RESOLVER_ORIGIN = 'https://resolver.passport.example.com';
    process.env.PUBLIC_API_ORIGIN = 'https://api.passport.example.com';
    const { createDomain } = await import('../../lib/services/domains.ts');
    const { SERVICE_ORIGIN } = await import('../../lib/services/service-origin.ts');
    const tenant = { orgId: 'org_0123456789abcdef', environment: 'live' as const };
    // Act
    const refusals = await Promise.all(
      ['id.brand.example', 'id.brand.test', 'shop.example.com'].map((hostname) =>
        createDomain(tenant, { hostname }, SERVICE_ORIGIN).then(
          () => undefined,
          (error: unknown) => error as { status: number; param?: string; message: string },
        ),
      ),
    );
    // Assess
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 422, param: 'hostname', message: expect.stringContaining('reserved for documentation and testing') });
    }
  });
});
