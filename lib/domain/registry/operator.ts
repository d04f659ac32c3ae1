import * as z from 'zod';
import { checkDigit } from '../gtin.ts';

/**
 * The responsible economic operator's identifier as the EU registry takes it (docs/registry.md#operator-identifiers):
 * an identifier with its scheme, each scheme's format and, where the scheme has one, its check
 * digits. The registry entry carries it as `{SCHEME}-{identifier}` (`reoId`, the CIRPASS-2 mock's form).
 */

/** The schemes an operator identifier may be given in (docs/registry.md#operator-identifiers). */
export const OPERATOR_SCHEMES = ['EORI', 'LEI', 'VAT', 'GLN'] as const;
export type OperatorScheme = (typeof OPERATOR_SCHEMES)[number];

export interface OperatorIdentity {
  scheme: OperatorScheme;
  /** Normalized: upper case, without spaces (a VAT number's blocks joined). */
  identifier: string;
}

/** What is wrong with an identifier, in people's words, and what to send instead. */
export interface IdentifierProblem {
  message: string;
  suggestion: string;
}

/**
 * LEI (ISO 17442): 20 characters, 18 upper-case letters or digits then two check digits, the
 * whole read as a number (A = 10 … Z = 35) leaving 1 when divided by 97 (ISO/IEC 7064 MOD 97-10).
 */
export const LEI_PATTERN = /^[A-Z0-9]{18}[0-9]{2}$/;

/**
 * EORI (Implementing Regulation (EU) 2015/2447, Annex 12-01: `an..17`): the issuing member state's
 * two letters and up to 15 letters or digits. The national part's form differs by member state and
 * has no check digit common to all, so only this shape is checked.
 */
export const EORI_PATTERN = /^[A-Z]{2}[A-Z0-9]{1,15}$/;

/** GLN (GS1 General Specifications): 13 digits, the last the GS1 mod-10 check digit over the others. */
export const GLN_PATTERN = /^\d{13}$/;

/**
 * The national part of a VAT identification number after its two-letter prefix, by member state,
 * as the Commission's VIES table of structures gives it (docs/registry.md#operator-identifiers).
 * Greece's prefix is EL, not its ISO code GR. Format only: no national check digit is verified.
 */
export const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(?:\d[A-Z0-9+*]\d{5}[A-Z]|\d{7}[A-Z]{1,2})$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The longest identifier of any scheme (a VAT number: 2 + 12; an EORI: 17; an LEI: 20). */
export const OPERATOR_IDENTIFIER_MAX_LENGTH = 20;

/** The remainder of a string of letters and digits, read as ISO/IEC 7064 reads it (A = 10 … Z = 35), divided by 97. */
export function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const code = char.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder;
}

/** The two check digits of an LEI for its first 18 characters (ISO 17442; ISO/IEC 7064 MOD 97-10). */
export const leiCheckDigits = (body: string): string => String(98 - mod97(`${body}00`)).padStart(2, '0');

/** The GS1 mod-10 check of a GLN's 13 digits. */
export const glnCheckDigitOk = (gln: string): boolean => GLN_PATTERN.test(gln) && checkDigit(gln.slice(0, -1)) === Number(gln.at(-1));

/** An identifier as people type it, in the form it is checked and stored in: upper case, no spaces (no dots or hyphens in a VAT number either). */
export function normalizeOperatorIdentifier(scheme: OperatorScheme, identifier: string): string {
  const upper = identifier.trim().toUpperCase();
  return scheme === 'VAT' ? upper.replace(/[\s.-]/g, '') : upper.replace(/\s/g, '');
}

/** What is wrong with a normalized identifier of `scheme`, or undefined when it has the scheme's form and check digits. */
export function operatorIdentifierProblem(scheme: OperatorScheme, identifier: string): IdentifierProblem | undefined {
  switch (scheme) {
    case 'LEI': {
      if (!LEI_PATTERN.test(identifier)) {
        return {
          message:
            identifier.length === 20
              ? 'identifier is not an LEI: an LEI is 18 letters or digits then two check digits, and this one has other characters.'
              : `identifier is not an LEI: an LEI has 20 characters, 18 letters or digits then two check digits; this one has ${identifier.length}.`,
          suggestion: 'Send the 20 characters of the LEI as GLEIF lists it, such as 529900T8BM49AURSDO55.',
        };
      }
      if (mod97(identifier) !== 1) {
        return {
          message: `identifier is not a valid LEI: its check digits are wrong (expected ${leiCheckDigits(identifier.slice(0, 18))} as the last two).`,
          suggestion: 'Copy the LEI again from your certificate or the GLEIF search: one character is probably mistyped.',
        };
      }
      return undefined;
    }
    case 'GLN': {
      if (!GLN_PATTERN.test(identifier)) {
        return { message: `identifier is not a GLN: a GLN has 13 digits; this one has ${identifier.length} characters.`, suggestion: 'Send the 13 digits of the GLN your GS1 member organisation gave you.' };
      }
      if (!glnCheckDigitOk(identifier)) {
        return {
          message: `identifier is not a valid GLN: the check digit is wrong (expected ${checkDigit(identifier.slice(0, -1))} as the last digit).`,
          suggestion: 'Copy the GLN again: one digit is probably mistyped.',
        };
      }
      return undefined;
    }
    case 'EORI':
      return EORI_PATTERN.test(identifier)
        ? undefined
        : {
            message: 'identifier is not an EORI number: two letters (the member state that issued it) then 1 to 15 letters or digits, 17 characters at most.',
            suggestion: 'Send the EORI number as your customs authority issued it, such as DE123456789012345.',
          };
    case 'VAT': {
      const prefix = identifier.slice(0, 2);
      if (prefix === 'GR') {
        return { message: "identifier is not a VAT number: Greece's VAT numbers start with EL, not GR.", suggestion: `Send EL${identifier.slice(2)}.` };
      }
      const national = VAT_FORMATS[prefix];
      if (!national) {
        return {
          message: `identifier is not an EU VAT number: it must start with a member state's prefix (${Object.keys(VAT_FORMATS).join(', ')}).`,
          suggestion: 'Send the VAT number with its two-letter prefix, such as DE123456789.',
        };
      }
      return national.test(identifier.slice(2))
        ? undefined
        : { message: `identifier is not a VAT number of ${prefix}: its national part does not have the form ${prefix} VAT numbers have.`, suggestion: 'Send the VAT number exactly as VIES shows it, with its prefix.' };
    }
  }
}

/**
 * An operator identity sent by a client: `{identifier, scheme}`, normalized (upper case, no spaces),
 * each scheme's form checked and its check digits where it has them (LEI, GLN). A wrong identifier is
 * a 422 naming `identifier`.
 */
export const operatorIdentitySchema = z
  .strictObject({
    identifier: z
      .string({ error: (issue) => (issue.input === undefined ? 'identifier is required.' : 'identifier must be a string.') })
      .trim()
      .min(1, { error: 'identifier must not be empty.' })
      .max(40, { error: 'identifier must be at most 40 characters.' })
      .meta({ description: "The economic operator's identifier in its scheme: an EORI number, an LEI, a VAT number with its prefix, or a GLN" }),
    scheme: z
      .enum(OPERATOR_SCHEMES, { error: `scheme must be one of: ${OPERATOR_SCHEMES.join(', ')}.` })
      .meta({ description: 'EORI, LEI (ISO 17442, check digits verified), VAT (EU VAT identification number, format per member state) or GLN (GS1, check digit verified)' }),
  })
  .transform((value, ctx): OperatorIdentity => {
    const identifier = normalizeOperatorIdentifier(value.scheme, value.identifier);
    const problem = operatorIdentifierProblem(value.scheme, identifier);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: problem.message, params: { suggestion: problem.suggestion } });
      return z.NEVER;
    }
    return { scheme: value.scheme, identifier };
  })
  .meta({ id: 'OperatorIdentity', description: "The responsible economic operator's identifier and its scheme, as the EU registry takes it (docs/registry.md#operator-identifiers)" });

/** The registry entry's `reoId`: the scheme, a hyphen, the identifier (`LEI-529900T8BM49AURSDO55`), as the CIRPASS-2 mock writes it. */
export const reoIdOf = (identity: OperatorIdentity): string => `${identity.scheme}-${identity.identifier}`;

/** The identity a `reoId` names, or undefined when it has no known scheme prefix. Not checked: see operatorIdentifierProblem. */
export function parseReoId(reoId: string): OperatorIdentity | undefined {
  const at = reoId.indexOf('-');
  const scheme = reoId.slice(0, at);
  if (at < 0 || !(OPERATOR_SCHEMES as readonly string[]).includes(scheme)) return undefined;
  return { scheme: scheme as OperatorScheme, identifier: reoId.slice(at + 1) };
}
