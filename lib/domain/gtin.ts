/**
 * GTIN rules (GS1 General Specifications, section 7.9): 8, 12, 13 or 14 digits whose last digit is
 * the mod-10 check digit over the others. Every GTIN is stored and returned as GTIN-14 (left-padded).
 */
export type GtinResult = { ok: true; gtin14: string } | { ok: false; reason: string };

const ALLOWED_LENGTHS = new Set([8, 12, 13, 14]);

/** The GS1 check digit for the digits before it: weights 3,1,3,… from the right. */
export function checkDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export function normalizeGtin(input: string): GtinResult {
  if (!/^\d+$/.test(input)) return { ok: false, reason: 'A GTIN contains digits only.' };
  if (!ALLOWED_LENGTHS.has(input.length)) {
    return { ok: false, reason: `A GTIN has 8, 12, 13 or 14 digits; this one has ${input.length}.` };
  }
  const expected = checkDigit(input.slice(0, -1));
  if (Number(input.at(-1)) !== expected) {
    return { ok: false, reason: `The check digit is wrong: expected ${expected} as the last digit.` };
  }
  return { ok: true, gtin14: input.padStart(14, '0') };
}
