import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decompressDigitalLink, MAX_COMPRESSED_LENGTH } from '../../lib/domain/digital-link-compression.ts';
import { canonicalGtinPath, parseGtinPath, uncompressedGtinLink } from '../../lib/domain/digital-link.ts';

/**
 * The decompressor of compressed GS1 Digital Link URIs (docs/resolver.md#compressed-uris). The
 * vectors are GS1's own, each with its source; the expected values are what those sources give as
 * the uncompressed link.
 */
const GS1_VECTORS: ReadonlyArray<{ source: string; compressed: string; elements: Array<[string, string]>; extensions?: Array<[string, string]> }> = [
  {
    source: "GS1, GS1_DigitalLink_Resolver_CE discussion #95 (Resolver v3.0 and GS1 Digital Link Compression): https://example.com/01/05392000229648/10/LOT01/21/SERIAL01",
    compressed: 'AQnO2IRCICDKWcnpqQtCQiJABemo',
    elements: [['01', '05392000229648'], ['10', 'LOT01'], ['21', 'SERIAL01']],
  },
  {
    source: 'GS1, GS1DigitalLinkCompressionPrototype, src-decompression-only/demo-minimal3.html (optimisation code 0E: GTIN with AI 7003)',
    compressed: 'DgnYUc1gmji3NU0IREGFDTK2LJm',
    elements: [['01', '05412345000013'], ['7003', '1903061658'], ['10', 'ABC&+123']],
  },
  {
    source: 'GS1, GS1DigitalLinkCompressionPrototype, src-decompression-only/demo-minimal3.html (lot with & and +, AI 7003)',
    compressed: 'AQnYUc1gmiERBhQ0ytiyZuAGOLc1TQ',
    elements: [['01', '05412345000013'], ['10', 'ABC&+123'], ['7003', '1903061658']],
  },
  {
    source: 'GS1, GS1DigitalLinkCompressionPrototype, src-decompression-only/demo-minimal3.html (keys that are no AI compressed too: expdt, k1)',
    compressed: 'AQnYUc1gmiERBhQ0ytiyZuAGOLc1TXhXsaXbQKHFuaprwUmrBX6g',
    elements: [['01', '05412345000013'], ['10', 'ABC&+123'], ['7003', '1903061658']],
    extensions: [['expdt', '1903061658'], ['k1', 'v1']],
  },
  {
    source: 'Issue 32 of this project: the GTIN of the docs’ examples, 4006381333931, compressed',
    compressed: 'AQdJnd9bVg',
    elements: [['01', '04006381333931']],
  },
];

describe('decompressDigitalLink: GS1’s published vectors', () => {
  it.each(GS1_VECTORS.map((v) => [v.compressed, v] as const))('%s', (_name, vector) => {
    // Act
    const result = decompressDigitalLink(vector.compressed);
    // Assess
    expect(result, vector.source).toEqual({ ok: true, elements: vector.elements, extensions: vector.extensions ?? [] });
  });

  it('gives the uncompressed GTIN link: qualifiers in the path in GS1’s order, data attributes and other keys in the query', () => {
    // Prepare
    const [, , , withKeys] = GS1_VECTORS;
    const decompressed = decompressDigitalLink(withKeys!.compressed);
    if (!decompressed.ok) throw new Error(decompressed.reason);
    // Act
    const link = uncompressedGtinLink(decompressed.elements, decompressed.extensions);
    // Assess
    expect(link).toEqual({ ok: true, path: '/01/05412345000013/10/ABC%26%2B123', query: '7003=1903061658&expdt=1903061658&k1=v1' });
  });
});

/** A bit string as base64url text, the last character padded with zero bits. */
function fromBits(bits: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const padded = bits.padEnd(Math.ceil(bits.length / 6) * 6, '0');
  return padded.replace(/[01]{6}/g, (sextet) => alphabet[parseInt(sextet, 2)] ?? '');
}

describe('decompressDigitalLink: what is no compressed Digital Link', () => {
  it.each([
    ['a character outside base64url', 'AQdJnd9b.g', 'only the characters'],
    ['data cut short inside the GTIN', 'AQdJnd9b', 'ends in the middle'],
    ['padding bits that are not zero', 'AQdJnd9bVh', 'padding'],
    ['a prefix no AI starts with (04)', 'BBBBBBBB', 'No AI starts with 04'],
    ['a code no optimisation has (6D)', 'bQAAAA', 'No AI or optimisation has the code 6D'],
    ['a GTIN whose 47 bits hold more than 14 digits', fromBits(`00000001${'1'.repeat(47)}`), 'larger than its 14 digits'],
    ['a lot (AI 10) longer than 20 characters', fromBits(`00010000011${(21).toString(2)}${'000001'.repeat(21)}`), '1 to 20 characters'],
    ['an AI twice (a long run of zero bits: SSCC 00 after SSCC 00)', 'A'.repeat(40), 'appears twice'],
    ['nothing', '', 'only the characters'],
  ])('%s', (_name, segment, reason) => {
    // Act
    const result = decompressDigitalLink(segment);
    // Assess
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it(`refuses input longer than its budget of ${MAX_COMPRESSED_LENGTH} characters before decoding anything, and decodes up to it`, () => {
    // Prepare: the first 10 characters are a valid GTIN link; what follows cannot be.
    const valid = 'AQdJnd9bVg';
    const atBudget = valid + 'A'.repeat(MAX_COMPRESSED_LENGTH - valid.length);
    // Act
    const over = decompressDigitalLink(`${atBudget}A`);
    const at = decompressDigitalLink(atBudget);
    // Assess
    expect(over).toEqual({ ok: false, reason: `A compressed Digital Link has at most ${MAX_COMPRESSED_LENGTH} characters; this one has ${MAX_COMPRESSED_LENGTH + 1}.` });
    expect(at.ok).toBe(false);
    if (!at.ok) expect(at.reason).not.toContain('at most');
  });

  it('never throws: any text is a decompressed link or a reason', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), maxLength: 600 }), (segment) => {
        // Act
        const result = decompressDigitalLink(segment);
        // Assess
        if (result.ok) expect(result.elements.length).toBeGreaterThan(0);
        else expect(result.reason.length).toBeGreaterThan(0);
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });
});

describe('uncompressedGtinLink', () => {
  it('names a link of another primary key, and one with two primary keys, for what they are', () => {
    // Act
    const sscc = uncompressedGtinLink([['00', '998440410914660971']]);
    const two = uncompressedGtinLink([['01', '05412345000013'], ['414', '5060917510004']]);
    // Assess
    expect(sscc).toMatchObject({ ok: false, kind: 'other-key' });
    expect(two).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('checks the GTIN and its qualifiers as an uncompressed link is checked: a bad check digit, or 235 beside 21, is no link', () => {
    // Act
    const badCheckDigit = uncompressedGtinLink([['01', '04006381333932']]);
    const tpxWithSerial = uncompressedGtinLink([['01', '04006381333931'], ['235', 'T1'], ['21', 'S1']]);
    const reordered = uncompressedGtinLink([['01', '04006381333931'], ['21', 'S1'], ['10', 'L1']]);
    // Assess
    expect(badCheckDigit).toMatchObject({ ok: false, kind: 'invalid', reason: expect.stringContaining('check digit') });
    expect(tpxWithSerial).toMatchObject({ ok: false, kind: 'invalid' });
    expect(reordered).toEqual({ ok: true, path: '/01/04006381333931/10/L1/21/S1', query: '' });
  });
});

describe('canonicalGtinPath', () => {
  it('writes a GTIN link’s qualifiers in GS1’s order with every reserved character percent-encoded', () => {
    // Prepare
    const parsed = parseGtinPath('4006381333931', ['10', "L(1)/2'*!"]);
    if (!parsed.ok) throw new Error(parsed.reason);
    // Act
    const path = canonicalGtinPath(parsed.gtin14, { ...parsed.qualifiers, '22': 'V 1', '21': 'S&1' });
    // Assess
    expect(path).toBe('/01/04006381333931/22/V%201/10/L%281%29%2F2%27%2A%21/21/S%261');
  });
});
