import * as z from 'zod';
import { checkDigit } from '../gtin.ts';
import { glnCheckDigitOk } from './operator.ts';

/**
 * The commodity code and the facility identifiers of a registry entry (docs/registry.md#commodity-codes-and-facilities).
 */

/**
 * A commodity code of 6, 8 or 10 digits: the Harmonized System's subheading (6), the Combined
 * Nomenclature's code (8, Council Regulation (EEC) No 2658/87) or the TARIC code (10), which
 * Regulation (EU) 2024/1781 Annex III point 1(d) names. The CIRPASS-2 mock takes 4 to 10 digits;
 * a 4-digit HS heading, a 7- or 9-digit code name no level of these nomenclatures.
 */
export const REGISTRY_COMMODITY_CODE_PATTERN = /^(?:\d{6}|\d{8}|\d{10})$/;

/** What is wrong with a commodity code, in people's words, or undefined. */
export function commodityCodeProblem(code: string): string | undefined {
  if (REGISTRY_COMMODITY_CODE_PATTERN.test(code)) return undefined;
  if (code === '') return 'commodityCode is missing: the registry stores the commodity code of a product released for free circulation.';
  if (!/^\d+$/.test(code)) return 'commodityCode must be digits only, without dots or spaces (8517 62 00 is 85176200).';
  return `commodityCode must have 6 (HS), 8 (CN) or 10 (TARIC) digits; this one has ${code.length}.`;
}

export const registryCommodityCodeSchema = z
  .string({ error: 'commodityCode must be a string.' })
  .trim()
  .transform((value, ctx) => {
    const compact = value.replace(/[\s.]/g, '');
    const problem = commodityCodeProblem(compact);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem, params: { suggestion: 'Send the CN code (8 digits) of the product, or its TARIC code (10 digits).' } });
      return z.NEVER;
    }
    return compact;
  })
  .meta({ description: 'The commodity code: 6 (HS), 8 (CN) or 10 (TARIC) digits', pattern: REGISTRY_COMMODITY_CODE_PATTERN.source });

/** A facility identifier in a registry entry: `GLN-` and the 13 digits of a GLN with its check digit. */
export const FACILITY_ID_PATTERN = /^GLN-\d{13}$/;

/** The entry's form of a facility's GLN (`GLN-4006381000016`); one already in that form is kept. */
export const facilityIdOf = (gln: string): string => {
  const trimmed = gln.trim();
  return /^GLN-/i.test(trimmed) ? `GLN-${trimmed.slice(4)}` : `GLN-${trimmed}`;
};

/** What is wrong with a facility identifier (`GLN-` + 13 digits, GS1 mod-10), or undefined. */
export function facilityIdProblem(facilityId: string): string | undefined {
  if (!FACILITY_ID_PATTERN.test(facilityId)) return `${facilityId.slice(0, 40)} is not a facility GLN: GLN- and the 13 digits of the facility's GLN.`;
  const gln = facilityId.slice(4);
  return glnCheckDigitOk(gln) ? undefined : `${facilityId} is not a valid GLN: the check digit is wrong (expected ${checkDigit(gln.slice(0, -1))} as the last digit).`;
}

/** Facility GLNs sent by a client: 1 to 20 GLNs of 13 digits with their check digits, each stored as `GLN-…`, none twice. */
export const facilityGlnsSchema = z
  .array(
    z
      .string({ error: 'Each facility must be a GLN as a string.' })
      .trim()
      .transform((value, ctx) => {
        const id = facilityIdOf(value);
        const problem = facilityIdProblem(id);
        if (problem) {
          ctx.addIssue({ code: 'custom', message: problem, params: { suggestion: 'Send the 13 digits of the GLN of the site where the product is made or assembled.' } });
          return z.NEVER;
        }
        return id;
      }),
    { error: 'facilities must be a list of GLNs.' },
  )
  .min(1, { error: 'facilities must hold at least one GLN.' })
  .max(20, { error: 'facilities may hold at most 20 GLNs.' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'facilities names a GLN twice.' })
  .meta({ description: "The facilities' GLNs (13 digits, GS1 check digit), each sent to the registry as GLN-{gln}" });
