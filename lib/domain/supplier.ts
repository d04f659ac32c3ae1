import * as z from 'zod';
import { plainText } from './text.ts';
import { countrySchema } from './country-schema.ts';
import { SUPPLIER_ROLES, type SupplierRole } from './passport.ts';
import { NOT_BLANK } from './product.ts';
import type { Environment } from './tenant.ts';

/** An economic operator (docs/api.md#endpoints). */
export interface SupplierRecord {
  supplierId: string;
  orgId: string;
  environment: Environment;
  name: string;
  role: SupplierRole;
  country?: string;
  vatNumber?: string;
  createdAt: string;
}

/** VAT identification numbers: a two-letter country prefix and 2 to 13 letters or digits (EU VIES shape). */
export const VAT_PATTERN = /^[A-Z]{2}[0-9A-Z]{2,13}$/;

/**
 * VAT_PATTERN as it is sent, before spaces, dots and dashes are dropped and letters upper-cased:
 * what the OpenAPI document states (it leaves out only letters that upper-case to two, such as ß).
 */
export const VAT_INPUT_PATTERN = /^[\s.-]*[A-Za-z][\s.-]*[A-Za-z][\s.-]*(?:[0-9A-Za-z][\s.-]*){2,13}$/;

export const createSupplierSchema = z.strictObject({
  name: plainText(
    z
      .string({ error: (i) => (i.input === undefined ? 'name is required.' : 'name must be a string.') })
      .trim()
      .min(1, { error: 'name must not be empty.' })
      .max(200, { error: 'name must be at most 200 characters.' })
      .regex(NOT_BLANK, { error: 'name must not be empty.' }),
    'name',
  ),
  country: countrySchema('country').optional(),
  role: z
    .enum(SUPPLIER_ROLES, { error: `role must be one of: ${SUPPLIER_ROLES.join(', ')}.` })
    .default('producer'),
  vatNumber: z
    .string({ error: 'vatNumber must be a string.' })
    .meta({
      description: 'VAT number with its two-letter country prefix, such as FR40303265045; spaces, dots and dashes are ignored, letters may be in either case',
      pattern: VAT_INPUT_PATTERN.source,
    })
    .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase())
    .refine((v) => VAT_PATTERN.test(v), {
      error: 'vatNumber must be a VAT number: a two-letter country prefix and 2 to 13 letters or digits, such as FR40303265045.',
      params: { suggestion: 'Send the VAT number with its country prefix, such as DE136695976.' },
    })
    .optional(),
});
export type CreateSupplierInput = z.infer<typeof createSupplierSchema>;

export const supplierSchema = z
  .object({
    supplierId: z.string().regex(/^sup_[0-9a-z]{20}$/),
    name: z.string(),
    role: z.enum(SUPPLIER_ROLES),
    country: z.string().nullable(),
    vatNumber: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Supplier' });
export type Supplier = z.infer<typeof supplierSchema>;

export const toSupplierView = (s: SupplierRecord): Supplier => ({
  supplierId: s.supplierId,
  name: s.name,
  role: s.role,
  country: s.country ?? null,
  vatNumber: s.vatNumber ?? null,
  createdAt: s.createdAt,
});
