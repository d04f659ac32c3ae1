import { describe, expect, it } from 'vitest';
import { createDomainSchema, hostnameProblem, verificationRecordName } from '../../lib/domain/domain.ts';

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
