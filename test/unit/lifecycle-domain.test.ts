import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passportDigest, verifyChain } from '../../lib/domain/digest.ts';
import { jcs } from '../../lib/domain/jcs.ts';
import { mergePatch } from '../../lib/domain/merge-patch.ts';
import { nextPassportVersion } from '../../lib/domain/passport-version.ts';

describe('jcs (RFC 8785)', () => {
  it('writes the RFC’s own example exactly: sorted by UTF-16 code units, ECMAScript numbers, minimal escapes', () => {
    // Prepare: the input of RFC 8785 §3.2.2 / Appendix (numbers, literals, strings, sorting)
    const input = { numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001], string: '€$\u000f\nA\'B"\\\\"/', literals: [null, true, false] };
    // Act
    const out = jcs(input);
    // Assess
    expect(out).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('agrees with the canonicalize package on any JSON value', () => {
    // Prepare
    const json = fc.jsonValue({ maxDepth: 4 });
    // Act & Assess
    fc.assert(fc.property(json, (value) => jcs(value) === canonicalize(value)), { numRuns: 500, seed: 20261123 });
  });

  it('refuses what JSON cannot carry instead of writing something else', () => {
    expect(() => jcs({ a: Number.NaN })).toThrow(TypeError);
    expect(() => jcs({ a: 1n })).toThrow(TypeError);
  });
});

describe('mergePatch (RFC 7396 Appendix A)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('keeps a "__proto__" member a plain member, changing no prototype', () => {
    // Prepare
    const patch = JSON.parse('{"data": {"__proto__": {"polluted": true}}}') as unknown;
    // Act
    const merged = mergePatch({ data: {} }, patch) as { data: Record<string, unknown> };
    // Assess
    expect(Object.keys(merged.data)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged.data)).toBe(Object.prototype);
  });
});

describe('the digest chain', () => {
  const product = { productId: '01890a5d-ac96-774b-bcce-b302099a8057', gtin: '04006381333931', passportVersion: 0 };

  function chainOf(count: number) {
    const versions = [];
    let current: { productId: string; gtin: string; passportVersion: number; passportDigest?: string } = product;
    for (let i = 0; i < count; i++) {
      const version = nextPassportVersion(current, { vintage: 2020 + i }, `2026-11-2${i}T10:00:00.000Z`);
      versions.push(version);
      current = { ...current, passportVersion: version.version, passportDigest: version.digest };
    }
    return versions;
  }

  it('digests exactly the six members, so an outsider with canonicalize gets the same value', async () => {
    // Prepare
    const { createHash } = await import('node:crypto');
    const [v1] = chainOf(1);
    // Act
    const outsider = `sha256:${createHash('sha256').update(canonicalize({ data: v1!.data, gtin: v1!.gtin, previousDigest: null, productId: v1!.productId, publishedAt: v1!.publishedAt, version: 1 }) ?? '').digest('hex')}`;
    // Assess
    expect(v1!.digest).toBe(outsider);
    expect(v1!.previousDigest).toBeNull();
  });

  it('finds an intact chain intact, and names the first version where data, a link or a version is wrong', () => {
    // Prepare
    const chain = chainOf(4);
    const forged = chain.map((v, i) => (i === 1 ? { ...v, data: { vintage: 1999 } } : v));
    const relinked = chain.map((v, i) => (i === 2 ? { ...v, previousDigest: chain[0]!.digest } : v));
    const gap = [chain[0]!, chain[2]!, chain[3]!];
    // Act & Assess
    expect(verifyChain(chain)).toBeUndefined();
    expect(verifyChain(forged)).toMatchObject({ version: 2, problem: 'digest' });
    expect(verifyChain(relinked)).toMatchObject({ version: 3, problem: 'previousDigest' });
    expect(verifyChain(gap)).toMatchObject({ version: 2, problem: 'gap' });
  });

  it('changes the digest when any one of the six members changes', () => {
    const base = { data: { vintage: 2020 }, gtin: '04006381333931', previousDigest: null, productId: product.productId, publishedAt: '2026-11-23T10:00:00.000Z', version: 1 };
    const digests = new Set([
      passportDigest(base),
      passportDigest({ ...base, data: { vintage: 2021 } }),
      passportDigest({ ...base, gtin: '04006381333948' }),
      passportDigest({ ...base, previousDigest: `sha256:${'0'.repeat(64)}` }),
      passportDigest({ ...base, productId: '01890a5d-ac96-774b-bcce-b302099a8058' }),
      passportDigest({ ...base, publishedAt: '2026-11-23T10:00:00.001Z' }),
      passportDigest({ ...base, version: 2 }),
    ]);
    expect(digests.size).toBe(7);
  });
});
