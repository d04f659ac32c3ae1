import * as z from 'zod';
import { isCountryCode } from './countries.ts';
import { UUID_PATTERN } from './ids.ts';
import { storedReferrer } from './referrer.ts';
import { DEVICES } from './scan.ts';
import { ENVIRONMENTS } from './tenant.ts';
import { isUnitValue } from './unit.ts';

/** A scan event as it must arrive from the queue; anything else is a poison message. */
export const scanEventSchema = z.strictObject({
  v: z.literal(1),
  orgId: z.string().regex(/^org_[0-9a-z]+$/),
  environment: z.enum(ENVIRONMENTS),
  productId: z.string().regex(UUID_PATTERN),
  gtin: z.string().regex(/^\d{14}$/),
  // A lot as GS1 writes it (AI 10): its batch's rollup is keyed by it.
  lot: z.string().refine(isUnitValue).optional(),
  at: z.iso.datetime(),
  country: z.string().refine((c) => c === 'unknown' || isCountryCode(c)),
  // A referrer that is not a valid host name counts as `other`: it never makes a poison message.
  referrer: z.string().transform(storedReferrer),
  device: z.enum(DEVICES),
});
