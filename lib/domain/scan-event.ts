import * as z from 'zod';
import { isCountryCode } from './countries.ts';
import { UUID_PATTERN } from './ids.ts';
import { storedReferrer } from './referrer.ts';
import { DEVICES, type ScanEvent } from './scan.ts';
import { ENVIRONMENTS } from './tenant.ts';
import { isUnitValue } from './unit.ts';

/** What every scan event holds. */
const base = {
  v: z.literal(1),
  orgId: z.string().regex(/^org_[0-9a-z]+$/),
  environment: z.enum(ENVIRONMENTS),
  productId: z.string().regex(UUID_PATTERN),
  gtin: z.string().regex(/^\d{14}$/),
  // A lot as GS1 writes it (AI 10): its batch's rollup is keyed by it.
  lot: z.string().refine(isUnitValue).optional(),
  at: z.iso.datetime(),
};

/** A scan with its aggregate dimensions (every category but wine: docs/privacy.md). */
const dimensioned = z.strictObject({
  ...base,
  country: z.string().refine((c) => c === 'unknown' || isCountryCode(c)),
  // A referrer that is not a valid host name counts as `other`: it never makes a poison message.
  referrer: z.string().transform(storedReferrer),
  device: z.enum(DEVICES),
});

/** A scan of a wine's e-label: a count, and nothing of the request; a dimension beside `countOnly` is a poison message. */
const countOnly = z.strictObject({ ...base, countOnly: z.literal(true) });

/** A scan event as it must arrive from the queue (or a spill item); anything else is a poison message. */
export const scanEventSchema: z.ZodType<ScanEvent, unknown> = z.union([dimensioned, countOnly]);
