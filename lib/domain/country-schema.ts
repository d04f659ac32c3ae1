import * as z from 'zod';
import { isCountryCode } from './countries.ts';

/** An ISO 3166-1 alpha-2 code, upper case (`FR`, `DE`). */
export const countrySchema = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .refine(isCountryCode, {
      error: `${field} must be an ISO 3166-1 alpha-2 country code in upper case, such as FR or DE.`,
      params: { suggestion: 'Send two upper-case letters, such as FR, DE, IT or ES.' },
    });
