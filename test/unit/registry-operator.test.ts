import { describe, expect, it } from 'vitest';
import { facilityGlnsSchema, registryCommodityCodeSchema } from '../../lib/domain/registry/codes.ts';
import { leiCheckDigits, mod97, operatorIdentitySchema, parseReoId, reoIdOf } from '../../lib/domain/registry/operator.ts';

/** The operator identity, the commodity code and the facility GLNs a client sends (docs/registry.md#operator-identifiers). */

/** The first issue of a failed parse: its path as a param and its message. */
function refusal(result: { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  const issue = result.error?.issues[0];
  return { param: issue?.path.join('.'), message: issue?.message ?? '' };
}

describe('operatorIdentitySchema', () => {
  it.each([
    ['LEI', '529900T8BM49AURSDO55', '529900T8BM49AURSDO55'],
    ['LEI', ' 506700ge1g29325qx363 ', '506700GE1G29325QX363'],
    ['EORI', 'DE123456789012345', 'DE123456789012345'],
    ['EORI', 'it123456789', 'IT123456789'],
    ['VAT', 'DE 123 456 789', 'DE123456789'],
    ['VAT', 'ATU12345678', 'ATU12345678'],
    ['VAT', 'NL123456789B01', 'NL123456789B01'],
    ['VAT', 'EL123456789', 'EL123456789'],
    ['GLN', '4006381000017', '4006381000017'],
  ])('takes a %s %j as %s', (scheme, identifier, normalized) => {
    // Act
    const result = operatorIdentitySchema.safeParse({ scheme, identifier });

    // Assess
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ scheme, identifier: normalized });
  });

  it.each([
    ['LEI', '529900T8BM49AURSDO56', /check digits are wrong \(expected 55/],
    ['LEI', '529900T8BM49AURSD055', /check digits are wrong/],
    ['LEI', '529900T8BM49AURSDO5', /20 characters/],
    ['LEI', '529900T8BM49AURSDO5X', /two check digits/],
    ['GLN', '4006381000018', /check digit is wrong \(expected 7/],
    ['GLN', '400638100001', /13 digits/],
    ['EORI', 'D1234', /two letters/],
    ['EORI', 'DE1234567890123456', /15 letters or digits/],
    ['VAT', 'GR123456789', /start with EL, not GR/],
    ['VAT', 'US123456789', /member state's prefix/],
    ['VAT', 'DE12345678', /national part/],
    ['VAT', 'NL123456789C01', /national part/],
  ])('refuses a %s %j, naming identifier', (scheme, identifier, reason) => {
    // Act
    const { param, message } = refusal(operatorIdentitySchema.safeParse({ scheme, identifier }));

    // Assess
    expect(param).toBe('identifier');
    expect(message).toMatch(reason);
  });

  it('refuses an unknown scheme and an unknown field, naming each', () => {
    expect(refusal(operatorIdentitySchema.safeParse({ scheme: 'DUNS', identifier: '123456789' })).param).toBe('scheme');
    expect(refusal(operatorIdentitySchema.safeParse({ scheme: 'LEI', identifier: '529900T8BM49AURSDO55', name: 'x' })).message).toMatch(/name/);
  });

  it('writes the reoId as the mock does, and reads it back', () => {
    // Prepare
    const identity = { scheme: 'EORI', identifier: 'IT123456789' } as const;

    // Act
    const reoId = reoIdOf(identity);

    // Assess
    expect(reoId).toBe('EORI-IT123456789');
    expect(parseReoId(reoId)).toEqual(identity);
    expect(parseReoId('DUNS-123')).toBeUndefined();
    expect(parseReoId('529900T8BM49AURSDO55')).toBeUndefined();
  });

  it('computes ISO 7064 MOD 97-10 as the LEI uses it: the check digits make the remainder 1', () => {
    expect(leiCheckDigits('529900T8BM49AURSDO')).toBe('55');
    expect(mod97('529900T8BM49AURSDO55')).toBe(1);
    expect(mod97('529900T8BM49AURSDO54')).not.toBe(1);
  });
});

describe('registryCommodityCodeSchema', () => {
  it.each([
    ['850760', '850760'],
    ['85076000', '85076000'],
    ['8507 60 00', '85076000'],
    ['8507600010', '8507600010'],
  ])('takes %j (HS, CN or TARIC) as %s', (input, code) => {
    expect(registryCommodityCodeSchema.parse(input)).toBe(code);
  });

  it.each([
    ['8507', /6 \(HS\), 8 \(CN\) or 10 \(TARIC\) digits; this one has 4/],
    ['8507600', /this one has 7/],
    ['850760001', /this one has 9/],
    ['85076000100', /this one has 11/],
    ['8507-60', /digits only/],
    ['', /missing/],
  ])('refuses %j', (input, reason) => {
    expect(refusal(registryCommodityCodeSchema.safeParse(input)).message).toMatch(reason);
  });
});

describe('facilityGlnsSchema', () => {
  it('takes GLNs bare or as GLN-…, and stores each as GLN-…', () => {
    expect(facilityGlnsSchema.parse(['4006381000017', 'GLN-7612345000008'])).toEqual(['GLN-4006381000017', 'GLN-7612345000008']);
  });

  it('refuses a wrong check digit naming its index, a GLN twice, and none', () => {
    expect(refusal(facilityGlnsSchema.safeParse(['4006381000017', '7612345000009']))).toEqual({ param: '1', message: expect.stringMatching(/check digit is wrong \(expected 8/) });
    expect(refusal(facilityGlnsSchema.safeParse(['4006381000017', 'GLN-4006381000017'])).message).toMatch(/twice/);
    expect(refusal(facilityGlnsSchema.safeParse([])).message).toMatch(/at least one/);
  });
});
