import * as z from 'zod';
import { passportDataSchema, type PassportData } from './passport.ts';

/** The product's one draft (docs/lifecycle.md#drafts): passport data being prepared, never public. */
export interface DraftRecord {
  productId: string;
  data: PassportData;
  createdAt: string;
  updatedAt: string;
}

/** `PUT …/draft`, and the document a merge patch must leave behind. */
export const draftInputSchema = z.strictObject({ data: passportDataSchema });

export const draftSchema = z
  .object({
    productId: z.uuid(),
    data: passportDataSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Draft' });
export type Draft = z.infer<typeof draftSchema>;

export const toDraftView = (draft: DraftRecord): Draft => ({ productId: draft.productId, data: draft.data, createdAt: draft.createdAt, updatedAt: draft.updatedAt });

/** The media type a merge patch must be sent as (RFC 7396 §4). */
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** `GET …/passport?at=`: an ISO 8601 instant, with `Z` or an offset. */
export const passportAtQuerySchema = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .optional(),
});
