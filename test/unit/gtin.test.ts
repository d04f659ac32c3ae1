import { describe, expect, it } from 'vitest';
import { checkDigit, normalizeGtin } from '../../lib/domain/gtin.ts';
import { digitalLinkUri, parseGtinPath } from '../../lib/domain/digital-link.ts';

describe('normalizeGtin', () => {
  it.each([
    ['96385074', '00000096385074'],
    ['036000291452', '00036000291452'],
    ['4006381333931', '04006381333931'],
    ['10012345678902', '10012345678902'],
  ])('accepts %s as %s', (input, gtin14) => {
    expect(normalizeGtin(input)).toEqual({ ok: true, gtin14 });
  });

  it.each([
    ['4006381333932', 'check digit'],
    ['1234567', '8, 12, 13 or 14'],
    ['123456789012345', '8, 12, 13 or 14'],
    ['40063813339a1', 'digits only'],
    ['', 'digits only'],
  ])('rejects %s (%s)', (input, reason) => {
    const result = normalizeGtin(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('computes the GS1 mod-10 check digit', () => {
    expect(checkDigit('400638133393')).toBe(1);
    expect(checkDigit('9638507')).toBe(4);
    expect(checkDigit('1001234567890')).toBe(2);
  });
});

describe('digitalLinkUri', () => {
  it('puts the tenant in the custom path before the /01/ primary key', () => {
    expect(digitalLinkUri('https://id.example.com/', { orgId: 'org_a', environment: 'live' }, '04006381333931')).toBe(
      'https://id.example.com/org_a/live/01/04006381333931',
    );
  });
});

describe('parseGtinPath', () => {
  it('accepts qualifiers in the order 22, 10, 21, or 235 alone, and normalizes the GTIN', () => {
    expect(parseGtinPath('4006381333931', ['22', 'A', '10', 'LOT/1', '21', 'S1'])).toEqual({
      ok: true,
      gtin14: '04006381333931',
      qualifiers: { '22': 'A', '10': 'LOT/1', '21': 'S1' },
    });
    expect(parseGtinPath('04006381333931', ['235', 'TPX123'])).toMatchObject({ ok: true });
  });

  it.each([
    [['10'], 'pairs'],
    [['21', 'A', '10', 'B'], 'order'],
    [['10', 'A', '10', 'B'], 'order'],
    [['99', 'X'], 'not a key qualifier'],
    [['235', 'X', '21', 'Y'], 'not a key qualifier'],
    [['10', 'L'.repeat(21)], '1 to 20'],
    [['10', 'é'], 'character set 82'],
  ])('rejects %j (%s)', (segments, reason) => {
    const result = parseGtinPath('4006381333931', segments);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});
