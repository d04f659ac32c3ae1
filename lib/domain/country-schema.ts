import * as z from 'zod';
import { COUNTRY_CODES, isCountryCode } from './countries.ts';

/**
 * An ISO 3166-1 alpha-2 code, upper case (`FR`, `DE`). The OpenAPI document states the rule as the
 * enum of the same codes zod checks against (lib/domain/countries.ts), so the two cannot differ.
 */
export const countrySchema = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .refine(isCountryCode, {
      error: `${field} must be an ISO 3166-1 alpha-2 country code in upper case, such as FR or DE.`,
      params: { suggestion: 'Send two upper-case letters, such as FR, DE, IT or ES.' },
    })
    .meta({ description: 'ISO 3166-1 alpha-2 country code, upper case', enum: [...COUNTRY_CODES].sort() });
