import * as z from 'zod';
import { completeEnergy, missingDeclaration } from './nutrition.ts';
import { anyPassportDataSchema, passportDataObjectSchema, type PassportData } from './passport.ts';
import { isWine } from './wine.ts';

/** The product's one draft (docs/lifecycle.md#drafts): passport data being prepared, never public. */
export interface DraftRecord {
  productId: string;
  data: PassportData;
  createdAt: string;
  updatedAt: string;
}

/** `PUT …/draft`, and the document a merge patch must leave behind: data of the product's kind (passportDataSchemaFor). */
export const draftInputSchema = z.strictObject({ data: anyPassportDataSchema });

/** A draft's body read before its product's kind is applied: data that is an object. */
export const draftEnvelopeSchema = z.strictObject({ data: passportDataObjectSchema });

export const draftSchema = z
  .object({
    productId: z.uuid(),
    data: anyPassportDataSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    missing: z
      .array(z.string())
      .describe(
        "What publishing the draft would refuse as missing, as the 422's param would name it (e.g. data.nutrition.saturatedFatG; data.nutrition when a wine has none): a wine's nutrition declaration must be complete (Regulation (EU) No 1169/2011 Art. 30(1)); a battery passport's mandatory elements on the day publishing it without asOf would judge it, the later of today and 18 February 2027 (e.g. data.labeling.declarationOfConformity; GET …/passport/completeness?draft=true has the full report). Empty when the draft is complete",
      ),
  })
  .meta({ id: 'Draft' });
export type Draft = z.infer<typeof draftSchema>;

/**
 * What publishing the draft's data would find missing (lib/services/passports.ts checkDeclaration), as `data.…` paths.
 * `category` is the product's: a product of category wine is a wine without productType too (lib/domain/wine.ts).
 */
export const draftMissing = (data: PassportData, category?: string): string[] =>
  missingDeclaration(data.nutrition ? completeEnergy(data.nutrition, data.productType, category) : data.nutrition, isWine(category, data.productType)).map((path) => `data.${path}`);

export const toDraftView = (draft: DraftRecord, category?: string): Draft => ({
  productId: draft.productId,
  data: draft.data,
  createdAt: draft.createdAt,
  updatedAt: draft.updatedAt,
  missing: draftMissing(draft.data, category),
});

/** The media type a merge patch must be sent as (RFC 7396 §4). */
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** `GET …/passport?at=`: an ISO 8601 instant, with `Z` or an offset. */
export const passportAtQuerySchema = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'at must be an ISO 8601 instant such as 2026-11-23T10:00:00Z.' })
    .optional(),
});
